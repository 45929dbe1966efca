"""The combat chain on the server (SPEC V20-17, T-4, T-5; ``usecases.exchange``): each step names the
entry it ``follows``, the log records ``refers_to``, the soak takes its levels from the damage receipt
and marks the defender's track in its own transaction; who may take each step. SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.play import verify_receipt
from rollbook.server.chain import read_jsonl, verify_entries
from rollbook.server.ledger import AuthorityLedger

from .conftest import Table
from .helpers import MELEE, V20_ATTACKER, V20_DEFENDER
from .receipts import Dice


@pytest.fixture(scope="module")
def dice() -> Dice:
    """The app's dice factory for these tests: the faces pushed are drawn first, in order; then a
    deterministic stream of its own."""
    return Dice("exchange")


@pytest.fixture(autouse=True)
def every_face_drawn(dice):
    dice.faces.clear()
    yield
    assert dice.faces == [], "faces pushed and never drawn"


@pytest.fixture(scope="module")
def exchange_client(database_url, dice):
    with TestClient(create_app(database_url, dice=dice)) as client:
        yield client


def table(client, system: str) -> Table:
    response = client.post("/api/chronicles", json={"name": f"Exchange {system}", "system": system})
    assert response.status_code == 201, response.text
    return Table(client, response.json())


def ok(response, status: int = 201) -> dict:
    assert response.status_code == status, response.text
    return response.json()


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code, response.text


def test_V20_17_attack_damage_soak_marks_the_defenders_health(exchange_client, dice):
    t = table(exchange_client, "v20")
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(alice, V20_ATTACKER)
    bran = t.character(bob, V20_DEFENDER)
    dice.push(6, 8, 9, 2, 3)  # 3 successes
    attack = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    assert attack["receipt"]["exchange"]["target"] == bran["id"]
    dice.push(
        6, 1, 1, 7, 2, 10
    )  # Strength 3 + knife 1 + 2 extra successes = 6 dice: 3 levels (1s cancel nothing)
    damage = ok(t.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"]))[
        "entry"
    ]
    assert damage["refers_to"] == attack["seq"] and damage["receipt"]["pool"]["total"] == 6
    assert damage["receipt"]["result"]["levels"] == 3
    assert damage["receipt"]["exchange"] == {
        "attacker": nia["id"],
        "target": bran["id"],
        "opened": attack["seq"],
        "follows": attack["seq"],
    }
    dice.push(6, 2, 3)  # Stamina 2 + Fortitude 1: one level soaked
    soaked = ok(t.roll(bob, bran["id"], {"kind": "soak"}, follows=damage["seq"]))
    soak = soaked["entry"]
    assert soak["refers_to"] == damage["seq"]
    assert soak["receipt"]["request"]["damage"] == 3 and soak["receipt"]["request"]["damage_type"] == "lethal"
    assert soaked["character"]["sheet"]["health"]["lethal"] == 2  # marked in the soak's transaction
    assert t.sheet(bob, bran["id"])["sheet"]["health"]["lethal"] == 2
    assert {"resource": "health.lethal", "before": 0, "after": 2} in soak["effects"]
    # the log: each step refers to the one before it
    entries = {e["seq"]: e for e in t.log(bob)["entries"]}
    assert entries[soak["seq"]]["refers_to"] == damage["seq"]
    # one step follows each entry once
    refused(t.roll(bob, bran["id"], {"kind": "soak"}, follows=damage["seq"]), 409, "step_taken")


def test_V20_17_who_may_take_each_step(exchange_client, dice):
    t = table(exchange_client, "v20")
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(alice, V20_ATTACKER)
    bran = t.character(bob, V20_DEFENDER)
    ghoul = t.character(t.st, {**V20_DEFENDER, "name": "Ghoul"})  # an NPC: the Storyteller's
    dice.push(6, 8, 9, 2, 3)
    attack = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    # the damage roll is the attacker's: not Bob's, not for another character
    refused(t.roll(bob, bran["id"], {"kind": "damage"}, follows=attack["seq"]), 403, "not_your_step")
    refused(t.roll(bob, nia["id"], {"kind": "damage"}, follows=attack["seq"]), 403, "not_your_character")
    # wrong step order: a soak follows a damage roll, not the attack
    refused(t.roll(bob, bran["id"], {"kind": "soak"}, follows=attack["seq"]), 422, "follows_wrong_kind")
    # a typed-in value the receipt gives
    dice.push(6, 6, 6, 2, 2, 2)
    damage = ok(t.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"]))[
        "entry"
    ]
    refused(
        t.roll(t.st, bran["id"], {"kind": "soak", "damage": 1}, follows=damage["seq"]),
        422,
        "follows_conflict",
    )
    refused(
        t.roll(bob, bran["id"], {"kind": "soak", "damage": 1}, follows=damage["seq"]), 403, "grant_required"
    )
    # the defender's soak: not Alice's for her own character, not someone else's defender
    refused(t.roll(alice, nia["id"], {"kind": "soak"}, follows=damage["seq"]), 403, "not_the_defender")
    refused(t.roll(alice, bran["id"], {"kind": "soak"}, follows=damage["seq"]), 403, "not_your_character")
    refused(t.roll(t.st, ghoul["id"], {"kind": "soak"}, follows=damage["seq"]), 403, "not_the_defender")
    # the Storyteller may roll the defence for a player's character too (the rules: the Storyteller acts for any)
    dice.push(2, 2, 2)
    assert ok(t.roll(t.st, bran["id"], {"kind": "soak"}, follows=damage["seq"]))["character"]["sheet"][
        "health"
    ] == {"bashing": 0, "lethal": 3, "aggravated": 0}
    # an attack on an NPC: the Storyteller runs the defender's side
    dice.push(6, 8, 9, 2, 3)
    attack = ok(t.roll(alice, nia["id"], MELEE, target=ghoul["id"]))["entry"]
    dice.push(6, 6, 2, 2, 2, 2)
    damage = ok(t.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"]))[
        "entry"
    ]
    refused(t.roll(alice, ghoul["id"], {"kind": "soak"}, follows=damage["seq"]), 403, "not_your_character")
    dice.push(2, 2, 2)
    assert (
        ok(t.roll(t.st, ghoul["id"], {"kind": "soak"}, follows=damage["seq"]))["character"]["sheet"][
            "health"
        ]["lethal"]
        == 2
    )
    # an attack without a target: any character but the attacker defends
    dice.push(6, 8, 9, 2, 3)
    attack = ok(t.roll(alice, nia["id"], MELEE))["entry"]
    dice.push(6, 6, 2, 2, 2)  # unarmed: Strength 3 + 2 (V20-17)
    damage = ok(t.roll(alice, nia["id"], {"kind": "damage"}, follows=attack["seq"]))["entry"]
    assert damage["receipt"]["exchange"]["target"] is None
    dice.push(2, 2, 2)
    soak = ok(t.roll(bob, bran["id"], {"kind": "soak"}, follows=damage["seq"]))["entry"]
    assert soak["receipt"]["exchange"]["target"] == bran["id"]


def test_exchange_refusals_targets_and_unknown_entries(exchange_client, dice):
    t = table(exchange_client, "v20")
    alice = t.join("Alice")
    nia = t.character(alice, V20_ATTACKER)
    other = table(exchange_client, "v20")
    stranger = other.character(other.st, V20_DEFENDER)
    refused(t.roll(alice, nia["id"], MELEE, target=nia["id"]), 422, "target_is_attacker")
    refused(t.roll(alice, nia["id"], MELEE, target=stranger["id"]), 404, "character_not_found")
    refused(t.roll(alice, nia["id"], {"kind": "willpower"}, target=nia["id"]), 422, "target_not_for_kind")
    refused(t.roll(alice, nia["id"], {"kind": "damage"}, follows=9999), 404, "entry_not_found")
    scene = ok(exchange_client.post(f"{t.base}/scenes", headers=t.st, json={"name": "Alley"}))["entry"]
    refused(t.roll(alice, nia["id"], {"kind": "damage"}, follows=scene["seq"]), 409, "not_a_roll")
    willpower = ok(t.roll(alice, nia["id"], {"kind": "willpower"}))["entry"]
    refused(
        t.roll(alice, nia["id"], {"kind": "willpower"}, follows=willpower["seq"]), 422, "follows_not_for_kind"
    )


def test_a_step_may_not_follow_a_hidden_roll_a_player_does_not_see(exchange_client, dice):
    t = table(exchange_client, "v20")
    bob = t.join("Bob")
    bran = t.character(bob, V20_DEFENDER)
    ghoul = t.character(t.st, {**V20_ATTACKER, "name": "Ghoul"})
    dice.push(6, 8, 9, 2, 3)
    attack = ok(t.roll(t.st, ghoul["id"], MELEE, target=bran["id"], hidden=True))["entry"]
    dice.push(6, 6, 6, 2, 2, 2)
    damage = ok(t.roll(t.st, ghoul["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"]))[
        "entry"
    ]
    assert damage["visibility"] == "hidden"  # a step that follows a hidden roll is hidden
    refused(t.roll(bob, bran["id"], {"kind": "soak"}, follows=damage["seq"]), 404, "entry_not_found")
    revealed = exchange_client.post(f"{t.base}/log/{damage['seq']}/reveal", headers=t.st)
    assert revealed.status_code in (200, 201), revealed.text
    dice.push(2, 2, 2)
    soak = ok(t.roll(bob, bran["id"], {"kind": "soak"}, follows=damage["seq"]))["entry"]
    assert soak["visibility"] == "public" and soak["receipt"]["request"]["damage"] == 3


TIERS_SHOOTER = {
    "name": "Ana",
    "skills": {"firearms": 6},
    "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}],
}
TIERS_TARGET = {"name": "Rook", "skills": {"dodge": 4}, "endurance": 3, "armor": {"torso": 2}}
SHOT = {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 2}


def test_T_4_T_5_firearms_dodge_soak_advances_the_wounds(exchange_client, dice):
    t = table(exchange_client, "tiers")
    alice, bob = t.join("Alice"), t.join("Bob")
    ana = t.character(alice, TIERS_SHOOTER)
    rook = t.character(bob, TIERS_TARGET)
    dice.push(6)  # (6 + 2 − 6) × 2 bullets = tier 4 (T-3)
    shot = ok(t.roll(alice, ana["id"], SHOT, target=rook["id"]))
    assert shot["entry"]["receipt"]["result"]["tier"] == 4
    assert shot["character"]["sheet"]["weapons"][0]["loaded"] == 4
    refused(
        t.roll(alice, ana["id"], {"kind": "dodge"}, follows=shot["entry"]["seq"]), 403, "not_the_defender"
    )
    dice.push(1, 3)  # 4 − 1 + 1 critical = tier 4: not strictly greater (T-4)
    dodge = ok(t.roll(bob, rook["id"], {"kind": "dodge"}, follows=shot["entry"]["seq"]))["entry"]
    assert dodge["refers_to"] == shot["entry"]["seq"] and not dodge["receipt"]["result"]["dodged"]
    refused(
        t.roll(t.st, rook["id"], {"kind": "soak", "location": "torso"}, follows=shot["entry"]["seq"]),
        409,
        "step_taken",
    )
    # where the hit lands is the game master's, not the defender's: Bob asks
    refused(
        t.roll(bob, rook["id"], {"kind": "soak", "location": "torso"}, follows=dodge["seq"]),
        403,
        "grant_required",
    )
    asked = ok(
        t.roll(bob, rook["id"], {"kind": "soak", "location": "torso"}, follows=dodge["seq"], ask=True), 202
    )
    dice.push(4)  # 3 + 2 − 4 = soak tier 1: 3 wounds (T-5)
    soaked = ok(exchange_client.post(f"{t.base}/asks/{asked['ask']['id']}/grant", headers=t.st, json={}))
    assert soaked["entry"]["receipt"]["request"]["attack_tier"] == 4
    assert soaked["entry"]["receipt"]["result"]["damage"] == 3
    assert soaked["character"]["sheet"]["wounds"]["level"] == 3
    assert t.sheet(bob, rook["id"])["sheet"]["wounds"]["level"] == 3


def test_a_players_step_with_an_edge_is_asked_and_granted_as_that_step(exchange_client, dice):
    """A-1: a hidden soak is the Storyteller's call; the ask keeps what it follows and the grant rolls it."""
    t = table(exchange_client, "v20")
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(alice, V20_ATTACKER)
    bran = t.character(bob, V20_DEFENDER)
    dice.push(6, 8, 9, 2, 3)
    attack = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    dice.push(6, 6, 6, 2, 2, 2)
    damage = ok(t.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"]))[
        "entry"
    ]
    asked = ok(t.roll(bob, bran["id"], {"kind": "soak"}, follows=damage["seq"], hidden=True, ask=True), 202)
    assert asked["entry"]["receipt"]["follows"] == damage["seq"]
    dice.push(6, 2, 2)
    granted = ok(exchange_client.post(f"{t.base}/asks/{asked['ask']['id']}/grant", headers=t.st, json={}))
    assert granted["entry"]["refers_to"] == damage["seq"] and granted["entry"]["visibility"] == "hidden"
    assert granted["character"]["sheet"]["health"]["lethal"] == 2
    # the log still checks out: the chain, every receipt from its faces, the grant
    problems, counts = verify_entries(read_jsonl(t.export().splitlines()), verify_receipt, AuthorityLedger())
    assert problems == [] and counts["receipts"] == 3
    followed = [json.loads(line) for line in t.export().splitlines()][-1]
    assert (
        followed["receipt"]["exchange"]["follows"] == followed["refers_to"] == damage["seq"]
    )  # under the hash


# --- the exchange carries only granted edges ------------------------------------

PERCEPTION = {"kind": "test", "attribute": "wits", "ability": "alertness"}


def test_perception_roll_followed_by_rifle_damage(exchange_client, dice):
    """V20-17: damage follows an attack (a test of a combat Ability), with a weapon that attack uses."""
    t = table(exchange_client, "v20")
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(
        alice,
        {
            **V20_ATTACKER,
            "attributes": {**V20_ATTACKER["attributes"], "wits": 2},
            "talents": {"alertness": 3},
        },
    )
    bran = t.character(bob, V20_DEFENDER)
    dice.push(9, 9, 9, 9, 9)  # five successes on a perception roll
    look = ok(t.roll(alice, nia["id"], PERCEPTION))["entry"]
    refused(
        t.roll(alice, nia["id"], {"kind": "damage", "weapon": "pistol"}, follows=look["seq"]),
        422,
        "not_an_attack",
    )
    refused(t.roll(t.st, nia["id"], {"kind": "damage"}, follows=look["seq"]), 422, "not_an_attack")
    dice.push(6, 8, 9, 2, 3)
    stab = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    refused(
        t.roll(alice, nia["id"], {"kind": "damage", "weapon": "pistol"}, follows=stab["seq"]),
        422,
        "weapon_not_the_attacks",
    )
    # a shot aimed at the head is the Storyteller's to grant
    refused(
        t.roll(
            alice,
            nia["id"],
            {"kind": "damage", "weapon": "knife", "aimed_at_head": True},
            follows=stab["seq"],
        ),
        403,
        "grant_required",
    )
    assert [s for s in next_steps_of(t, stab["seq"]) if s["kind"] == "damage"] != []
    assert [s for s in next_steps_of(t, look["seq"]) if s["kind"] == "damage"] == []


def next_steps_of(t, seq: int) -> list[dict]:
    from rollbook.server.usecases.exchange import next_steps

    entry = next(e for e in t.log()["entries"] if e["seq"] == seq)
    return next_steps(t.system, entry)


def test_a_step_follows_an_attack_of_a_closed_scene(exchange_client, dice):
    t = table(exchange_client, "v20")
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(alice, V20_ATTACKER)
    bran = t.character(bob, V20_DEFENDER)
    ok(exchange_client.post(f"{t.base}/scenes", headers=t.st, json={"name": "Docks"}))
    dice.push(6, 8, 9, 2, 3)
    attack = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    ok(exchange_client.post(f"{t.base}/scene/close", headers=t.st), 200)
    refused(
        t.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"]),
        409,
        "exchange_scene_closed",
    )
    # an attack made outside any scene, then a scene opened: still followed
    dice.push(6, 8, 9, 2, 3)
    outside = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    ok(exchange_client.post(f"{t.base}/scenes", headers=t.st, json={"name": "Later"}))
    dice.push(6, 6, 6, 2, 2, 2)
    ok(t.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=outside["seq"]))


@pytest.mark.parametrize("target", ["missing", "other_chronicle", "attacker"])
def test_follow_up_target_outside_the_chronicle(exchange_client, dice, target):
    """A follow-up's target is checked as an attack's: a character of this chronicle, not the attacker."""
    t = table(exchange_client, "v20")
    alice = t.join("Alice")
    nia = t.character(alice, V20_ATTACKER)
    elsewhere = table(exchange_client, "v20")
    stranger = elsewhere.character(elsewhere.st, V20_DEFENDER)
    dice.push(6, 8, 9, 2, 3)
    attack = ok(t.roll(alice, nia["id"], MELEE))["entry"]  # aimed at no one yet
    named = {"missing": 999999, "other_chronicle": stranger["id"], "attacker": nia["id"]}[target]
    answer = t.roll(
        alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"], target=named
    )
    if target == "attacker":
        refused(answer, 422, "target_is_attacker")
    else:
        refused(answer, 404, "character_not_found")


@pytest.mark.parametrize(
    "system, action",
    [
        ("v20", {"kind": "soak", "damage": 8, "damage_type": "lethal"}),
        ("tiers", {"kind": "dodge", "attack_tier": 0}),
        ("tiers", {"kind": "soak", "attack_tier": 0, "location": "torso"}),
    ],
)
def test_standalone_defence_with_typed_damage(exchange_client, dice, system, action):
    """A soak or dodge that follows no roll takes its damage numbers from the Storyteller only (A-1)."""
    t = table(exchange_client, system)
    bob = t.join("Bob")
    mine = t.character(bob, V20_DEFENDER if system == "v20" else TIERS_TARGET)
    refused(t.roll(bob, mine["id"], action), 403, "grant_required")
    asked = ok(t.roll(bob, mine["id"], action, ask=True), 202)
    assert set(asked["ask"]["asked"]) == set(action) - {"kind"}


def test_tiers_defender_chooses_where_the_hit_lands(exchange_client, dice):
    """T-5: the location hit is the game master's (or the attacker's), never the defender's own pick."""
    t = table(exchange_client, "tiers")
    alice, bob = t.join("Alice"), t.join("Bob")
    ana = t.character(alice, TIERS_SHOOTER)
    rook = t.character(bob, {**TIERS_TARGET, "armor": {"torso": 2, "head": 9}})
    dice.push(6)
    shot = ok(t.roll(alice, ana["id"], SHOT, target=rook["id"]))["entry"]
    refused(
        t.roll(bob, rook["id"], {"kind": "soak", "location": "head"}, follows=shot["seq"]),
        403,
        "grant_required",
    )
    dice.push(4)
    soaked = ok(t.roll(t.st, rook["id"], {"kind": "soak", "location": "torso"}, follows=shot["seq"]))["entry"]
    assert soaked["receipt"]["pool"]["parts"][1] == {"trait": "armor.torso", "rating": 2}


def test_V20_20_the_defender_dodges_and_the_damage_follows_the_dodge(exchange_client, dice):
    t = table(exchange_client, "v20")
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(alice, {**V20_ATTACKER, "disciplines": {"potence": 1}})
    bran = t.character(bob, {**V20_DEFENDER, "attributes": {"stamina": 2, "dexterity": 2}})
    dice.push(6, 8, 9, 2, 3)  # 3 successes
    attack = ok(t.roll(alice, nia["id"], {**MELEE, "weapon": "knife"}, target=bran["id"]))["entry"]
    steps = {s["kind"]: s for s in next_steps_of(t, attack["seq"])}
    assert steps["dodge"]["character"] == bran["id"] and steps["dodge"]["side"] == "defender"
    assert steps["damage"]["character"] == nia["id"]
    refused(t.roll(alice, nia["id"], {"kind": "dodge"}, follows=attack["seq"]), 403, "not_the_defender")
    dice.push(7, 3)  # Dexterity 2, no Athletics: one success
    dodge = ok(t.roll(bob, bran["id"], {"kind": "dodge"}, follows=attack["seq"]))["entry"]
    assert dodge["refers_to"] == attack["seq"]
    assert dodge["receipt"]["attack"] == {"ability": "melee", "weapon": "knife", "successes": 3, "left": 2}
    assert dodge["receipt"]["exchange"]["target"] == bran["id"]
    # the damage is the attacker's, after the dodge, with the successes left (V20-20)
    assert next_steps_of(t, dodge["seq"]) == [
        {
            "kind": "damage",
            "side": "attacker",
            "character": nia["id"],
            "takes": {"successes": 2},
            "follows": dodge["seq"],
        }
    ]
    refused(t.roll(bob, bran["id"], {"kind": "damage"}, follows=dodge["seq"]), 403, "not_your_step")
    refused(t.roll(bob, bran["id"], {"kind": "dodge"}, follows=attack["seq"]), 409, "step_taken")
    dice.push(6, 2, 2, 2, 2)  # Strength 3 + knife 1 + (2 − 1): 5 dice, one level + Potence 1 (V20-21)
    damage = ok(t.roll(alice, nia["id"], {"kind": "damage"}, follows=dodge["seq"]))["entry"]
    assert damage["refers_to"] == dodge["seq"] and damage["receipt"]["pool"]["total"] == 5
    assert damage["receipt"]["result"]["levels"] == 2
    assert damage["receipt"]["result"]["auto_sources"] == {"potence": 1}
    dice.push(2, 2, 2)
    soaked = ok(t.roll(bob, bran["id"], {"kind": "soak"}, follows=damage["seq"]))
    assert soaked["character"]["sheet"]["health"]["lethal"] == 2
    for entry in (dodge, damage, soaked["entry"]):
        assert verify_receipt(entry["receipt"]) == []


def test_V20_20_a_dodge_that_takes_every_success_ends_the_exchange(exchange_client, dice):
    t = table(exchange_client, "v20")
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(alice, V20_ATTACKER)
    bran = t.character(bob, {**V20_DEFENDER, "attributes": {"stamina": 2, "dexterity": 3}})
    dice.push(6, 2, 2, 2, 2)  # one success
    attack = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    dice.push(6, 6, 1)
    dodge = ok(t.roll(bob, bran["id"], {"kind": "dodge"}, follows=attack["seq"]))["entry"]
    assert dodge["receipt"]["attack"]["left"] == 0
    assert next_steps_of(t, dodge["seq"]) == []
    refused(t.roll(alice, nia["id"], {"kind": "damage"}, follows=dodge["seq"]), 422, "attack_dodged")
    # a missed attack offers no dodge
    dice.push(2, 2, 2, 2, 2)
    missed = ok(t.roll(alice, nia["id"], MELEE, target=bran["id"]))["entry"]
    assert next_steps_of(t, missed["seq"]) == []
