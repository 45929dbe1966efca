"""Table rules, contests and extended actions on the pages without a browser (SPEC TR-1, TR-3, TR-4,
A-5; ``present.contests``), a French table: the Storyteller's settings card in words, the table rules
ticked on the page, a contest declared and each side's roll offered only to whoever may act for it,
the result card with both sides and the margin, an extended action's running total and rolls left."""

from __future__ import annotations

import re
from html import unescape

from .helpers import api_table, card


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_TR_3_TR_4_contest_and_extended_action_on_the_pages(given_client, given_dice):
    cid, st, alice = api_table(given_client, "v20")
    nia = given_client.post(
        f"/api/chronicles/{cid}/characters",
        headers=alice,
        json={"name": "Nia", "sheet": {"attributes": {"dexterity": 3}, "skills": {"firearms": 2}}},
    ).json()["id"]
    bran = given_client.post(
        f"/api/chronicles/{cid}/characters",
        headers=st,
        json={"name": "Bran", "sheet": {"attributes": {"wits": 2}, "talents": {"alertness": 2}}},
    ).json()["id"]

    # TR-1 on the page: the Storyteller ticks a table rule; the settings card says it
    assert (
        given_client.post(
            f"/chronicles/{cid}/table-rules",
            headers=st,
            data={"table_rules": "v20.ones_do_not_cancel"},
            follow_redirects=False,
        ).status_code
        == 303
    )
    page = given_client.get(f"/chronicles/{cid}", headers=st).text
    assert "règles de table : les 1 n'annulent aucune réussite" in text_of(card(page, "settings"))
    assert "Règles de table, oppositions et actions prolongées" in text_of(page)
    assert "Déclarer une opposition" not in text_of(
        given_client.get(f"/chronicles/{cid}", headers=alice).text
    )

    declared = given_client.post(
        f"/chronicles/{cid}/contests",
        headers=st,
        follow_redirects=False,
        data={
            "attacker_character": nia,
            "attacker_attribute": "dexterity",
            "attacker_ability": "firearms",
            "attacker_difficulty": "6",
            "defender_character": bran,
            "defender_attribute": "wits",
            "defender_ability": "alertness",
            "defender_difficulty": "6",
        },
    )
    assert declared.status_code == 303, declared.text
    player_page = given_client.get(f"/chronicles/{cid}", headers=alice).text
    contest = text_of(card(player_page, "contest"))
    assert "Opposition : Nia contre Bran" in contest and "Lancer pour Nia" in contest
    assert "Lancer pour Bran" not in contest  # the NPC's side is the Storyteller's
    seq = int(declared.headers["location"].split("entry-")[1])
    refused = given_client.post(
        f"/chronicles/{cid}/contests/{seq}/roll", headers=alice, data={"side": "defender"}
    )
    assert refused.status_code == 403
    given_dice.faces = [8, 9, 7, 2, 3]
    assert (
        given_client.post(
            f"/chronicles/{cid}/contests/{seq}/roll",
            headers=alice,
            data={"side": "attacker"},
            follow_redirects=False,
        ).status_code
        == 303
    )
    given_dice.faces = [6, 2, 3, 4]
    assert (
        given_client.post(
            f"/chronicles/{cid}/contests/{seq}/roll",
            headers=st,
            data={"side": "defender"},
            follow_redirects=False,
        ).status_code
        == 303
    )
    result = text_of(card(given_client.get(f"/chronicles/{cid}", headers=alice).text, "contest_result"))
    assert "Nia remporte l'opposition de 2" in result and "Nia : 3 réussites — Bran : 1 réussite" in result

    declared = given_client.post(
        f"/chronicles/{cid}/extended",
        headers=st,
        follow_redirects=False,
        data={
            "character": nia,
            "attribute": "dexterity",
            "ability": "firearms",
            "difficulty": "6",
            "target": "5",
            "max_rolls": "3",
        },
    )
    assert declared.status_code == 303, declared.text
    extended = int(declared.headers["location"].split("entry-")[1])
    assert "Jet suivant pour Nia" in text_of(
        card(given_client.get(f"/chronicles/{cid}", headers=alice).text, "extended")
    )
    given_dice.faces = [8, 9, 7, 2, 3]
    given_client.post(f"/chronicles/{cid}/extended/{extended}/roll", headers=alice)
    page = given_client.get(f"/chronicles/{cid}", headers=alice).text
    assert "jet 1 : 3 réussites sur 5 · jets restants : 2 · en cours" in text_of(card(page, "roll"))
    given_dice.faces = [10, 6, 2, 1, 3]  # two successes, a 1 that cancels nothing under the table rule
    given_client.post(f"/chronicles/{cid}/extended/{extended}/roll", headers=alice)
    page = given_client.get(f"/chronicles/{cid}", headers=alice).text
    done = text_of(card(page, "roll"))  # TR-4: once over, no rolls left are counted
    assert "jet 2 : 5 réussites sur 5 · objectif atteint" in done and "jets restants" not in done
    over = given_client.post(f"/chronicles/{cid}/extended/{extended}/roll", headers=alice)
    assert over.status_code == 409 and "terminée" in text_of(over.text)


def test_V20_15_the_roll_forms_difficulty_names_each_difficulty(given_client):
    created = given_client.post(
        "/api/chronicles", json={"name": "Madrid", "system": "v20", "language": "es"}
    ).json()
    st = {"Authorization": f"Bearer {created['token']}"}
    cid = created["chronicle"]["id"]
    nia = given_client.post(
        f"/api/chronicles/{cid}/characters",
        headers=st,
        json={"name": "Nia", "sheet": {"attributes": {"dexterity": 3}}},
    ).json()["id"]
    page = text_of(given_client.get(f"/chronicles/{cid}/characters/{nia}?kind=test", headers=st).text)
    assert (
        "3 Fácil · 4 Rutinaria · 5 Sencilla · 6 Estándar · 7 Desafiante · 8 Difícil · 9 Casi imposible"
        in page
    )
