"""The combat chain on the web table without a browser (SPEC V20-17, T-4, T-5; ``present.exchange``): the
attack names its target from the roll form, the exchange shows as one card with its steps, and the
next step is offered as a button to the right person only, in their language."""

from __future__ import annotations

import re
from html import unescape

from .helpers import bearer
from .helpers import text_of as text

HTMX = {"HX-Request": "true"}


def buttons(html: str) -> list[str]:
    return [
        unescape(b.strip())
        for b in re.findall(r'<form id="follow-[^"]+".*?<button[^>]*>(.*?)</button>', html, re.S)
    ]


def chronicle(given_client, system: str, sheets: dict[str, dict]) -> tuple[str, dict, dict]:
    """A chronicle with one player per sheet ("npc": the Storyteller's); (page URL, headers, character ids)."""
    created = given_client.post("/api/chronicles", json={"name": "Exchange", "system": system}).json()
    heads, ids = {"st": bearer(created["token"])}, {}
    for who, sheet in sheets.items():
        if who != "npc":
            heads[who] = bearer(
                given_client.post(
                    "/api/join", json={"invitation": created["invitation"], "name": who}
                ).json()["token"]
            )
        made = given_client.post(
            f"/api/chronicles/{created['chronicle']['id']}/characters",
            headers=heads.get(who, heads["st"]),
            json={"name": sheet["name"], "sheet": sheet},
        )
        assert made.status_code == 201, made.text
        ids[who] = made.json()["id"]
    return f"/chronicles/{created['chronicle']['id']}", heads, ids


V20 = {
    "alice": {
        "name": "Nia",
        "attributes": {"strength": 3, "dexterity": 3},
        "skills": {"melee": 2},
        "weapons": [{"name": "knife", "damage": 1, "damage_type": "lethal"}],
    },
    "bob": {"name": "Bran", "attributes": {"stamina": 2}, "disciplines": {"fortitude": 1}},
    "npc": {"name": "Ghoul", "attributes": {"stamina": 3}},
}


def test_V20_17_the_exchange_card_offers_each_step_to_its_taker(given_client, given_dice):
    page, heads, ids = chronicle(given_client, "v20", V20)
    form = given_client.get(f"{page}/characters/{ids['alice']}?kind=test", headers=heads["alice"]).text
    assert 'name="target"' in form and "Bran" in form and "Ghoul" in form
    given_dice.faces += [6, 8, 9, 2, 3]  # 3 successes
    attack = given_client.post(
        f"{page}/characters/{ids['alice']}/rolls",
        headers={**heads["alice"], **HTMX},
        data={"kind": "test", "attribute": "dexterity", "ability": "melee", "target": ids["bob"]},
    )
    assert attack.status_code == 200, attack.text
    assert "Attack on Bran" in text(attack.text)
    assert buttons(given_client.get(page, headers=heads["alice"]).text) == ["Roll damage"]
    # V20-20: the defender may dodge, before the damage is rolled (en/fr/es)
    assert buttons(given_client.get(f"{page}?lang=fr", headers=heads["bob"]).text) == [
        "Esquiver (3 succès de l’attaque)"
    ]
    assert buttons(given_client.get(f"{page}?lang=es", headers=heads["bob"]).text) == [
        "Esquivar (3 éxitos del ataque)"
    ]
    assert buttons(given_client.get(f"{page}?lang=en", headers=heads["bob"]).text) == [
        "Dodge (3 attack successes)"
    ]
    seq = int(
        re.search(
            r'action="/chronicles/\d+/entries/(\d+)/follow"',
            given_client.get(page, headers=heads["alice"]).text,
        )[1]
    )
    # the damage step: Strength 3 + knife 1 + 2 extra successes, taken from the attack's receipt
    given_dice.faces += [6, 1, 1, 7, 2, 10]
    damage = given_client.post(
        f"{page}/entries/{seq}/follow",
        headers={**heads["alice"], **HTMX},
        data={"kind": "damage", "character": ids["alice"], "weapon": "knife"},
    )
    assert damage.status_code == 200, damage.text
    assert 'hx-swap-oob="outerHTML"' in damage.text and f'id="entry-{seq}"' in damage.text
    assert "Damage roll" in text(damage.text) and 'class="steps"' in damage.text
    # the defender sees "soak 3 lethal", in French; the attacker and the other player nothing
    assert buttons(given_client.get(f"{page}?lang=fr", headers=heads["bob"]).text) == ["Absorber 3 létaux"]
    assert buttons(given_client.get(f"{page}?lang=es", headers=heads["bob"]).text) == [
        "Absorber 3 de daño letal"
    ]
    assert buttons(given_client.get(f"{page}?lang=en", headers=heads["alice"]).text) == []
    assert buttons(given_client.get(f"{page}?lang=en", headers=heads["st"]).text) == [
        "Soak 3 lethal"
    ]  # the Storyteller may act for any
    damage_seq = seq + 1
    given_dice.faces += [6, 2, 3]
    soak = given_client.post(
        f"{page}/entries/{damage_seq}/follow",
        headers={**heads["bob"], **HTMX},
        data={"kind": "soak", "character": ids["bob"]},
    )
    assert soak.status_code == 200, soak.text
    shown = text(soak.text)
    assert "Soak roll" in shown and "0 → 2" in shown
    sheet = given_client.get(
        f"/api/chronicles/{page.rsplit('/', 1)[1]}/characters/{ids['bob']}", headers=heads["bob"]
    ).json()
    assert sheet["sheet"]["health"]["lethal"] == 2
    # one card: the steps inside the attack's card, nothing more to offer
    html = given_client.get(page, headers=heads["st"]).text
    assert html.count('class="step ') == 2 and buttons(html) == []
    # a second soak is refused in the form's alert, in place
    again = given_client.post(
        f"{page}/entries/{damage_seq}/follow",
        headers={**heads["bob"], **HTMX},
        data={"kind": "soak", "character": ids["bob"]},
    )
    assert "already followed" in text(again.text)
    # the attack's own page shows the whole exchange
    assert given_client.get(f"{page}/entries/{seq}", headers=heads["bob"]).text.count('class="step ') == 2


TIERS = {
    "alice": {
        "name": "Ana",
        "skills": {"firearms": 6},
        "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}],
    },
    "npc": {"name": "Rook", "skills": {"dodge": 4}, "endurance": 3, "armor": {"torso": 2}},
}


def test_T_4_T_5_the_storyteller_dodges_and_soaks_for_an_npc(given_client, given_dice):
    page, heads, ids = chronicle(given_client, "tiers", TIERS)
    given_dice.faces += [6]  # tier 4
    shot = given_client.post(
        f"{page}/characters/{ids['alice']}/rolls",
        headers={**heads["alice"], **HTMX},
        data={"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": "2", "target": ids["npc"]},
    )
    assert shot.status_code == 200, shot.text
    assert buttons(given_client.get(page, headers=heads["alice"]).text) == []
    assert buttons(given_client.get(page, headers=heads["st"]).text) == [
        "Dodge (attack tier 4)",
        "Soak (attack tier 4)",
    ]
    seq = int(re.search(r"/entries/(\d+)/follow", given_client.get(page, headers=heads["st"]).text)[1])
    given_dice.faces += [1, 3]
    dodge = given_client.post(
        f"{page}/entries/{seq}/follow",
        headers={**heads["st"], **HTMX},
        data={"kind": "dodge", "character": ids["npc"]},
    )
    assert dodge.status_code == 200, dodge.text
    assert buttons(given_client.get(f"{page}?lang=fr", headers=heads["st"]).text) == [
        "Encaissement (palier d’attaque 4)"
    ]  # the seed's word
    given_dice.faces += [4]
    soak = given_client.post(
        f"{page}/entries/{seq + 1}/follow",
        headers={**heads["st"], **HTMX},
        data={"kind": "soak", "character": ids["npc"], "location": "torso"},
    )
    assert soak.status_code == 200, soak.text
    html = given_client.get(page, headers=heads["alice"]).text
    assert html.count('class="step ') == 2 and buttons(html) == []
