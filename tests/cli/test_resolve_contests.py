"""`rollbook resolve` reads contested and extended rolls (SPEC TR-3, TR-4; a contract extension): each
side's or step's faces given, the receipts and the rules' result out; bad lines are one error each."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from rollbook.contract import resolve_text


def answer(line: dict) -> dict:
    out, ok = resolve_text(json.dumps(line))
    assert ok, out
    return out


def refusal(line: dict) -> str:
    out, ok = resolve_text(json.dumps(line))
    assert not ok
    return out["error"]["code"]


def test_TR_3_a_v20_contest_from_each_sides_faces():
    out = answer(
        {
            "system": "v20",
            "id": 7,
            "contest": {"attacker": {"faces": [8, 9, 2]}, "defender": {"faces": [6, 3], "difficulty": 6}},
        }
    )
    assert out["id"] == 7 and out["kind"] == "contest"
    assert (out["winner"], out["margin"], out["tie"]) == ("attacker", 1, False)
    assert out["attacker_roll"]["successes"] == 2 and out["defender_roll"]["successes"] == 1


def test_TR_3_a_tie_is_the_defenders_and_a_botch_is_said():
    tie = answer({"system": "v20", "contest": {"attacker": {"faces": [7]}, "defender": {"faces": [8]}}})
    assert (tie["winner"], tie["margin"], tie["tie"]) == ("defender", 0, True)
    botch = answer({"system": "v20", "contest": {"attacker": {"faces": [1, 2]}, "defender": {"faces": [6]}}})
    assert botch["attacker"] == {"successes": 0, "botch": True}


def test_TR_4_a_v5_extended_action_adds_its_rolls_and_a_messy_critical_is_a_complication():
    out = answer(
        {
            "system": "v5",
            "extended": {
                "target": 5,
                "max_rolls": 3,
                "rolls": [{"normal": [8, 10, 2]}, {"normal": [10, 6], "hunger": [10]}],
            },
        }
    )
    assert (out["total"], out["rolls"], out["status"], out["complications"], out["rolls_left"]) == (
        7,
        2,
        "reached",
        1,
        0,
    )
    bestial = answer(
        {
            "system": "v5",
            "extended": {"target": 9, "rolls": [{"normal": [2, 3], "hunger": [1], "difficulty": 2}]},
        }
    )
    assert bestial["status"] == "bestial"


def test_TR_4_a_v20_botch_loses_everything_and_a_roll_after_the_end_is_refused():
    out = answer(
        {"system": "v20", "extended": {"target": 9, "rolls": [{"faces": [8, 9]}, {"faces": [1, 2]}]}}
    )
    assert (out["total"], out["status"], out["lost"]) == (0, "botched", 2)
    assert (
        refusal({"system": "v20", "extended": {"target": 1, "rolls": [{"faces": [8]}, {"faces": [8]}]}})
        == "extended_over"
    )


def test_TR_3_TR_4_bad_lines():
    assert refusal({"system": "tiers", "contest": {}}) == "contest_not_for_system"
    assert refusal({"system": "v20", "contest": {"attacker": {"faces": [8]}}}) == "missing_field"
    assert (
        refusal(
            {
                "system": "v20",
                "contest": {"attacker": {"faces": [8], "system": "v5"}, "defender": {"faces": [8]}},
            }
        )
        == "unknown_field"
    )
    assert refusal({"system": "v5", "extended": {"target": 2}}) == "missing_field"
    assert (
        refusal({"system": "v5", "extended": {"target": 2, "rolls": [{"normal": [8]}]}, "faces": [1]})
        == "unknown_field"
    )


def test_TR_3_rollbook_resolve_reads_a_contest_line():
    env = {**os.environ, "ROLLBOOK_LANG": "en"}
    line = json.dumps(
        {"system": "v20", "contest": {"attacker": {"faces": [8, 9, 2]}, "defender": {"faces": [6, 3]}}}
    )
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "resolve"],
        input=line + "\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winner"] == "attacker"
