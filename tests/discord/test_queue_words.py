"""A-1: the Storyteller's queue counts its asks in each language's plural forms: one ask shown is "la
plus ancienne", never "les 1 plus anciennes"."""

from __future__ import annotations

import pytest

from rollbook.discord.handlers import queue_text


@pytest.mark.parametrize(
    ("lang", "shown", "count", "expected"),
    [
        ("fr", 1, 1, "Demandes en attente\u202f: 1 (la plus ancienne ici)."),
        ("fr", 5, 7, "Demandes en attente\u202f: 7 (les 5 plus anciennes ici)."),
        ("es", 1, 1, "Peticiones en espera: 1 (la más antigua aquí)."),
        ("es", 2, 2, "Peticiones en espera: 2 (las 2 más antiguas aquí)."),
        ("en", 1, 1, "Asks waiting: 1 (the oldest here)."),
        ("en", 5, 9, "Asks waiting: 9 (the oldest 5 here)."),
    ],
)
def test_A_1_the_queue_counts_the_asks_shown_in_plural_forms(lang, shown, count, expected):
    assert queue_text(lang, shown, count) == expected
