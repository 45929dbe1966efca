"""Tiers odds (SPEC T-1 … T-5) against enumeration of face chains through ``systems.tiers.rules.resolve``."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.systems.tiers.odds import dodge_odds, odds, soak_odds, tiers_odds
from rollbook.systems.tiers.rules import TiersRequest

from .brute import tiers_brute

DEPTH = 9  # chains longer than this are left to the bound 10**-DEPTH
LEFT = Fraction(1, 10**DEPTH)

REQUESTS = [
    TiersRequest(kind="skill", skill=0),
    TiersRequest(kind="skill", skill=1),
    TiersRequest(kind="skill", skill=5),
    TiersRequest(kind="skill", skill=9),
    TiersRequest(kind="skill", skill=10),
    TiersRequest(kind="skill", skill=14, bonus=3),
    TiersRequest(kind="skill", skill=4, bonus=2, bullets=3),  # T-3
    TiersRequest(kind="skill", skill=0, bullets=5),
    TiersRequest(kind="dodge", skill=0, attack_tier=0),  # T-2 Reading: tier 0 at best, never strictly greater
    TiersRequest(kind="soak", endurance=0, armor=0, attack_tier=0),
    TiersRequest(kind="dodge", skill=6, attack_tier=0),  # T-4
    TiersRequest(kind="dodge", skill=6, attack_tier=5),
    TiersRequest(kind="dodge", skill=3, bonus=1, attack_tier=7),
    TiersRequest(kind="soak", endurance=3, armor=2, attack_tier=6),  # T-5
    TiersRequest(kind="soak", endurance=0, armor=0, attack_tier=2),
    TiersRequest(kind="soak", endurance=8, armor=4, attack_tier=3),
]


@pytest.mark.parametrize("request_", REQUESTS, ids=repr)
def test_T_1_T_2_odds_equal_enumeration_through_the_resolver(request_):
    """Every finished chain of ≤ DEPTH dice through resolve; the longer ones weigh at most 10**-DEPTH."""
    exact = tiers_odds(request_)
    outcomes, tiers, damage, left = tiers_brute(request_, DEPTH)
    assert left == LEFT
    assert exact.outcomes.total() == 1 and exact.tiers.total() + exact.tail == 1
    for outcome, p in exact.outcomes.fractions().items():
        assert 0 <= p - outcomes.get(outcome, 0) <= left
    effective = request_.effective
    multiplier = request_.bullets or 1
    for tier, p in exact.tiers.nonzero().fractions().items():
        if effective >= 1 and tier < (effective - 1 + DEPTH - 2) * multiplier:  # every chain of it is short
            assert p == tiers.get(tier, 0)
        else:
            assert 0 <= p - tiers.get(tier, 0) <= left
    if exact.damage is not None:
        assert exact.damage.total() == 1
        for value, p in exact.damage.nonzero().fractions().items():
            assert 0 <= p - damage.get(value, 0) <= left


def test_T_2_chained_criticals_closed_form():
    """Skill 5: P(tier ≥ 4 + k) is a geometric tail; the whole of it sums exactly."""
    result = odds(5)
    assert result.critical == Fraction(1, 10)
    assert result.tiers.probability(4) == Fraction(1, 10) * Fraction(5, 10)  # a 1, then a reroll over 5
    assert result.tiers.probability(5) == Fraction(1, 10) * (
        Fraction(4, 10) + Fraction(1, 10) * Fraction(5, 10)
    )
    above = result.tail + sum(p for t, p in result.tiers.fractions().items() if t >= 6)
    # P(at least two critical tiers) = P(1, then 1) + P(1, then 2..5, ... ) computed independently:
    # extra tiers = j + [last face ≤ 5] with j the 1s rerolled: P(extra ≥ 2) = P(j ≥ 2) + P(j = 1, last ≤ 5)
    assert above == Fraction(1, 10) * (Fraction(1, 100) + Fraction(1, 10) * Fraction(9, 10) * Fraction(4, 9))


def test_T_2_reading_skill_0_succeeds_on_every_critical():
    """T-2 Reading: a 1 is a critical success; at skill 0 it is the only success, at tier 0."""
    result = odds(0)
    assert result.success == Fraction(1, 10) and result.tiers.probability(0) == Fraction(1, 10)
    assert odds(0, bullets=4).success == Fraction(1, 10)
    assert soak_odds(0, 0, 0).damage.probability(0) == Fraction(1, 10)  # soak tier 0 = attack 0 (T-5)


def test_T_3_bullets_multiply_the_tier_after_criticals():
    single, burst = odds(4, bonus=2), odds(4, bonus=2, bullets=3)
    assert {t * 3: p for t, p in single.tiers.fractions().items()} == {
        t: p for t, p in burst.tiers.fractions().items() if t <= single.cutoff * 3
    }
    assert single.success == burst.success


def test_T_4_dodge_must_beat_the_attack_strictly():
    assert dodge_odds(6, 5).success == Fraction(1, 10) * Fraction(6, 10)  # a 1, then a reroll ≤ 6
    assert dodge_odds(6, 0).success == Fraction(5, 10)


def test_T_5_soak_damage_distribution():
    result = soak_odds(3, 2, 6)
    assert result.damage.probability(0) == result.success
    assert result.damage.probability(11) == Fraction(1, 10)  # a 10 on the soak die: 5 − 10 = −5, 6 − (−5)


@given(st.integers(0, 30), st.integers(0, 5), st.sampled_from([None, 1, 2, 4]))
def test_T_1_odds_sum_to_one_and_skill_never_lowers_success(skill, bonus, bullets):
    low = odds(skill, bonus=bonus, bullets=bullets)
    high = odds(skill + 1, bonus=bonus, bullets=bullets)
    assert low.outcomes.total() == 1 and low.tiers.total() + low.tail == 1
    assert high.success >= low.success


@given(st.integers(0, 20), st.integers(0, 20))
def test_T_4_a_higher_attack_tier_never_makes_a_dodge_easier(skill, attack):
    assert dodge_odds(skill, attack + 1).success <= dodge_odds(skill, attack).success
