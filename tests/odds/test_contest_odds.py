"""TR-5: exact odds of contested (TR-3) and extended (TR-4) rolls, V20 and V5, against brute force:
every face tuple through the resolvers and ``rules.contests``."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rollbook.odds.contests import contest_odds, extended_odds, shape_of
from rollbook.rules import contests
from rollbook.rules.base import to_plain
from rollbook.systems.v5 import rules as v5
from rollbook.systems.v20 import rules as v20

from .brute import v20_finished

D10 = range(1, 11)


def v20_rolls(request):
    """(result, P) of every finished roll, the table rules' rerolls included (``systems.v20.rules.needed``)."""
    for faces in v20_finished(request):
        yield to_plain(v20.resolve(request, faces)), Fraction(1, 10 ** len(faces))


def v5_rolls(request):
    for faces in product(D10, repeat=request.pool):
        yield to_plain(v5.resolve(request, faces)), Fraction(1, 10**request.pool)


ROLLS = {"v20": v20_rolls, "v5": v5_rolls}


def brute_contest(system, attacker, defender):
    wins, ties, margins = Fraction(0), Fraction(0), Counter()
    defender_rolls = list(ROLLS[system](defender))
    for a, pa in ROLLS[system](attacker):
        for d, pd in defender_rolls:
            result = contests.contest(system, a, d)
            wins += pa * pd if result["winner"] == "attacker" else 0
            ties += pa * pd if result["tie"] else 0
            signed = result["margin"] if result["winner"] == "attacker" else -result["margin"]
            margins[signed] += pa * pd
    return wins, ties, margins


CASES = [
    ("v20", v20.V20Request(pool=2, difficulty=6), v20.V20Request(pool=2, difficulty=7)),
    (
        "v20",
        v20.V20Request(
            pool=2,
            difficulty=6,
            specialty=True,
            specialty_rating=4,
            table_rules=("v20.specialty_reroll_tens",),
        ),
        v20.V20Request(pool=1, difficulty=5),
    ),
    (
        "v20",
        v20.V20Request(pool=1, table_rules=("v20.ones_do_not_cancel",)),
        v20.V20Request(pool=2, willpower=True),
    ),
    ("v5", v5.V5Request(pool=2, hunger=1), v5.V5Request(pool=2)),
    ("v5", v5.V5Request(pool=3, hunger=2), v5.V5Request(pool=1, hunger=1)),
]


@pytest.mark.parametrize("system,attacker,defender", CASES)
def test_TR_5_contest_odds_equal_brute_force(system, attacker, defender):
    wins, ties, margins = brute_contest(system, attacker, defender)
    exact = contest_odds(system, attacker, defender)
    assert Fraction(exact["outcomes"]["attacker"]) == wins
    assert Fraction(exact["tie"]) == ties
    assert {int(m): Fraction(p) for m, p in exact["margins"].items()} == {
        m: p for m, p in margins.items() if p
    }


def brute_extended(system, request, target, max_rolls):
    """Every sequence of up to ``max_rolls`` rolls through ``rules.contests.extended_step``."""
    rolls = list(ROLLS[system](request))
    within = [Fraction(0)] * max_rolls
    expected = Fraction(0)
    frontier = [(contests.Extended(target, max_rolls), Fraction(1))]
    while frontier:
        state, p = frontier.pop()
        if state.status != "going":
            expected += p * state.rolls
            if state.status == "reached":
                for k in range(state.rolls - 1, max_rolls):
                    within[k] += p
            continue
        for result, q in rolls:
            frontier.append((contests.extended_step(system, state, result), p * q))
    return within, expected


@pytest.mark.parametrize(
    "system,request_,target,max_rolls",
    [
        ("v20", v20.V20Request(pool=2, difficulty=6), 2, 3),
        ("v20", v20.V20Request(pool=1, difficulty=4, table_rules=("v20.ones_do_not_cancel",)), 2, 3),
        ("v5", v5.V5Request(pool=2, hunger=1, difficulty=1), 3, 2),
    ],
)
def test_TR_5_extended_odds_equal_brute_force(system, request_, target, max_rolls):
    within, expected = brute_extended(system, request_, target, max_rolls)
    exact = extended_odds(system, request_, target, max_rolls)
    assert [Fraction(exact["within"][str(k)]) for k in range(1, max_rolls + 1)] == within
    assert Fraction(exact["expected_rolls"]) == expected


def test_TR_5_extended_without_a_maximum_converges_to_its_limit():
    request = v20.V20Request(pool=3, difficulty=6)
    open_ended = extended_odds("v20", request, 4)
    long = extended_odds("v20", request, 4, max_rolls=50)
    assert Fraction(open_ended["ever"]) - Fraction(long["outcomes"]["reached"]) < Fraction(1, 10**9)
    assert Fraction(open_ended["expected_rolls"]) - Fraction(long["expected_rolls"]) < Fraction(1, 10**6)
    assert extended_odds("v20", v20.V20Request(pool=0), 2)["expected_rolls"] is None  # never ends


@pytest.mark.parametrize("pool,hunger,difficulty", [(1, 1, 1), (3, 2, 2), (4, 0, 1), (2, 2, 3)])
def test_TR_5_v5_joint_of_successes_and_bestial_equals_the_resolver(pool, hunger, difficulty):
    request = v5.V5Request(pool=pool, hunger=hunger, difficulty=difficulty)
    ends, kept = Fraction(0), Counter()
    for result, p in v5_rolls(request):
        if result["bestial"]:
            ends += p
        else:
            kept[result["successes"]] += p
    shape = shape_of("v5", request)  # V5's part, found by the contests' odds
    assert shape.ends == ends and shape.successes == {k: v for k, v in kept.items() if v}


def test_TR_5_rollbook_odds_contest_and_extended_cli():
    import json
    import subprocess
    import sys

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "rollbook", "odds", *args], capture_output=True, text=True
        )

    contest = run(
        "v20",
        "contest",
        "--pool",
        "2",
        "--against-pool",
        "2",
        "--against-difficulty",
        "7",
        "--table-rule",
        "v20.ones_do_not_cancel",
        "--json",
    )
    assert contest.returncode == 0, contest.stderr
    data = json.loads(contest.stdout)
    expected = contest_odds(
        "v20",
        v20.V20Request(pool=2, table_rules=("v20.ones_do_not_cancel",)),
        v20.V20Request(pool=2, difficulty=7, table_rules=("v20.ones_do_not_cancel",)),
    )
    assert (
        data == expected
        and Fraction(data["outcomes"]["attacker"]) + Fraction(data["outcomes"]["defender"]) == 1
    )
    extended = run(
        "v5", "extended", "--pool", "3", "--hunger", "1", "--target", "3", "--max-rolls", "2", "--json"
    )
    assert extended.returncode == 0, extended.stderr
    assert json.loads(extended.stdout) == extended_odds("v5", v5.V5Request(pool=3, hunger=1), 3, 2)
    refused = run("v20", "--pool", "3", "--target", "2")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert run("v20", "duel", "--pool", "3").returncode == 2
