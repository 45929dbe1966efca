"""The table's authority through the JSON API (SPEC A-1 … A-4, V20-9, V20-18, T-3), on SQLite and
PostgreSQL: every edge of A-1 in the four systems is refused without a grant, rolled exactly as
granted, never rolled when refused; a grant is used once, even by two concurrent grants; standing
grants; scenes, turns and per-turn limits (concurrent spends included); multiple actions; and
``rollbook log verify`` checking that a granted roll used exactly what was granted."""

from __future__ import annotations

import json
import threading
from collections import deque

import httpx
import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.play import verify_receipt
from rollbook.server.chain import read_jsonl, verify_entries
from rollbook.server.ledger import AuthorityLedger

from .conftest import V5_SHEET, V20_SHEET, V20_TEST, Table, ThreadedServer
from .helpers import log_verify, rehash

PROBLEM = "application/problem+json"


class QueuedDice:
    """The app's dice for these tests: each test loads the faces its next roll needs."""

    name = "given"

    def __init__(self) -> None:
        self.faces: deque[int] = deque()

    def load(self, *faces: int) -> None:
        self.faces.extend(faces)

    def draw(self, n: int, sides: int):
        assert len(self.faces) >= n, f"the test loaded too few faces ({n}d{sides} wanted)"
        drawn = tuple(self.faces.popleft() for _ in range(n))
        assert all(1 <= face <= sides for face in drawn), drawn
        return drawn

    def __call__(self) -> QueuedDice:  # the app's dice factory
        return self


@pytest.fixture(scope="module")
def dice_and_client(database_url):
    dice = QueuedDice()
    with TestClient(create_app(database_url, dice=dice)) as client:
        yield dice, client


@pytest.fixture()
def dice(dice_and_client):
    queued, _ = dice_and_client
    queued.faces.clear()
    yield queued
    assert not queued.faces, "a test loaded faces it never rolled"


@pytest.fixture()
def api(dice_and_client):
    return dice_and_client[1]


def new_table(client, system: str, **fields) -> Table:
    response = client.post(
        "/api/chronicles", json={"name": f"Authority {system}", "system": system, **fields}
    )
    assert response.status_code == 201, response.text
    return Table(client, response.json())


def problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code, body
    return body


def ask(table: Table, headers: dict, character_id: int, action: dict, **body) -> dict:
    response = table.roll(headers, character_id, action, ask=True, **body)
    assert response.status_code == 202, response.text
    return response.json()["ask"]


def grant(table: Table, ask_id: int, edges: dict | None = None, headers: dict | None = None):
    body = {} if edges is None else {"edges": edges}
    return table.client.post(f"{table.base}/asks/{ask_id}/grant", headers=headers or table.st, json=body)


def verified(table: Table, headers: dict | None = None) -> list[str]:
    problems, _ = verify_entries(
        read_jsonl(table.export(headers).splitlines()), verify_receipt, AuthorityLedger()
    )
    return problems


V20_KNOWLEDGE = {**V20_SHEET, "knowledges": {"occult": 0}}
TIERS_SHEET = {
    "name": "Kay",
    "skills": {"firearms": 6, "dodge": 4},
    "weapons": [{"name": "pistol", "bonus": 1, "capacity": 6, "loaded": 6, "spare": 12}],
}
RU_SHEET = {"name": "Ayla", "skills": {"climb": 12}}
RU_CHECK = {"kind": "check", "action": "Climb the wall", "skill": "climb"}
V5_TEST = {"kind": "test", "attribute": "dexterity", "skill": "firearms"}

# (id, system, sheet, action without edges, edges asked, edges granted (None: as asked), faces of the
#  roll as granted, what the receipt must show: (path in the receipt, value))
EDGE_CASES = [
    (
        "v20-modifier",
        "v20",
        V20_SHEET,
        V20_TEST,
        {"modifier": 2},
        {"modifier": 1},
        [6] * 6,
        [("pool.total", 6), ("result.successes", 6)],
    ),
    (
        "v20-difficulty",
        "v20",
        V20_SHEET,
        V20_TEST,
        {"difficulty": 4},
        {"difficulty": 5},
        [5, 4, 4, 4, 4],
        [("request.difficulty", 5), ("result.successes", 1)],
    ),
    (
        "v20-required",
        "v20",
        V20_SHEET,
        V20_TEST,
        {"required": 3},
        {"required": 2},
        [6, 6, 2, 2, 2],
        [("request.required", 2), ("result.outcome", "success")],
    ),
    (
        "v20-auto-successes",
        "v20",
        V20_SHEET,
        V20_TEST,
        {"auto_successes": 2},
        {"auto_successes": 1},
        [2, 2, 2, 2, 2],
        [("result.auto_successes", 1), ("result.outcome", "success")],
    ),
    (
        "v20-knowledge-leave",
        "v20",
        V20_KNOWLEDGE,
        {"kind": "test", "attribute": "wits", "ability": "occult"},
        {"knowledge_allowed": True},
        None,
        [7, 6],
        [("result.difficulty", 7), ("result.successes", 1)],
    ),
    (
        "v20-willpower-roll-modifier",
        "v20",
        V20_SHEET,
        {"kind": "willpower"},
        {"modifier": -1},
        None,
        [6, 6],
        [("pool.total", 2)],
    ),
    (
        "v20-virtue-difficulty",
        "v20",
        V20_SHEET,
        {"kind": "virtue", "virtue": "courage"},
        {"difficulty": 9},
        {"difficulty": 8},
        [8, 8, 7],
        [("request.difficulty", 8), ("result.successes", 2)],
    ),
    (
        "v5-modifier",
        "v5",
        V5_SHEET,
        V5_TEST,
        {"modifier": 3},
        {"modifier": 1},
        [6, 6, 6, 2, 2, 2, 2],
        [("pool.total", 7), ("result.successes", 3)],
    ),
    (
        "v5-difficulty",
        "v5",
        V5_SHEET,
        V5_TEST,
        {"difficulty": 4},
        {"difficulty": 3},
        [6, 6, 6, 2, 2, 2],
        [("request.difficulty", 3), ("result.outcome", "success")],
    ),
    (
        "v5-frenzy-difficulty",
        "v5",
        V5_SHEET,
        {"kind": "frenzy"},
        {"difficulty": 2},
        {"difficulty": 3},
        [6, 6, 2, 2],
        [("request.difficulty", 3), ("result.outcome", "failure")],
    ),
    (
        "rollunder-advantage",
        "rollunder",
        RU_SHEET,
        RU_CHECK,
        {"advantage": True},
        None,
        [15, 9],
        [("result.kept", 9), ("result.outcome", "success")],
    ),
    (
        "rollunder-disadvantage",
        "rollunder",
        RU_SHEET,
        RU_CHECK,
        {"disadvantage": True},
        None,
        [15, 9],
        [("result.kept", 15), ("result.outcome", "failure")],
    ),
    (
        "rollunder-bonus",
        "rollunder",
        RU_SHEET,
        RU_CHECK,
        {"bonus": 8},
        {"bonus": 2},
        [14],
        [("result.target", 14), ("result.outcome", "success")],
    ),
    (
        "rollunder-malus",
        "rollunder",
        RU_SHEET,
        RU_CHECK,
        {"malus": 3},
        {"malus": 1},
        [12],
        [("result.target", 11), ("result.outcome", "failure")],
    ),
    (
        "rollunder-task",
        "rollunder",
        RU_SHEET,
        RU_CHECK,
        {"task": "trivial"},
        {"task": "absurd"},
        [],
        [("result.rolled", False), ("result.outcome", "failure")],
    ),
    (
        "rollunder-opposed",
        "rollunder",
        RU_SHEET,
        {"kind": "opposed", "action": "Arm-wrestle"},
        {"dice": "2d6", "threshold": 9},
        {"dice": "3d6", "threshold": 9},
        [3, 3, 4],
        [("result.total", 10), ("result.outcome", "failure")],
    ),
]


def at(receipt: dict, path: str):
    for part in path.split("."):
        receipt = receipt[part]
    return receipt


@pytest.mark.parametrize("case", EDGE_CASES, ids=[case[0] for case in EDGE_CASES])
def test_A1_each_edge_refused_without_a_grant_rolled_as_granted_not_rolled_when_refused(api, dice, case):
    _, system, sheet, action, asked, granted, faces, expected = case
    table = new_table(api, system)
    player = table.join("Ann")
    character = table.character(player, sheet)
    request = {**action, **asked}

    # Without the ask flag: refused, nothing logged, nothing spent.
    body = problem(table.roll(player, character["id"], request), 403, "grant_required")
    assert body["params"]["edges"] == sorted(asked)
    assert table.log()["entries"] == []

    # Asked, then refused: nothing rolled.
    refused = ask(table, player, character["id"], request)
    assert refused["asked"] == asked and refused["status"] == "pending"
    answer = api.post(f"{table.base}/asks/{refused['id']}/refuse", headers=table.st, json={"reason": "no"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["ask"]["status"] == "refused"
    problem(grant(table, refused["id"]), 409, "ask_decided")
    assert [e["kind"] for e in table.log()["entries"]] == ["ask", "refusal"]

    # Asked, then granted (as asked or changed): the server rolls exactly what was granted.
    waiting = ask(table, player, character["id"], request)
    dice.load(*faces)
    answer = grant(table, waiting["id"], granted)
    assert answer.status_code == 201, answer.text
    rolled = answer.json()
    receipt = rolled["entry"]["receipt"]
    decision = rolled["ask"]["decision"]
    assert decision["decision"] == ("as_asked" if granted is None else "changed")
    assert decision["edges"] == (asked if granted is None else granted)
    assert decision["roll_seq"] == rolled["entry"]["seq"]
    assert receipt["authority"]["grant"] == rolled["grant"]["seq"]  # the receipt names its grant
    assert receipt["action"] == rolled["grant"]["receipt"]["action"]
    for name, value in (granted if granted is not None else asked).items():
        assert receipt["action"][name] == value
    for path, value in expected:
        assert at(receipt, path) == value, (path, receipt)
    assert rolled["entry"]["actor"]["member"] == waiting["member"]  # the player's roll
    assert verify_receipt(receipt) == []
    assert [e["kind"] for e in table.log()["entries"]] == ["ask", "refusal", "ask", "grant", "roll"]
    # The player sees it too, and the log checks out, grants included.
    seen = table.log(player)["entries"][-1]
    assert seen["seq"] == rolled["entry"]["seq"] and seen["receipt"] == receipt
    assert verified(table) == [] and verified(table, player) == []


@pytest.mark.parametrize(
    "system, sheet, action, faces",
    [
        ("v20", V20_SHEET, V20_TEST, [6] * 5),
        ("v5", V5_SHEET, V5_TEST, [6] * 6),
        ("tiers", TIERS_SHEET, {"kind": "skill", "skill": "dodge"}, [3]),
        ("rollunder", RU_SHEET, RU_CHECK, [5]),
    ],
)
def test_A1_a_hidden_roll_is_asked_in_every_system(api, dice, system, sheet, action, faces):
    table = new_table(api, system)
    player = table.join()
    character = table.character(player, sheet)
    problem(table.roll(player, character["id"], action, hidden=True), 403, "grant_required")
    waiting = ask(table, player, character["id"], action, hidden=True)
    assert waiting["asked"] == {"hidden": True}
    dice.load(*faces)
    rolled = grant(table, waiting["id"])
    assert rolled.status_code == 201, rolled.text
    entry = rolled.json()["entry"]
    assert entry["visibility"] == "hidden"
    assert table.log(player)["entries"][-1]["redacted"] is True  # until the Storyteller reveals it
    assert verified(table) == []


def test_A1_plain_rolls_ask_nothing_in_every_system(api, dice):
    """Without an edge a player's roll is rolled at once, as before (Tiers has no edge but hidden)."""
    for system, sheet, action, faces in [
        ("v20", V20_SHEET, V20_TEST, [6] * 5),
        ("v5", V5_SHEET, V5_TEST, [6] * 6),
        ("tiers", TIERS_SHEET, {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1}, [3]),
        ("rollunder", RU_SHEET, RU_CHECK, [5]),
    ]:
        table = new_table(api, system)
        player = table.join()
        character = table.character(player, sheet)
        dice.load(*faces)
        rolled = table.roll(player, character["id"], action, ask=True)
        assert rolled.status_code == 201, rolled.text
        assert rolled.json()["entry"]["receipt"]["authority"]["baseline"]["hidden"] is False


def test_A1_an_ask_must_be_a_roll_the_rules_accept(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    problem(table.roll(player, character["id"], {**V20_TEST, "modifier": 99}, ask=True), 422, "out_of_range")
    problem(
        table.roll(player, character["id"], {**V20_TEST, "ability": "gunsmithing", "modifier": 1}, ask=True),
        422,
        "unknown_trait",
    )
    # An untrained Knowledge without asking the leave for it would be refused if granted: refused now.
    problem(
        table.roll(player, character["id"], {**V20_TEST, "ability": "occult", "modifier": 1}, ask=True),
        422,
        "untrained_knowledge_refused",
    )
    problem(
        table.roll(player, character["id"], {**V20_TEST, "faces": [10], "modifier": 1}, ask=True),
        422,
        "faces_not_allowed",
    )
    waiting = ask(table, player, character["id"], {**V20_TEST, "modifier": 1})
    problem(grant(table, waiting["id"], {"attribute": "wits"}), 422, "not_an_edge")
    problem(grant(table, waiting["id"], {"difficulty": 11}), 422, "out_of_range")
    problem(grant(table, waiting["id"], headers=player), 403, "storyteller_only")
    assert [e["kind"] for e in table.log()["entries"]] == ["ask"]


def test_A1_the_storytellers_own_rolls_carry_edges_directly(api, dice):
    table = new_table(api, "rollunder")
    npc = table.character(table.st, RU_SHEET)
    dice.load(18, 4)
    rolled = table.roll(table.st, npc["id"], {**RU_CHECK, "advantage": True, "bonus": 3}, hidden=True)
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["result"]["kept"] == 4 and receipt["result"]["target"] == 15 and "authority" not in receipt


def test_A1_a_grant_is_used_once(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    waiting = ask(table, player, character["id"], {**V20_TEST, "modifier": 2})
    dice.load(*[6] * 7)
    key = {"Idempotency-Key": "grant-once", **table.st}
    first = api.post(f"{table.base}/asks/{waiting['id']}/grant", headers=key, json={})
    assert first.status_code == 201
    replay = api.post(f"{table.base}/asks/{waiting['id']}/grant", headers=key, json={})
    assert replay.status_code == 201 and replay.headers["Idempotent-Replayed"] == "true"
    assert replay.json() == first.json()
    problem(grant(table, waiting["id"]), 409, "ask_decided")
    problem(
        api.post(f"{table.base}/asks/{waiting['id']}/refuse", headers=table.st, json={}), 409, "ask_decided"
    )
    problem(api.post(f"{table.base}/asks/{waiting['id']}/withdraw", headers=player), 409, "ask_decided")
    assert [e["kind"] for e in table.log()["entries"]] == ["ask", "grant", "roll"]


def test_A1_a_player_withdraws_their_own_waiting_ask(api, dice):
    table = new_table(api, "v20")
    ann, bob = table.join("Ann"), table.join("Bob")
    character = table.character(ann, V20_SHEET)
    waiting = ask(table, ann, character["id"], {**V20_TEST, "modifier": 1})
    problem(api.post(f"{table.base}/asks/{waiting['id']}/withdraw", headers=bob), 404, "ask_not_found")
    problem(api.get(f"{table.base}/asks/{waiting['id']}", headers=bob), 404, "ask_not_found")
    assert api.get(f"{table.base}/asks", headers=bob).json()["asks"] == []
    withdrawn = api.post(f"{table.base}/asks/{waiting['id']}/withdraw", headers=ann)
    assert withdrawn.status_code == 200 and withdrawn.json()["ask"]["status"] == "withdrawn"
    assert api.get(f"{table.base}/asks?status=pending", headers=table.st).json()["asks"] == []
    assert verified(table) == []


def test_A1_two_concurrent_grants_of_one_ask_make_one_roll(app, make_table):
    table = make_table("v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    waiting = table.roll(player, character["id"], {**V20_TEST, "modifier": 2}, ask=True).json()["ask"]
    url = f"{table.base}/asks/{waiting['id']}/grant"
    barrier = threading.Barrier(2)
    results: list = [None, None]

    def go(index: int, body: dict) -> None:
        with httpx.Client(base_url=server.url, timeout=120) as http:
            barrier.wait()
            results[index] = http.post(url, headers=table.st, json=body)

    with ThreadedServer(app) as server:
        threads = [
            threading.Thread(target=go, args=(0, {})),
            threading.Thread(target=go, args=(1, {"edges": {"modifier": 1}})),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(r.status_code for r in results) == [201, 409], [r.text for r in results]
    loser = next(r for r in results if r.status_code == 409)
    assert loser.json()["code"] == "ask_decided"
    kinds = [e["kind"] for e in table.log()["entries"]]
    assert kinds == ["ask", "grant", "seed_commit", "roll"]  # F-1: the seed committed before the first roll
    problems, _ = verify_entries(read_jsonl(table.export().splitlines()), verify_receipt, AuthorityLedger())
    assert problems == []


# --- standing grants (A-1) -----------------------------------------------------------------------


def test_A1_standing_grants_for_the_group_and_a_character(api, dice):
    table = new_table(api, "rollunder")
    ann, bob = table.join("Ann"), table.join("Bob")
    ayla = table.character(ann, RU_SHEET)
    bors = table.character(bob, {**RU_SHEET, "name": "Bors"})
    base = f"{table.base}/standing-grants"
    problem(api.post(base, headers=ann, json={"edges": {"advantage": True}}), 403, "storyteller_only")
    problem(api.post(base, headers=table.st, json={"edges": {"modifier": 1}}), 422, "not_an_edge")
    problem(api.post(base, headers=table.st, json={"edges": {}}), 422, "nothing_granted")
    group = api.post(base, headers=table.st, json={"edges": {"advantage": True}})
    assert group.status_code == 201, group.text
    own = api.post(base, headers=table.st, json={"edges": {"bonus": 2}, "character": ayla["id"]}).json()[
        "standing"
    ]
    # Advantage for everyone, +2 for Ayla: rolled without asking; naming them is no ask either.
    dice.load(17, 8)
    rolled = table.roll(ann, ayla["id"], {**RU_CHECK, "advantage": True, "bonus": 2})
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["result"]["kept"] == 8 and receipt["result"]["target"] == 14
    assert receipt["authority"]["standing"] == [group.json()["standing"]["id"], own["id"]]
    dice.load(17, 13)
    receipt = table.roll(bob, bors["id"], RU_CHECK).json()["entry"]["receipt"]
    assert receipt["result"]["kept"] == 13 and receipt["result"]["target"] == 12
    # More than what stands is still asked.
    problem(table.roll(ann, ayla["id"], {**RU_CHECK, "bonus": 5}), 403, "grant_required")
    ended = api.delete(f"{base}/{own['id']}", headers=table.st)
    assert ended.status_code == 200 and ended.json()["entry"]["kind"] == "standing_end"
    problem(api.delete(f"{base}/{own['id']}", headers=table.st), 409, "standing_ended")
    problem(table.roll(ann, ayla["id"], {**RU_CHECK, "bonus": 2}), 403, "grant_required")
    assert [s["id"] for s in api.get(base, headers=ann).json()["standing"]] == [
        group.json()["standing"]["id"]
    ]
    assert verified(table) == []


def test_A1_a_scene_long_standing_grant_ends_with_the_scene(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    base = f"{table.base}/standing-grants"
    problem(
        api.post(base, headers=table.st, json={"edges": {"modifier": 1}, "scene": True}), 409, "no_open_scene"
    )
    assert api.post(f"{table.base}/scenes", headers=table.st, json={"name": "The docks"}).status_code == 201
    made = api.post(
        base, headers=table.st, json={"edges": {"modifier": 1}, "character": character["id"], "scene": True}
    )
    assert made.status_code == 201, made.text
    dice.load(*[6] * 6)
    assert table.roll(player, character["id"], V20_TEST).json()["entry"]["receipt"]["pool"]["total"] == 6
    closed = api.post(f"{table.base}/scene/close", headers=table.st)
    assert closed.json()["entry"]["receipt"]["standing_ended"] == [made.json()["standing"]["id"]]
    dice.load(*[6] * 5)
    assert table.roll(player, character["id"], V20_TEST).json()["entry"]["receipt"]["pool"]["total"] == 5
    assert verified(table) == []


def test_A1_the_standing_difficulty_is_the_baseline_and_another_one_is_asked(api, dice):
    table = new_table(api, "v20", difficulty=8)
    player = table.join()
    character = table.character(player, V20_SHEET)
    dice.load(*[8] * 5)
    assert (
        table.roll(player, character["id"], V20_TEST).json()["entry"]["receipt"]["request"]["difficulty"] == 8
    )
    waiting = ask(table, player, character["id"], {**V20_TEST, "difficulty": 6})
    assert waiting["asked"] == {"difficulty": 6}
    dice.load(*[7] * 5)
    rolled = grant(table, waiting["id"], {"difficulty": 7}).json()["entry"]["receipt"]
    assert rolled["request"]["difficulty"] == 7 and rolled["result"]["successes"] == 5


# --- scenes and turns, per-turn limits (A-3) ------------------------------------------------------


def spend_blood(table: Table, headers: dict, character_id: int, amount: int):
    return table.client.post(
        f"{table.base}/characters/{character_id}/adjustments",
        headers=headers,
        json={"change": {"kind": "spend_blood", "amount": amount}},
    )


def start_turn(table: Table) -> dict:
    response = table.client.post(f"{table.base}/scene/turns", headers=table.st)
    assert response.status_code == 201, response.text
    return response.json()


def test_A3_scenes_and_turns_are_the_storytellers_and_logged(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    problem(api.post(f"{table.base}/scenes", headers=player, json={}), 403, "storyteller_only")
    problem(api.post(f"{table.base}/scene/turns", headers=table.st), 409, "no_open_scene")
    assert api.get(f"{table.base}/scene", headers=player).json() == {"scene": None}
    opened = api.post(f"{table.base}/scenes", headers=table.st, json={"name": "Elysium"})
    assert opened.status_code == 201 and opened.json()["scene"]["turn"] == 0
    problem(api.post(f"{table.base}/scenes", headers=table.st, json={}), 409, "scene_already_open")
    problem(api.post(f"{table.base}/scene/turns", headers=player), 403, "storyteller_only")
    assert start_turn(table)["scene"]["turn"] == 1
    assert start_turn(table)["scene"]["turn"] == 2
    scene = api.get(f"{table.base}/scene", headers=player).json()["scene"]
    assert scene["running"] and scene["turn"] == 2 and scene["name"] == "Elysium"
    closed = api.post(f"{table.base}/scene/close", headers=table.st)
    assert closed.status_code == 200 and closed.json()["entry"]["receipt"] == {
        "scene": 1,
        "turns": 2,
        "standing_ended": [],
    }
    assert api.post(f"{table.base}/scenes", headers=table.st, json={}).json()["scene"]["number"] == 2
    assert [e["kind"] for e in table.log(player)["entries"]] == [
        "scene_open",
        "turn",
        "turn",
        "scene_close",
        "scene_open",
    ]


def test_V20_18_blood_per_turn_is_summed_within_a_turn_and_resets_at_the_next(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET | {"generation": 8})  # 15 blood, 3 per turn
    cid = character["id"]
    # No scene: each spend is bounded alone.
    assert spend_blood(table, player, cid, 3).status_code == 201
    assert spend_blood(table, player, cid, 3).status_code == 201
    problem(spend_blood(table, player, cid, 4), 409, "blood_per_turn_exceeded")
    fed = api.post(
        f"{table.base}/characters/{cid}/adjustments",
        headers=table.st,
        json={"change": {"kind": "restore", "resource": "blood", "amount": 6}},
    )
    assert fed.json()["character"]["sheet"]["blood"]["current"] == 15
    api.post(f"{table.base}/scenes", headers=table.st, json={})
    assert spend_blood(table, player, cid, 3).status_code == 201  # the scene's turns have not started
    start_turn(table)
    first = spend_blood(table, player, cid, 2)
    assert first.status_code == 201 and first.json()["entry"]["receipt"]["turn"] == {
        "scene": 1,
        "turn": 1,
        "warnings": [],
    }
    assert spend_blood(table, player, cid, 1).status_code == 201
    body = problem(spend_blood(table, player, cid, 1), 409, "turn_blood_exceeded")
    assert body["params"] == {"amount": 1, "spent": 3, "per_turn": 3}
    # The Storyteller's spend for the character counts too (it is the character's blood).
    problem(spend_blood(table, table.st, cid, 1), 409, "turn_blood_exceeded")
    start_turn(table)
    assert spend_blood(table, player, cid, 3).status_code == 201
    problem(spend_blood(table, player, cid, 1), 409, "turn_blood_exceeded")
    assert table.sheet(player, cid)["sheet"]["blood"]["current"] == 15 - 3 - 2 - 1 - 3


def test_V20_18_concurrent_spends_in_one_turn_add_up(app, make_table):
    table = make_table("v20")
    player = table.join()
    character = table.character(player, V20_SHEET | {"generation": 8})  # 3 per turn
    table.client.post(f"{table.base}/scenes", headers=table.st, json={})
    start_turn(table)
    url = f"{table.base}/characters/{character['id']}/adjustments"
    racers = 10
    barrier = threading.Barrier(racers)
    results: list = [None] * racers

    def go(index: int) -> None:
        with httpx.Client(base_url=server.url, timeout=120) as http:
            barrier.wait()
            results[index] = http.post(
                url, headers=player, json={"change": {"kind": "spend_blood", "amount": 1}}
            )

    with ThreadedServer(app) as server:
        threads = [threading.Thread(target=go, args=(i,)) for i in range(racers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    statuses = sorted(r.status_code for r in results)
    assert statuses == [201] * 3 + [409] * (racers - 3), statuses
    assert {r.json()["code"] for r in results if r.status_code == 409} == {"turn_blood_exceeded"}
    assert table.sheet(player, character["id"])["sheet"]["blood"]["current"] == 12
    start_turn(table)
    assert spend_blood(table, player, character["id"], 3).status_code == 201


def test_V20_9_a_second_willpower_success_in_a_turn_warns_and_is_rolled(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    api.post(f"{table.base}/scenes", headers=table.st, json={})
    start_turn(table)
    dice.load(*[2] * 5)
    first = table.roll(player, character["id"], {**V20_TEST, "willpower": True}).json()
    assert first["warnings"] == []
    dice.load(*[2] * 5)
    second = table.roll(player, character["id"], {**V20_TEST, "willpower": True})
    assert second.status_code == 201
    assert second.json()["warnings"] == [{"code": "willpower_per_turn", "count": 2, "limit": 1}]
    receipt = second.json()["entry"]["receipt"]
    assert (
        receipt["result"]["willpower_success"] == 1
        and receipt["turn"]["warnings"] == second.json()["warnings"]
    )
    assert second.json()["character"]["sheet"]["willpower"]["current"] == 1
    start_turn(table)
    dice.load(*[2] * 5)
    assert table.roll(player, character["id"], {**V20_TEST, "willpower": True}).json()["warnings"] == []


def test_T3_a_reload_spends_the_turn_until_the_storyteller_advances_it(api, dice):
    table = new_table(api, "tiers")
    player = table.join()
    character = table.character(
        player, {**TIERS_SHEET, "weapons": [{**TIERS_SHEET["weapons"][0], "loaded": 0}]}
    )
    cid = character["id"]
    api.post(f"{table.base}/scenes", headers=table.st, json={})
    start_turn(table)
    reload = api.post(
        f"{table.base}/characters/{cid}/adjustments",
        headers=player,
        json={"change": {"kind": "reload", "weapon": "pistol"}},
    )
    assert reload.status_code == 201, reload.text
    shot = {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1}
    problem(table.roll(player, cid, shot), 409, "turn_spent")
    problem(
        api.post(
            f"{table.base}/characters/{cid}/adjustments",
            headers=player,
            json={"change": {"kind": "new_turn"}},
        ),
        409,
        "turn_runs",
    )
    turn = start_turn(table)
    assert turn["entry"]["receipt"]["new_turn"][0]["character"] == cid
    dice.load(4)
    assert table.roll(player, cid, shot).status_code == 201


# --- multiple actions (A-4) -----------------------------------------------------------------------


def test_A4_declared_actions_offer_the_split_pool_and_raised_difficulty_granted_by_the_storyteller(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    cid = character["id"]
    offers_url = f"{table.base}/characters/{cid}/offers"
    assert api.post(offers_url, headers=player, json={"action": V20_TEST}).json() == {
        "actions": None,
        "offers": [],
    }
    api.post(f"{table.base}/scenes", headers=table.st, json={})
    problem(
        api.post(f"{table.base}/characters/{cid}/actions", headers=table.st, json={"actions": 2}),
        409,
        "no_running_turn",
    )
    start_turn(table)
    problem(
        api.post(f"{table.base}/characters/{cid}/actions", headers=player, json={"actions": 2}),
        403,
        "storyteller_only",
    )
    declared = api.post(f"{table.base}/characters/{cid}/actions", headers=table.st, json={"actions": 2})
    assert declared.status_code == 201, declared.text
    offers = api.post(offers_url, headers=player, json={"action": V20_TEST}).json()
    assert offers["actions"] == 2
    assert [(o["difficulty"], o["dice"], o["modifier"]) for o in offers["offers"]] == [(7, 3, -2), (7, 2, -3)]
    first = offers["offers"][0]
    waiting = ask(
        table, player, cid, {**V20_TEST, "difficulty": first["difficulty"], "modifier": first["modifier"]}
    )
    dice.load(7, 7, 1)
    rolled = grant(table, waiting["id"]).json()["entry"]["receipt"]
    assert (
        rolled["pool"]["total"] == 3
        and rolled["request"]["difficulty"] == 7
        and rolled["result"]["successes"] == 1
    )
    start_turn(table)  # a new turn: the declaration is over
    assert api.post(offers_url, headers=player, json={"action": V20_TEST}).json()["offers"] == []


# --- rollbook log verify: the receipt used exactly what was granted (A-2) --------------------------


def test_A2_log_verify_finds_a_roll_that_used_more_than_was_granted(api, dice, tmp_path):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    waiting = ask(table, player, character["id"], {**V20_TEST, "modifier": 2})
    dice.load(*[6] * 6)
    roll_seq = grant(table, waiting["id"], {"modifier": 1}).json()["entry"]["seq"]
    lines = table.export().splitlines()
    clean = tmp_path / "clean.jsonl"
    clean.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert log_verify(clean).returncode == 0

    # The roll's action and pool claim the +2 that was asked, not the +1 granted; faces and hashes agree.
    forged = [json.loads(line) for line in lines]
    roll = next(entry for entry in forged if entry["seq"] == roll_seq)
    roll["receipt"]["action"]["modifier"] = 2
    roll["receipt"]["pool"]["modifiers"][0]["dice"] = 2
    roll["receipt"]["pool"]["total"] = 7
    roll["receipt"]["faces"].append(6)
    roll["receipt"]["request"]["pool"] = 7
    roll["receipt"]["result"].update(
        pool=7, faces=roll["receipt"]["faces"], successful_dice=7, rolled_successes=7, successes=7
    )
    assert verify_receipt(roll["receipt"]) == []  # the arithmetic alone would not see it
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(rehash([json.dumps(e) for e in forged], roll_seq)) + "\n", encoding="utf-8")
    result = log_verify(path)
    assert result.returncode == 1, result.stderr
    assert f"entry {roll_seq}: the roll's action is not what grant {roll_seq - 1} granted" in result.stdout
    assert "hash mismatch" not in result.stdout


def test_A2_log_verify_finds_a_grant_used_twice_and_an_ungranted_edge(api, dice):
    table = new_table(api, "v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    waiting = ask(table, player, character["id"], {**V20_TEST, "modifier": 1})
    dice.load(*[6] * 6, *[6] * 5)
    grant(table, waiting["id"])
    table.roll(player, character["id"], V20_TEST)
    entries = [json.loads(line) for line in table.export().splitlines()]
    granted_roll, plain_roll = entries[2], entries[3]
    plain_roll["receipt"]["authority"] = dict(granted_roll["receipt"]["authority"])  # claims the used grant
    problems, _ = verify_entries(
        read_jsonl(rehash([json.dumps(e) for e in entries], 4)), verify_receipt, AuthorityLedger()
    )
    assert any("grant 2 used twice" in p for p in problems), problems
    entries = [json.loads(line) for line in table.export().splitlines()]
    entries[3]["receipt"]["action"]["difficulty"] = 4  # a player's roll at a difficulty nobody granted
    problems, _ = verify_entries(
        read_jsonl(rehash([json.dumps(e) for e in entries], 4)), verify_receipt, AuthorityLedger()
    )
    assert any("sets difficulty without a grant" in p for p in problems), problems
