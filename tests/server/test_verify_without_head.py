"""``rollbook log verify`` catches an edit inside the log with no ``--head``, even when the forger
recomputed the whole hash chain (issue 31 points 10, 12 and 13), on exports of SQLite and PostgreSQL
chronicles: a request changed with its result recomputed while its action says otherwise; the last
rolls under a seed dropped before its reveal (F-8); an effect edited or removed."""

from __future__ import annotations

import copy

from rollbook.play import verify_receipt
from rollbook.play.common import replay
from rollbook.rules import v20 as rules_v20
from rollbook.rules.base import to_plain

from .conftest import V20_SHEET, V20_TEST
from .forging import entries_of, rechained, verify


def forged(tmp_path, entries: list[dict]):
    """The forged export, rechained, through ``rollbook log verify`` (no --head): its output lines."""
    result = verify(tmp_path, rechained(entries), "forged.jsonl")
    assert "hash mismatch" not in result.stdout and "prev_hash" not in result.stdout, result.stdout
    return result


def clean(tmp_path, export: str) -> list[dict]:
    entries = entries_of(export)
    result = verify(tmp_path, entries)
    assert result.returncode == 0, result.stdout
    return entries


def rolls(entries: list[dict]) -> list[dict]:
    return [e for e in entries if e["kind"] == "roll"]


def test_request_changed_with_result_recomputed_is_caught_without_head_issue31_10(make_table, tmp_path):
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    assert table.roll(player, lucita["id"], V20_TEST).status_code == 201
    entries = clean(tmp_path, table.export())
    roll = rolls(entries)[0]
    assert roll["receipt"]["action"]["difficulty"] == 6
    receipt = roll["receipt"]
    receipt["request"]["difficulty"] = 3  # an easier roll, its result recomputed as the verifier would
    _, result = replay(rules_v20.V20Request, rules_v20.resolve, receipt)
    receipt["result"] = to_plain(result)
    assert verify_receipt(copy.deepcopy(receipt)) == []  # the arithmetic alone checks out
    answer = forged(tmp_path, entries)
    assert answer.returncode == 1
    assert f"entry {roll['seq']}: the request's difficulty is 3 but its action says 6" in answer.stdout


def test_last_rolls_dropped_before_the_reveal_are_missing_without_head_issue31_12(make_table, client, tmp_path):
    """F-8: the reveal counts the rolls under its seed; an export holding fewer lacks one."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    for _ in range(3):
        assert table.roll(player, lucita["id"], V20_TEST).status_code == 201
    rotated = client.post(f"{table.base}/fair/rotate", headers=table.st)
    assert rotated.status_code == 201 and rotated.json()["revealed"]["rolls"] == 3
    entries = clean(tmp_path, table.export(player))
    last = rolls(entries)[-1]
    assert last["receipt"]["fair"]["nonce"] == 3
    entries = [e for e in entries if e["seq"] != last["seq"]]  # the forger drops it and rechains
    answer = forged(tmp_path, entries)
    assert answer.returncode == 1
    assert "served 3 roll(s), the last with nonce 3, but the log holds 2" in answer.stdout, answer.stdout
    reveal = next(e for e in entries if e["kind"] == "seed_reveal")
    assert reveal["receipt"]["rolls"] == reveal["receipt"]["last_nonce"] == 3
    assert rotated.json()["revealed"]["last_nonce"] == 3


def test_effects_edited_or_removed_are_caught_without_head_issue31_13(make_table, tmp_path):
    """Effects recomputed from the receipt and the sheet's before-values: a Willpower spend (V20-9)
    whose effect is edited, or removed (from the entry and its receipt), fails."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    for _ in range(2):
        answer = table.roll(player, lucita["id"], {**V20_TEST, "willpower": True})
        assert answer.status_code == 201, answer.text
    entries = clean(tmp_path, table.export())
    first, second = rolls(entries)
    assert first["effects"] == [{"resource": "willpower", "before": 3, "after": 2}]
    assert second["effects"] == [{"resource": "willpower", "before": 2, "after": 1}]

    edited = copy.deepcopy(entries)
    roll = next(e for e in edited if e["seq"] == first["seq"])
    roll["effects"] = roll["receipt"]["effects"] = [{"resource": "willpower", "before": 3, "after": 3}]
    answer = forged(tmp_path, edited)
    assert answer.returncode == 1 and f"entry {first['seq']}: the Willpower spent" in answer.stdout, answer.stdout

    removed = copy.deepcopy(entries)
    roll = next(e for e in removed if e["seq"] == first["seq"])
    roll["effects"] = roll["receipt"]["effects"] = []
    answer = forged(tmp_path, removed)
    assert answer.returncode == 1 and f"entry {first['seq']}: the Willpower spent" in answer.stdout, answer.stdout

    # the second spend moved to look like the first: its before-value no longer follows the sheet
    chained = copy.deepcopy(entries)
    roll = next(e for e in chained if e["seq"] == second["seq"])
    roll["effects"] = roll["receipt"]["effects"] = [{"resource": "willpower", "before": 3, "after": 2}]
    roll["receipt"]["request"]["willpower_current"] = 3
    roll["receipt"]["result"] = to_plain(replay(rules_v20.V20Request, rules_v20.resolve, roll["receipt"])[1])
    answer = forged(tmp_path, chained)
    assert answer.returncode == 1
    assert f"entry {second['seq']}: willpower was 2 after the character's last change" in answer.stdout, answer.stdout


def test_a_request_reading_another_willpower_than_the_sheet_held_is_caught_issue31_10(make_table, tmp_path):
    """The request rebuilt from the sheet's stored values: a Willpower spend whose request (and
    effect) claim the sheet held more than the character's previous spend left."""
    table = make_table("v20")
    player = table.join("Ana")
    lucita = table.character(player, V20_SHEET)
    for _ in range(2):
        assert table.roll(player, lucita["id"], {**V20_TEST, "willpower": True}).status_code == 201
    entries = clean(tmp_path, table.export())
    second = rolls(entries)[1]
    receipt = second["receipt"]
    receipt["request"]["willpower_current"] = 3
    second["effects"] = receipt["effects"] = [{"resource": "willpower", "before": 3, "after": 2}]
    receipt["result"] = to_plain(replay(rules_v20.V20Request, rules_v20.resolve, receipt)[1])
    answer = forged(tmp_path, entries)
    assert answer.returncode == 1
    assert f"entry {second['seq']}: the request read a current Willpower of 3 but the character's last change " \
           "left 2" in answer.stdout, answer.stdout
