"""A member's chosen language (``?lang=``, kept in a cookie) or, without one, the
browser's ``Accept-Language`` wins on their own screen over the chronicle's language; the chronicle's
language is only the fallback of a browser that names none of en, fr, es."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def _lang(html: str) -> str:
    return re.search(r'<html lang="([a-z]+)"', html).group(1)


def _chronicle(app, language: str | None):
    storyteller = TestClient(app)
    data = {"name": "Lyon", "system": "v20", "storyteller": "Ana"}
    if language:
        data["language"] = language
    created = storyteller.post("/chronicles", data=data, follow_redirects=False)
    assert created.status_code == 303, created.text
    return storyteller, created.headers["location"], storyteller.cookies.get("rollbook_invitation")


def _player(app, invitation: str, accept: str | None) -> TestClient:
    player = TestClient(app, headers={"Accept-Language": accept} if accept else {})
    assert (
        player.post(
            "/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False
        ).status_code
        == 303
    )
    return player


def test_the_browser_language_wins_over_the_chronicles(app):
    storyteller, chronicle, invitation = _chronicle(app, "en")
    french_phone = _player(app, invitation, "fr-FR,fr;q=0.9,en;q=0.5")
    assert _lang(french_phone.get(chronicle).text) == "fr"
    assert _lang(storyteller.get(chronicle).text) == "en"  # no Accept-Language: the chronicle's language


def test_a_chronicle_without_a_language_does_not_beat_accept_language(app):
    _storyteller, chronicle, invitation = _chronicle(app, None)
    spanish = _player(app, invitation, "es-ES,es;q=0.9")
    assert _lang(spanish.get(chronicle).text) == "es"


def test_the_members_chosen_language_wins_over_browser_and_chronicle(app):
    _storyteller, chronicle, invitation = _chronicle(app, "fr")
    player = _player(app, invitation, "es-ES,es;q=0.9")
    assert _lang(player.get(chronicle).text) == "es"  # the browser's, not the chronicle's French
    assert _lang(player.get(chronicle, params={"lang": "en"}).text) == "en"
    assert _lang(player.get(chronicle).text) == "en"  # the choice is kept (cookie) on their own screen


def test_a_browser_naming_no_known_language_gets_the_chronicles(app):
    _storyteller, chronicle, invitation = _chronicle(app, "fr")
    player = _player(app, invitation, "de-DE,de;q=0.9")
    assert _lang(player.get(chronicle).text) == "fr"
