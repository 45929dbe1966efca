"""`rollbook roll tiers` and `rollbook roll rollunder` as a user meets them: real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rollbook.contract import resolve_request


def run(*args: str, lang: str = "en") -> subprocess.CompletedProcess:
    env = {**os.environ, "ROLLBOOK_LANG": lang}
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args], capture_output=True, text=True, env=env, timeout=60
    )


def replay(receipt: dict, **request) -> dict:
    """The receipt re-checked through the resolve contract with its own faces."""
    return resolve_request({"system": receipt["system"], "faces": receipt["faces"], **request})


def test_roll_tiers_json_is_a_valid_receipt():
    done = run("roll", "tiers", "--skill", "7", "--bonus", "2", "--bullets", "3", "--json")
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert receipt["system"] == "tiers" and receipt["kind"] == "skill" and receipt["multiplier"] == 3
    assert receipt["faces"][-1] != 1 and all(f == 1 for f in receipt["faces"][:-1])  # T-2 chain drawn whole
    assert replay(receipt, skill=7, bonus=2, bullets=3) == receipt


def test_roll_tiers_dodge_and_soak_panels():
    done = run("roll", "tiers", "--kind", "dodge", "--skill", "6", "--attack-tier", "3", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    assert "Palier de l’attaque" in done.stdout
    done = run(
        "roll", "tiers", "--kind", "soak", "--endurance", "4", "--armor", "2", "--attack-tier", "3", "--json"
    )
    receipt = json.loads(done.stdout)
    assert done.returncode == 0 and receipt["soak_value"] == 6 and receipt["damage"] >= 0


def test_roll_rollunder_json_with_advantage_and_a_card():
    done = run(
        "roll",
        "rollunder",
        "--action",
        "climb the wall",
        "--level",
        "12",
        "--advantage",
        "--card",
        "Agile",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert (
        len(receipt["faces"]) == 2
        and receipt["kept"] == min(receipt["faces"])
        and receipt["cards"] == ["Agile"]
    )
    assert replay(receipt, action="climb the wall", level=12, advantage=True, cards=["Agile"]) == receipt


def test_roll_rollunder_opposed_panel():
    done = run(
        "roll", "rollunder", "--kind", "opposed", "--dice", "2d6+1d4", "--threshold", "9", "--action", "lift"
    )
    assert done.returncode == 0, done.stderr
    assert "Opposed roll" in done.stdout and "2d6+1d4" in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("roll", "tiers", "--skill", "7", "--bullets", "0"),
        ("roll", "tiers", "--skill", "7", "--bullets", "4", "--magazine", "2"),
        ("roll", "rollunder", "--level", "12"),
        ("roll", "rollunder", "--action", "x", "--kind", "opposed", "--dice", "3d1", "--threshold", "4"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_traceback(args):
    done = run(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("rollbook: ")


RENDERED = [
    {"system": "tiers", "skill": 7, "bonus": 2, "faces": [1, 1, 6], "bullets": 3},
    {"system": "tiers", "skill": 2, "faces": [9]},
    {"system": "tiers", "kind": "dodge", "skill": 6, "attack_tier": 3, "faces": [1, 2]},
    {"system": "tiers", "kind": "soak", "endurance": 2, "armor": 0, "attack_tier": 3, "faces": [9]},
    {
        "system": "rollunder",
        "action": "climb",
        "level": 12,
        "disadvantage": True,
        "faces": [4, 20],
        "cards": ["Agile"],
    },
    {
        "system": "rollunder",
        "action": "climb",
        "level": 12,
        "advantage": True,
        "disadvantage": True,
        "faces": [1],
    },
    {
        "system": "rollunder",
        "action": "lift",
        "kind": "opposed",
        "dice": "2d6+1d4",
        "threshold": 9,
        "faces": [6, 6, 4],
    },
    {
        "system": "rollunder",
        "action": "fly",
        "kind": "opposed",
        "dice": "2d6",
        "threshold": 9,
        "task": "absurd",
    },
    {"system": "rollunder", "action": "walk", "level": 3, "task": "trivial"},
]


@pytest.mark.parametrize("request_", RENDERED)
@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_every_receipt_renders_with_one_line_per_number(request_, lang):
    from rollbook.render import view

    receipt = resolve_request(request_)
    shown = view(receipt, lang)
    assert shown.system == receipt["system"] and shown.outcome == receipt["outcome"]
    assert len(shown.dice) == len(receipt["faces"])
    assert [d.face for d in sorted(shown.dice, key=lambda d: d.index)] == receipt["faces"]
    assert all(line.label for line in shown.lines)
    if receipt["system"] == "tiers":
        assert str(receipt.get("tier", receipt.get("soak_tier"))) in [line.value for line in shown.lines]
        assert len(shown.history) == len(receipt["rerolls"])
    elif receipt["rolled"]:
        key = "kept" if receipt["kind"] == "check" else "total"
        assert str(receipt[key]) in [line.value for line in shown.lines]
    if lang != "en":
        english = view(receipt, "en")
        assert shown.title != english.title and shown.lines[0].label != english.lines[0].label
