"""Tiers (SPEC T-1 … T-8): fixed faces pin every rule; the contract is checked through resolve_request."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.contract import resolve_request
from rollbook.dice import GivenFaces, roll
from rollbook.rules import get_system
from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.tiers import rules as tiers
from rollbook.systems.tiers.rules import TiersRequest


def skill(value: int, faces, **kw):
    return tiers.resolve(TiersRequest(skill=value, **kw), tuple(faces))


def code_of(call, *args, **kwargs) -> str:
    with pytest.raises(RuleError) as refused:
        call(*args, **kwargs)
    return refused.value.code


def line(**fields) -> dict:
    return resolve_request({"system": "tiers", **fields})


def line_error(**fields) -> str:
    return code_of(resolve_request, {"system": "tiers", **fields})


# --- T-1 -----------------------------------------------------------------------------------------


def test_T1_tier_is_effective_skill_minus_the_d10():
    r = skill(7, [3])
    assert (r.effective_skill, r.first_face, r.base_tier, r.tier, r.success, r.outcome) == (
        7,
        3,
        4,
        4,
        True,
        "success",
    )


def test_T1_difference_of_zero_is_a_success_at_tier_zero():
    r = skill(6, [6])
    assert r.tier == 0 and r.success


def test_T1_negative_tier_is_a_failure_reported_by_its_number():
    r = skill(4, [9])
    assert r.tier == -5 and not r.success and r.outcome == "failure"


def test_T1_T7_weapon_bonus_adds_to_the_skill():
    r = skill(5, [8], bonus=2)
    assert r.effective_skill == 7 and r.tier == -1


def test_T1_one_d10_is_needed():
    request = TiersRequest(skill=5)
    assert tiers.needed(request, ()) == (10,)
    assert tiers.needed(request, (4,)) == ()


def test_T1_face_out_of_range_is_refused():
    assert code_of(skill, 5, [11]) == "face_out_of_range"
    assert code_of(skill, 5, [0]) == "face_out_of_range"
    assert code_of(skill, 5, []) == "wrong_face_count"


# --- T-2 -----------------------------------------------------------------------------------------


def test_T2_critical_reroll_under_the_skill_adds_a_tier():
    r = skill(7, [1, 4])
    assert r.critical and r.base_tier == 6 and r.critical_tiers == 1 and r.tier == 7


def test_T2_reroll_equal_to_the_skill_adds_a_tier():
    """Reading: "lower than the skill" includes equal."""
    assert skill(7, [1, 7]).critical_tiers == 1


def test_T2_reroll_over_the_skill_leaves_the_first_result():
    r = skill(7, [1, 8])
    assert r.critical and r.critical_tiers == 0 and r.tier == 6


def test_T2_chain_of_ones_adds_a_tier_each():
    r = skill(7, [1, 1, 1, 3])
    assert r.rerolls == (1, 1, 3) and r.critical_tiers == 3 and r.tier == 6 + 3


def test_T2_chain_continues_on_a_one_even_when_it_cannot_add_a_tier():
    """Effective skill 0: a reroll of 1 is over the skill (no tier) yet still asks for another die."""
    assert tiers.needed(TiersRequest(skill=0), (1, 1)) == (10,)
    r = skill(0, [1, 1, 4])
    assert r.rerolls == (1, 4) and r.critical_tiers == 0 and r.base_tier == -1


def test_T2_reading_a_one_is_a_critical_success_at_tier_0_with_skill_0():
    """T-2 Reading: a 1 is a critical *success*: skill 0 (effective − 1 = −1) still succeeds, at tier 0,
    in resolve, the resolve contract and dice.roll alike; the receipt shows the lift apart."""
    r = skill(0, [1, 5])
    assert (r.base_tier, r.critical_tiers, r.critical_lift, r.tier, r.success, r.outcome) == (
        -1,
        0,
        1,
        0,
        True,
        "success",
    )
    assert line(skill=0, faces=[1, 5])["tier"] == 0 and line(skill=0, faces=[1, 5])["success"] is True
    faces, rolled = roll(get_system("tiers"), TiersRequest(skill=0), GivenFaces([1, 1, 7]))
    assert faces == (1, 1, 7) and rolled.tier == 0 and rolled.success
    assert skill(0, [1, 5], bullets=3).tier == 0  # T-3: 0 × bullets
    assert skill(1, [1, 5]).critical_lift == 0 and skill(1, [1, 5]).tier == 0  # no lift needed
    assert skill(0, [2]).tier == -2 and not skill(0, [2]).success  # only a 1 is a critical
    soak = tiers.resolve(TiersRequest(kind="soak", endurance=0, armor=0, attack_tier=2), (1, 3))
    assert soak.soak_tier == 0 and soak.damage == 2  # T-5: criticals as T-2
    dodge = tiers.resolve(TiersRequest(kind="dodge", skill=0, attack_tier=0), (1, 3))
    assert dodge.tier == 0 and not dodge.dodged  # T-4: strictly greater


def test_T2_needed_asks_for_one_more_die_while_the_last_face_is_one():
    request = TiersRequest(skill=7)
    assert tiers.needed(request, (1,)) == (10,)
    assert tiers.needed(request, (1, 1)) == (10,)
    assert tiers.needed(request, (1, 1, 6)) == ()


def test_T2_missing_critical_reroll_face_is_refused():
    assert code_of(skill, 7, [1]) == "critical_reroll_missing"
    assert code_of(skill, 7, [1, 1]) == "critical_reroll_missing"


def test_T2_faces_after_the_chain_ended_are_refused():
    assert code_of(skill, 7, [4, 2]) == "extra_faces_after_chain"
    assert code_of(skill, 7, [1, 3, 5]) == "extra_faces_after_chain"


def test_T2_dice_source_draws_the_whole_chain():
    faces, receipt = roll(get_system("tiers"), TiersRequest(skill=7), GivenFaces([1, 1, 2]))
    assert faces == (1, 1, 2) and receipt.critical_tiers == 2


# --- T-3 -----------------------------------------------------------------------------------------


def test_T3_bullets_multiply_the_tier_after_criticals():
    r = skill(7, [1, 3], bullets=3)
    assert r.tier_before_bullets == 7 and r.multiplier == 3 and r.tier == 21


def test_T3_bullets_multiply_a_failure_too():
    r = skill(3, [5], bullets=2)
    assert r.tier_before_bullets == -2 and r.tier == -4 and not r.success


def test_T3_zero_bullets_are_refused():
    assert code_of(TiersRequest, skill=5, bullets=0) == "out_of_range"


def test_T3_bullets_beyond_the_magazine_are_refused():
    assert code_of(TiersRequest, skill=5, bullets=3, magazine=2) == "bullets_exceed_magazine"
    assert code_of(tiers.fire, tiers.Magazine(capacity=6, loaded=2), 3) == "bullets_exceed_magazine"


def test_T3_fire_removes_the_declared_bullets():
    magazine, receipt = tiers.fire(tiers.full_magazine(6), 4)
    assert (
        magazine.loaded == 2
        and receipt.loaded_before == 6
        and receipt.loaded_after == 2
        and not receipt.empty
    )
    magazine, receipt = tiers.fire(magazine, 2)
    assert magazine.loaded == 0 and receipt.empty
    assert code_of(tiers.fire, magazine, 1) == "magazine_empty"


def test_T3_changing_the_magazine_spends_the_rest_of_the_turn():
    empty = tiers.Magazine(capacity=6, loaded=0)
    magazine, receipt = tiers.reload(empty, 8)
    assert magazine.loaded == 8 and magazine.capacity == 8 and receipt.turn_spent and magazine.turn_spent
    assert code_of(tiers.fire, magazine, 1) == "turn_spent"  # no other action this turn
    magazine, _ = tiers.fire(tiers.new_turn(magazine), 1)
    assert magazine.loaded == 7


def test_T3_reload_records_discarded_rounds():
    _, receipt = tiers.reload(tiers.Magazine(capacity=6, loaded=2))
    assert receipt.discarded == 2 and receipt.loaded_after == 6


def test_T3_bullets_do_not_apply_to_dodge_or_soak():
    assert line_error(kind="dodge", skill=5, attack_tier=2, bullets=2, faces=[3]) == "field_not_for_kind"
    assert (
        line_error(kind="soak", endurance=3, armor=1, attack_tier=2, bullets=2, faces=[3])
        == "field_not_for_kind"
    )


# --- T-4 -----------------------------------------------------------------------------------------


def test_T4_dodge_needs_a_tier_strictly_greater_than_the_attack():
    assert not line(kind="dodge", skill=7, attack_tier=3, faces=[4])["dodged"]  # equal tier: hit
    r = line(kind="dodge", skill=7, attack_tier=3, faces=[3])
    assert r["dodged"] and r["success"] and r["tier"] == 4


def test_T4_dodge_criticals_count():
    r = line(kind="dodge", skill=7, attack_tier=6, faces=[1, 2])
    assert r["tier"] == 7 and r["critical_tiers"] == 1 and r["dodged"]


def test_T4_dodge_needs_the_attack_tier():
    assert line_error(kind="dodge", skill=7, faces=[4]) == "field_required"


# --- T-5 -----------------------------------------------------------------------------------------


def test_T5_soak_value_is_endurance_plus_armour():
    r = line(kind="soak", endurance=4, armor=2, attack_tier=3, faces=[5])
    assert r["soak_value"] == 6 and r["soak_tier"] == 1 and r["damage"] == 2 and not r["success"]


def test_T5_soak_tier_over_the_attack_means_no_damage():
    r = line(kind="soak", endurance=4, armor=2, attack_tier=3, faces=[2])
    assert r["soak_tier"] == 4 and r["damage"] == 0 and r["success"]


def test_T5_soak_tier_equal_to_the_attack_is_zero_damage():
    r = line(kind="soak", endurance=4, armor=2, attack_tier=3, faces=[3])
    assert r["soak_tier"] == 3 and r["damage"] == 0 and r["success"]


def test_T5_soak_criticals_as_T2():
    r = line(kind="soak", endurance=3, armor=0, attack_tier=4, faces=[1, 1, 2])
    assert r["soak_tier"] == 2 + 2 and r["critical_tiers"] == 2 and r["damage"] == 0


def test_T5_negative_soak_tier_adds_to_the_damage():
    r = line(kind="soak", endurance=2, armor=0, attack_tier=3, faces=[9])
    assert r["soak_tier"] == -7 and r["damage"] == 10


def test_T5_soak_needs_endurance_armour_and_attack_and_takes_no_skill():
    assert line_error(kind="soak", armor=1, attack_tier=2, faces=[3]) == "field_required"
    assert line_error(kind="soak", endurance=3, attack_tier=2, faces=[3]) == "field_required"
    assert line_error(kind="soak", endurance=3, armor=1, faces=[3]) == "field_required"
    assert (
        line_error(kind="soak", skill=5, endurance=3, armor=1, attack_tier=2, faces=[3])
        == "field_not_for_kind"
    )


def test_T5_damage_advances_the_wound_track_one_level_per_tier():
    track, receipt = tiers.apply_damage(tiers.WoundTrack(length=6), 2)
    assert track.level == 2 and receipt.level_before == 0 and receipt.level_after == 2 and not receipt.full
    track, receipt = tiers.apply_damage(track, 5)
    assert track.level == 6 and receipt.overflow == 1 and receipt.full
    assert code_of(tiers.apply_damage, track, -1) == "out_of_range"


# --- T-6 -----------------------------------------------------------------------------------------


def test_T6_maximum_essence_is_the_arcanes_skill():
    essence = tiers.essence_for(4)
    assert essence.current == essence.maximum == 4
    assert code_of(tiers.Essence, current=5, maximum=4) == "out_of_range"


def test_T6_a_failed_spell_still_costs_one_essence():
    essence, receipt = tiers.cast(tiers.essence_for(2), spell_success=False)
    assert essence.current == 1 and receipt.cost == 1 and receipt.spell_success is False


def test_T6_casting_at_zero_essence_is_refused():
    essence, _ = tiers.cast(tiers.essence_for(1))
    assert essence.current == 0
    assert code_of(tiers.cast, essence) == "essence_exhausted"


# --- T-7 -----------------------------------------------------------------------------------------


def test_T7_one_weapon_bonus_adds_to_the_skill():
    assert tiers.weapon_bonus([3]) == 3 and tiers.weapon_bonus([]) == 0


def test_T7_two_weapons_bonus_is_not_doubled():
    """Reading: the larger of the two bonuses applies, once."""
    assert tiers.weapon_bonus([2, 3], two_weapons=True) == 3


def test_T7_two_weapons_need_the_two_weapons_skill():
    assert code_of(tiers.weapon_bonus, [2, 3]) == "two_weapons_skill_required"
    assert code_of(tiers.weapon_bonus, [2], two_weapons=True) == "two_weapons_needs_two"
    assert code_of(tiers.weapon_bonus, [1, 2, 3], two_weapons=True) == "too_many_weapons"


# --- T-8 -----------------------------------------------------------------------------------------


def test_T8_raising_to_rating_r_costs_ten_times_r():
    xp, _ = tiers.award_xp(tiers.Experience(), 50)
    xp, receipt = tiers.spend_xp(xp, 4)
    assert receipt.cost == 40 and xp.points == 10 and receipt.change == -40


def test_T8_spend_beyond_the_points_is_refused():
    assert code_of(tiers.spend_xp, tiers.Experience(points=39), 4) == "not_enough_xp"


def test_T8_raise_of_several_ratings_pays_each_step():
    """Reading: 2 → 4 costs 30 + 40."""
    assert tiers.xp_cost(4, current_rating=2) == 70
    assert code_of(tiers.xp_cost, 3, current_rating=3) == "not_a_raise"


def test_T8_award_accumulates():
    xp, receipt = tiers.award_xp(tiers.Experience(points=5), 12)
    assert xp.points == 17 and receipt.change == 12


# --- The resolve contract -----------------------------------------------------------------------


def test_contract_receipt_has_the_minimum_fields():
    r = line(skill=7, bonus=2, faces=[1, 1, 5], bullets=3)
    assert r["system"] == "tiers"
    assert (r["tier"], r["critical_tiers"], r["success"]) == ((9 - 1 + 2) * 3, 2, True)
    assert r == to_plain(tiers.resolve(TiersRequest(skill=7, bonus=2, bullets=3), (1, 1, 5)))


def test_contract_defaults_to_a_skill_roll_with_no_bonus():
    r = line(skill=5, faces=[2])
    assert r["kind"] == "skill" and r["bonus"] == 0 and r["bullets"] is None and r["tier"] == 3


@pytest.mark.parametrize(
    "fields,code",
    [
        ({"skill": 5, "faces": [2], "luck": 1}, "unknown_field"),
        ({"skill": 5}, "missing_field"),
        ({"faces": [2]}, "field_required"),
        ({"skill": "5", "faces": [2]}, "wrong_type"),
        ({"skill": 5, "faces": [2], "kind": "parry"}, "bad_choice"),
        ({"skill": 5, "faces": [2], "bullets": 0}, "out_of_range"),
        ({"skill": 5, "faces": [2], "attack_tier": 1}, "field_not_for_kind"),
        ({"skill": 5, "faces": [2], "endurance": 1}, "field_not_for_kind"),
        ({"skill": -1, "faces": [2]}, "out_of_range"),
        ({"skill": 5, "faces": [1]}, "critical_reroll_missing"),
        ({"skill": 5, "faces": [2, 2]}, "extra_faces_after_chain"),
        ({"skill": 5, "faces": [True]}, "wrong_type"),
    ],
)
def test_contract_refusals(fields, code):
    assert line_error(**fields) == code


def test_registry_knows_tiers():
    assert get_system("tiers").module is tiers


# --- Properties ---------------------------------------------------------------------------------


def chains(max_ones: int = 6):
    """Valid face lists: n ones then one non-1 face."""
    return st.tuples(st.integers(0, max_ones), st.integers(2, 10)).map(lambda p: (1,) * p[0] + (p[1],))


@settings(max_examples=200, deadline=None)
@given(effective=st.integers(0, 20), faces=chains())
def test_T2_property_a_chain_of_n_ones_adds_at_most_n_tiers(effective, faces):
    r = skill(effective, faces)
    ones = faces.count(1)
    # T-2 recomputed from SPEC: each reroll after a 1 adds a tier when it is ≤ the skill (equal included).
    expected_tiers = sum(1 for face in faces[1:] if face <= effective)
    assert r.critical_tiers == expected_tiers <= ones
    chained = effective - faces[0] + expected_tiers  # T-1
    lift = max(0, -chained) if faces[0] == 1 else 0  # T-2 Reading: a critical succeeds, at tier 0 at least
    assert r.critical_lift == lift and r.tier == chained + lift
    assert r.critical == (faces[0] == 1) and r.success == (r.tier >= 0)
    assert r.success or faces[0] != 1


@settings(max_examples=200, deadline=None)
@given(effective=st.integers(0, 20), faces=chains(), bullets=st.integers(1, 30))
def test_T3_property_bullets_multiply_exactly(effective, faces, bullets):
    single = skill(effective, faces)
    burst = skill(effective, faces, bullets=bullets)
    assert burst.tier == single.tier * bullets
    assert burst.success == single.success


@settings(max_examples=200, deadline=None)
@given(endurance=st.integers(0, 10), armor=st.integers(0, 10), attack=st.integers(0, 60), faces=chains())
def test_T5_property_soak_damage_is_never_negative(endurance, armor, attack, faces):
    r = line(kind="soak", endurance=endurance, armor=armor, attack_tier=attack, faces=list(faces))
    assert r["damage"] >= 0
    assert r["damage"] == max(0, attack - r["soak_tier"])
    assert r["success"] == (r["damage"] == 0)


@settings(max_examples=200, deadline=None)
@given(points=st.integers(0, 500), rating=st.integers(1, 20))
def test_T8_property_experience_never_goes_negative(points, rating):
    xp = tiers.Experience(points=points)
    try:
        after, receipt = tiers.spend_xp(xp, rating)
    except RuleError as refused:
        assert refused.code == "not_enough_xp" and 10 * rating > points
    else:
        assert after.points == points - 10 * rating >= 0 and receipt.cost == 10 * rating


@settings(max_examples=100, deadline=None)
@given(skill_value=st.integers(0, 15), stream=st.lists(st.integers(1, 10), min_size=1, max_size=12))
def test_T2_property_needed_draws_exactly_a_resolvable_chain(skill_value, stream):
    stream = stream + [5]  # a stream always ends the chain eventually
    faces, receipt = roll(get_system("tiers"), TiersRequest(skill=skill_value), GivenFaces(stream))
    assert faces == tuple(stream[: len(faces)]) and (len(faces) == 1 or faces[:-1] == (1,) * (len(faces) - 1))
    assert faces[-1] != 1 and receipt.faces == faces
