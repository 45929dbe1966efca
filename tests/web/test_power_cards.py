"""A V5 Discipline power's card and roll form on the pages (SPEC V5-8, A-1; seed 001), no browser: the
card offers the Willpower reroll like a test's and the reroll is made from it; the power tab opens on a
coherent choice (each power tied to its Discipline, the Disciplines that have powers); its refusals name
the power and the Discipline in the reader's language, never by id."""

from __future__ import annotations

from .helpers import api_table, card, text_of

NADIA = {
    "name": "Nadia",
    "attributes": {"wits": 3, "resolve": 2, "strength": 2},
    "disciplines": {"auspex": 2, "potence": 1, "celerity": 1},
    "powers": [
        {"discipline": "potence", "level": 1, "power": "lethal_body"},
        {"discipline": "auspex", "level": 1, "power": "sense_the_unseen"},
    ],
    "hunger": 1,
    "willpower": {"max": 5},
}
SENSE = {"kind": "power", "discipline": "auspex", "power": "sense_the_unseen", "attribute": "wits"}


def _nadia(client, lang: str = "fr"):
    cid, st, alice = api_table(client, "v5", lang)
    made = client.post(
        f"/api/chronicles/{cid}/characters", headers=alice, json={"name": "Nadia", "sheet": NADIA}
    )
    assert made.status_code == 201, made.text
    return cid, st, alice, made.json()["id"]


def test_V5_8_a_powers_card_offers_the_willpower_reroll_and_makes_it(given_client, given_dice):
    cid, _st, alice, nadia = _nadia(given_client)
    given_dice.faces = [
        2,
        3,
        7,
        4,
        5,
    ]  # Wits 3 + Auspex 2: four normal dice, one Hunger die (no Rouse: level 1, cost 0)
    rolled = given_client.post(
        f"/api/chronicles/{cid}/characters/{nadia}/rolls", headers=alice, json={"action": SENSE}
    )
    assert rolled.status_code == 201, rolled.text
    seq = rolled.json()["entry"]["seq"]
    shown = card(given_client.get(f"/chronicles/{cid}", headers=alice).text, "roll")
    assert f'action="/chronicles/{cid}/entries/{seq}/reroll"' in shown
    assert "Relance de Volonté" in text_of(shown)
    given_dice.faces = [8, 9]
    rerolled = given_client.post(
        f"/chronicles/{cid}/entries/{seq}/reroll",
        headers=alice,
        data={"dice": ["0", "1"]},
        follow_redirects=False,
    )
    assert rerolled.status_code == 303, rerolled.text
    entries = given_client.get(f"/api/chronicles/{cid}/log", headers=alice).json()["entries"]
    (reroll,) = [e for e in entries if e["kind"] == "reroll"]
    assert reroll["receipt"]["kind"] == "power" and reroll["receipt"]["result"]["successes"] == 3
