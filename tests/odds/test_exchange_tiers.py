"""Exact odds of a Tiers exchange (SPEC T-1 … T-5): shot → dodge → soak → wounds, against every chain of
faces through the resolvers and through the exchange chain (``play.perform(..., follows=...)``)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.play import new_sheet
from rollbook.rules.base import RuleError
from rollbook.systems.tiers.odds_exchange import TiersDefender, exchange_odds
from rollbook.systems.tiers.rules import TiersRequest

from . import exchange_brute as brute


def check_against_chains(shot: TiersRequest, defender: TiersDefender, depth: int, through_play=None) -> None:
    """Each probability of the engine is at least the brute force's (chains of ≤ depth faces) and
    exceeds it by no more than the probability the brute force left unexplored; the engine's sum is 1."""
    result = exchange_odds(shot, defender)
    found, left = brute.tiers_exchange(
        shot,
        endurance=defender.endurance,
        armor=defender.armor,
        level=defender.level,
        length=defender.length,
        dodge=defender.dodge,
        depth=depth,
        through_play=through_play,
    )
    assert result.outcomes.total() == 1 and result.track.total() == 1
    assert left <= Fraction(3, 10 ** (depth - 1))
    for name, dist in (("outcomes", result.outcomes), ("track", result.track)):
        exact = dist.fractions()
        for key in set(exact) | set(found[name]):
            difference = exact.get(key, 0) - found[name].get(key, 0)
            assert 0 <= difference <= left, (name, key, difference, left)
    return result


@pytest.mark.parametrize("skill", range(7))
def test_T_3_T_4_T_5_every_skill_up_to_six_against_the_resolvers(skill):
    """Shot skill, dodge skill, Endurance + armour 0–6 (bullets and bonus cycling), every chain of ≤ 6
    faces of each roll through systems.tiers.rules.resolve: the engine is within the unexplored mass (≤ 3·10⁻⁵)."""
    for index, (dodge, soak) in enumerate(itertools.product([None, *range(0, 7, 2)], range(0, 7, 2))):
        bullets = (None, 1, 2, 3)[(skill + index) % 4]
        shot = TiersRequest(kind="skill", skill=skill, bonus=index % 2, bullets=bullets)
        defender = TiersDefender(
            endurance=soak // 2,
            armor=soak - soak // 2,
            level=(skill + index) % 4,
            length=4 + index % 3,
            dodge=dodge,
        )
        check_against_chains(shot, defender, depth=6)


def test_T_4_T_5_a_deep_enumeration_agrees_to_ten_digits():
    shot = TiersRequest(kind="skill", skill=5, bonus=1, bullets=2)
    check_against_chains(shot, TiersDefender(endurance=3, armor=2, level=1, length=6, dodge=4), depth=10)


def tiers_sheet(**extra) -> dict:
    data = {
        "name": "Ana",
        "skills": {"firearms": 4, "dodge": 3},
        "endurance": 2,
        "armor": {"torso": 1},
        "weapons": [{"name": "pistol", "bonus": 1, "capacity": 6}],
        "wounds": {"level": 1, "length": 5},
    }
    data.update(extra)
    return new_sheet("tiers", data)


@pytest.mark.parametrize("dodge", [None, 3])
def test_T_4_T_5_odds_equal_the_exchange_chain_through_play(dodge):
    """Every chain of ≤ 4 faces of the shot, the dodge and the soak through play.perform(..., follows=...):
    the soak's sheet carries the wound track (checked in the brute force)."""
    shooter = tiers_sheet()
    action = {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 2}
    defender = tiers_sheet(name="Bo", skills={"dodge": dodge or 0})
    shot = TiersRequest(kind="skill", skill=4, bonus=1, bullets=2)
    numbers = TiersDefender(endurance=2, armor=1, level=1, length=5, dodge=dodge)
    check_against_chains(shot, numbers, depth=4, through_play=(shooter, action, defender))


def test_T_1_T_5_pinned_numbers():
    """Skill 9 never misses except on a 10 (tier −1); Endurance 0 + armour 0 against tier t: soak
    tier 0 − d10 (criticals aside), so damage ≥ 1 unless the soak's first die is a 1."""
    result = exchange_odds(TiersRequest(kind="skill", skill=9), TiersDefender(endurance=0, length=100))
    assert result.outcomes.probability("miss") == Fraction(1, 10)
    # T-2 Reading: a soak of 0 that rolls a 1 is tier 0; it stops a tier-0 shot (9 − 9) only
    shot_zero = Fraction(1, 10)  # a first die of 9: tier 0
    assert result.outcomes.probability("soaked") == shot_zero * Fraction(1, 10)


def test_T_4_a_dodge_of_zero_never_dodges():
    result = exchange_odds(TiersRequest(kind="skill", skill=5), TiersDefender(endurance=2, dodge=0))
    assert result.outcomes.probability("dodged") == 0


def test_T_5_the_track_stops_at_its_end():
    result = exchange_odds(
        TiersRequest(kind="skill", skill=30, bullets=4), TiersDefender(endurance=0, level=5, length=6)
    )
    assert set(result.track.nonzero().fractions()) <= {5, 6}
    assert result.track.probability(6) == result.outcomes.probability("wounded")


def test_tiers_exchange_refuses_a_dodge_as_the_shot():
    with pytest.raises(RuleError):
        exchange_odds(TiersRequest(kind="dodge", skill=3, attack_tier=1), TiersDefender(endurance=1))
    with pytest.raises(RuleError):
        TiersDefender(endurance=1, level=7, length=6)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 20),
    st.integers(0, 5),
    st.sampled_from([None, 1, 2, 3, 5]),
    st.integers(0, 12),
    st.integers(0, 6),
    st.one_of(st.none(), st.integers(0, 20)),
    st.integers(1, 10),
    st.data(),
)
def test_tiers_exchange_laws(skill, bonus, bullets, endurance, armor, dodge, length, data):
    level = data.draw(st.integers(0, length))
    shot = TiersRequest(kind="skill", skill=skill, bonus=bonus, bullets=bullets)
    result = exchange_odds(
        shot, TiersDefender(endurance=endurance, armor=armor, level=level, length=length, dodge=dodge)
    )
    assert result.outcomes.total() == 1 and result.track.total() == 1  # sums to exactly 1
    assert result.damage.total() + result.fills == 1
    # more armour never raises the wound level reached (every tail P(level ≥ k))
    more = exchange_odds(
        shot, TiersDefender(endurance=endurance, armor=armor + 1, level=level, length=length, dodge=dodge)
    )
    for k in range(length + 1):
        assert tail(more.track, k) <= tail(result.track, k)


def tail(dist, k: int) -> Fraction:
    return sum((p for v, p in dist.fractions().items() if v >= k), Fraction(0))
