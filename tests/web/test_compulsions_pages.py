"""V5 compulsions on the pages without a browser (seed 001, V5-14; ``web.v5table``), a French table:
the Storyteller's one tap on a bestial failure's card calls the clan's compulsion, its card and its
badge show on the table and the sheet, the odds and the roll carry its penalty, the Storyteller ends it
from the sheet; a player sees no call button."""

from __future__ import annotations

import re

from .helpers import text_of

GANGREL = {"clan": "Gangrel", "attributes": {"dexterity": 3, "manipulation": 3},
           "skills": {"firearms": 3, "persuasion": 2}, "hunger": 1}


def card(html: str, kind: str) -> str:
    found = re.search(rf'<li id="entry-\d+" class="card kind-{kind}[ "].*?</li>', html, re.S)
    assert found, f"no {kind} card"
    return found.group(0)


def test_seed_001_a_compulsion_called_from_the_card_shown_applied_and_ended(given_client, given_dice):
    created = given_client.post("/api/chronicles", json={"name": "Chicago", "system": "v5", "language": "fr"}).json()
    st = {"Authorization": f"Bearer {created['token']}"}
    cid = created["chronicle"]["id"]
    joined = given_client.post("/api/join", json={"invitation": created["invitation"], "name": "Alice"}).json()
    alice = {"Authorization": f"Bearer {joined['token']}"}
    rook = given_client.post(f"/api/chronicles/{cid}/characters", headers=alice,
                             json={"name": "Rook", "sheet": GANGREL}).json()["id"]
    given_dice.faces = [2, 2, 2, 2, 2, 1]  # a bestial failure (V5-6)
    rolled = given_client.post(f"/api/chronicles/{cid}/characters/{rook}/rolls", headers=alice,
                               json={"action": {"kind": "test", "attribute": "dexterity", "skill": "firearms"}})
    seq = rolled.json()["entry"]["seq"]

    assert "Appeler la compulsion" not in text_of(card(given_client.get(f"/chronicles/{cid}", headers=alice).text,
                                                       "roll"))
    tap = card(given_client.get(f"/chronicles/{cid}", headers=st).text, "roll")
    assert f'action="/chronicles/{cid}/characters/{rook}/compulsion/call?roll={seq}"' in tap
    assert "Appeler la compulsion" in text_of(tap)
    assert given_client.post(f"/chronicles/{cid}/characters/{rook}/compulsion/call?roll={seq}", headers=alice,
                             follow_redirects=False).status_code == 403
    called = given_client.post(f"/chronicles/{cid}/characters/{rook}/compulsion/call?roll={seq}", headers=st,
                               follow_redirects=False)
    assert called.status_code == 303, called.text

    table = given_client.get(f"/chronicles/{cid}", headers=alice).text
    assert "Compulsion pour Rook : Pulsions sauvages" in text_of(card(table, "compulsion"))
    assert "−3 dés aux réserves avec Manipulation, Intelligence" in text_of(card(table, "compulsion"))
    assert "Compulsion : Pulsions sauvages" in text_of(table)  # the badge beside Rook on the table
    sheet = text_of(given_client.get(f"/chronicles/{cid}/characters/{rook}", headers=alice).text)
    assert "Compulsion : Pulsions sauvages" in sheet and "Mettre fin à la compulsion" not in sheet

    odds = given_client.get(f"/chronicles/{cid}/characters/{rook}/odds", headers=alice,
                            params={"kind": "test", "attribute": "manipulation", "skill": "persuasion",
                                    "difficulty": "1"}).text
    assert "Persuasion 2 + compulsion -3 = 2 dés" in text_of(odds)
    given_dice.faces = [7, 3]
    persuaded = given_client.post(f"/api/chronicles/{cid}/characters/{rook}/rolls", headers=alice,
                                  json={"action": {"kind": "test", "attribute": "manipulation", "skill": "persuasion"}})
    assert persuaded.json()["entry"]["receipt"]["pool"]["total"] == 2
    assert "Persuasion 2 + compulsion -3 = 2 dés" in text_of(card(given_client.get(f"/chronicles/{cid}", headers=alice).text, "roll"))

    sheet = given_client.get(f"/chronicles/{cid}/characters/{rook}", headers=st).text
    assert "Mettre fin à la compulsion" in text_of(sheet)
    ended = given_client.post(f"/chronicles/{cid}/characters/{rook}/compulsion/end", headers=st,
                              data={"back": "sheet"}, follow_redirects=False)
    assert ended.status_code == 303 and ended.headers["location"].endswith("#compulsion")
    table = given_client.get(f"/chronicles/{cid}", headers=alice).text
    assert "Fin de la compulsion de Rook : Pulsions sauvages" in text_of(card(table, "compulsion_end"))
    assert "Compulsion : Pulsions sauvages" not in text_of(table)
    sheet = text_of(given_client.get(f"/chronicles/{cid}/characters/{rook}", headers=st).text)
    assert "Appeler la compulsion" in sheet and "Quelle compulsion" in sheet  # the call form, for the next time


def test_seed_001_a_refused_call_shows_on_the_sheet(given_client):
    created = given_client.post("/api/chronicles", json={"name": "Chicago", "system": "v5", "language": "fr"}).json()
    st = {"Authorization": f"Bearer {created['token']}"}
    cid = created["chronicle"]["id"]
    rook = given_client.post(f"/api/chronicles/{cid}/characters", headers=st,
                             json={"name": "Rook", "sheet": {**GANGREL, "clan": "Caitiff"}}).json()["id"]
    refused = given_client.post(f"/chronicles/{cid}/characters/{rook}/compulsion/call", headers=st,
                                data={"back": "sheet", "compulsion": "", "until": "ended"})
    assert refused.status_code == 422
    assert "Le clan Caitiff n'a pas de compulsion propre" in text_of(refused.text)
