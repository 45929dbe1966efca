"""V20 rules pinned with fixed faces (SPEC V20-1 … V20-16) and property tests of their invariants."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from rollbook.contract import resolve_request
from rollbook.rules.base import RuleError
from rollbook.systems.v20 import rules as v20
from rollbook.systems.v20.rules import V20Request, resolve


def roll(faces, **options):
    return resolve(V20Request(pool=len(faces), **options), tuple(faces))


def test_V20_1_empty_pool_rolls_nothing_and_is_no_botch():
    receipt = roll([])
    assert receipt.faces == () and receipt.rolled_successes == 0 and receipt.ones == 0
    assert receipt.outcome == "failure"  # V20-11: an empty pool is never a botch


def test_V20_1_pool_counts_faces_exactly():
    with pytest.raises(RuleError) as refused:
        resolve(V20Request(pool=3), (5, 6))
    assert refused.value.code == "wrong_face_count"


def test_V20_2_difficulty_defaults_to_6_and_is_a_face_target_not_required_successes():
    receipt = roll([6, 5, 6], required=2)
    assert receipt.difficulty == 6 and receipt.required == 2
    assert receipt.rolled_successes == 2 and receipt.outcome == "success"
    assert roll([6, 5, 6], required=3).outcome == "failure"


@pytest.mark.parametrize("difficulty", [1, 11, 0, -3])
def test_V20_2_difficulty_outside_2_to_10_is_refused(difficulty):
    with pytest.raises(RuleError) as refused:
        V20Request(pool=3, difficulty=difficulty)
    assert refused.value.code == "out_of_range" and refused.value.params["field"] == "difficulty"


def test_V20_2_required_must_be_at_least_one():
    with pytest.raises(RuleError):
        V20Request(pool=3, required=0)


def test_V20_3_untrained_skill_adds_one_to_difficulty():
    receipt = roll([6, 7, 3], untrained="skill")
    assert receipt.untrained_penalty == 1 and receipt.difficulty == 7
    assert receipt.rolled_successes == 1


def test_V20_3_untrained_talent_rolls_at_normal_difficulty():
    receipt = roll([6, 7, 3], untrained="talent")
    assert receipt.untrained_penalty == 0 and receipt.difficulty == 6 and receipt.rolled_successes == 2


def test_V20_3_untrained_knowledge_is_refused_unless_allowed_then_like_a_skill():
    with pytest.raises(RuleError) as refused:
        V20Request(pool=2, untrained="knowledge")
    assert refused.value.code == "untrained_knowledge_refused"
    receipt = roll([7, 6], untrained="knowledge", knowledge_allowed=True)
    assert receipt.difficulty == 7 and receipt.rolled_successes == 1


def test_V20_4_untrained_over_10_becomes_a_required_success():
    receipt = roll([10, 10, 3], difficulty=10, untrained="skill")
    assert receipt.evaluated_difficulty == 10 and receipt.difficulty == 10
    assert receipt.requested_required == 1 and receipt.required == 2
    assert receipt.outcome == "success"
    assert roll([10, 9, 3], difficulty=10, untrained="skill").outcome == "failure"


def test_V20_5_casual_halves_once_rounding_down():
    assert roll([3, 2], difficulty=7, mode="casual").difficulty == 3
    assert roll([3, 2], difficulty=6, mode="casual").difficulty == 3
    # untrained +1 first (7), then halved once to 3, not twice
    assert roll([3, 2], difficulty=6, mode="casual", untrained="skill").difficulty == 3


def test_V20_5_casual_never_below_one_and_a_one_still_cancels_at_difficulty_one():
    receipt = roll([1, 1, 4], difficulty=2, mode="casual")
    assert receipt.difficulty == 1
    assert receipt.rolled_successes == 3 and receipt.ones == 2 and receipt.cancelled == 2
    assert receipt.successes == 1 and receipt.outcome == "success"
    lone_one = roll([1], difficulty=3, mode="casual")
    assert lone_one.rolled_successes == 1 and lone_one.cancelled == 1 and lone_one.outcome == "failure"


def test_V20_5_strict_uses_the_evaluated_difficulty():
    # Evaluated difficulty 5 + 1 (untrained Skill) = 6: Strict applies it unhalved, so a 5 fails.
    strict = roll([5, 6], difficulty=5, untrained="skill")
    assert strict.mode == "strict" and strict.evaluated_difficulty == 6 and strict.difficulty == 6
    assert strict.rolled_successes == 1
    casual = roll([5, 6], difficulty=5, untrained="skill", mode="casual")
    assert casual.evaluated_difficulty == 6 and casual.difficulty == 3 and casual.rolled_successes == 2


def test_V20_6_success_at_or_above_difficulty():
    receipt = roll([5, 6, 7, 10], difficulty=7)
    assert receipt.successful_dice == 2 and receipt.rolled_successes == 2


def test_V20_7_specialty_ten_counts_two_without_reroll():
    receipt = roll([10, 7, 3], difficulty=7, specialty=True, specialty_rating=4)
    assert receipt.faces == (10, 7, 3)  # nothing rerolled
    assert receipt.specialty_tens == 1 and receipt.rolled_successes == 3


def test_V20_7_specialty_refused_on_a_trait_rated_3():
    with pytest.raises(RuleError) as refused:
        V20Request(pool=3, specialty=True, specialty_rating=3)
    assert refused.value.code == "specialty_rating_too_low" and refused.value.params["rating"] == 3
    with pytest.raises(RuleError) as missing:
        V20Request(pool=3, specialty=True)
    assert missing.value.code == "specialty_rating_missing"


def test_V20_7_reading_an_attribute_specialty_applies_with_an_untrained_ability():
    """V20-7 Reading: an Attribute's specialty (rated 4–5) applies even when the Ability is untrained:
    the 10 counts two and the untrained Skill's +1 still applies (V20-3)."""
    receipt = roll([7, 10, 3], untrained="skill", specialty=True, specialty_rating=4)
    assert receipt.difficulty == 7 and receipt.untrained_penalty == 1
    assert receipt.specialty_tens == 1 and receipt.rolled_successes == 3 and receipt.outcome == "success"
    talent = roll([7, 10, 3], untrained="talent", specialty=True, specialty_rating=5)
    assert talent.difficulty == 6 and talent.rolled_successes == 3
    plain = resolve_request(
        {"system": "v20", "faces": [7, 10, 3], "untrained": "skill", "specialty": True, "specialty_rating": 4}
    )
    assert plain["successes"] == 3 and plain["difficulty"] == 7


def test_V20_7_without_specialty_a_ten_is_one_success():
    assert roll([10], specialty_rating=5).rolled_successes == 1


def test_V20_8_rule_of_one_cancels_in_success_units_and_stops_at_zero():
    receipt = roll([10, 1], specialty=True, specialty_rating=5)
    assert receipt.rolled_successes == 2 and receipt.cancelled == 1 and receipt.successes == 1
    many_ones = roll([7, 1, 1, 1])
    assert many_ones.cancelled == 1 and many_ones.successes == 0 and many_ones.outcome == "failure"


def test_V20_9_willpower_is_one_automatic_success_not_a_die_and_not_cancelled():
    receipt = roll([1, 2, 4], willpower=True)  # Nia at the office door (seed 000)
    assert receipt.faces == (1, 2, 4) and receipt.willpower_success == 1
    assert receipt.cancelled == 0 and receipt.successes == 1 and receipt.outcome == "success"
    assert receipt.auto_sources == {"willpower": 1}


def test_V20_9_willpower_refused_on_a_willpower_roll_and_at_zero():
    with pytest.raises(RuleError) as on_itself:
        V20Request(pool=3, willpower=True, willpower_roll=True)
    assert on_itself.value.code == "willpower_on_willpower_roll"
    with pytest.raises(RuleError) as exhausted:
        V20Request(pool=3, willpower=True, willpower_current=0)
    assert exhausted.value.code == "willpower_exhausted"
    assert V20Request(pool=3, willpower_roll=True).willpower_roll  # a Willpower roll itself is fine


def test_V20_9_power_successes_recorded_apart():
    receipt = roll([3], willpower=True, auto_successes=2)
    assert receipt.auto_sources == {"willpower": 1, "powers": 2} and receipt.auto_successes == 3


def test_V20_10_total_is_rolled_minus_cancelled_plus_automatic():
    receipt = roll([8, 9, 1], willpower=True, auto_successes=1)
    assert receipt.successes == 2 - 1 + 2


def test_V20_11_botch_needs_no_success_a_one_and_no_automatic_success():
    assert roll([1, 2, 4]).outcome == "botch"
    assert roll([2, 3, 4]).outcome == "failure"  # no 1: ordinary failure
    assert roll([7, 1]).outcome == "failure"  # cancelled to zero is a failure, not a botch
    assert roll([1], auto_successes=1).outcome == "success"


def test_V20_11_willpower_blocks_botch_but_two_required_is_a_failure():
    assert roll([1], willpower=True, required=2).outcome == "failure"


def test_V20_12_degrees_of_success():
    assert roll([7]).degree == "marginal"
    assert roll([7, 8]).degree == "moderate"
    assert roll([7, 8, 9]).degree == "complete"
    assert roll([7, 8, 9, 10]).degree == "exceptional"
    assert roll([7, 8, 9, 10, 6, 6]).degree == "phenomenal"
    assert roll([2]).degree is None


def test_V20_13_engine_never_adds_a_multiple_action_penalty():
    assert roll([6, 6], difficulty=6).difficulty == 6


def test_V20_13_helper_raises_the_difficulty_before_the_roll():
    assert v20.multiple_action_difficulty(6, 1) == (6, 0)
    assert v20.multiple_action_difficulty(6, 3) == (8, 0)
    assert v20.multiple_action_difficulty(9, 4) == (10, 2)  # past 10: more successes required (V20-4)


def test_V20_14_receipt_keeps_every_number_apart():
    receipt = roll([10, 1, 5, 7], difficulty=7, untrained="skill", willpower=True)
    assert (receipt.requested_difficulty, receipt.difficulty, receipt.mode, receipt.required) == (
        7,
        8,
        "strict",
        1,
    )
    assert (receipt.ones, receipt.rolled_successes, receipt.cancelled, receipt.auto_successes) == (1, 1, 1, 1)
    assert receipt.faces == (10, 1, 5, 7) and receipt.successes == 1 and receipt.outcome == "success"


def test_V20_16_blood_pool_by_generation():
    assert v20.blood_pool(13) == (10, 1)
    assert v20.blood_pool(8) == (15, 3)
    assert v20.blood_pool(4) == (50, 10)
    with pytest.raises(RuleError):
        v20.blood_pool(2)


def test_V20_16_wound_penalties_by_health_level():
    assert [v20.wound_penalty(d) for d in range(8)] == [0, 0, -1, -1, -2, -2, -5, None]
    assert (
        v20.health_level(3) == "injured" and v20.health_level(0) is None and v20.health_level(9) == "torpor"
    )


def test_V20_16_soak_roll_removes_damage_per_success_and_cannot_botch():
    request = v20.SoakRequest(damage=3, damage_type="lethal", stamina=2, fortitude=1)
    assert v20.soak_pool(request) == 3
    receipt = v20.resolve_soak(request, (6, 1, 9))
    assert receipt.soaked == 2 and receipt.damage_taken == 1
    assert v20.soak_pool(v20.SoakRequest(damage=2, damage_type="aggravated", stamina=3, fortitude=1)) == 1
    assert v20.soak_pool(v20.SoakRequest(damage=2, damage_type="lethal", stamina=3, vampire=False)) == 0
    assert v20.soak_pool(v20.SoakRequest(damage=2, damage_type="bashing", stamina=3, vampire=False)) == 3


def test_faces_out_of_range_are_refused():
    for bad in (0, 11, -1, True):
        with pytest.raises(RuleError) as refused:
            roll([bad])
        assert refused.value.code == "face_out_of_range"


faces_lists = st.lists(st.integers(1, 10), max_size=15)
options = st.fixed_dictionaries(
    {
        "difficulty": st.integers(2, 10),
        "required": st.integers(1, 4),
        "mode": st.sampled_from(["strict", "casual"]),
        "willpower": st.booleans(),
        "auto_successes": st.integers(0, 2),
    }
)


@example([7, 1], dict(difficulty=6, required=1, mode="strict", willpower=False, auto_successes=0), None)
@example([10, 1, 1], dict(difficulty=6, required=1, mode="strict", willpower=False, auto_successes=0), 5)
@example([1, 2], dict(difficulty=6, required=1, mode="strict", willpower=False, auto_successes=1), None)
@example([1, 3], dict(difficulty=3, required=1, mode="casual", willpower=False, auto_successes=0), None)
@given(faces_lists, options, st.sampled_from([None, 4, 5]))
def test_V20_11_property_a_botch_never_has_a_rolled_success(faces, opts, specialty_rating):
    receipt = roll(faces, specialty=specialty_rating is not None, specialty_rating=specialty_rating, **opts)
    # Every number recomputed here from SPEC alone, not from the receipt.
    applied = max(1, opts["difficulty"] // 2) if opts["mode"] == "casual" else opts["difficulty"]  # V20-5
    ones = faces.count(1)
    rolled = sum(1 for f in faces if f >= applied)  # V20-6
    if specialty_rating is not None:
        rolled += sum(1 for f in faces if f == 10)  # V20-7: a specialty 10 is two successes
    auto = int(opts["willpower"]) + opts["auto_successes"]  # V20-9
    cancelled = min(ones, rolled)  # V20-8
    total = rolled - cancelled + auto  # V20-10
    botch = rolled == 0 and ones >= 1 and auto == 0  # V20-11
    outcome = "botch" if botch else "success" if total >= opts["required"] else "failure"  # V20-12
    assert receipt.difficulty == applied and receipt.ones == ones
    assert (receipt.rolled_successes, receipt.cancelled, receipt.auto_successes) == (rolled, cancelled, auto)
    assert receipt.successes == total and receipt.outcome == outcome
    if receipt.outcome == "botch":
        assert receipt.rolled_successes == 0 and receipt.auto_successes == 0 and receipt.ones >= 1


@given(faces_lists, st.integers(2, 10))
def test_V20_7_property_specialty_never_lowers_the_total(faces, difficulty):
    plain = roll(faces, difficulty=difficulty)
    special = roll(faces, difficulty=difficulty, specialty=True, specialty_rating=5)
    assert special.successes >= plain.successes
    assert special.rolled_successes - plain.rolled_successes == sum(1 for f in faces if f == 10)


@given(faces_lists, options)
def test_resolution_is_deterministic(faces, opts):
    assert roll(faces, **opts) == roll(faces, **opts)


# --- V20-17: the damage roll -----------------------------------------------------------------------


def test_V20_17_damage_roll_counts_levels_at_6_no_botch_ones_cancel_nothing():
    request = v20.DamageRequest(pool=5, damage_type="lethal")
    receipt = v20.resolve_damage(request, (6, 1, 10, 1, 5))
    assert (receipt.difficulty, receipt.ones, receipt.levels, receipt.outcome) == (6, 2, 2, "damage")
    nothing = v20.resolve_damage(v20.DamageRequest(pool=3, damage_type="bashing"), (1, 1, 1))
    assert nothing.levels == 0 and nothing.outcome == "no_damage"  # never a botch


def test_V20_17_damage_pool_hand_to_hand_and_firearms_plus_extra_attack_successes():
    assert v20.damage_pool(3, 2, False, 1) == (5, 0)  # Strength 3 + weapon 2, one attack success
    assert v20.damage_pool(3, 2, False, 4) == (5, 3)  # + one die per success beyond the first
    assert v20.damage_pool(3, 6, True, 2) == (6, 1)  # a firearm's rating, no Strength
    with pytest.raises(RuleError) as missed:
        v20.damage_pool(3, 2, False, 0)  # only a successful attack deals damage
    assert missed.value.code == "out_of_range"
    with pytest.raises(RuleError):
        v20.DamageRequest(pool=2, damage_type="fire")


def test_V20_17_book_bullets_are_bashing_to_vampires_unless_aimed_at_the_head():
    assert v20.damage_type_against("lethal", firearm=True, vampire=True) == "bashing"
    assert v20.damage_type_against("lethal", firearm=True, vampire=True, aimed_at_head=True) == "lethal"
    assert v20.damage_type_against("lethal", firearm=True, vampire=False) == "lethal"
    assert v20.damage_type_against("lethal", firearm=False, vampire=True) == "lethal"
    assert v20.damage_type_against("aggravated", firearm=True, vampire=True) == "aggravated"


@given(faces=st.lists(st.integers(1, 10), max_size=30), damage_type=st.sampled_from(v20.DAMAGE_TYPES))
def test_V20_17_property_a_damage_roll_never_botches(faces, damage_type):
    receipt = v20.resolve_damage(v20.DamageRequest(pool=len(faces), damage_type=damage_type), tuple(faces))
    assert receipt.outcome in ("damage", "no_damage")
    assert receipt.levels == sum(1 for face in faces if face >= 6)  # 1s cancel nothing
    assert (receipt.levels == 0) == (receipt.outcome == "no_damage")


@given(
    damage=st.integers(0, 30),
    stamina=st.integers(0, 10),
    fortitude=st.integers(0, 10),
    damage_type=st.sampled_from(v20.DAMAGE_TYPES),
    vampire=st.booleans(),
    data=st.data(),
)
def test_V20_16_property_soak_never_leaves_negative_levels(
    damage, stamina, fortitude, damage_type, vampire, data
):
    request = v20.SoakRequest(
        damage=damage, damage_type=damage_type, stamina=stamina, fortitude=fortitude, vampire=vampire
    )
    faces = data.draw(
        st.lists(st.integers(1, 10), min_size=v20.soak_pool(request), max_size=v20.soak_pool(request))
    )
    receipt = v20.resolve_soak(request, tuple(faces))
    assert 0 <= receipt.damage_taken <= damage and receipt.soaked + receipt.damage_taken == damage
    assert receipt.damage_taken == max(0, damage - sum(1 for face in faces if face >= 6))
    assert receipt.outcome == ("damaged" if receipt.damage_taken else "soaked")
