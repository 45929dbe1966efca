"""A-5 and TR-1: the settings a receipt's baseline depends on change only through a
Storyteller's ``settings`` entry, and ``rollbook log verify`` reads the baseline in force from the
log — with no ``--head`` — on SQLite and PostgreSQL."""

from __future__ import annotations

import copy
import json

from rollbook.play import verify_receipt
from rollbook.server.baselines import verify_ledger
from rollbook.server.chain import read_jsonl, verify_entries
from rollbook.systems.v20 import rules as rules20

from .conftest import V20_SHEET, V20_TEST
from .helpers import rechained, rolled_v20

SPECIALTY_SHEET = {
    **V20_SHEET,
    "attributes": {"dexterity": 4, "wits": 2},
    "specialties": {"dexterity": ["quick draw"]},
}


def verify(entries: list[dict]) -> list[str]:
    problems, _ = verify_entries(
        read_jsonl([json.dumps(e) for e in entries]), verify_receipt, verify_ledger()
    )
    return problems


def exported(table) -> list[dict]:
    return [json.loads(line) for line in table.export().splitlines()]


def player_roll(entries: list[dict]) -> dict:
    return next(e for e in entries if e["kind"] == "roll" and e["actor"]["role"] == "player")


def resolved_again(receipt: dict, **request_changes) -> None:
    """The forger rewrites a V20 receipt's request and recomputes its result from the same faces."""
    receipt["request"].update(request_changes)
    for name, value in request_changes.items():
        if name in receipt["action"]:
            receipt["action"][name] = value
    request = rules20.V20Request(
        **{k: tuple(v) if isinstance(v, list) else v for k, v in receipt["request"].items()}
    )
    from rollbook.rules.base import to_plain

    receipt["result"] = to_plain(rules20.resolve(request, tuple(receipt["faces"])))


def test_A_5_settings_changes_are_storyteller_log_entries(client, make_table):
    table = make_table("v20", mode="casual", difficulty=7)
    log = table.log()["entries"]
    assert [e["kind"] for e in log] == ["settings"]  # created with other settings than the defaults: said
    assert log[0]["receipt"] == {
        "mode": "casual",
        "difficulty": 7,
        "table_rules": [],
        "changed": ["mode", "difficulty"],
    }
    player = table.join("Ann")
    changed = client.patch(table.base, headers=table.st, json={"mode": "strict"})
    assert changed.status_code == 200, changed.text
    assert client.patch(table.base, headers=player, json={"mode": "casual"}).status_code == 403
    ruled = client.put(
        f"{table.base}/table-rules", headers=table.st, json={"table_rules": ["v20.ones_do_not_cancel"]}
    )
    assert ruled.status_code == 200 and ruled.json()["table_rules"] == ["v20.ones_do_not_cancel"]
    refused = client.put(f"{table.base}/table-rules", headers=table.st, json={"table_rules": ["v5.nothing"]})
    assert refused.status_code == 422 and refused.json()["code"] == "unknown_table_rule"
    assert (
        client.put(f"{table.base}/table-rules", headers=player, json={"table_rules": []}).status_code == 403
    )
    settings = [e for e in table.log()["entries"] if e["kind"] == "settings"]
    assert [s["receipt"]["changed"] for s in settings] == [["mode", "difficulty"], ["mode"], ["table_rules"]]
    assert all(s["actor"]["role"] == "storyteller" for s in settings)
    assert verify(exported(table)) == []


def test_A_5_a_baseline_forged_to_an_easier_difficulty_fails_verify(client, make_table):
    entries = rolled_v20(make_table, difficulty=8)
    assert verify(entries) == []
    forged = copy.deepcopy(entries)
    roll = player_roll(forged)
    assert roll["receipt"]["authority"]["baseline"]["difficulty"] == 8
    roll["receipt"]["authority"]["baseline"]["difficulty"] = 4
    resolved_again(roll["receipt"], difficulty=4)
    problems = verify(rechained(forged))
    assert any("baseline difficulty is 4, the log says 8" in p for p in problems), problems


def test_A_5_a_characters_standing_difficulty_is_in_the_log(client, make_table):
    table = make_table("v20")
    player = table.join("Ann")
    character = table.character(player, V20_SHEET)
    edited = client.patch(
        f"{table.base}/characters/{character['id']}", headers=table.st, json={"difficulty": 9}
    )
    assert edited.status_code == 200, edited.text
    assert table.roll(player, character["id"], V20_TEST).status_code == 201
    entries = exported(table)
    assert [e for e in entries if e["kind"] == "settings"][0]["receipt"] == {
        "character": character["id"],
        "difficulty": 9,
        "changed": ["difficulty"],
    }
    assert verify(entries) == []
    forged = copy.deepcopy(entries)
    roll = player_roll(forged)
    roll["receipt"]["authority"]["baseline"]["difficulty"] = 6
    resolved_again(roll["receipt"], difficulty=6)
    assert any("baseline difficulty" in p for p in verify(rechained(forged)))


def test_A_5_strict_changed_to_casual_fails_verify(client, make_table):
    entries = rolled_v20(make_table)
    assert verify(entries) == []
    forged = copy.deepcopy(entries)
    resolved_again(player_roll(forged)["receipt"], mode="casual")
    problems = verify(rechained(forged))
    assert any("resolved in casual mode while the chronicle is strict" in p for p in problems), problems


def test_A_5_a_settings_entry_by_a_player_fails_verify(client, make_table):
    table = make_table("v20", mode="casual")
    entries = exported(table)
    entries[0]["actor"]["role"] = "player"
    assert any(
        "settings entry made by someone other than the Storyteller" in p for p in verify(rechained(entries))
    )


def test_TR_1_a_receipt_under_a_table_rule_verifies_and_fails_with_the_rule_removed_from_its_log(
    client, make_table
):
    """TR-1 and the issue's floor: resolved under v20.specialty_reroll_tens (the chronicle's set, recorded in
    the receipt), the roll verifies; the same export with the table rule taken out of its settings entry
    (hashes recomputed) fails verify."""
    table = make_table("v20")
    assert (
        client.put(
            f"{table.base}/table-rules", headers=table.st, json={"table_rules": ["v20.specialty_reroll_tens"]}
        ).status_code
        == 200
    )
    player = table.join("Ann")
    character = table.character(player, SPECIALTY_SHEET)
    rolled = table.roll(player, character["id"], {**V20_TEST, "specialty": "quick draw"})
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["table_rules"] == ["v20.specialty_reroll_tens"]
    assert receipt["request"]["table_rules"] == ["v20.specialty_reroll_tens"]
    assert receipt["result"]["reroll_limit"] == rules20.REROLL_LIMIT
    assert len(receipt["faces"]) == receipt["result"]["pool"] + receipt["result"]["rerolled"]
    entries = exported(table)
    assert verify(entries) == []
    removed = copy.deepcopy(entries)
    settings = next(e for e in removed if e["kind"] == "settings")
    settings["receipt"]["table_rules"] = []
    problems = verify(rechained(removed))
    assert any("not those in force" in p for p in problems), problems


def test_TR_2_willpower_once_per_turn_refuses_a_second_willpower_success_in_a_turn(client, make_table):
    table = make_table("v20")
    character = table.character(table.st, {**V20_SHEET, "willpower": {"permanent": 6, "current": 6}})
    assert client.post(f"{table.base}/scenes", headers=table.st, json={"name": "Fight"}).status_code == 201
    assert client.post(f"{table.base}/scene/turns", headers=table.st).status_code == 201
    first = table.roll(table.st, character["id"], {**V20_TEST, "willpower": True})
    assert first.status_code == 201
    warned = table.roll(table.st, character["id"], {**V20_TEST, "willpower": True})
    assert warned.status_code == 201 and warned.json()["warnings"][0]["code"] == "willpower_per_turn"  # V20-9
    assert (
        client.put(
            f"{table.base}/table-rules",
            headers=table.st,
            json={"table_rules": ["v20.willpower_once_per_turn"]},
        ).status_code
        == 200
    )
    assert client.post(f"{table.base}/scene/turns", headers=table.st).status_code == 201
    assert table.roll(table.st, character["id"], {**V20_TEST, "willpower": True}).status_code == 201
    refused = table.roll(table.st, character["id"], {**V20_TEST, "willpower": True})
    assert refused.status_code == 409 and refused.json()["code"] == "willpower_per_turn"  # TR-2
    assert verify(exported(table)) == []


def test_TR_1_a_quick_roll_is_resolved_under_the_table_rules_and_verifies(app, client, make_table):
    from rollbook.server.usecases import rolls

    from .helpers import as_member

    table = make_table("v20")
    assert (
        client.put(
            f"{table.base}/table-rules", headers=table.st, json={"table_rules": ["v20.ones_do_not_cancel"]}
        ).status_code
        == 200
    )
    quick = as_member(app, table.st, lambda s, m: rolls.quick_roll(s, m, {"pool": 3}))
    assert quick["entry"]["receipt"]["request"]["table_rules"] == ["v20.ones_do_not_cancel"]
    assert verify(exported(table)) == []
