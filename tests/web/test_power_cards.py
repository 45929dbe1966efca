"""A V5 Discipline power's card and roll form on the pages (SPEC V5-8, A-1; seed 001), no browser: the
card offers the Willpower reroll like a test's and the reroll is made from it; the power tab opens on a
coherent choice (each power tied to its Discipline, the Disciplines that have powers); its refusals name
the power and the Discipline in the reader's language, never by id."""

from __future__ import annotations

import re

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


def _roll_form(html: str) -> str:
    found = re.search(r'<form id="roll".*?</form>', html, re.S)
    assert found, "no roll form"
    return found.group(0)


def test_A1_the_power_tab_opens_on_a_coherent_choice(given_client):
    cid, _st, alice, nadia = _nadia(given_client)
    form = _roll_form(
        given_client.get(f"/chronicles/{cid}/characters/{nadia}?kind=power", headers=alice).text
    )
    disciplines = re.findall(
        r'<option value="(\w+)"', form.split('name="discipline"', 1)[1].split("</select>")[0]
    )
    power_select = form.split('name="power"', 1)[1].split("</select>")[0]
    powers = re.findall(r'<option value="(\w+)" data-trait="(\w+)"', power_select)
    # the Disciplines that have a listed power (Celerity has none), in the powers' order: the first
    # Discipline and the first power go together; the power list follows the Discipline chosen
    assert disciplines == ["auspex", "potence"]
    assert powers == [("sense_the_unseen", "auspex"), ("lethal_body", "potence")]
    assert re.search(r'<select id="roll-power" name="power"[^>]* data-follows-trait', form)


def test_A1_choosing_a_power_sets_its_discipline_without_javascript(given_client, given_dice):
    cid, _st, alice, nadia = _nadia(given_client)
    given_dice.faces = [2, 3, 7, 4, 5]
    posted = given_client.post(
        f"/chronicles/{cid}/characters/{nadia}/rolls",
        headers=alice,
        data={**SENSE, "discipline": "potence"},  # the Discipline left on another one
        follow_redirects=False,
    )
    assert posted.status_code == 303, posted.text
    entries = given_client.get(f"/api/chronicles/{cid}/log", headers=alice).json()["entries"]
    (rolled,) = [e for e in entries if e["kind"] == "roll"]
    assert rolled["receipt"]["action"]["discipline"] == "auspex"


def test_V5_a_power_refused_names_the_power_and_the_discipline_in_french(given_client):
    cid, _st, alice, nadia = _nadia(given_client)
    refused = given_client.post(
        f"/chronicles/{cid}/characters/{nadia}/rolls",
        headers={**alice, "HX-Request": "true"},
        data={"kind": "power", "discipline": "auspex", "power": "premonition", "attribute": "resolve"},
    )
    assert refused.status_code == 422, refused.text
    words = text_of(refused.text)
    assert "Prémonition d'Auspex" in words, words
    assert "premonition" not in words and "de Auspex" not in words
