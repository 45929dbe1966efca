"""V5 compulsions on the pages without a browser (seed 001, V5-14; ``systems.v5.present``), a French table:
the Storyteller's one tap on a bestial failure's card calls the clan's compulsion, its card and its
badge show on the table and the sheet, the odds and the roll carry its penalty, the Storyteller ends it
from the sheet; a player sees no call button."""

from __future__ import annotations

import re

from .helpers import api_table, card, text_of

GANGREL = {
    "clan": "Gangrel",
    "attributes": {"dexterity": 3, "manipulation": 3},
    "skills": {"firearms": 3, "persuasion": 2},
    "hunger": 1,
}


def test_seed_001_a_compulsion_called_from_the_card_shown_applied_and_ended(given_client, given_dice):
    cid, st, alice = api_table(given_client, "v5")
    rook = given_client.post(
        f"/api/chronicles/{cid}/characters", headers=alice, json={"name": "Rook", "sheet": GANGREL}
    ).json()["id"]
    given_dice.faces = [2, 2, 2, 2, 2, 1]  # a bestial failure (V5-6)
    rolled = given_client.post(
        f"/api/chronicles/{cid}/characters/{rook}/rolls",
        headers=alice,
        json={"action": {"kind": "test", "attribute": "dexterity", "skill": "firearms"}},
    )
    seq = rolled.json()["entry"]["seq"]

    assert "Appeler la compulsion" not in text_of(
        card(given_client.get(f"/chronicles/{cid}", headers=alice).text, "roll")
    )
    tap = card(given_client.get(f"/chronicles/{cid}", headers=st).text, "roll")
    assert f'action="/chronicles/{cid}/characters/{rook}/compulsion/call?roll={seq}"' in tap
    assert "Appeler la compulsion" in text_of(tap)
    assert (
        given_client.post(
            f"/chronicles/{cid}/characters/{rook}/compulsion/call?roll={seq}",
            headers=alice,
            follow_redirects=False,
        ).status_code
        == 403
    )
    called = given_client.post(
        f"/chronicles/{cid}/characters/{rook}/compulsion/call?roll={seq}", headers=st, follow_redirects=False
    )
    assert called.status_code == 303, called.text

    table = given_client.get(f"/chronicles/{cid}", headers=alice).text
    assert "Compulsion pour Rook : Pulsions sauvages" in text_of(card(table, "compulsion"))
    assert "−3 dés aux réserves avec Manipulation, Intelligence" in text_of(card(table, "compulsion"))
    assert "Compulsion : Pulsions sauvages" in text_of(table)  # the badge beside Rook on the table
    sheet = text_of(given_client.get(f"/chronicles/{cid}/characters/{rook}", headers=alice).text)
    assert "Compulsion : Pulsions sauvages" in sheet and "Mettre fin à la compulsion" not in sheet

    odds = given_client.get(
        f"/chronicles/{cid}/characters/{rook}/odds",
        headers=alice,
        params={"kind": "test", "attribute": "manipulation", "skill": "persuasion", "difficulty": "1"},
    ).text
    assert "Persuasion 2 + compulsion -3 = 2 dés" in text_of(odds)
    given_dice.faces = [7, 3]
    persuaded = given_client.post(
        f"/api/chronicles/{cid}/characters/{rook}/rolls",
        headers=alice,
        json={"action": {"kind": "test", "attribute": "manipulation", "skill": "persuasion"}},
    )
    assert persuaded.json()["entry"]["receipt"]["pool"]["total"] == 2
    assert "Persuasion 2 + compulsion -3 = 2 dés" in text_of(
        card(given_client.get(f"/chronicles/{cid}", headers=alice).text, "roll")
    )

    sheet = given_client.get(f"/chronicles/{cid}/characters/{rook}", headers=st).text
    assert "Mettre fin à la compulsion" in text_of(sheet)
    ended = given_client.post(
        f"/chronicles/{cid}/characters/{rook}/compulsion/end",
        headers=st,
        data={"back": "sheet"},
        follow_redirects=False,
    )
    assert ended.status_code == 303 and ended.headers["location"].endswith("#compulsion")
    table = given_client.get(f"/chronicles/{cid}", headers=alice).text
    assert "Fin de la compulsion de Rook : Pulsions sauvages" in text_of(card(table, "compulsion_end"))
    assert "Compulsion : Pulsions sauvages" not in text_of(table)
    sheet = text_of(given_client.get(f"/chronicles/{cid}/characters/{rook}", headers=st).text)
    assert (
        "Appeler la compulsion" in sheet and "Quelle compulsion" in sheet
    )  # the call form, for the next time


def test_seed_001_a_refused_call_shows_on_the_sheet(given_client):
    created = given_client.post(
        "/api/chronicles", json={"name": "Chicago", "system": "v5", "language": "fr"}
    ).json()
    st = {"Authorization": f"Bearer {created['token']}"}
    cid = created["chronicle"]["id"]
    rook = given_client.post(
        f"/api/chronicles/{cid}/characters",
        headers=st,
        json={"name": "Rook", "sheet": {**GANGREL, "clan": "Caitiff"}},
    ).json()["id"]
    refused = given_client.post(
        f"/chronicles/{cid}/characters/{rook}/compulsion/call",
        headers=st,
        data={"back": "sheet", "compulsion": "", "until": "ended"},
    )
    assert refused.status_code == 422
    assert "Le clan Caitiff n'a pas de compulsion propre" in text_of(refused.text)


def test_V5_10_a_rouse_at_hunger_5_shows_the_frenzy_risk_and_offers_the_test(given_client, given_dice):
    """The odds of a Rouse at Hunger 5 show the hunger frenzy risk, not "Hunger rises:
    0 %"; the failed Rouse's card offers the Storyteller the test (one tap), which is rolled and noted."""
    created = given_client.post(
        "/api/chronicles", json={"name": "Chicago", "system": "v5", "language": "fr"}
    ).json()
    st = {"Authorization": f"Bearer {created['token']}"}
    cid = created["chronicle"]["id"]
    rook = given_client.post(
        f"/api/chronicles/{cid}/characters",
        headers=st,
        json={"name": "Rook", "sheet": {**GANGREL, "hunger": 5}},
    ).json()["id"]
    odds = text_of(
        given_client.get(
            f"/chronicles/{cid}/characters/{rook}/odds", headers=st, params={"kind": "rouse"}
        ).text
    )
    assert "Soif 5 : risque d'un test de frénésie de la faim : 50,0 %" in odds and "monte" not in odds
    given_dice.faces = [3]
    given_client.post(
        f"/api/chronicles/{cid}/characters/{rook}/rolls", headers=st, json={"action": {"kind": "rouse"}}
    )
    page = given_client.get(f"/chronicles/{cid}", headers=st).text
    rouse = card(page, "roll")
    assert "Test de frénésie de la faim difficulté 4 proposé : le Conteur peut le demander" in text_of(rouse)
    assert "Demander le test de frénésie de la faim" in text_of(rouse)
    action = re.search(r'action="([^"]*hunger-frenzy[^"]*)"', rouse).group(1)
    given_dice.faces = [6, 6, 2, 2, 2]  # Willpower 2 + a third of Humanity 7
    assert given_client.post(action, headers=st, follow_redirects=False).status_code == 303
    frenzy = text_of(card(given_client.get(f"/chronicles/{cid}", headers=st).text, "roll"))
    assert "Test de frénésie de la faim après le Rouse n°" in frenzy


def test_a_power_used_from_the_sheet_rolls_its_pool_and_pays_its_rouse(given_client, given_dice):
    """The sheet's "Use a power" tab offers the sheet's listed powers; the odds show the power's
    pool; the roll's card shows its Rouse check paid."""
    created = given_client.post(
        "/api/chronicles", json={"name": "Chicago", "system": "v5", "language": "fr"}
    ).json()
    st = {"Authorization": f"Bearer {created['token']}"}
    cid = created["chronicle"]["id"]
    rook = given_client.post(
        f"/api/chronicles/{cid}/characters",
        headers=st,
        json={
            "name": "Rook",
            "sheet": {
                **GANGREL,
                "disciplines": {"dominate": 2},
                "powers": [{"discipline": "dominate", "level": 2, "power": "mesmerize"}],
            },
        },
    ).json()["id"]
    form = given_client.get(f"/chronicles/{cid}/characters/{rook}?kind=power", headers=st).text
    assert '<option value="mesmerize" data-trait="dominate">Hypnose (Domination 2)</option>' in form
    odds = text_of(
        given_client.get(
            f"/chronicles/{cid}/characters/{rook}/odds",
            headers=st,
            params={"kind": "power", "discipline": "dominate", "power": "mesmerize", "difficulty": "2"},
        ).text
    )
    assert "Manipulation 3 + Domination 2 = 5 dés" in odds
    given_dice.faces = [7, 8, 2, 5, 3, 4]  # the pool (Hunger 1), then the Rouse die
    rolled = given_client.post(
        f"/chronicles/{cid}/characters/{rook}/rolls",
        headers=st,
        follow_redirects=False,
        data={"kind": "power", "discipline": "dominate", "power": "mesmerize", "difficulty": "2"},
    )
    assert rolled.status_code in (200, 303), rolled.text
    shown = text_of(
        given_client.get(f"/chronicles/{cid}", headers=st).text
    )  # the note follows the effects' list
    assert "Tests de Rouse payés pour le pouvoir : 1 (dés : 4)" in shown
