"""V5 odds (SPEC V5-1 … V5-15) against brute force through ``systems.v5.rules.resolve`` and ``systems.v5.rules.reroll``."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.rules.base import RuleError
from rollbook.systems.v5 import odds as odds5
from rollbook.systems.v5.odds import GOALS, advise, odds, v5_odds
from rollbook.systems.v5.rules import OUTCOMES, REROLL_CHOICES, V5Request, rouse_request

from .brute import advise_brute, v5_brute, v5_named_brute, v5_optimal_brute


@pytest.mark.parametrize("difficulty", [1, 2, 3, 5])
@pytest.mark.parametrize("hunger", range(0, 6))
@pytest.mark.parametrize("pool", range(1, 6))
def test_V5_odds_without_reroll_equal_brute_force(pool, hunger, difficulty):
    """V5-1 … V5-7 for every pool ≤ 5, every Hunger, outcomes and margins exactly."""
    request = V5Request(pool=pool, hunger=hunger, difficulty=difficulty)
    exact = v5_odds(request)
    outcomes, margins = v5_brute(request)
    assert exact.outcomes.nonzero().fractions() == outcomes
    assert exact.margins.nonzero().fractions() == margins


@pytest.mark.parametrize(
    "kind,creature",
    [
        ("willpower", "vampire"),
        ("frenzy", "vampire"),
        ("test", "ghoul"),
        ("test", "mortal"),
        ("test", "thin_blood"),
    ],
)
def test_V5_9_V5_12_rolls_without_hunger_dice(kind, creature):
    request = V5Request(pool=4, hunger=3, difficulty=2, kind=kind, creature=creature)
    assert v5_odds(request).outcomes.nonzero().fractions() == v5_brute(request)[0]


@pytest.mark.parametrize("choice", list(REROLL_CHOICES))
@pytest.mark.parametrize(
    "pool,hunger,difficulty",
    [
        (1, 0, 1),
        (1, 1, 1),
        (2, 0, 2),
        (2, 1, 1),
        (3, 0, 2),
        (3, 1, 3),
        (3, 2, 2),
        (3, 3, 1),
        (4, 0, 3),
        (4, 1, 2),
        (4, 2, 3),
        (4, 3, 2),
        (4, 4, 1),
        (5, 0, 4),
        (5, 1, 3),
        (5, 2, 3),
        (5, 4, 2),
        (5, 5, 2),
    ],
)
def test_V5_8_named_reroll_equals_brute_force(pool, hunger, difficulty, choice):
    """V5-8: the named pickers on every first roll, every new face through ``systems.v5.rules.reroll``."""
    request = V5Request(pool=pool, hunger=hunger, difficulty=difficulty)
    exact = v5_odds(request, choice)
    outcomes, margins = v5_named_brute(request, choice)
    assert exact.outcomes.nonzero().fractions() == outcomes
    assert exact.margins.nonzero().fractions() == margins


@pytest.mark.parametrize("goal", list(GOALS))
@pytest.mark.parametrize(
    "pool,hunger,difficulty",
    [
        (1, 0, 1),
        (1, 1, 1),
        (2, 0, 2),
        (2, 1, 2),
        (2, 2, 1),
        (3, 0, 3),
        (3, 1, 2),
        (3, 2, 2),
        (3, 3, 1),
        (4, 0, 3),
        (4, 1, 4),
        (4, 2, 2),
        (4, 3, 3),
        (4, 4, 1),
    ],
)
def test_V5_8_optimal_reroll_equals_best_subset_by_brute_force(pool, hunger, difficulty, goal):
    """V5-8: for every first roll the best of all subsets of ≤ 3 normal dice (none included)."""
    request = V5Request(pool=pool, hunger=hunger, difficulty=difficulty)
    exact = v5_odds(request, "optimal", goal)
    probability, outcomes = v5_optimal_brute(request, goal)
    assert exact.goal_probability == probability
    assert exact.outcomes.nonzero().fractions() == outcomes


@pytest.mark.parametrize(
    "normal,hunger,difficulty,goal",
    [
        ((8, 2, 10), (1, 6, 4), 4, "win"),
        ((10, 10, 3), (10,), 2, "clean"),
        ((6, 7, 1, 2), (10, 1), 5, "crit"),
        ((10, 5, 5, 9), (), 3, "crit"),
        ((), (1, 1), 1, "win"),
        ((4,), (10, 10, 10, 10, 10), 6, "clean"),
    ],
)
def test_V5_8_advice_equals_brute_force(normal, hunger, difficulty, goal):
    advice = advise(normal, hunger, difficulty, goal)
    brute = advise_brute(normal, hunger, difficulty, goal)
    assert {tuple(sorted(a.faces)): a.probability for a in advice} == brute
    assert [a.probability for a in advice] == sorted(brute.values(), reverse=True)


def test_V5_8_advice_example_from_the_issue():
    advice = advise((8, 2, 10), (1, 6, 4), 4, "win")
    assert advice[0].faces == (2,) and advice[0].probability == Fraction(1, 2)
    assert advice[0].outcomes.total() == 1


def test_V5_8_advice_refuses_bad_faces():
    with pytest.raises(RuleError):
        advise((11,), (), 1, "win")
    with pytest.raises(RuleError):
        advise((5,), (1, 1, 1, 1, 1, 1), 1, "win")
    with pytest.raises(RuleError):
        advise((5,), (), 1, "glory")
    with pytest.raises(RuleError):
        advise((), (), 1, "win")


@settings(max_examples=12)
@given(
    st.lists(st.integers(1, 10), min_size=1, max_size=4),
    st.lists(st.integers(1, 10), max_size=2),
    st.integers(1, 5),
    st.sampled_from(list(GOALS)),
)
def test_V5_8_advice_matches_optimal_choice(normal, hunger, difficulty, goal):
    """The best advice for a roll is what the optimal policy takes for that roll's class."""
    advice = advise(normal, hunger, difficulty, goal)
    assert advice[0].probability == max(advise_brute(tuple(normal), tuple(hunger), difficulty, goal).values())


def test_V5_10_rouse_every_face_through_the_resolver():
    plain = odds5.rouse_odds(2)
    assert plain.outcomes.fractions() == {"success": Fraction(1, 2), "failure": Fraction(1, 2)}
    assert plain.hunger_gain.probability(1) == Fraction(1, 2)
    better = odds5.rouse_odds(5, blood_potency_reroll=True)
    assert better.outcomes.probability("success") == Fraction(3, 4)
    assert better.hunger_gain.probability(1) == 0 and better.hunger_frenzy_risk == Fraction(1, 4)
    assert odds5.rouse_odds(1).request == rouse_request(1)


def test_V5_15_remorse_one_die_per_empty_unstained_box():
    result = odds5.remorse_odds(humanity=7, stains=1)  # 2 dice
    assert result.request.pool == 2 and result.request.hunger_dice == 0
    assert result.extras["humanity_loss"].probability(1) == Fraction(25, 100)
    assert odds5.remorse_odds(humanity=9, stains=4).request.pool == 1  # minimum 1


def test_V5_9_frenzy_odds_plain_dice():
    result = odds5.frenzy_odds(willpower_current=4, humanity=7, difficulty=3)  # 4 + 7 // 3 = 6 dice
    assert result.request.pool == 6 and result.request.kind == "frenzy"
    assert result.probability("bestial_failure") == 0 and result.probability("messy_critical") == 0


def test_V5_8_rerolls_only_on_tests():
    with pytest.raises(RuleError):
        v5_odds(V5Request(pool=3, kind="willpower"), "failures")


def test_V5_pool_up_to_thirty():
    result = odds(30, 5, 12)
    assert result.outcomes.total() == 1
    with pytest.raises(RuleError):
        odds(31, 0, 1)


@given(st.integers(1, 30), st.integers(0, 5), st.integers(1, 40))
def test_V5_odds_sum_to_exactly_one(pool, hunger, difficulty):
    result = odds(pool, hunger, difficulty)
    assert result.outcomes.total() == 1 and result.margins.total() == 1
    assert set(result.outcomes.keys()) == set(OUTCOMES)


@given(st.integers(1, 30), st.integers(0, 5), st.integers(1, 20))
def test_V5_2_hunger_never_changes_the_chance_to_win(pool, hunger, difficulty):
    """Hunger dice count successes like normal dice (V5-2, V5-3): only the kind of win or loss moves."""
    assert odds(pool, hunger, difficulty).of_goal("win") == odds(pool, 0, difficulty).of_goal("win")


@given(st.integers(1, 30), st.integers(0, 5), st.integers(1, 20))
def test_V5_4_a_higher_difficulty_never_raises_the_chance_to_win(pool, hunger, difficulty):
    assert odds(pool, hunger, difficulty + 1).of_goal("win") <= odds(pool, hunger, difficulty).of_goal("win")


@settings(max_examples=25)
@given(st.integers(1, 9), st.integers(0, 5), st.integers(1, 8), st.sampled_from(list(GOALS)))
def test_V5_8_optimal_is_at_least_every_named_choice(pool, hunger, difficulty, goal):
    best = odds(pool, hunger, difficulty, "optimal", goal)
    assert best.outcomes.total() == 1
    for choice in ("none", *REROLL_CHOICES):
        assert odds(pool, hunger, difficulty, choice).of_goal(goal) <= best.goal_probability
