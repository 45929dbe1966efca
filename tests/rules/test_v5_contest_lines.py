"""TR-3, TR-4, TR-5 for V5 through the resolve contract and the odds (fixed faces): a V5 contest's side
is a test without difficulty (a Rouse check or a difficulty is refused with its own code); an extended
line's empty ``rolls`` says so; extended odds with no maximum name the horizon they stop at."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rollbook.contract import error_object, resolve_request
from rollbook.odds.contests import DEFAULT_HORIZON, extended_odds
from rollbook.rules.base import RuleError
from rollbook.systems.v5.rules import V5Request


def _refusal(line: dict) -> RuleError:
    with pytest.raises(RuleError) as refused:
        resolve_request(line)
    return refused.value


def _contest(attacker: dict, defender: dict | None = None) -> dict:
    return {"system": "v5", "contest": {"attacker": attacker, "defender": defender or {"normal": [6, 3]}}}


@pytest.mark.parametrize("kind", ["rouse", "remorse", "frenzy"])
def test_TR_3_a_v5_contest_side_is_a_test_never_a_rouse(kind):
    refused = _refusal(_contest({"kind": kind, "normal": [7]}))
    assert refused.code == "contest_side_not_a_test"
    assert refused.params["field"] == "contest.attacker.kind"


def test_TR_3_a_v5_contest_side_carries_no_difficulty():
    refused = _refusal(_contest({"normal": [6, 3]}, {"normal": [7, 8], "difficulty": 3}))
    assert refused.code == "contest_side_difficulty"
    assert refused.params["field"] == "contest.defender.difficulty"
    assert "no difficulty" in error_object(refused, "en")["error"]["message"]
    assert "pas de difficulté" in error_object(refused, "fr")["error"]["message"]


def test_TR_3_a_v5_test_or_willpower_side_and_a_v20_difficulty_stand():
    both = resolve_request(_contest({"kind": "willpower", "normal": [7, 8]}))
    assert both["winner"] == "attacker" and both["margin"] == 1
    v20 = resolve_request(
        {
            "system": "v20",
            "contest": {"attacker": {"faces": [8, 9], "difficulty": 7}, "defender": {"faces": [6]}},
        }
    )
    assert v20["winner"] == "attacker"


def test_TR_4_an_empty_extended_rolls_is_its_own_error():
    refused = _refusal({"system": "v5", "extended": {"target": 3, "rolls": []}})
    assert refused.code == "extended_without_rolls" and refused.params == {"field": "extended.rolls"}
    assert _refusal({"system": "v5", "extended": {"target": 3}}).code == "missing_field"
    assert _refusal({"system": "v5", "extended": {"target": 3, "rolls": {}}}).code == "wrong_type"
    resolved = subprocess.run(
        [sys.executable, "-m", "rollbook", "resolve", "--lang", "es"],
        input=json.dumps({"system": "v5", "extended": {"target": 3, "rolls": []}}) + "\n",
        capture_output=True,
        text=True,
    )
    error = json.loads(resolved.stdout)["error"]
    assert error["code"] == "extended_without_rolls" and "al menos una tirada" in error["message"]


def test_TR_5_extended_odds_without_a_maximum_name_their_horizon():
    open_ended = extended_odds("v5", V5Request(pool=3, hunger=1), 4)
    assert open_ended["horizon"] == DEFAULT_HORIZON == len(open_ended["within"])
    assert open_ended["outcomes"]["reached"] == open_ended["within"][str(DEFAULT_HORIZON)]
    assert "horizon" not in extended_odds("v5", V5Request(pool=3, hunger=1), 4, max_rolls=3)
    shown = subprocess.run(
        [sys.executable, "-m", "rollbook", "odds", "v5", "extended", "--pool", "3", "--target", "4"],
        capture_output=True,
        text=True,
    )
    assert shown.returncode == 0, shown.stderr
    assert f"No maximum: the table stops at {DEFAULT_HORIZON} rolls." in shown.stdout


@pytest.mark.parametrize("option", [["--difficulty", "3"], ["--kind", "rouse"]])
def test_TR_3_v5_contest_odds_refuse_a_difficulty_or_a_kind(option):
    refused = subprocess.run(
        [
            sys.executable,
            "-m",
            "rollbook",
            "odds",
            "v5",
            "contest",
            "--pool",
            "4",
            "--against-pool",
            "3",
            *option,
        ],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "TR-3" in refused.stderr
