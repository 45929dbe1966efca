"""Every receipt renders on every page, on both stores: every action kind of every system
(enumerated from the play layer's own registry, ``ACTIONS``: a new kind without a sample fails here),
each rolled a few times for its outcomes, the combat chains (V20-17, T-4, T-5) through ``follows``, the
V5 Willpower reroll, every change example, asks (granted, refused), hidden rolls (redacted for the
player) and a reveal; then the chronicle, sheet and entry pages through the real server, in en, fr and
es, as the Storyteller and as a player: never an error. One server per store, many receipts."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.play import SYSTEM_IDS, system_module

from .receipts import Chronicles, Dice, ok, play_everything

LANGS = ("en", "fr", "es")


def render_everything(client, group: Chronicles) -> tuple[int, set[str]]:
    """Every page as both roles in every language; (pages rendered, the exchange markup seen)."""
    pages, seen = 0, set()
    for t, player in group.tables:
        web = f"/chronicles/{t.id}"
        characters = ok(client.get(f"{t.base}/characters", headers=t.st), 200)
        characters = characters if isinstance(characters, list) else characters["characters"]
        theirs = [c for c in characters if c["owner"] is not None][:1]
        entries = t.log(t.st, limit=200)["entries"]
        for viewer, headers in (("storyteller", t.st), ("player", player)):
            for lang in LANGS:
                page = client.get(f"{web}?lang={lang}", headers=headers)
                assert page.status_code == 200, (viewer, lang, page.text[-2000:])
                seen |= {mark for mark in ('class="steps"', 'class="follow ') if mark in page.text}
                for character in theirs + ([characters[-1]] if viewer == "storyteller" else []):
                    page = client.get(f"{web}/characters/{character['id']}?lang={lang}", headers=headers)
                    assert page.status_code == 200, (viewer, lang, page.text[-2000:])
                pages += 1 + len(theirs)
            for entry in entries:  # each entry page in one of the languages, in turn
                lang = LANGS[entry["seq"] % len(LANGS)]
                page = client.get(f"{web}/entries/{entry['seq']}?lang={lang}", headers=headers)
                assert page.status_code == 200, (viewer, lang, entry["seq"], page.text[-2000:])
                pages += 1
    return pages, seen


@pytest.fixture(scope="module")
def served(database_url):
    dice = Dice()
    with TestClient(create_app(database_url, dice=dice), raise_server_exceptions=True) as client:
        yield client, dice


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_every_receipt_renders_on_every_page_in_every_language_for_every_role(served, system):
    client, dice = served
    group = play_everything(client, dice, system)
    assert dice.faces == []
    kinds = {
        e["receipt"]["kind"]
        for t, _ in group.tables
        for e in t.log(t.st, limit=200)["entries"]
        if e["kind"] == "roll"
    }
    assert set(system_module(system).ACTIONS) <= kinds
    pages, seen = render_everything(client, group)
    assert pages > 0
    if module_chains(system):  # an exchange shows as one card with its steps, the next one offered
        assert seen == {'class="steps"', 'class="follow '}


def module_chains(system: str) -> dict:
    return system_module(system).CHAINS
