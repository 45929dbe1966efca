"""After an exchange (an attack, then its damage step) the sheet reopens on the roll
tab, not on the last follow-up's tab."""

from __future__ import annotations

import re

from .helpers import bearer

HTMX = {"HX-Request": "true"}
ALICE = {
    "name": "Nia",
    "attributes": {"strength": 3, "dexterity": 3},
    "skills": {"melee": 2},
    "weapons": [{"name": "knife", "damage": 1, "damage_type": "lethal"}],
}
BOB = {"name": "Bran", "attributes": {"stamina": 2}}


def exchange_table(client, sheet: dict) -> tuple[dict, str, int, int]:
    """A V20 chronicle with Nia (``sheet``) and Bran: (the Storyteller's headers, its page, Nia, Bran)."""
    created = client.post("/api/chronicles", json={"name": "Exchange", "system": "v20"}).json()
    head = bearer(created["token"])
    base = f"/api/chronicles/{created['chronicle']['id']}/characters"
    alice = client.post(base, headers=head, json={"name": "Nia", "sheet": sheet}).json()["id"]
    bob = client.post(base, headers=head, json={"name": "Bran", "sheet": BOB}).json()["id"]
    return head, f"/chronicles/{created['chronicle']['id']}", alice, bob


def test_the_sheet_reopens_on_the_roll_tab_after_an_exchange(given_client, given_dice):
    head, page, alice, bob = exchange_table(given_client, ALICE)
    given_dice.faces += [6, 8, 9, 2, 3]
    attack = given_client.post(
        f"{page}/characters/{alice}/rolls",
        headers={**head, **HTMX},
        data={"kind": "test", "attribute": "dexterity", "ability": "melee", "target": bob},
    )
    assert attack.status_code == 200, attack.text
    seq = int(
        re.search(
            r'action="/chronicles/\d+/entries/(\d+)/follow"', given_client.get(page, headers=head).text
        )[1]
    )
    given_dice.faces += [6, 1, 1, 7, 2, 10]
    damage = given_client.post(
        f"{page}/entries/{seq}/follow",
        headers={**head, **HTMX},
        data={"kind": "damage", "character": alice, "weapon": "knife"},
    )
    assert damage.status_code == 200, damage.text
    sheet = given_client.get(f"{page}/characters/{alice}", headers=head).text
    current = re.search(r'<a[^>]*aria-current="(?:page|true)"[^>]*>([^<]*)</a>', sheet)
    assert current and "Damage" not in current[1] and "Test" in current[1], current and current[1]
    assert 'name="kind" value="test"' in sheet


def test_a_step_refused_names_kinds_of_roll_in_words(given_client, given_dice):
    created = given_client.post(
        "/api/chronicles", json={"name": "Exchange", "system": "v20", "language": "es"}
    ).json()
    head = bearer(created["token"])
    base = f"/api/chronicles/{created['chronicle']['id']}/characters"
    alice = given_client.post(base, headers=head, json={"name": "Nia", "sheet": ALICE}).json()["id"]
    page = f"/chronicles/{created['chronicle']['id']}"
    given_dice.faces += [6, 8, 9, 2, 3]
    willpower = given_client.post(
        f"{page}/characters/{alice}/rolls", headers={**head, **HTMX}, data={"kind": "willpower"}
    )
    assert willpower.status_code == 200, willpower.text
    seq = int(re.search(r'id="entry-(\d+)"', willpower.text)[1])
    refused = given_client.post(
        f"{page}/entries/{seq}/follow?lang=es",
        headers={**head, **HTMX},
        data={"kind": "damage", "character": alice},
    )
    text = re.sub(r"<[^>]+>", " ", refused.text)
    assert refused.status_code >= 400 and "«" in text, text
    assert not re.search(r"\b(soak|willpower|test|damage)\b", text), text


def test_roll_damage_only_after_an_attack_with_its_weapon_chosen(given_client, given_dice):
    sheet = {
        **ALICE,
        "skills": {"melee": 2, "stealth": 2, "firearms": 1},
        "weapons": [
            {"name": "Glock", "kind": "firearm", "damage": 4, "damage_type": "lethal"},
            {"name": "knife", "damage": 1, "damage_type": "lethal"},
        ],
    }
    head, page, alice, bob = exchange_table(given_client, sheet)
    given_dice.faces += [6, 8, 9, 2, 3]
    sneak = given_client.post(
        f"{page}/characters/{alice}/rolls",
        headers={**head, **HTMX},
        data={"kind": "test", "attribute": "dexterity", "ability": "stealth", "target": bob},
    )
    assert sneak.status_code == 200, sneak.text
    assert "Roll damage" not in given_client.get(page, headers=head).text  # Stealth deals no damage
    given_dice.faces += [6, 8, 9, 2, 3]
    stab = given_client.post(
        f"{page}/characters/{alice}/rolls",
        headers={**head, **HTMX},
        data={"kind": "test", "attribute": "dexterity", "ability": "melee", "target": bob},
    )
    assert stab.status_code == 200, stab.text
    html = given_client.get(page, headers=head).text
    assert html.count("Roll damage") == 1
    select = re.search(r'name="weapon">(.*?)</select>', html, re.S)[1]
    options = re.findall(r'<option value="([^"]*)"( selected)?>', select)
    assert options == [("", ""), ("knife", " selected")], (
        options
    )  # the Melee attack's weapons, the knife chosen


def test_a_players_soak_naming_a_location_asks_the_game_master(given_client, given_dice):
    """A Tiers hit's location is the game master's (A-1, T-5): a player's soak that names one from the
    card's step form is sent as an ask (then granted: the soak rolls at that location), never a 403."""
    created = given_client.post("/api/chronicles", json={"name": "Paliers", "system": "tiers"}).json()
    st = bearer(created["token"])
    joined = given_client.post(
        "/api/join", json={"invitation": created["invitation"], "name": "Bruno"}
    ).json()
    bruno = bearer(joined["token"])
    base = f"/api/chronicles/{created['chronicle']['id']}"
    rook = given_client.post(
        f"{base}/characters",
        headers=st,
        json={
            "name": "Rook",
            "sheet": {
                "name": "Rook",
                "skills": {"firearms": 6},
                "weapons": [{"name": "Pistol", "bonus": 2, "capacity": 6}],
            },
        },
    ).json()["id"]
    hero = given_client.post(
        f"{base}/characters",
        headers=bruno,
        json={"name": "Hero", "sheet": {"name": "Hero", "endurance": 3, "armor": {"torso": 2}}},
    ).json()["id"]
    page = f"/chronicles/{created['chronicle']['id']}"
    given_dice.faces += [6]  # (6 + 2 − 6) × 2 bullets: tier 4 (T-3)
    shot = given_client.post(
        f"{page}/characters/{rook}/rolls",
        headers={**st, **HTMX},
        data={"kind": "skill", "skill": "firearms", "weapon": "Pistol", "bullets": "2", "target": hero},
    )
    assert shot.status_code == 200, shot.text
    html = given_client.get(page, headers=bruno).text
    follow = re.search(r'action="(/chronicles/\d+/entries/\d+/follow)"', html)[1]
    assert 'name="location"' in html  # the defender's step form offers the locations
    soak = given_client.post(
        follow, headers={**bruno, **HTMX}, data={"kind": "soak", "character": hero, "location": "head"}
    )
    assert soak.status_code == 200, soak.text
    assert "kind-ask" in soak.text and "head" in re.sub(r"<[^>]+>", " ", soak.text).lower()
    asks = given_client.get(f"{base}/asks?status=pending", headers=st).json()["asks"]
    assert [(a["character"], a["asked"]) for a in asks] == [(hero, {"location": "head"})]
    assert not [
        e
        for e in given_client.get(f"{base}/log", headers=st).json()["entries"]
        if e["kind"] == "roll" and e["character"] == hero
    ]
    given_dice.faces += [4]
    granted = given_client.post(f"{page}/asks/{asks[0]['id']}/grant", headers={**st, **HTMX}, data={})
    assert granted.status_code in (200, 303), granted.text
    rolled = [
        e
        for e in given_client.get(f"{base}/log", headers=st).json()["entries"]
        if e["kind"] == "roll" and e["character"] == hero
    ]
    assert len(rolled) == 1 and rolled[0]["receipt"]["action"]["location"] == "head", rolled
