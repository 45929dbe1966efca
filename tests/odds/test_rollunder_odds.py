"""Roll-under odds (SPEC R-1 … R-8) against enumeration through ``systems.rollunder.rules.resolve``."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.rules.base import RuleError
from rollbook.systems.rollunder.odds import check_odds, opposed_odds, rollunder_odds
from rollbook.systems.rollunder.rules import RollUnderRequest

from .brute import rollunder_brute


@pytest.mark.parametrize(
    "advantage,disadvantage", [(False, False), (True, False), (False, True), (True, True)]
)
@pytest.mark.parametrize(
    "level,bonus,malus", [(0, 0, 0), (1, 0, 0), (10, 2, 0), (12, 0, 5), (19, 0, 0), (25, 0, 0)]
)
def test_R_1_R_4_check_odds_equal_enumeration(level, bonus, malus, advantage, disadvantage):
    request = RollUnderRequest(
        action="odds", level=level, bonus=bonus, malus=malus, advantage=advantage, disadvantage=disadvantage
    )
    assert rollunder_odds(request).outcomes.nonzero().fractions() == rollunder_brute(request)


@pytest.mark.parametrize(
    "dice,threshold",
    [("1d20", 10), ("3d6", 10), ("2d8+1d4", 9), ("1d2", 1), ("4d4", 3), ("2d10+1d6", 30), ("1d6+1d6", 0)],
)
def test_R_7_opposed_odds_equal_enumeration(dice, threshold):
    request = RollUnderRequest(action="odds", kind="opposed", dice=dice, threshold=threshold)
    exact = rollunder_odds(request)
    assert exact.outcomes.nonzero().fractions() == rollunder_brute(request)
    assert exact.values.total() == 1


def test_R_7_opposed_totals_by_convolution():
    result = opposed_odds("3d6", 10)
    assert result.values.probability(10) == Fraction(27, 216)
    assert result.outcomes.probability("critical_success") == Fraction(1, 216)  # every die a 1
    assert result.outcomes.probability("critical_failure") == Fraction(1, 216)  # every die its highest face
    assert result.at_or_under == Fraction(1, 2)
    big = opposed_odds("10d100+5d20", 600)
    assert big.outcomes.total() == 1 and big.values.total() == 1


def test_R_7_too_many_totals_refused():
    with pytest.raises(RuleError):
        opposed_odds("100d1000", 5)


def test_R_8_absurd_and_trivial_tasks():
    assert check_odds(5, task="absurd").outcomes.probability("failure") == 1
    assert opposed_odds("3d6", 3, task="trivial").outcomes.probability("success") == 1


def test_R_2_criticals_whatever_the_level():
    assert check_odds(0).outcomes.probability("critical_success") == Fraction(1, 20)
    assert check_odds(40).outcomes.probability("critical_failure") == Fraction(1, 20)


@given(st.integers(0, 25), st.integers(0, 5), st.integers(0, 5))
def test_R_3_advantage_never_lowers_success_and_disadvantage_never_raises_it(level, bonus, malus):
    single = check_odds(level, bonus, malus)
    assert check_odds(level, bonus, malus, advantage=True).success >= single.success
    assert check_odds(level, bonus, malus, disadvantage=True).success <= single.success
    assert check_odds(level, bonus, malus, advantage=True, disadvantage=True).outcomes == single.outcomes
    assert single.outcomes.total() == 1


@given(st.integers(0, 25), st.integers(0, 5))
def test_R_4_bonus_never_lowers_success(level, bonus):
    assert check_odds(level, bonus + 1).success >= check_odds(level, bonus).success


@given(st.lists(st.sampled_from([2, 3, 4, 6]), min_size=1, max_size=3), st.integers(0, 20))
def test_R_7_opposed_odds_sum_to_one_and_match_enumeration(sizes, threshold):
    dice = "+".join(f"1d{s}" for s in sizes)
    exact = opposed_odds(dice, threshold)
    assert exact.outcomes.total() == 1
    counts = {}
    for faces in product(*(range(1, s + 1) for s in sizes)):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    total = 1
    for s in sizes:
        total *= s
    assert exact.values.fractions() == {t: Fraction(c, total) for t, c in sorted(counts.items())}


@pytest.mark.parametrize(
    "dice,threshold", [("d20", 10), ("2d6+2", 9), ("3d6-1", 9), ("d100", 37), ("1d4+1d6-2", 4)]
)
def test_R_7_opposed_odds_with_numbers_equal_brute_force(dice, threshold):
    from rollbook.systems.rollunder.odds import rollunder_odds
    from rollbook.systems.rollunder.rules import RollUnderRequest

    from .brute import rollunder_brute

    request = RollUnderRequest(action="Climb", kind="opposed", dice=dice, threshold=threshold)
    exact = rollunder_odds(request)
    assert {k: v for k, v in exact.outcomes.items() if v} == rollunder_brute(request)
