"""Roll-under d20 sheets and actions (SPEC R-1 … R-8) through the play layer."""

from __future__ import annotations

import copy

import pytest

from rollbook.play import adjust, new_sheet, perform, perform_followup, verify_receipt

from .helpers import NoDice, checked_roll, refused, sample_sheet


def sheet(**extra):
    return sample_sheet("rollunder", **extra)


def roll(s, action, faces, role="player"):
    return checked_roll("rollunder", s, action, faces, role=role)


SNEAK = {"kind": "check", "action": "slip past the guard", "skill": "stealth"}


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"skills": {"stealth": 21}}, "out_of_range"),
        ({"attributes": {"agility": 0}}, "out_of_range"),
        ({"skills": {"agility": 5}, "attributes": {"agility": 5}}, "duplicate_trait"),
        ({"cards": [{"name": "A", "effect": "bonus"}]}, "out_of_range"),
        ({"cards": [{"name": "A", "effect": "advantage", "bonus": 2}]}, "field_not_for_card"),
        ({"cards": [{"name": "A", "effect": "extra"}, {"name": "A", "effect": "extra"}]}, "duplicate_name"),
        ({"cards": [{"name": "A", "effect": "luck"}]}, "bad_choice"),
    ],
)
def test_R_sheet_validation_refuses_bad_sheets(data, code):
    refused(code, new_sheet, "rollunder", {"name": "Zed", **data})


def test_R_1_check_at_or_under_the_skill_succeeds():
    assert roll(sheet(), SNEAK, [12]).receipt["result"]["outcome"] == "success"
    assert roll(sheet(), SNEAK, [13]).receipt["result"]["outcome"] == "failure"
    attribute = roll(sheet(), {"kind": "check", "action": "lift the gate", "attribute": "strength"}, [14])
    assert attribute.receipt["pool"]["total"] == 14 and attribute.receipt["result"]["success"] is True


def test_R_1_exactly_one_trait_that_the_sheet_holds():
    for action in ({"kind": "check", "action": "x"}, {**SNEAK, "attribute": "agility"}):
        refused(
            "one_trait_required",
            perform,
            "rollunder",
            sheet(),
            action,
            mode="strict",
            role="player",
            source=NoDice(),
        )
    refused(
        "unknown_trait",
        perform,
        "rollunder",
        sheet(),
        {**SNEAK, "skill": "flying"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_R_2_natural_one_and_twenty():
    assert roll(sheet(), {**SNEAK, "skill": "lore"}, [1]).receipt["result"]["outcome"] == "critical_success"
    assert roll(sheet(), SNEAK, [20]).receipt["result"]["outcome"] == "critical_failure"


def test_R_3_advantage_and_disadvantage_draw_two_both_cancel():
    assert roll(sheet(), {**SNEAK, "advantage": True}, [18, 5]).receipt["result"]["kept"] == 5
    assert roll(sheet(), {**SNEAK, "disadvantage": True}, [18, 5]).receipt["result"]["kept"] == 18
    assert (
        roll(sheet(), {**SNEAK, "advantage": True, "disadvantage": True}, [7]).receipt["result"]["kept"] == 7
    )


def test_R_4_bonus_and_malus_change_the_target_for_this_roll():
    done = roll(sheet(), {**SNEAK, "bonus": 2, "malus": 5}, [9])
    assert done.receipt["pool"]["total"] == 9 and done.receipt["result"]["outcome"] == "success"
    assert done.sheet["skills"]["stealth"] == 12


@pytest.mark.parametrize("text", ["", "   "])
def test_R_5_a_roll_without_a_declared_action_is_refused(text):
    refused(
        "action_required",
        perform,
        "rollunder",
        sheet(),
        {**SNEAK, "action": text},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "missing_field",
        perform,
        "rollunder",
        sheet(),
        {"kind": "check", "skill": "stealth"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_R_6_cards_played_with_the_roll_apply_and_consumables_leave_the_sheet():
    s = sheet()
    done = roll(s, {**SNEAK, "cards": ["Lucky", "Edge", "Flourish"]}, [16, 15])
    assert done.receipt["request"]["advantage"] is True and done.receipt["request"]["bonus"] == 3
    assert done.receipt["result"]["kept"] == 15 and done.receipt["result"]["outcome"] == "success"
    assert done.receipt["result"]["cards"] == ["Lucky", "Edge", "Flourish"]
    assert [c["name"] for c in done.sheet["cards"]] == ["Edge"]  # Edge is not consumable
    assert {"resource": "cards", "before": "Lucky", "after": None, "card": "Lucky"} in done.effects


def test_R_6_unknown_or_repeated_cards_refused():
    refused(
        "unknown_card",
        perform,
        "rollunder",
        sheet(),
        {**SNEAK, "cards": ["Joker"]},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "duplicate_name",
        perform,
        "rollunder",
        sheet(),
        {**SNEAK, "cards": ["Lucky", "Lucky"]},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_R_6_a_card_after_the_roll_is_always_refused():
    done = roll(sheet(), SNEAK, [15])
    refused(
        "card_after_roll",
        perform_followup,
        "rollunder",
        done.sheet,
        done.receipt,
        {"kind": "card", "card": "Lucky"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "card_after_roll",
        perform_followup,
        "rollunder",
        done.sheet,
        done.receipt,
        {"kind": "card", "card": "Lucky"},
        mode="casual",
        role="storyteller",
        source=NoDice(),
    )


def test_R_7_opposed_rolls_are_the_storytellers():
    action = {"kind": "opposed", "action": "the bridge holds", "dice": "2d6+1d4", "threshold": 8}
    refused(
        "storyteller_only",
        perform,
        "rollunder",
        sheet(),
        action,
        mode="strict",
        role="player",
        source=NoDice(),
    )
    done = roll(sheet(), action, [3, 2, 4], role="storyteller")
    assert done.receipt["result"]["total"] == 9 and done.receipt["result"]["outcome"] == "failure"
    assert (
        roll(sheet(), action, [6, 6, 4], role="storyteller").receipt["result"]["outcome"]
        == "critical_failure"
    )
    refused(
        "dice_expression_syntax",
        perform,
        "rollunder",
        sheet(),
        {**action, "dice": "2x6"},
        mode="strict",
        role="storyteller",
        source=NoDice(),
    )


def test_R_8_absurd_and_trivial_tasks_roll_no_dice_and_are_the_storytellers_ruling():
    absurd = roll(sheet(), {**SNEAK, "task": "absurd"}, [], role="storyteller")
    assert absurd.receipt["faces"] == [] and absurd.receipt["result"]["outcome"] == "failure"
    assert absurd.receipt["result"]["time_spent"] is True
    trivial = roll(sheet(), {**SNEAK, "task": "trivial"}, [], role="storyteller")
    assert trivial.receipt["result"]["outcome"] == "success" and trivial.receipt["result"]["rolled"] is False
    refused(
        "storyteller_only",
        perform,
        "rollunder",
        sheet(),
        {**SNEAK, "task": "trivial"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_R_storyteller_grants_and_removes_cards():
    s = sheet()
    card = {"name": "Second wind", "effect": "bonus", "bonus": 2}
    refused("storyteller_only", adjust, "rollunder", s, {"kind": "grant_card", "card": card}, role="player")
    granted = adjust("rollunder", s, {"kind": "grant_card", "card": card}, role="storyteller")
    assert granted.sheet["cards"][-1] == {**card, "consumable": True, "text": ""}
    refused(
        "duplicate_name",
        adjust,
        "rollunder",
        granted.sheet,
        {"kind": "grant_card", "card": card},
        role="storyteller",
    )
    removed = adjust("rollunder", granted.sheet, {"kind": "remove_card", "card": "Lucky"}, role="storyteller")
    assert "Lucky" not in [c["name"] for c in removed.sheet["cards"]]
    refused(
        "unknown_card", adjust, "rollunder", s, {"kind": "remove_card", "card": "Joker"}, role="storyteller"
    )


def test_R_verify_receipt_catches_tampering():
    done = roll(sheet(), {**SNEAK, "advantage": True}, [18, 5])
    face = copy.deepcopy(done.receipt)
    face["faces"][1] = 19
    assert "result_mismatch:kept" in verify_receipt(face)
    outcome = copy.deepcopy(done.receipt)
    outcome["result"]["outcome"] = "critical_success"
    assert verify_receipt(outcome) == ["result_mismatch:outcome"]
    target = copy.deepcopy(done.receipt)
    target["request"]["bonus"] = 8
    assert "pool_mismatch:total" in verify_receipt(target)


def test_R_6_card_after_roll_refused_whatever_the_card():
    done = roll(sheet(), SNEAK, [15])
    for card in ("Joker", "", 7):
        refused(
            "card_after_roll",
            perform_followup,
            "rollunder",
            done.sheet,
            done.receipt,
            {"kind": "card", "card": card},
            mode="strict",
            role="player",
            source=NoDice(),
        )
    refused(
        "bad_choice",
        perform_followup,
        "rollunder",
        done.sheet,
        done.receipt,
        {"kind": "reroll", "dice": [0]},
        mode="strict",
        role="player",
        source=NoDice(),
    )
