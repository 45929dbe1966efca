"""The table's authority on the pages, without a browser (SPEC A-1 … A-4): a player's roll form that
asks for more becomes an ask; the Storyteller's queue grants it (as asked or changed) or refuses it;
the scene and turn bar; standing grants; the sheet's per-turn limits; the multiple-action offers;
the games' own words in fr and es."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true"}


def _table(app, system: str, sheet: dict[str, str]):
    storyteller = TestClient(app)
    created = storyteller.post(
        "/chronicles", data={"name": "Lyon", "system": system, "storyteller": "Ana"}, follow_redirects=False
    )
    assert created.status_code == 303
    chronicle = created.headers["location"]
    invitation = storyteller.cookies.get("rollbook_invitation")
    player = TestClient(app)
    assert (
        player.post(
            "/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False
        ).status_code
        == 303
    )
    added = player.post(f"{chronicle}/characters", data=sheet, follow_redirects=False)
    assert added.status_code == 303, added.text
    return storyteller, player, chronicle, added.headers["location"]


@pytest.fixture
def v20(app):
    clients = _table(
        app,
        "v20",
        {"s.name": "Lucita", "s.attributes.dexterity": "3", "s.skills.firearms": "2", "s.generation": "8"},
    )
    yield clients
    for client in clients[:2]:
        client.close()


def words(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


TEST = {"kind": "test", "attribute": "dexterity", "ability": "firearms"}


def test_A1_the_roll_form_says_ask_the_storyteller_when_it_asks_for_more(v20):
    _storyteller, player, _chronicle, sheet = v20
    plain = player.get(f"{sheet}/odds", params={**TEST, "modifier": "0"}, headers=HTMX).text
    assert 'id="roll-submit-label"' in plain and ">Roll</span>" in plain and "asks the" not in plain
    assert 'id="roll-submit"' not in plain  # the label is redrawn, never the button (a click must survive it)
    asking = player.get(f"{sheet}/odds", params={**TEST, "modifier": "2"}, headers=HTMX).text
    assert ">Ask the Storyteller</span>" in asking and 'hx-swap-oob="true"' in asking
    text = words(asking)
    assert "This roll asks the Storyteller for: +2 dice." in text
    assert "As asked: Chance of success: " in text and "Without the ask: Chance of success: " in text
    assert "Dexterity 3 + Firearms 2 + modifier +2 = 7 dice" in text


def test_A1_a_player_asks_the_storyteller_grants_changed_and_the_roll_is_made(v20):
    storyteller, player, chronicle, sheet = v20
    asked = player.post(f"{sheet}/rolls", data={**TEST, "modifier": "2"}, headers=HTMX)
    assert asked.status_code == 200
    assert asked.text.lstrip().startswith('<li id="entry-1" class="card kind-ask"')
    assert "Asks the Storyteller: Dexterity + Firearms" in words(asked.text) and "+2 dice" in words(
        asked.text
    )
    assert 'id="asks" class="panel asks"' in asked.text  # the player's own asks, out of band
    queue = storyteller.get(chronicle).text
    assert 'id="ask-1"' in queue and "Asks for +2 dice" in words(queue)
    assert "As asked: Chance of success:" in words(queue)
    # The player's page lists the ask as waiting, with a way to take it back.
    assert "Waiting for the Storyteller." in words(player.get(chronicle).text)
    granted = storyteller.post(
        f"{chronicle}/asks/1/grant", data={"changed": "on", "modifier": "1"}, headers=HTMX
    )
    assert granted.status_code == 200, granted.text
    cards = re.findall(r'<li id="entry-(\d+)" class="card kind-(\w+)', granted.text)
    assert cards == [
        ("4", "roll"),
        ("2", "grant"),
    ]  # newest first (3: the seed committed before the roll, F-1)
    text = words(granted.text)
    assert "Granted, changed, by the Storyteller (ask #1)" in text and "+1 die (asked: +2 dice)" in text
    assert "Dexterity 3 + Firearms 2 + modifier +1 = 6 dice" in text
    assert "Granted by the Storyteller in #2." in text
    assert "Nothing waits for you." in text  # the queue again, out of band
    again = storyteller.post(f"{chronicle}/asks/1/grant", headers=HTMX)
    assert again.status_code == 409 and again.headers["HX-Retarget"] == "#ask-1-alert"
    # The player sees the roll too (the page re-renders from the log).
    assert "Granted by the Storyteller in #2." in words(player.get(sheet).text)


def test_A1_refusal_and_withdrawal_from_the_pages(v20):
    storyteller, player, chronicle, sheet = v20
    player.post(f"{sheet}/rolls", data={**TEST, "difficulty": "4"}, headers=HTMX)
    refused = storyteller.post(f"{chronicle}/asks/1/refuse", headers=HTMX)
    assert refused.status_code == 200 and "Refused by the Storyteller (ask #1)" in words(refused.text)
    player.post(f"{sheet}/rolls", data={**TEST, "hidden": "on"}, headers=HTMX)
    assert player.post(f"{chronicle}/asks/2/withdraw", headers=HTMX).status_code == 200
    denied = player.post(f"{chronicle}/asks/2/grant", headers=HTMX)
    assert denied.status_code == 403
    log = words(storyteller.get(chronicle).text)
    assert "Ask #3 withdrawn" in log and "a hidden roll" in log  # #3: the ask's entry in the log


def test_A3_the_scene_bar_turns_and_the_sheet_states_the_limits_per_turn(v20):
    storyteller, player, chronicle, sheet = v20
    assert "No scene is open" in words(player.get(chronicle).text)
    assert 'action="/chronicles/1/scenes"' not in player.get(chronicle).text
    bar = storyteller.post(f"{chronicle}/scenes", data={"name": "The docks"}, headers=HTMX)
    assert bar.status_code == 200 and "Scene 1 · The docks · turns not started" in words(bar.text)
    bar = storyteller.post(f"{chronicle}/scene/turns", headers=HTMX)
    assert "Turn 1" in words(bar.text) and "Next turn" in words(bar.text)
    page = words(player.get(sheet).text)
    assert (
        "Blood per turn: 3" in page
        and "Willpower: one automatic success per turn (the table's limit)" in page
    )
    assert "Scene 1 · The docks · Turn 1" in page
    for amount, status in (("2", 200), ("1", 200), ("1", 409)):
        spent = player.post(
            f"{sheet}/adjustments", data={"change": "spend_blood", "amount": amount}, headers=HTMX
        )
        assert spent.status_code == status, spent.text
    assert "3 blood already spent this turn" in words(spent.text)
    closed = storyteller.post(f"{chronicle}/scene/close", headers=HTMX)
    assert "No scene is open" in words(closed.text)


def test_A1_standing_grants_from_the_storytellers_page(v20):
    storyteller, player, chronicle, sheet = v20
    made = storyteller.post(
        f"{chronicle}/standing",
        data={"character": "1", "edge": "modifier", "value": "+1"},
        follow_redirects=False,
    )
    assert made.status_code == 303
    page = words(storyteller.get(chronicle).text)
    assert "Lucita: +1 die" in page
    odds = player.get(f"{sheet}/odds", params={**TEST, "modifier": "1"}, headers=HTMX).text
    assert ">Roll</span>" in odds  # what stands is not asked again
    assert 'id="roll-modifier"' in player.get(sheet).text
    assert re.search(r'id="roll-modifier"[^>]*value="1"', player.get(sheet).text)
    bad = storyteller.post(f"{chronicle}/standing", data={"edge": "advantage", "value": "yes"})
    assert bad.status_code == 422 and "is not something the Storyteller grants here" in words(bad.text)
    assert storyteller.post(f"{chronicle}/standing/1/end", follow_redirects=False).status_code == 303
    assert "None: players ask for each edge." in words(storyteller.get(chronicle).text)


def test_A4_declared_actions_offer_the_split_pool_on_the_roll_form(v20):
    storyteller, player, chronicle, sheet = v20
    storyteller.post(f"{chronicle}/scenes", data={}, headers=HTMX)
    storyteller.post(f"{chronicle}/scene/turns", headers=HTMX)
    assert (
        storyteller.post(f"{sheet}/actions", data={"actions": "2"}, follow_redirects=False).status_code == 303
    )
    odds = player.get(f"{sheet}/odds", params=TEST, headers=HTMX).text
    text = words(odds)
    assert "Action 1 of 2: difficulty 7, 3 dice" in text and "Action 2 of 2: difficulty 7, 2 dice" in text
    chosen = player.get(f"{sheet}/odds", params={**TEST, "offer": "2"}, headers=HTMX).text
    assert ">Ask the Storyteller</span>" in chosen and "difficulty 7, −3 dice" in words(chosen)
    asked = player.post(f"{sheet}/rolls", data={**TEST, "offer": "2"}, headers=HTMX)
    assert "difficulty 7, −3 dice" in words(asked.text)


@pytest.mark.parametrize(
    "system, sheet, lang, words_expected",
    [
        (
            "v20",
            {"s.name": "Lucita", "s.attributes.dexterity": "3"},
            "fr",
            ("Demander au Conteur", "Seul le Conteur"),
        ),
        (
            "v20",
            {"s.name": "Lucita", "s.attributes.dexterity": "3"},
            "es",
            ("Pedir al Narrador", "Solo el Narrador"),
        ),
        (
            "rollunder",
            {"s.name": "Ayla", "new.skills.name.0": "Climb", "new.skills.value.0": "12"},
            "fr",
            ("Demander au MJ", "avantage"),
        ),
        (
            "rollunder",
            {"s.name": "Ayla", "new.skills.name.0": "Climb", "new.skills.value.0": "12"},
            "es",
            ("Pedir al DJ", "ventaja"),
        ),
    ],
)
def test_the_games_own_words(app, system, sheet, lang, words_expected):
    storyteller, player, _chronicle, sheet_url = _table(app, system, sheet)
    if system == "v20":
        params = {**TEST, "ability": "", "modifier": "2", "lang": lang}
    else:
        params = {"kind": "check", "action": "grimper", "skill": "climb", "advantage": "on", "lang": lang}
    odds = words(player.get(f"{sheet_url}/odds", params=params, headers=HTMX).text)
    button, other = words_expected
    assert button in odds, odds
    if system == "v20":
        refused = player.post(
            f"/api/chronicles/1/characters/1/rolls?lang={lang}",
            json={"action": {"kind": "test", "attribute": "dexterity", "modifier": 2}},
        )
        assert other in refused.json()["detail"]
    else:
        assert other in odds
