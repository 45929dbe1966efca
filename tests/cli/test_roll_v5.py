"""`rollbook roll v5` with the Willpower reroll (SPEC V5-8): `--reroll 1,2,3` (dice numbered from 1) for scripts, a prompt
with the odds engine's advice on a terminal; Hunger dice are never rerolled (V5-8, V5-2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.v5 import rules as v5
from rollbook.systems.v5.cli_roll import advice_lines, reroll_dice
from rollbook.systems.v5.odds import advise


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "ROLLBOOK_LANG": "en"}
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=60,
    )


def test_V5_8_reroll_by_index_for_scripts():
    done = run("roll", "v5", "--pool", "5", "--hunger", "2", "--difficulty", "3", "--reroll", "1,3", "--json")
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert [r["dice"] for r in receipt["rerolls"]] == [[0, 2]] and len(receipt["hunger"]) == 2
    assert receipt["original_normal"][1] == receipt["normal"][1]  # the die not named is kept
    request = v5.V5Request(pool=5, hunger=2, difficulty=3)
    again = v5.reroll(
        request,
        v5.resolve(request, tuple(receipt["original_normal"]) + tuple(receipt["hunger"])),
        (0, 2),
        tuple(receipt["rerolls"][0]["new"]),
    )
    assert again.outcome == receipt["outcome"] and list(again.normal) == receipt["normal"]


def test_V5_8_hunger_dice_and_more_than_three_are_refused():
    done = run(
        "roll", "v5", "--pool", "5", "--hunger", "2", "--reroll", "4"
    )  # dice 4 and 5 are the Hunger dice
    assert done.returncode == 2 and "Die 4 is a Hunger die: Hunger dice can never be rerolled" in done.stderr
    done = run("roll", "v5", "--pool", "6", "--reroll", "1,2,3,4")
    assert done.returncode == 2 and "reroll" in done.stderr.lower()
    done = run("roll", "v5", "rouse", "--reroll", "1")
    assert done.returncode == 2


def test_V5_8_the_prompt_shows_the_advice_and_rerolls_what_is_typed():
    done = run(
        "roll", "v5", "--pool", "4", "--hunger", "1", "--difficulty", "2", "--interactive", stdin="1\n"
    )
    assert done.returncode == 0, done.stderr
    assert "Hunger dice are never rerolled" in done.stdout and "Best for a win" in done.stdout
    assert "Willpower reroll 1" in done.stdout  # the final receipt shows the reroll
    nothing = run("roll", "v5", "--pool", "4", "--difficulty", "2", "--interactive", stdin="\n")
    assert nothing.returncode == 0 and nothing.stdout.count("╭─") == 1  # Enter: no reroll, the receipt once
    script = run("roll", "v5", "--pool", "4", "--json")  # not a terminal: no prompt
    assert script.returncode == 0 and json.loads(script.stdout)["rerolls"] == []


def test_the_advice_is_the_odds_engines():
    receipt = v5.resolve(v5.V5Request(pool=5, hunger=2, difficulty=3), (2, 3, 10, 10, 4))
    lines = advice_lines(receipt, "clean", "en")
    best = advise(receipt.normal, receipt.hunger, 3, "clean")[0]
    named = ", ".join(f"{i + 1} ({receipt.normal[i]})" for i in best.dice)
    assert any(named in line and "Best for a win without a Messy Critical" in line for line in lines)
    assert "Normal dice: 1 (2), 2 (3), 3 (10)" in lines
    assert reroll_dice("1, 3") == (0, 2) and reroll_dice("") == () and reroll_dice("none") == ()


def test_V5_8_roll_v5_mode_casual_rerolls_again_and_strict_refuses_a_second():
    """``rollbook roll v5`` has ``--mode``; a casual roll takes repeated Willpower rerolls (V5-8)."""
    done = run(
        "roll",
        "v5",
        "--pool",
        "5",
        "--hunger",
        "1",
        "--mode",
        "casual",
        "--reroll",
        "1,2",
        "--reroll",
        "3",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert receipt["mode"] == "casual" and [r["dice"] for r in receipt["rerolls"]] == [[0, 1], [2]]
    strict = run("roll", "v5", "--pool", "5", "--reroll", "1", "--reroll", "2")
    assert strict.returncode == 2 and "one Willpower reroll" in strict.stderr
    assert run("roll", "v5", "--pool", "3", "--mode", "loose").returncode == 2


def test_dice_numbered_from_one_everywhere_with_their_faces():
    """The prompt, its advice and the receipt number the normal dice one way: from 1, each face beside."""
    receipt = v5.resolve(v5.V5Request(pool=4, hunger=1, difficulty=2), (2, 3, 10, 5))
    lines = advice_lines(receipt, "win", "fr")
    assert "Dés normaux\u202f: 1 (2), 2 (3), 3 (10)" in lines

    with pytest.raises(RuleError) as refused:
        reroll_dice("0")
    assert refused.value.params["number"] == 0
    done = run(
        "roll", "v5", "--pool", "4", "--hunger", "1", "--difficulty", "2", "--interactive", stdin="1,3\n"
    )
    assert done.returncode == 0, done.stderr
    assert "numbers such as 1,3" in done.stdout
    rerolled = v5.reroll(v5.V5Request(pool=4, hunger=1, difficulty=2), receipt, (0, 2), (7, 4))
    from rollbook.render import view

    history = [line.value for line in view(to_plain(rerolled), "en").history]
    assert history == ["dice 1 (2 → 7), 3 (10 → 4)"]


def test_cli_numbers_and_plurals_in_the_readers_language():
    """The CLI formats its chances with Babel as the web does ("0,0 %" in fr and es), and each count of a
    V5 pool agrees with its own number ("3 dados: 1 normal", not "1 normales")."""
    from rollbook.render import view

    receipt = v5.resolve(v5.V5Request(pool=3, hunger=2, difficulty=4), (4, 10, 3))
    for lang, pool in (
        ("es", "3 dados: 1 normal, 2 de Hambre"),
        ("fr", "3 dés\u202f: 1 normal, 2 de Soif"),
        ("en", "3 dice: 1 normal, 2 Hunger"),
    ):
        assert view(to_plain(receipt), lang).lines[0].value == pool
    spanish = advice_lines(
        v5.resolve(v5.V5Request(pool=5, hunger=1, difficulty=4), (4, 6, 2, 5, 3)), "win", "es"
    )
    best = next(line for line in spanish if line.startswith("Lo mejor"))
    assert "14,0\u202f%" in best and "0,0\u202f%" in best, best
    done = run(
        "roll",
        "v5",
        "--pool",
        "4",
        "--hunger",
        "1",
        "--difficulty",
        "2",
        "--interactive",
        "--lang",
        "fr",
        stdin="\n",
    )
    assert done.returncode == 0, done.stderr
    assert "\u202f%" in done.stdout and not any(
        c.isdigit() and n == "." for c, n in zip(done.stdout, done.stdout[1:])
    )
