"""V5 compulsions through the API (seed 001, SPEC V5-14, A-1), on SQLite and PostgreSQL: after a
bestial failure the Storyteller calls the clan's compulsion (its own log entry), every member sees it,
the character's tests carry its penalty while it lasts, the Storyteller ends it (another entry) or the
scene's end does; the export verifies, and a penalty removed from a receipt fails verify."""

from __future__ import annotations

import copy
import json

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.play import verify_receipt
from rollbook.server.baselines import SYSTEM_LEDGERS, verify_ledger
from rollbook.server.chain import read_jsonl, verify_entries
from tests.toy_system import registered

from .conftest import Table
from .helpers import rechained
from .receipts import Dice

GANGREL = {
    "name": "Rook",
    "clan": "Gangrel",
    "attributes": {"dexterity": 3, "manipulation": 3},
    "skills": {"firearms": 3, "persuasion": 2},
    "hunger": 1,
}
SHOOT = {"kind": "test", "attribute": "dexterity", "skill": "firearms"}  # 3 + 3: 5 normal dice, 1 Hunger die
PERSUADE = {"kind": "test", "attribute": "manipulation", "skill": "persuasion"}  # 3 + 2


@pytest.fixture(scope="module")
def dice() -> Dice:
    return Dice("compulsions")


@pytest.fixture(autouse=True)
def every_face_rolled(dice):
    yield
    assert not dice.faces, "a test pushed faces it never rolled"


@pytest.fixture(scope="module")
def api(database_url, dice):
    with TestClient(create_app(database_url, dice=dice)) as client:
        yield client


def new_table(api) -> Table:
    response = api.post("/api/chronicles", json={"name": "Compulsions", "system": "v5"})
    assert response.status_code == 201, response.text
    return Table(api, response.json())


def problems_of(entries: list[dict]) -> list[str]:
    found, _ = verify_entries(read_jsonl([json.dumps(e) for e in entries]), verify_receipt, verify_ledger())
    return found


def modifiers(rolled) -> list[dict]:
    assert rolled.status_code == 201, rolled.text
    return [m for m in rolled.json()["entry"]["receipt"]["pool"]["modifiers"] if m["source"] == "compulsion"]


def test_seed_001_a_compulsion_called_shown_applied_and_ended(api, dice):
    t = new_table(api)
    ann = t.join("Ann")
    rook = t.character(ann, GANGREL)
    base = f"{t.base}/characters/{rook['id']}/compulsion"
    assert api.post(f"{t.base}/scenes", headers=t.st, json={"name": "The docks"}).status_code == 201
    dice.push(2, 2, 2, 2, 2, 1)  # no success, the Hunger die a 1: a bestial failure (V5-6)
    failed = t.roll(ann, rook["id"], SHOOT)
    assert failed.json()["entry"]["receipt"]["result"]["outcome"] == "bestial_failure"
    seq = failed.json()["entry"]["seq"]

    assert api.post(base, headers=ann, json={}).status_code == 403  # the Storyteller's call
    called = api.post(base, headers=t.st, json={"roll": seq})
    assert called.status_code == 201, called.text
    compulsion = called.json()["compulsion"]
    assert (compulsion["compulsion"], compulsion["until"], compulsion["dice"]) == (
        "feral_impulses",
        "scene",
        -3,
    )
    assert called.json()["entry"]["kind"] == "compulsion" and called.json()["entry"]["refers_to"] == seq
    shown = api.get(base, headers=ann).json()["compulsion"]  # every member of the table sees it
    assert shown["compulsion"] == "feral_impulses" and shown["called"] == called.json()["entry"]["seq"]
    again = api.post(base, headers=t.st, json={"compulsion": "hunger"})
    assert again.status_code == 409 and again.json()["code"] == "compulsion_in_force"

    dice.push(6, 6)  # 3 + 2 − 3
    assert modifiers(t.roll(ann, rook["id"], PERSUADE)) == [
        {"source": "compulsion", "dice": -3, "compulsion": "feral_impulses", "called": compulsion["called"]}
    ]
    dice.push(6, 6, 6, 6, 6, 6)
    assert (
        modifiers(t.roll(ann, rook["id"], SHOOT)) == []
    )  # Feral Impulses: Manipulation and Intelligence only

    assert api.delete(base, headers=ann).status_code == 403
    ended = api.delete(base, headers=t.st)
    assert ended.status_code == 200, ended.text
    assert ended.json()["entry"]["kind"] == "compulsion_end"
    assert api.get(base, headers=ann).json()["compulsion"] is None
    assert api.delete(base, headers=t.st).json()["code"] == "no_compulsion"
    dice.push(6, 6)  # 3 + 2 − 3
    assert modifiers(t.roll(ann, rook["id"], PERSUADE)) == []

    entries = [json.loads(line) for line in t.export().splitlines()]
    assert problems_of(entries) == []
    forged = copy.deepcopy(entries)  # the penalty taken out of the persuasion roll, hashes recomputed
    roll = next(e for e in forged if e["kind"] == "roll" and e["receipt"]["pool"]["modifiers"])
    roll["receipt"]["pool"]["modifiers"] = []
    assert any("compulsion" in p for p in problems_of(rechained(forged)))


def test_seed_001_a_scene_long_compulsion_ends_with_the_scene(api, dice):
    t = new_table(api)
    rook = t.character(t.st, {**GANGREL, "clan": "Brujah"})
    base = f"{t.base}/characters/{rook['id']}/compulsion"
    no_scene = api.post(base, headers=t.st, json={"until": "scene"})
    assert no_scene.status_code == 409 and no_scene.json()["code"] == "no_open_scene"
    assert api.post(f"{t.base}/scenes", headers=t.st, json={}).status_code == 201
    assert api.post(base, headers=t.st, json={}).json()["compulsion"]["compulsion"] == "rebellion"
    dice.push(6, 6, 6, 6)
    assert modifiers(t.roll(t.st, rook["id"], SHOOT))[0]["dice"] == -2  # Rebellion: every roll
    assert api.post(f"{t.base}/scene/close", headers=t.st).status_code == 200
    assert api.get(base, headers=t.st).json()["compulsion"] is None
    dice.push(6, 6, 6, 6, 6, 6)
    assert modifiers(t.roll(t.st, rook["id"], SHOOT)) == []
    lasting = api.post(base, headers=t.st, json={"compulsion": "hunger"})  # no scene open: until ended
    assert lasting.json()["compulsion"]["until"] == "ended"
    entries = [json.loads(line) for line in t.export().splitlines()]
    assert problems_of(entries) == []


def test_seed_001_refusals(api, dice):
    t = new_table(api)
    caitiff = t.character(t.st, {**GANGREL, "clan": "Caitiff"})
    refused = api.post(f"{t.base}/characters/{caitiff['id']}/compulsion", headers=t.st, json={})
    assert refused.status_code == 422 and refused.json()["code"] == "no_clan_compulsion"
    dice.push(6, 6, 6, 6, 6, 6)
    clean = t.roll(t.st, caitiff["id"], SHOOT).json()["entry"]["seq"]
    not_beast = api.post(
        f"{t.base}/characters/{caitiff['id']}/compulsion",
        headers=t.st,
        json={"compulsion": "hunger", "roll": clean},
    )
    assert not_beast.status_code == 409 and not_beast.json()["code"] == "not_a_beast_result"
    v20 = api.post("/api/chronicles", json={"name": "Classic", "system": "v20"}).json()
    other = api.post(
        f"/api/chronicles/{v20['chronicle']['id']}/characters/1/compulsion",
        headers={"Authorization": f"Bearer {v20['token']}"},
        json={},
    )
    assert other.status_code == 422 and other.json()["code"] == "compulsion_not_for_system"


def test_V5_10_a_failed_rouse_at_hunger_5_offers_the_hunger_frenzy_test_the_storyteller_calls(api, dice):
    t = new_table(api)
    ann = t.join("Ann")
    rook = t.character(
        ann, {**GANGREL, "hunger": 5, "attributes": {**GANGREL["attributes"], "composure": 2, "resolve": 2}}
    )
    dice.push(6)
    kept = t.roll(ann, rook["id"], {"kind": "rouse"})
    dice.push(2)
    failed = t.roll(ann, rook["id"], {"kind": "rouse"})
    assert failed.status_code == 201, failed.text
    effects = failed.json()["entry"]["effects"]
    assert {
        "flag": "hunger_frenzy_risk",
        "hunger": 5,
        "offers": {"kind": "frenzy", "difficulty": 4},
    } in effects
    seq = failed.json()["entry"]["seq"]
    frenzy = f"{t.base}/characters/{rook['id']}/hunger-frenzy"
    assert (
        api.post(frenzy, headers=ann, json={"roll": seq}).status_code == 403
    )  # the Storyteller's call (V5-14)
    nothing = api.post(frenzy, headers=t.st, json={"roll": kept.json()["entry"]["seq"]})
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_frenzy_offered"
    dice.push(6, 6, 2, 2, 2, 2)  # Willpower 4 + a third of Humanity 7: 6 dice (Book)
    called = api.post(frenzy, headers=t.st, json={"roll": seq})
    assert called.status_code == 201, called.text
    entry = called.json()["entry"]
    assert entry["refers_to"] == seq and entry["character"] == rook["id"]
    receipt = entry["receipt"]
    assert receipt["kind"] == "frenzy" and receipt["request"]["difficulty"] == 4
    assert receipt["frenzy_test"] == {"after": seq, "reason": "hunger"}
    assert receipt["request"]["pool"] == 4 + 7 // 3 and receipt["pool"]["hunger_dice"] == 0  # V5-9
    again = api.post(frenzy, headers=t.st, json={"roll": seq})
    assert again.status_code == 409 and again.json()["code"] == "frenzy_already_called"
    entries = [json.loads(line) for line in t.export().splitlines()]
    assert problems_of(entries) == []


def test_V5_feeding_damage_and_remorse_with_stains_through_the_log(api, dice):
    """Feeding slakes Hunger (the Storyteller's change, logged), a vampire's superficial Health
    damage halved, Remorse with stains applied once; the export verifies."""
    t = new_table(api)
    ann = t.join("Ann")
    rook = t.character(ann, {**GANGREL, "hunger": 4})
    changes = f"{t.base}/characters/{rook['id']}/adjustments"
    feed = {"change": {"kind": "feed", "slake": 5}}
    assert api.post(changes, headers=ann, json=feed).status_code == 403  # the Storyteller's change
    fed = api.post(changes, headers=t.st, json=feed)
    assert fed.status_code == 201, fed.text
    assert fed.json()["effects"] == [{"resource": "hunger", "before": 4, "after": 1}]
    assert fed.json()["entry"]["kind"] == "adjust"
    again = api.post(changes, headers=t.st, json=feed)
    assert again.status_code == 409 and again.json()["code"] == "hunger_slaked"

    hit = api.post(
        changes,
        headers=ann,
        json={"change": {"kind": "damage", "track": "health", "superficial": 3, "halve": True}},
    )
    assert hit.status_code == 201, hit.text
    assert t.sheet(ann, rook["id"])["sheet"]["health"]["superficial"] == 2

    assert (
        api.post(changes, headers=t.st, json={"change": {"kind": "stains", "amount": 2}}).status_code == 201
    )
    dice.push(3)  # Humanity 7, 2 stains: one die; a failure costs a Humanity dot
    remorse = t.roll(ann, rook["id"], {"kind": "remorse"})
    assert remorse.status_code == 201, remorse.text
    assert remorse.json()["effects"] == [
        {"resource": "humanity", "before": 7, "after": 6},
        {"resource": "stains", "before": 2, "after": 0},
    ]
    twice = t.roll(ann, rook["id"], {"kind": "remorse"})
    assert twice.status_code == 409 and twice.json()["code"] == "no_stains"
    entries = [json.loads(line) for line in t.export().splitlines()]
    assert problems_of(entries) == []


def test_a_discipline_power_rolled_and_paid_in_one_step_through_the_log(api, dice):
    """A listed power rolls its own pool and pays its Rouse checks in one roll entry; a Gangrel
    under Feral Impulses pays the penalty on a Manipulation power too; the export verifies (the Hunger
    chain across the Rouse checks included)."""
    t = new_table(api)
    ann = t.join("Ann")
    rook = t.character(
        ann,
        {
            **GANGREL,
            "disciplines": {"animalism": 1, "dominate": 2},
            "powers": [
                {"discipline": "animalism", "level": 1, "power": "bond_famulus"},
                {"discipline": "dominate", "level": 2, "power": "mesmerize"},
            ],
            "skills": {**GANGREL["skills"], "animal_ken": 2},
        },
    )
    # Charisma 1 + Animal Ken 2: three dice; then three Rouse checks, two dice each (Blood Potency 1, a level 1 power)
    dice.push(6, 6, 6, 6, 6, 2, 3, 2, 3)
    famulus = t.roll(ann, rook["id"], {"kind": "power", "discipline": "animalism", "power": "bond_famulus"})
    assert famulus.status_code == 201, famulus.text
    receipt = famulus.json()["entry"]["receipt"]
    assert receipt["pool"]["total"] == 3 and len(receipt["rouses"]) == 3
    assert [e["after"] for e in famulus.json()["effects"] if e.get("resource") == "hunger"] == [2, 3]
    assert api.post(f"{t.base}/scenes", headers=t.st, json={}).status_code == 201
    assert api.post(f"{t.base}/characters/{rook['id']}/compulsion", headers=t.st, json={}).status_code == 201
    dice.push(6, 6)  # Manipulation 3 + Dominate 2 − 3 (Feral Impulses); the Rouse die next
    dice.push(7)
    mesmerize = t.roll(ann, rook["id"], {"kind": "power", "discipline": "dominate", "power": "mesmerize"})
    assert modifiers(mesmerize)[0]["dice"] == -3
    entries = [json.loads(line) for line in t.export().splitlines()]
    assert problems_of(entries) == []


def test_seed_001_feeding_ends_the_hunger_compulsion(api, dice):
    """Book: the Hunger compulsion ends when the vampire slakes at least one Hunger: the feeding change
    logs its end (``"reason": "slaked"``); another compulsion is left to the Storyteller."""
    t = new_table(api)
    rook = t.character(t.st, {**GANGREL, "hunger": 3})
    base = f"{t.base}/characters/{rook['id']}/compulsion"
    changes = f"{t.base}/characters/{rook['id']}/adjustments"
    assert api.post(base, headers=t.st, json={"compulsion": "hunger"}).status_code == 201
    assert api.post(changes, headers=t.st, json={"change": {"kind": "feed", "slake": 1}}).status_code == 201
    assert api.get(base, headers=t.st).json()["compulsion"] is None
    ended = [e for e in t.log()["entries"] if e["kind"] == "compulsion_end"]
    assert ended and ended[-1]["receipt"]["reason"] == "slaked"
    assert api.post(base, headers=t.st, json={}).status_code == 201  # Feral Impulses: feeding does not end it
    assert api.post(changes, headers=t.st, json={"change": {"kind": "feed", "slake": 1}}).status_code == 201
    assert api.get(base, headers=t.st).json()["compulsion"]["compulsion"] == "feral_impulses"
    entries = [json.loads(line) for line in t.export().splitlines()]
    assert problems_of(entries) == []


def test_log_verify_follows_the_compulsions_through_v5s_ledger_part():
    """``verify_ledger`` finds each system's ledger through the registry (``SYSTEM_LEDGERS``): V5's
    compulsions, after the table's authority and baseline; the toy declares none (``LEDGER = None``)."""
    with registered():
        assert list(SYSTEM_LEDGERS) == ["v5"]
        parts = verify_ledger().parts
    assert [type(part).__name__ for part in parts] == [
        "AuthorityLedger",
        "BaselineLedger",
        "CompulsionLedger",
    ]
    assert verify_ledger().parts[2] is not parts[2]  # a new one per log: it follows the log from its start
