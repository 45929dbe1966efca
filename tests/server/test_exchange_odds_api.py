"""The exchange odds on the API: ``GET``/``POST /api/chronicles/{c}/odds/exchange`` for a pair of
characters and a weapon, built from both sheets; the Storyteller sees the defender's numbers, a player
who may not open the defender's sheet no odds. SQLite and PostgreSQL."""

from __future__ import annotations

from fractions import Fraction

from rollbook.systems.tiers.odds_exchange import TiersDefender
from rollbook.systems.tiers.odds_exchange import exchange_odds as tiers_exchange
from rollbook.systems.tiers.rules import TiersRequest
from rollbook.systems.v20.odds_exchange import Defender, Weapon, exchange_odds
from rollbook.systems.v20.rules import V20Request

ATTACKER = {
    "name": "Nia",
    "attributes": {"strength": 3, "dexterity": 3, "stamina": 2},
    "skills": {"melee": 2, "firearms": 3},
    "talents": {"athletics": 1},
    "weapons": [
        {"name": "knife", "damage": 1, "damage_type": "lethal"},
        {"name": "pistol", "kind": "firearm", "damage": 4, "damage_type": "lethal"},
    ],
}
GHOUL = {
    "name": "Ghoul",
    "attributes": {"stamina": 3, "dexterity": 2},
    "talents": {"athletics": 2},
    "disciplines": {"fortitude": 1},
    "health": {"bashing": 1},
}


def v20_table(make_table):
    t = make_table("v20")
    alice = t.join("Alice")
    nia = t.character(alice, ATTACKER)
    ghoul = t.character(t.st, GHOUL)  # an NPC: no owner
    return t, alice, nia, ghoul


def test_V20_17_storyteller_sees_the_exact_odds_and_the_defenders_numbers(client, make_table):
    t, _, nia, ghoul = v20_table(make_table)
    response = client.get(
        f"{t.base}/odds/exchange",
        headers=t.st,
        params={"attacker": nia["id"], "target": ghoul["id"], "weapon": "knife", "dodge": "true"},
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    expected = exchange_odds(
        V20Request(pool=5),
        Weapon(1, "lethal", strength=3),
        Defender(stamina=3, fortitude=1, health=(1, 0, 0), dodge=V20Request(pool=4)),
    )
    assert answer["defender_numbers"] is True and answer["system"] == "v20"
    assert answer["odds"]["outcomes"] == expected.outcomes.texts()
    assert sum(Fraction(p) for p in answer["odds"]["outcomes"].values()) == 1
    assert answer["odds"]["wounds"] == expected.wounds.nonzero().texts()
    assert answer["odds"]["defender"]["soak_pool"] == 4 and answer["odds"]["defender"]["health"] == [1, 0, 0]
    posted = client.post(
        f"{t.base}/odds/exchange",
        headers=t.st,
        json={
            "attacker": nia["id"],
            "target": ghoul["id"],
            "weapon": "knife",
            "dodge": True,
            "action": {"kind": "test", "attribute": "dexterity", "ability": "melee"},
        },
    )
    assert posted.status_code == 200 and posted.json() == answer


def test_TR_1_the_chronicles_table_rules_in_force_reach_the_odds(client, make_table):
    t, _, nia, ghoul = v20_table(make_table)
    params = {"attacker": nia["id"], "target": ghoul["id"], "weapon": "knife", "dodge": "true"}
    plain = client.get(f"{t.base}/odds/exchange", headers=t.st, params=params).json()["odds"]
    changed = client.put(
        f"{t.base}/table-rules", headers=t.st, json={"table_rules": ["v20.ones_do_not_cancel"]}
    )
    assert changed.status_code == 200, changed.text
    odds = client.get(f"{t.base}/odds/exchange", headers=t.st, params=params).json()["odds"]
    expected = exchange_odds(
        V20Request(pool=5),
        Weapon(1, "lethal", strength=3),
        Defender(stamina=3, fortitude=1, health=(1, 0, 0), dodge=V20Request(pool=4)),
        table_rules=["v20.ones_do_not_cancel"],
    )
    assert odds["table_rules"] == ["v20.ones_do_not_cancel"] and odds["outcomes"] == expected.outcomes.texts()
    assert odds["outcomes"] != plain["outcomes"]


def test_a_player_gets_no_odds_built_from_an_npcs_hidden_ratings(client, make_table):
    t, alice, nia, ghoul = v20_table(make_table)
    response = client.get(
        f"{t.base}/odds/exchange",
        headers=alice,
        params={"attacker": nia["id"], "target": ghoul["id"], "weapon": "pistol"},
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["defender_numbers"] is False and answer["odds"] is None
    text = response.text
    assert "fortitude" not in text and "stamina" not in text and "soak_pool" not in text


def test_a_player_may_not_attack_for_someone_elses_character(client, make_table):
    t, _, nia, ghoul = v20_table(make_table)
    bob = t.join("Bob")
    response = client.get(
        f"{t.base}/odds/exchange", headers=bob, params={"attacker": nia["id"], "target": ghoul["id"]}
    )
    assert response.status_code == 403 and response.json()["code"] == "not_your_character"


def test_exchange_odds_refusals(client, make_table):
    t, _, nia, ghoul = v20_table(make_table)
    url = f"{t.base}/odds/exchange"
    for params, status, code in [
        ({"attacker": nia["id"], "target": nia["id"]}, 422, "target_is_attacker"),
        ({"attacker": nia["id"], "target": 999999}, 404, "character_not_found"),
        ({"attacker": nia["id"], "target": ghoul["id"], "weapon": "axe"}, 422, "unknown_weapon"),
        (
            {"attacker": nia["id"], "target": ghoul["id"], "attribute": "perception", "ability": "alertness"},
            422,
            "not_an_attack",
        ),  # the chain's own refusals (systems.v20.play): a perception roll is no attack
        (
            {"attacker": nia["id"], "target": ghoul["id"], "weapon": "pistol", "ability": "melee"},
            422,
            "weapon_not_the_attacks",
        ),
    ]:
        response = client.get(url, headers=t.st, params=params)
        assert (response.status_code, response.json()["code"]) == (status, code), response.text
        assert response.headers["content-type"].startswith("application/problem+json")
    response = client.post(
        url, headers=t.st, json={"attacker": nia["id"], "target": ghoul["id"], "action": {"kind": "damage"}}
    )
    assert response.status_code == 422 and response.json()["code"] == "exchange_needs_an_attack", (
        response.text
    )
    response = client.post(url, headers=t.st, json={"attacker": nia["id"], "target": ghoul["id"], "extra": 1})
    assert response.status_code == 422
    assert client.get(url, params={"attacker": nia["id"], "target": ghoul["id"]}).status_code == 401
    other = make_table("v5")
    response = client.get(
        f"{other.base}/odds/exchange", headers=other.st, params={"attacker": 1, "target": 2}
    )
    assert response.status_code in (404, 422)


def test_T_3_T_5_tiers_exchange_from_both_sheets(client, make_table):
    t = make_table("tiers")
    shooter = t.character(
        t.st,
        {
            "name": "Ana",
            "skills": {"firearms": 6},
            "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}],
        },
    )
    target = t.character(
        t.st,
        {
            "name": "Bo",
            "skills": {"dodge": 4},
            "endurance": 3,
            "armor": {"torso": 2},
            "wounds": {"level": 1, "length": 6},
        },
    )
    response = client.get(
        f"{t.base}/odds/exchange",
        headers=t.st,
        params={
            "attacker": shooter["id"],
            "target": target["id"],
            "skill": "firearms",
            "weapon": "pistol",
            "bullets": 2,
            "dodge": "true",
        },
    )
    assert response.status_code == 200, response.text
    expected = tiers_exchange(
        TiersRequest(kind="skill", skill=6, bonus=2, bullets=2),
        TiersDefender(endurance=3, armor=2, level=1, length=6, dodge=4),
    )
    odds = response.json()["odds"]
    assert odds["outcomes"] == expected.outcomes.texts() and odds["track"] == expected.track.nonzero().texts()
    response = client.get(
        f"{t.base}/odds/exchange",
        headers=t.st,
        params={"attacker": shooter["id"], "target": target["id"], "weapon": "pistol", "location": "tail"},
    )
    assert response.status_code == 422 and response.json()["code"] == "unknown_location"


def _chains_dodge(attacker: dict, defender: dict, mode: str) -> dict:
    """The request of the dodge the chain rolls (V20-20) for ``defender`` after a hit of ``attacker``."""
    from rollbook.dice import GivenFaces
    from rollbook.play import perform, preview

    attack = {"kind": "test", "attribute": "dexterity", "ability": "melee", "weapon": "knife"}
    hit = perform("v20", attacker, attack, mode=mode, role="storyteller", source=GivenFaces([10] * 5))
    return preview("v20", defender, {"kind": "dodge"}, mode=mode, role="storyteller", follows=hit.receipt)[
        "request"
    ]


def test_V20_20_the_api_dodge_is_the_chains_in_either_mode_and_the_track_is_json(client, make_table):
    for mode in ("strict", "casual"):
        t = make_table("v20", mode=mode)
        alice = t.join("Alice")
        nia = t.character(alice, ATTACKER)
        ghoul = t.character(t.st, GHOUL)
        response = client.get(
            f"{t.base}/odds/exchange",
            headers=t.st,
            params={"attacker": nia["id"], "target": ghoul["id"], "weapon": "knife", "dodge": "true"},
        )
        assert response.status_code == 200, response.text
        odds = response.json()["odds"]
        dodge = _chains_dodge(nia["sheet"], ghoul["sheet"], mode)
        assert odds["defender"]["dodge"] == dodge and dodge["mode"] == mode
        rows = odds["track"]
        assert all(set(row) == {"bashing", "lethal", "aggravated", "probability", "float"} for row in rows)
        assert sum(Fraction(row["probability"]) for row in rows) == 1


def test_V20_21_the_api_odds_add_potence_to_a_brawl_or_melee_attack(client, make_table):
    t = make_table("v20")
    alice = t.join("Alice")
    nia = t.character(alice, {**ATTACKER, "disciplines": {"potence": 2}})
    ghoul = t.character(t.st, GHOUL)
    response = client.get(
        f"{t.base}/odds/exchange",
        headers=t.st,
        params={"attacker": nia["id"], "target": ghoul["id"], "weapon": "knife"},
    )
    assert response.status_code == 200, response.text
    expected = exchange_odds(
        V20Request(pool=5),
        Weapon(1, "lethal", strength=3, potence=2),
        Defender(stamina=3, fortitude=1, health=(1, 0, 0)),
    )
    assert response.json()["odds"]["outcomes"] == expected.outcomes.texts()
    assert response.json()["odds"]["weapon"]["potence"] == 2
    response = client.get(
        f"{t.base}/odds/exchange",
        headers=t.st,
        params={"attacker": nia["id"], "target": ghoul["id"], "weapon": "pistol"},
    )
    assert response.json()["odds"]["weapon"]["potence"] == 0  # a firearm: no Potence
