"""TR-3 and TR-4 with fixed faces: contested and extended rolls over the resolvers' receipts."""

from __future__ import annotations

import pytest

from rollbook.rules import contests
from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.v5 import rules as v5
from rollbook.systems.v20 import rules as v20


def r20(faces, **fields):
    return to_plain(v20.resolve(v20.V20Request(pool=len(faces), **fields), tuple(faces)))


def r5(normal, hunger=(), difficulty=1):
    request = v5.V5Request(pool=len(normal) + len(hunger), hunger=len(hunger), difficulty=difficulty)
    return to_plain(v5.resolve(request, tuple(normal) + tuple(hunger)))


def test_TR_3_more_successes_win_by_the_difference():
    result = contests.contest("v20", r20([8, 9, 7]), r20([6, 2]))  # 3 against 1
    assert (result["winner"], result["margin"], result["tie"]) == ("attacker", 2, False)


def test_TR_3_a_tie_is_the_defenders_and_changes_nothing():
    result = contests.contest("v20", r20([8, 2]), r20([7]))
    assert (result["winner"], result["margin"], result["tie"]) == ("defender", 0, True)


def test_TR_3_a_v20_botch_on_either_side_is_said():
    result = contests.contest("v20", r20([1, 3]), r20([9]))
    assert result["attacker"]["botch"] and not result["defender"]["botch"]
    assert (result["winner"], result["margin"]) == ("defender", 1)


def test_TR_3_v5_contest_compares_successes_and_shows_the_beast():
    result = contests.contest("v5", r5([10, 6], [10]), r5([6, 7, 8]))  # 3 + 2 (a pair of 10s) = 5 against 3
    assert (result["winner"], result["margin"]) == ("attacker", 2) and result["attacker"]["messy"]


def test_TR_4_v20_extended_adds_and_a_botch_loses_everything():
    state = contests.extended("v20", 5, 3, [r20([8, 9]), r20([7, 2])])
    assert (state.total, state.rolls, state.status, state.rolls_left) == (3, 2, "going", 1)
    botched = contests.extended_step("v20", state, r20([1, 2]))
    assert (botched.total, botched.status, botched.lost, botched.rolls_left) == (0, "botched", 3, 0)
    with pytest.raises(RuleError) as refused:
        contests.extended_step("v20", botched, r20([9]))
    assert refused.value.code == "extended_over"


def test_TR_4_v20_extended_reaches_its_target_or_runs_out_of_rolls():
    assert contests.extended("v20", 3, None, [r20([8, 9]), r20([7])]).status == "reached"
    assert contests.extended("v20", 3, 2, [r20([8]), r20([2])]).status == "out_of_rolls"


def test_TR_4_v5_bestial_failure_ends_and_a_messy_critical_is_a_complication():
    messy = contests.extended("v5", 10, None, [r5([10, 6], [10])])
    assert (messy.total, messy.complications, messy.status) == (5, 1, "going")
    ended = contests.extended_step("v5", messy, r5([2], [1], difficulty=1))
    assert (ended.status, ended.total) == ("bestial", 5)


def test_TR_3_contests_are_for_v20_and_v5():
    with pytest.raises(RuleError):
        contests.contest("tiers", {"successes": 1}, {"successes": 0})


def test_TR_3_a_side_is_read_by_its_own_systems_part_and_a_system_without_contests_is_refused():
    assert contests.side("v5", r5([10, 6], [10])) == {"successes": 5, "messy": True, "bestial": False}
    assert "botch" in contests.side("v20", r20([1, 3]))  # V20's part says its botch, V5's never
    with pytest.raises(RuleError) as refused:
        contests.side("tiers", {"successes": 2, "messy": True})  # no part of its own: no V5 reading
    assert refused.value.code == "contest_not_for_system"
