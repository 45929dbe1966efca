"""Contested and extended rolls through the API (SPEC TR-3, TR-4), on SQLite and PostgreSQL: the
Storyteller declares, each side rolls its own part, the log holds every entry and the export verifies."""

from __future__ import annotations

import json

import pytest

from rollbook.play import verify_receipt
from rollbook.server.baselines import verify_ledger
from rollbook.server.chain import read_jsonl, verify_entries

from .conftest import V5_SHEET, V5_TEST, V20_SHEET, V20_TEST
from .helpers import rechained


def verify(table) -> list[str]:
    problems, _ = verify_entries(read_jsonl(table.export().splitlines()), verify_receipt, verify_ledger())
    return problems


def test_TR_3_a_v20_contest_declared_rolled_by_each_side_and_resolved(client, make_table):
    table = make_table("v20")
    ann, bob = table.join("Ann"), table.join("Bob")
    a = table.character(ann, V20_SHEET)
    b = table.character(bob, {**V20_SHEET, "name": "Beckett"})
    body = {
        "attacker": {"character": a["id"], "action": V20_TEST},
        "defender": {
            "character": b["id"],
            "action": {"kind": "test", "attribute": "wits", "ability": "alertness", "difficulty": 7},
        },
    }
    assert (
        client.post(f"{table.base}/contests", headers=ann, json=body).status_code == 403
    )  # the Storyteller's
    declared = client.post(f"{table.base}/contests", headers=table.st, json=body)
    assert declared.status_code == 201, declared.text
    seq = declared.json()["contest"]["seq"]
    # a side is rolled by whoever may act for its character
    assert (
        client.post(f"{table.base}/contests/{seq}/rolls", headers=bob, json={"side": "attacker"}).status_code
        == 403
    )
    first = client.post(f"{table.base}/contests/{seq}/rolls", headers=ann, json={"side": "attacker"})
    assert first.status_code == 201, first.text
    assert first.json()["contest"]["result"] is None and first.json()["entry"]["refers_to"] == seq
    again = client.post(f"{table.base}/contests/{seq}/rolls", headers=ann, json={"side": "attacker"})
    assert again.status_code == 409 and again.json()["code"] == "contest_side_rolled"
    second = client.post(f"{table.base}/contests/{seq}/rolls", headers=bob, json={"side": "defender"})
    assert second.status_code == 201, second.text
    result = second.json()["contest"]["result"]
    attacker, defender = (
        second.json()["contest"]["sides"][s]["outcome"]["successes"] for s in ("attacker", "defender")
    )
    assert result["winner"] == (
        "attacker" if attacker > defender else "defender"
    )  # TR-3: a tie is the defender's
    assert result["margin"] == abs(attacker - defender)
    assert result["attacker"]["roll"] == first.json()["entry"]["seq"]
    assert second.json()["entry"]["receipt"]["request"]["difficulty"] == 7  # as declared
    kinds = [
        e["kind"] for e in table.log()["entries"] if e["seq"] >= seq and e["kind"] != "seed_commit"
    ]  # F-1
    assert kinds == ["contest", "roll", "roll", "contest_result"]
    assert (
        client.get(f"{table.base}/contests/{seq}", headers=bob).json()["result"]["winner"] == result["winner"]
    )
    assert verify(table) == []


def test_TR_4_an_extended_action_adds_its_rolls_until_its_end(client, make_table):
    table = make_table("v5")
    ann = table.join("Ann")
    sasha = table.character(ann, V5_SHEET)
    body = {"character": sasha["id"], "action": V5_TEST, "target": 30, "max_rolls": 2}
    declared = client.post(f"{table.base}/extended", headers=table.st, json=body)
    assert declared.status_code == 201, declared.text
    seq = declared.json()["extended"]["seq"]
    assert declared.json()["extended"]["rolls_left"] == 2
    total = 0
    for n in (1, 2):
        rolled = client.post(f"{table.base}/extended/{seq}/rolls", headers=ann)
        assert rolled.status_code == 201, rolled.text
        state = rolled.json()["extended"]
        result = rolled.json()["entry"]["receipt"]["result"]
        if state["status"] == "bestial":  # TR-4: a bestial failure ends it
            assert result["bestial"]
            break
        total += result["successes"]
        assert (state["total"], state["rolls"]) == (total, n)
        note = rolled.json()["entry"]["receipt"]["extended"]  # the running total, in the roll's own receipt
        assert (note["of"], note["roll"], note["total"], note["rolls_left"]) == (seq, n, total, 2 - n)
    assert state["status"] in ("out_of_rolls", "bestial") and state["rolls_left"] == 0
    over = client.post(f"{table.base}/extended/{seq}/rolls", headers=ann)
    assert over.status_code == 409 and over.json()["code"] == "extended_over"
    assert verify(table) == []


def test_TR_3_contests_refused_where_they_do_not_apply(client, make_table):
    table = make_table("tiers")
    refused = client.post(
        f"{table.base}/extended",
        headers=table.st,
        json={"character": 1, "action": {"kind": "skill", "skill": "x"}, "target": 2},
    )
    assert refused.status_code == 422 and refused.json()["code"] == "contest_not_for_system"
    v20 = make_table("v20")
    character = v20.character(v20.st, V20_SHEET)
    same = client.post(
        f"{v20.base}/contests",
        headers=v20.st,
        json={
            "attacker": {"character": character["id"], "action": V20_TEST},
            "defender": {"character": character["id"], "action": V20_TEST},
        },
    )
    assert same.status_code == 422 and same.json()["code"] == "contest_same_character"
    missing = client.get(f"{v20.base}/contests/1", headers=v20.st)
    assert missing.status_code == 404


def test_TR_3_TR_4_verify_recomputes_contests_and_extended_actions(client, make_table):
    """A forged contest result, a side's roll made with another roll than declared, or an extended
    action's running total rewritten: each fails verify, hashes recomputed, no --head."""
    import copy

    table = make_table("v20")
    a = table.character(table.st, V20_SHEET)
    b = table.character(table.st, {**V20_SHEET, "name": "Beckett"})
    seq = client.post(
        f"{table.base}/contests",
        headers=table.st,
        json={
            "attacker": {"character": a["id"], "action": V20_TEST},
            "defender": {"character": b["id"], "action": V20_TEST},
        },
    ).json()["contest"]["seq"]
    for side in ("attacker", "defender"):
        assert (
            client.post(
                f"{table.base}/contests/{seq}/rolls", headers=table.st, json={"side": side}
            ).status_code
            == 201
        )
    extended = client.post(
        f"{table.base}/extended",
        headers=table.st,
        json={"character": a["id"], "action": V20_TEST, "target": 40},
    ).json()["extended"]["seq"]
    assert client.post(f"{table.base}/extended/{extended}/rolls", headers=table.st).status_code == 201
    entries = [json.loads(line) for line in table.export().splitlines()]

    def problems(entries):
        found, _ = verify_entries(
            read_jsonl([json.dumps(e) for e in entries]), verify_receipt, verify_ledger()
        )
        return found

    assert problems(entries) == []
    forged = copy.deepcopy(entries)
    result = next(e for e in forged if e["kind"] == "contest_result")
    result["receipt"]["winner"] = "attacker" if result["receipt"]["winner"] == "defender" else "defender"
    assert any("is not what its rolls make" in p for p in problems(rechained(forged)))
    forged = copy.deepcopy(entries)
    roll = next(e for e in forged if (e["receipt"] or {}).get("extended"))
    roll["receipt"]["extended"]["total"] += 5
    assert any("running total" in p for p in problems(rechained(forged)))


@pytest.mark.parametrize(
    ("action", "code", "field"),
    [
        ({"kind": "rouse"}, "contest_side_not_a_test", "defender.action.kind"),
        ({**V5_TEST, "difficulty": 3}, "contest_side_difficulty", "defender.action.difficulty"),
    ],
)
def test_TR_3_a_v5_contest_side_is_a_test_without_difficulty(client, make_table, action, code, field):
    table = make_table("v5")
    sasha = table.character(table.st, V5_SHEET)["id"]
    rook = table.character(table.st, {**V5_SHEET, "name": "Rook"})["id"]
    refused = client.post(
        f"{table.base}/contests",
        headers=table.st,
        params={"lang": "fr"},
        json={
            "attacker": {"character": sasha, "action": V5_TEST},
            "defender": {"character": rook, "action": action},
        },
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == code and refused.json()["params"]["field"] == field
    assert "opposition V5" in refused.json()["detail"]
    assert [e["kind"] for e in table.log()["entries"]].count("contest") == 0
