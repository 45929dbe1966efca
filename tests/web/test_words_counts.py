"""TR-4: an extended action's roll counts its successes so the noun agrees with the number, in fr, es
and en alike ("1 success of 5", "2 successes of 5"; never "1 of 5 success")."""

from __future__ import annotations

import pytest

from rollbook.present.contests import roll_note


@pytest.mark.parametrize(
    ("lang", "total", "expected"),
    [
        ("en", 1, "Extended action #4, roll 2: 1 success of 5"),
        ("en", 2, "Extended action #4, roll 2: 2 successes of 5"),
        ("fr", 1, "Action prolongée #4, jet 2\u202f: 1 réussite sur 5"),
        ("fr", 2, "Action prolongée #4, jet 2\u202f: 2 réussites sur 5"),
        ("es", 1, "Acción extendida #4, tirada 2: 1 éxito de 5"),
        ("es", 2, "Acción extendida #4, tirada 2: 2 éxitos de 5"),
    ],
)
def test_TR_4_an_extended_roll_counts_its_successes_in_agreement(lang, total, expected):
    receipt = {"extended": {"of": 4, "roll": 2, "total": total, "target": 5, "status": "going"}}
    notes = roll_note(receipt, lang)
    assert notes[0].split(" · ")[0] == expected
