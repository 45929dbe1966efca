"""Names on entries — a grant or a refusal is headed with the Storyteller's name (not
the character's), and a seed commit with the Storyteller's dice (F-1), not the first player who rolled."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true"}
TEST = {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": "6"}


def _heads(html: str) -> dict[str, list[str]]:
    heads: dict[str, list[str]] = {}
    for chunk in html.split('<li id="entry-')[1:]:
        kind = re.search(r'class="card kind-(\w+)', chunk)
        who = re.search(r'<span class="who">((?:[^<]|<span class="muted">[^<]*</span>)*)</span>', chunk)
        if kind and who:
            heads.setdefault(kind.group(1), []).append(
                re.sub(r"\s+", " ", re.sub("<[^>]+>", " ", who.group(1))).strip()
            )
    return heads


def test_decisions_headed_with_the_storyteller_seed_commits_with_the_table(app):
    storyteller = TestClient(app)
    chronicle = storyteller.post(
        "/chronicles", data={"name": "Lyon", "system": "v20", "storyteller": "Ana"}, follow_redirects=False
    ).headers["location"]
    invitation = storyteller.cookies.get("rollbook_invitation")
    storyteller.post(
        f"{chronicle}/characters",
        data={"s.name": "Zed", "s.attributes.dexterity": "2"},
        follow_redirects=False,
    )
    player = TestClient(app)
    player.post("/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False)
    sheet = player.post(
        f"{chronicle}/characters",
        data={"s.name": "Lucita", "s.attributes.dexterity": "3", "s.skills.firearms": "2"},
        follow_redirects=False,
    ).headers["location"]
    player.post(f"{sheet}/rolls", data={**TEST, "modifier": "2"}, headers=HTMX)
    assert (
        storyteller.post(
            f"{chronicle}/asks/1/grant", data={"changed": "on", "modifier": "1"}, headers=HTMX
        ).status_code
        == 200
    )
    player.post(f"{sheet}/rolls", data={**TEST, "modifier": "3"}, headers=HTMX)
    assert storyteller.post(f"{chronicle}/asks/2/refuse", headers=HTMX).status_code == 200
    for reader in (storyteller, player):
        heads = _heads(reader.get(chronicle).text)
        assert heads["grant"] == ["Ana (Storyteller)"], heads
        assert heads["refusal"] == ["Ana (Storyteller)"], heads
        assert heads["ask"] == ["Lucita", "Lucita"]
        assert all("Bruno" not in head for head in heads["seed_commit"]) and heads["seed_commit"], heads


def test_a_players_own_hidden_roll_is_not_the_storytellers(app):
    storyteller = TestClient(app)
    chronicle = storyteller.post(
        "/chronicles", data={"name": "Lyon", "system": "v20", "storyteller": "Ana"}, follow_redirects=False
    ).headers["location"]
    invitation = storyteller.cookies.get("rollbook_invitation")
    player = TestClient(app)
    player.post("/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False)
    sheet = player.post(
        f"{chronicle}/characters",
        data={"s.name": "Lucita", "s.attributes.dexterity": "3", "s.skills.firearms": "2"},
        follow_redirects=False,
    ).headers["location"]
    player.post(f"{sheet}/rolls", data={**TEST, "hidden": "on"}, headers=HTMX)  # a hidden roll is asked
    assert storyteller.post(f"{chronicle}/asks/1/grant", headers=HTMX).status_code == 200
    for lang, words in (("en", "A hidden roll"), ("fr", "Un jet secret"), ("es", "Una tirada secreta")):
        page = player.get(chronicle, params={"lang": lang}).text
        roll = next(chunk for chunk in page.split('<li id="entry-')[1:] if "kind-roll" in chunk.split(">")[0])
        assert words in roll
        title = roll.split("</h3>")[0] if "</h3>" in roll else roll.split('<p class="muted">')[0]
        assert "Storyteller" not in title and "Conteur" not in title and "Narrador" not in title
