"""The solo table's form names the passage it was drawn at; a page the story has left (the back button,
a second tab) cannot play its choice at the passage reached since: it is refused in place, in the
reader's language, and the story does not move."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app

from .helpers import text_of
from .solo_play import RollByRoll, form_key, start, table

MOVED = {
    "en": "The story has moved on since this page was shown",
    "fr": "L’histoire a avancé depuis l’affichage de cette page",
    "es": "La historia ha avanzado desde que se mostró esta página",
}


@pytest.fixture
def solo(fresh_sqlite):
    dice = RollByRoll()
    with TestClient(create_app(fresh_sqlite, migrate=False, dice=lambda: dice)) as client:
        yield client


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_stale_page_does_not_play_its_choice_at_the_passage_reached_since(solo, lang):
    where = start(solo, lang)
    first = table(solo, where)
    assert first.passage == "quay"
    pressed = solo.post(
        f"{where}/act",
        data={"option": "choice:0", "passage": "quay", "idempotency_key": form_key(first.html)},
        follow_redirects=False,
    )
    assert pressed.status_code == 303
    moved_on = table(solo, where).passage
    assert moved_on != "quay"
    stale = solo.post(
        f"{where}/act",
        data={"option": "choice:0", "passage": "quay", "idempotency_key": form_key(table(solo, where).html)},
        follow_redirects=False,
    )
    assert 400 <= stale.status_code < 500 and MOVED[lang] in text_of(stale.text)
    assert table(solo, where).passage == moved_on
