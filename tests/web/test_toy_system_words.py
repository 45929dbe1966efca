"""The toy system (``tests/toy_system``, registered from outside the package) labels its pool's
``extra`` field with a msgid of the shipped catalogues (its title, "Dice modifier"): the player's roll
form on the toy sheet shows it in the reader's language, with no catalogue of the toy's own (the web
pages, no browser)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.toy_system import registered


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def _extra_label(html: str) -> str:
    """The label of the ``extra`` field of the sheet's roll form (``<form id="roll">``)."""
    form = re.search(r'<form id="roll"[\s>].*?</form>', html, re.S)
    assert form, "no roll form on the sheet"
    field = re.search(
        r'<label for="([\w-]+)">([^<]*)</label>\s*<input[^>]*\bid="\1"[^>]*name="extra"', form[0]
    )
    assert field, "no labelled extra field in the roll form"
    return field[2]


@pytest.mark.parametrize(
    "lang,words", [("fr", "Modificateur de dés"), ("es", "Modificador de dados"), ("en", "Dice modifier")]
)
def test_the_toy_roll_form_labels_its_extra_dice_in_the_reader_s_language(app, toy, lang, words):
    with (
        TestClient(app) as storyteller,
        TestClient(app, headers={"Accept-Language": lang}) as player,
    ):
        created = storyteller.post(
            "/chronicles", data={"name": "Toys", "system": toy, "storyteller": "Ana"}, follow_redirects=False
        )
        assert created.status_code == 303, created.text
        chronicle = created.headers["location"]
        invitation = storyteller.cookies.get("rollbook_invitation")
        joined = player.post(
            "/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False
        )
        assert joined.status_code == 303
        added = player.post(
            f"{chronicle}/characters", data={"s.name": "Ann", "s.traits.might": "3"}, follow_redirects=False
        )
        assert added.status_code == 303, added.text
        page = player.get(added.headers["location"])
        assert page.status_code == 200 and f'<html lang="{lang}"' in page.text
        assert _extra_label(page.text) == words
        if lang != "en":
            assert "Dice modifier" not in page.text
