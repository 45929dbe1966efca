"""Roll-under d20 (SPEC R-1 … R-8): fixed faces pin every rule; the contract is checked through resolve_request."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.contract import resolve_request
from rollbook.dice import GivenFaces, roll
from rollbook.rules import get_system
from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.rollunder import rules as rollunder
from rollbook.systems.rollunder.rules import RollUnderRequest, parse_dice

ACTION = "Climb the wall"


def check(level: int, faces, **kw):
    return rollunder.resolve(RollUnderRequest(action=ACTION, level=level, **kw), tuple(faces))


def opposed(dice: str, threshold: int, faces, **kw):
    return rollunder.resolve(
        RollUnderRequest(action=ACTION, kind="opposed", dice=dice, threshold=threshold, **kw), tuple(faces)
    )


def code_of(call, *args, **kwargs) -> str:
    with pytest.raises(RuleError) as refused:
        call(*args, **kwargs)
    return refused.value.code


def line(**fields) -> dict:
    return resolve_request({"system": "rollunder", "action": ACTION, **fields})


def line_error(**fields) -> str:
    return code_of(resolve_request, {"system": "rollunder", **fields})


# --- R-1, R-2 ------------------------------------------------------------------------------------


def test_R1_kept_face_at_or_under_the_level_succeeds():
    assert check(12, [12]).outcome == "success"
    assert check(12, [5]).outcome == "success"


def test_R1_kept_face_over_the_level_fails():
    r = check(12, [13])
    assert r.outcome == "failure" and r.kept == 13 and r.target == 12 and r.rolled


def test_R1_one_d20_is_needed():
    request = RollUnderRequest(action=ACTION, level=10)
    assert rollunder.needed(request, ()) == (20,)
    assert rollunder.needed(request, (4,)) == ()


def test_R1_a_face_21_on_a_d20_is_refused():
    assert code_of(check, 10, [21]) == "face_out_of_range"
    assert line_error(action=ACTION, level=10, faces=[21]) == "face_out_of_range"


def test_R2_a_one_is_a_critical_success_whatever_the_level():
    assert check(0, [1]).outcome == "critical_success"
    assert check(12, [1]).outcome == "critical_success"


def test_R2_a_twenty_is_a_critical_failure_whatever_the_level():
    assert check(25, [20]).outcome == "critical_failure"
    assert check(12, [20], bonus=10).outcome == "critical_failure"


# --- R-3 -----------------------------------------------------------------------------------------


def test_R3_advantage_keeps_the_lower_of_two():
    r = check(10, [15, 7], advantage=True)
    assert r.kept == 7 and r.dropped == (15,) and r.keep == "lower" and r.outcome == "success"


def test_R3_disadvantage_keeps_the_higher_of_two():
    r = check(10, [15, 7], disadvantage=True)
    assert r.kept == 15 and r.dropped == (7,) and r.keep == "higher" and r.outcome == "failure"


def test_R3_advantage_and_disadvantage_cancel_to_one_d20():
    request = RollUnderRequest(action=ACTION, level=10, advantage=True, disadvantage=True)
    assert rollunder.needed(request, ()) == (20,)
    r = check(10, [11], advantage=True, disadvantage=True)
    assert r.keep == "single" and r.kept == 11 and r.outcome == "failure"


def test_R3_advantage_needs_two_faces():
    assert rollunder.needed(RollUnderRequest(action=ACTION, level=10, advantage=True), ()) == (20, 20)
    assert code_of(check, 10, [5], advantage=True) == "wrong_face_count"
    assert code_of(check, 10, [5, 6]) == "wrong_face_count"
    assert code_of(check, 10, [5, 6], advantage=True, disadvantage=True) == "wrong_face_count"


def test_R3_R2_advantage_critical_on_the_kept_die():
    assert check(10, [20, 1], advantage=True).outcome == "critical_success"
    assert check(10, [20, 1], disadvantage=True).outcome == "critical_failure"
    assert check(10, [20, 3], advantage=True).outcome == "success"  # a dropped 20 is no critical


def _chance(level: int, **kw) -> Fraction:
    pairs = [(a, b) for a in range(1, 21) for b in range(1, 21)]
    wins = sum(check(level, [a, b] if kw else [a], **kw).success for a, b in pairs)
    return Fraction(wins, len(pairs))


@pytest.mark.parametrize("level", [0, 1, 5, 10, 15, 19, 20, 25])
def test_R3_advantage_never_lowers_the_chance_of_success_all_400_pairs(level):
    plain = _chance(level)
    assert _chance(level, advantage=True) >= plain >= _chance(level, disadvantage=True)


def test_R3_advantage_exact_chance_matches_the_formula():
    """Level 10: P(success) with advantage = 1 − (10/20)² over all 400 pairs."""
    assert _chance(10, advantage=True) == 1 - Fraction(10, 20) ** 2


# --- R-4 -----------------------------------------------------------------------------------------


def test_R4_bonus_adds_to_the_level_for_this_roll():
    r = check(10, [12], bonus=2)
    assert r.target == 12 and r.level == 10 and r.outcome == "success"


def test_R4_malus_subtracts_from_the_level():
    r = check(10, [9], malus=2)
    assert r.target == 8 and r.outcome == "failure"


def test_R4_bonus_and_malus_together():
    assert check(10, [11], bonus=3, malus=2).target == 11


def test_R4_negative_bonus_is_refused():
    assert line_error(action=ACTION, level=10, bonus=-1, faces=[3]) == "out_of_range"


# --- R-5 -----------------------------------------------------------------------------------------


def test_R5_a_roll_without_a_declared_action_is_refused():
    assert code_of(RollUnderRequest, action="", level=10) == "action_required"
    assert code_of(RollUnderRequest, action="   ", level=10) == "action_required"
    assert line_error(level=10, faces=[3]) == "missing_field"
    assert line_error(action="", level=10, faces=[3]) == "action_required"


def test_R5_the_action_is_on_the_receipt():
    assert line(level=10, faces=[3])["action"] == ACTION


# --- R-6 -----------------------------------------------------------------------------------------


def test_R6_cards_played_before_the_roll_are_on_the_receipt():
    r = line(level=10, advantage=True, faces=[14, 3], cards=["Agile", "Lucky break"])
    assert r["cards"] == ["Agile", "Lucky break"] and r["outcome"] == "success"


def test_R6_a_card_after_the_roll_is_refused():
    receipt = check(10, [14])
    assert code_of(rollunder.play_card_after, receipt, "Agile") == "card_after_roll"


def test_R6_a_nameless_card_is_refused():
    assert line_error(action=ACTION, level=10, faces=[3], cards=[""]) == "card_empty"


# --- R-7 -----------------------------------------------------------------------------------------


def test_R7_dice_expression_gives_every_die_in_order():
    expression = parse_dice("2d6+1d4")
    assert expression.sizes == (6, 6, 4) and str(expression) == "2d6+1d4"
    assert parse_dice(" 3D6 + 1d20 ").sizes == (6, 6, 6, 20)


@pytest.mark.parametrize(
    "text,code",
    [
        ("0d6", "dice_count_out_of_range"),
        ("101d6", "dice_count_out_of_range"),
        ("3d1", "dice_sides_out_of_range"),
        ("2d1001", "dice_sides_out_of_range"),
        ("2x6", "dice_expression_syntax"),
        ("d", "dice_expression_syntax"),
        ("2d6+", "dice_expression_empty_term"),
        ("+1d4", "dice_expression_empty_term"),
        ("2d6-1d4", "dice_expression_syntax"),
        ("2d6*3", "dice_expression_syntax"),
        ("3", "dice_expression_syntax"),
        ("", "dice_expression_empty"),
    ],
)
def test_R7_bad_dice_expressions_are_refused(text, code):
    assert code_of(parse_dice, text) == code
    assert line_error(action=ACTION, kind="opposed", dice=text, threshold=9, faces=[3]) == code


def test_R7_total_at_or_under_the_threshold_succeeds():
    r = opposed("2d6+1d4", 9, [3, 4, 2])
    assert r.total == 9 and r.target == 9 and r.outcome == "success"
    assert opposed("2d6+1d4", 8, [3, 4, 2]).outcome == "failure"


def test_R7_every_die_showing_one_is_a_critical_success():
    r = opposed("3d6", 2, [1, 1, 1])  # a total over the threshold, yet critical
    assert r.outcome == "critical_success" and r.all_ones


def test_R7_every_die_at_its_maximum_is_a_critical_failure():
    r = opposed("2d6+1d4", 30, [6, 6, 4])
    assert r.outcome == "critical_failure" and r.all_max
    assert opposed("2d6+1d4", 30, [6, 6, 3]).outcome == "success"


def test_R7_each_face_must_fit_its_own_die():
    assert code_of(opposed, "2d6+1d4", 9, [3, 4, 5]) == "face_out_of_range"
    assert code_of(opposed, "2d6+1d4", 9, [3, 4]) == "wrong_face_count"
    assert opposed("1d4+2d6", 20, [4, 6, 5]).outcome == "success"


def test_R7_needed_lists_the_expression_dice_in_order():
    request = RollUnderRequest(action=ACTION, kind="opposed", dice="2d8+1d4", threshold=9)
    assert rollunder.needed(request, ()) == (8, 8, 4)
    assert rollunder.needed(request, (3,)) == (8, 4)
    faces, receipt = roll(get_system("rollunder"), request, GivenFaces([8, 7, 4]))
    assert faces == (8, 7, 4) and receipt.total == 19 and receipt.outcome == "failure"


def test_R7_opposed_refuses_the_checks_modifiers():
    assert (
        line_error(action=ACTION, kind="opposed", dice="2d6", threshold=9, level=3, faces=[1, 2])
        == "field_not_for_kind"
    )
    assert (
        line_error(action=ACTION, kind="opposed", dice="2d6", threshold=9, advantage=True, faces=[1, 2])
        == "field_not_for_kind"
    )
    assert line_error(action=ACTION, kind="opposed", threshold=9, faces=[1, 2]) == "field_required"
    assert line_error(action=ACTION, kind="opposed", dice="2d6", faces=[1, 2]) == "field_required"


# --- R-8 -----------------------------------------------------------------------------------------


def test_R8_an_absurd_task_rolls_nothing_and_fails():
    r = line(level=10, task="absurd")
    assert r["rolled"] is False and r["faces"] == [] and r["outcome"] == "failure" and r["time_spent"]
    assert rollunder.needed(RollUnderRequest(action=ACTION, level=10, task="absurd"), ()) == ()


def test_R8_a_trivial_task_rolls_nothing_and_succeeds():
    r = line(level=10, task="trivial", advantage=True)
    assert r["rolled"] is False and r["faces"] == [] and r["outcome"] == "success" and r["kept"] is None


def test_R8_faces_on_an_absurd_or_trivial_task_are_refused():
    assert line_error(action=ACTION, level=10, task="absurd", faces=[3]) == "wrong_face_count"
    assert (
        line_error(action=ACTION, kind="opposed", dice="2d6", threshold=4, task="trivial", faces=[1, 1])
        == "wrong_face_count"
    )


def test_R8_opposed_absurd_task_has_no_total():
    r = line(kind="opposed", dice="2d6", threshold=4, task="absurd")
    assert r["total"] is None and r["outcome"] == "failure" and r["target"] == 4


# --- The resolve contract -----------------------------------------------------------------------


def test_contract_receipt_has_the_minimum_fields():
    r = line(level=12, bonus=1, malus=3, faces=[9])
    assert r["system"] == "rollunder"
    assert (r["kept"], r["target"], r["outcome"], r["rolled"]) == (9, 10, "success", True)
    assert r == to_plain(rollunder.resolve(RollUnderRequest(action=ACTION, level=12, bonus=1, malus=3), (9,)))


@pytest.mark.parametrize(
    "fields,code",
    [
        ({"level": 10, "faces": [3], "luck": 1}, "unknown_field"),
        ({"faces": [3]}, "field_required"),
        ({"level": 10, "faces": [3], "task": "heroic"}, "bad_choice"),
        ({"level": 10, "faces": [3], "kind": "contest"}, "bad_choice"),
        ({"level": "10", "faces": [3]}, "wrong_type"),
        ({"level": 10, "faces": [3], "advantage": 1}, "wrong_type"),
        ({"level": 10, "faces": [3], "dice": "2d6"}, "field_not_for_kind"),
        ({"level": 10, "faces": [0]}, "face_out_of_range"),
        ({"level": -1, "faces": [3]}, "out_of_range"),
        ({"level": 10}, "wrong_face_count"),
    ],
)
def test_contract_refusals(fields, code):
    assert line_error(action=ACTION, **fields) == code


def test_registry_knows_rollunder():
    assert get_system("rollunder").module is rollunder


# --- Properties ---------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(level=st.integers(0, 30), bonus=st.integers(0, 5), malus=st.integers(0, 5), face=st.integers(1, 20))
def test_R1_R2_R4_property_outcome_of_a_single_d20(level, bonus, malus, face):
    r = check(level, [face], bonus=bonus, malus=malus)
    if face == 1:
        assert r.outcome == "critical_success"
    elif face == 20:
        assert r.outcome == "critical_failure"
    else:
        assert r.success == (face <= level + bonus - malus)


@settings(max_examples=200, deadline=None)
@given(level=st.integers(0, 25), a=st.integers(1, 20), b=st.integers(1, 20))
def test_R3_property_advantage_is_never_worse_than_either_die(level, a, b):
    order = ["critical_failure", "failure", "success", "critical_success"]
    best = check(level, [a, b], advantage=True)
    worst = check(level, [a, b], disadvantage=True)
    for face in (a, b):
        single = check(level, [face])
        assert order.index(best.outcome) >= order.index(single.outcome) >= order.index(worst.outcome)


terms = st.tuples(st.integers(1, 4), st.integers(2, 12))


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(terms, min_size=1, max_size=3), data=st.data(), threshold=st.integers(0, 60))
def test_R7_property_parse_and_resolve_agree(parts, data, threshold):
    text = "+".join(f"{n}d{s}" for n, s in parts)
    expression = parse_dice(text)
    assert str(expression) == text and len(expression.sizes) == sum(n for n, _ in parts)
    faces = [data.draw(st.integers(1, sides)) for sides in expression.sizes]
    r = opposed(text, threshold, faces)
    assert r.total == sum(faces)
    if all(f == 1 for f in faces):
        assert r.outcome == "critical_success"
    elif all(f == s for f, s in zip(faces, expression.sizes)):
        assert r.outcome == "critical_failure"
    else:
        assert r.success == (sum(faces) <= threshold)


# --- "any type and any number of dice": d20, 2d6+2, 3d6-1, d100 -----------------


@pytest.mark.parametrize(
    "expression,written,sizes,low,high",
    [
        ("d20", "1d20", (20,), 1, 20),
        ("2d6+2", "2d6+2", (6, 6), 4, 14),
        ("3d6-1", "3d6-1", (6, 6, 6), 2, 17),
        ("d100", "1d100", (100,), 1, 100),
        ("1d8 + 1d4 + 3", "1d8+1d4+3", (8, 4), 5, 15),
    ],
)
def test_R_7_dice_expressions_with_one_die_terms_and_numbers(expression, written, sizes, low, high):
    from rollbook.systems.rollunder.rules import parse_dice

    parsed = parse_dice(expression)
    assert (str(parsed), parsed.sizes, parsed.minimum, parsed.maximum) == (written, sizes, low, high)


@pytest.mark.parametrize("expression", ["2", "2d6-1d4", "+2d6", "2d6+", "d", "2d6*2"])
def test_R_7_what_is_not_a_roll_is_refused(expression):
    from rollbook.systems.rollunder.rules import parse_dice

    with pytest.raises(RuleError):
        parse_dice(expression)


def test_R_7_a_number_moves_the_total_and_criticals_stay_on_the_dice():
    from rollbook.systems.rollunder.rules import RollUnderRequest, resolve

    def opposed(dice, threshold, faces):
        return resolve(
            RollUnderRequest(action="Climb", kind="opposed", dice=dice, threshold=threshold), faces
        )

    assert (opposed("2d6+2", 9, (3, 4)).total, opposed("2d6+2", 9, (3, 4)).outcome) == (9, "success")
    assert opposed("2d6+2", 8, (3, 4)).outcome == "failure"
    assert (opposed("3d6-1", 2, (1, 1, 1)).total, opposed("3d6-1", 2, (1, 1, 1)).outcome) == (
        2,
        "critical_success",
    )
    assert opposed("d20", 30, (20,)).outcome == "critical_failure"  # every die at its highest face
    assert opposed("d100", 50, (50,)).outcome == "success"
