"""Tiers sheets and actions (SPEC T-1 … T-8) through the play layer."""

from __future__ import annotations

import copy

import pytest

from rollbook.play import adjust, new_sheet, perform, verify_receipt

from .helpers import NoDice, checked_roll, refused, sample_sheet


def sheet(**extra):
    return sample_sheet("tiers", **extra)


def roll(s, action, faces, role="player"):
    return checked_roll("tiers", s, action, faces, role=role)


def gun(s, name="pistol"):
    return next(w for w in s["weapons"] if w["name"] == name)


# --- the sheet ---------------------------------------------------------------------------------


def test_T_sheet_defaults():
    s = new_sheet("tiers", {"name": "Ana", "skills": {"arcanes": 4}})
    assert set(s["skills"]) >= {"arcanes", "firearms", "dodge", "two_weapons"}
    assert s["armor"] == {"head": 0, "torso": 0, "arms": 0, "legs": 0}
    assert s["essence"] == {"current": 4, "max": 4}  # T-6
    assert s["wounds"] == {"level": 0, "length": 6} and s["turn_spent"] is False
    assert gun(sheet())["loaded"] == 6  # a full magazine by default


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"weapons": [{"name": "pistol", "capacity": 6, "loaded": 7}]}, "out_of_range"),
        ({"weapons": [{"name": "knife", "loaded": 2}]}, "field_not_for_weapon"),
        ({"weapons": [{"name": "knife"}, {"name": "knife"}]}, "duplicate_name"),
        ({"skills": {"arcanes": 2}, "essence": {"current": 3}}, "out_of_range"),
        ({"wounds": {"level": 7, "length": 6}}, "out_of_range"),
        ({"skills": {"endurance": 3}}, "duplicate_trait"),
        ({"weapons": [{"name": "gun", "bonus": -1}]}, "out_of_range"),
    ],
)
def test_T_sheet_validation_refuses_bad_sheets(data, code):
    refused(code, new_sheet, "tiers", {"name": "Ana", **data})


# --- skill rolls -------------------------------------------------------------------------------


def test_T_1_T_7_skill_plus_weapon_bonus_minus_the_die():
    done = roll(sheet(), {"kind": "skill", "skill": "melee", "weapon": "sword"}, [5])
    assert done.receipt["pool"]["total"] == 7 and done.receipt["result"]["tier"] == 2
    fail = roll(sheet(), {"kind": "skill", "skill": "melee"}, [9])
    assert fail.receipt["result"]["tier"] == -5 and fail.receipt["result"]["success"] is False


def test_T_7_two_weapons_take_the_larger_bonus_once():
    done = roll(
        sheet(), {"kind": "skill", "skill": "two_weapons", "weapon": "knife", "second_weapon": "sword"}, [4]
    )
    assert done.receipt["pool"]["bonus"] == 3 and done.receipt["result"]["tier"] == 4
    refused(
        "two_weapons_skill_required",
        perform,
        "tiers",
        sheet(),
        {"kind": "skill", "skill": "melee", "weapon": "knife", "second_weapon": "sword"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "two_weapons_needs_two",
        perform,
        "tiers",
        sheet(),
        {"kind": "skill", "skill": "two_weapons", "weapon": "knife"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "unknown_weapon",
        perform,
        "tiers",
        sheet(),
        {"kind": "skill", "skill": "melee", "weapon": "axe"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_T_2_critical_draws_its_reroll():
    done = roll(sheet(), {"kind": "skill", "skill": "melee"}, [1, 1, 3])
    assert done.receipt["result"]["critical_tiers"] == 2 and done.receipt["result"]["tier"] == 5


def test_T_2_reading_a_critical_at_skill_0_succeeds_at_tier_0():
    """T-2 Reading: a 1 is a critical success, even with a skill of 0 (the play layer rolls it so)."""
    done = roll(sheet(skills={"climbing": 0}), {"kind": "skill", "skill": "climbing"}, [1, 5])
    result = done.receipt["result"]
    assert (result["base_tier"], result["critical_lift"], result["tier"], result["outcome"]) == (
        -1,
        1,
        0,
        "success",
    )


# --- firearms (T-3) ----------------------------------------------------------------------------


def test_T_3_bullets_leave_the_magazine_and_multiply_the_tier():
    s = sheet()
    done = roll(s, {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 3}, [4])
    assert done.receipt["result"]["tier"] == (6 + 2 - 4) * 3
    assert gun(done.sheet)["loaded"] == 3 and gun(done.sheet)["spare"] == 12
    assert done.effects == ({"resource": "ammunition.loaded", "before": 6, "after": 3, "weapon": "pistol"},)


def test_T_3_more_bullets_than_loaded_refused_before_the_roll():
    s = sheet(weapons=[{"name": "pistol", "bonus": 2, "capacity": 6, "loaded": 2, "spare": 6}])
    refused(
        "bullets_exceed_magazine",
        perform,
        "tiers",
        s,
        {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 3},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_T_3_an_empty_magazine_must_be_reloaded_which_takes_the_turn():
    s = sheet()
    emptied = roll(s, {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 6}, [5])
    assert (
        gun(emptied.sheet)["loaded"] == 0
        and {"flag": "magazine_empty", "weapon": "pistol"} in emptied.effects
    )
    refused(
        "magazine_empty",
        perform,
        "tiers",
        emptied.sheet,
        {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    reloaded = adjust("tiers", emptied.sheet, {"kind": "reload", "weapon": "pistol"}, role="player")
    assert gun(reloaded.sheet)["loaded"] == 6 and gun(reloaded.sheet)["spare"] == 6
    assert reloaded.sheet["turn_spent"] is True
    # no other action this turn (T-3); reactions stay allowed
    refused(
        "turn_spent",
        perform,
        "tiers",
        reloaded.sheet,
        {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "turn_spent",
        perform,
        "tiers",
        reloaded.sheet,
        {"kind": "spell"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "turn_spent",
        adjust,
        "tiers",
        emptied.sheet | {"turn_spent": True},
        {"kind": "reload", "weapon": "pistol"},
        role="player",
    )
    # T-3 Reading: a dodge is an action the character chooses: refused; a soak is not an action
    refused(
        "turn_spent",
        perform,
        "tiers",
        reloaded.sheet,
        {"kind": "dodge", "attack_tier": 1},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    roll(reloaded.sheet, {"kind": "soak", "attack_tier": 1, "location": "torso"}, [3])
    next_turn = adjust("tiers", reloaded.sheet, {"kind": "new_turn"}, role="player")
    roll(next_turn.sheet, {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1}, [3])


def test_T_3_reload_takes_from_spare_rounds_only():
    s = sheet(weapons=[{"name": "pistol", "capacity": 6, "loaded": 0, "spare": 4}])
    done = adjust("tiers", s, {"kind": "reload", "weapon": "pistol"}, role="player")
    assert gun(done.sheet)["loaded"] == 4 and gun(done.sheet)["spare"] == 0
    refused(
        "no_spare_ammunition",
        adjust,
        "tiers",
        sheet(weapons=[{"name": "pistol", "capacity": 6, "loaded": 0}]),
        {"kind": "reload", "weapon": "pistol"},
        role="player",
    )
    refused("magazine_full", adjust, "tiers", sheet(), {"kind": "reload", "weapon": "pistol"}, role="player")
    refused("not_a_firearm", adjust, "tiers", sheet(), {"kind": "reload", "weapon": "knife"}, role="player")


def test_T_3_a_magazine_that_is_not_empty_cannot_be_changed():
    """T-3 Reading: "an empty magazine is changed" — a magazine holding rounds is not."""
    s = sheet(weapons=[{"name": "pistol", "capacity": 6, "loaded": 1, "spare": 3}])
    refused("magazine_not_empty", adjust, "tiers", s, {"kind": "reload", "weapon": "pistol"}, role="player")


def test_T_3_bullets_only_with_the_firearms_skill_and_a_firearm():
    refused(
        "bullets_need_firearms",
        perform,
        "tiers",
        sheet(),
        {"kind": "skill", "skill": "melee", "weapon": "pistol", "bullets": 1},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "firearm_required",
        perform,
        "tiers",
        sheet(),
        {"kind": "skill", "skill": "firearms", "weapon": "knife", "bullets": 1},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "field_required",
        perform,
        "tiers",
        sheet(),
        {"kind": "skill", "skill": "firearms", "weapon": "pistol"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


# --- dodge and soak ----------------------------------------------------------------------------


def test_T_4_dodge_must_beat_the_attack_strictly():
    equal = roll(sheet(), {"kind": "dodge", "attack_tier": 2}, [2])  # dodge 4 − 2 = 2
    assert equal.receipt["result"]["dodged"] is False
    beat = roll(sheet(), {"kind": "dodge", "attack_tier": 1}, [2])
    assert beat.receipt["result"]["dodged"] is True and beat.sheet == sheet()


def test_T_5_soak_damage_advances_the_wound_track():
    s = sheet()
    done = roll(s, {"kind": "soak", "attack_tier": 4, "location": "torso"}, [3])  # 3 + 2 − 3 = 2
    assert done.receipt["result"]["soak_tier"] == 2 and done.receipt["result"]["damage"] == 2
    assert done.sheet["wounds"]["level"] == 2
    assert done.effects == ({"resource": "wounds", "before": 0, "after": 2},)
    none = roll(s, {"kind": "soak", "attack_tier": 1, "location": "torso"}, [3])
    assert none.sheet["wounds"]["level"] == 0
    refused(
        "unknown_location",
        perform,
        "tiers",
        s,
        {"kind": "soak", "attack_tier": 1, "location": "tail"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_T_5_the_wound_track_stops_at_its_end_and_flags_the_overflow():
    s = sheet(wounds={"level": 5, "length": 6})
    done = roll(s, {"kind": "soak", "attack_tier": 9, "location": "head"}, [8])
    assert done.sheet["wounds"]["level"] == 6
    assert {"flag": "wound_overflow", "levels": done.receipt["result"]["damage"] - 1} in done.effects


# --- spells (T-6) ------------------------------------------------------------------------------


def test_T_6_a_spell_costs_one_essence_even_when_it_fails():
    s = sheet()
    failed = roll(s, {"kind": "spell", "spell": "ward"}, [9])
    assert failed.receipt["result"]["success"] is False and failed.sheet["essence"]["current"] == 2
    assert failed.effects == ({"resource": "essence", "before": 3, "after": 2},)
    worked = roll(s, {"kind": "spell"}, [2])
    assert worked.receipt["result"]["success"] is True and worked.sheet["essence"]["current"] == 2


def test_T_6_casting_at_zero_essence_refused():
    refused(
        "essence_exhausted",
        perform,
        "tiers",
        sheet(essence={"current": 0}),
        {"kind": "spell"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "essence_exhausted",
        perform,
        "tiers",
        new_sheet("tiers", {"name": "Mundane"}),
        {"kind": "spell"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


# --- experience and Storyteller changes (T-8) ---------------------------------------------------


def test_T_8_raising_a_trait_costs_ten_times_the_new_rating():
    s = sheet(experience={"total": 70, "spent": 0})
    done = adjust("tiers", s, {"kind": "spend_experience", "trait": "melee"}, role="player")
    assert done.sheet["skills"]["melee"] == 5 and done.sheet["experience"]["spent"] == 50
    endurance = adjust("tiers", s, {"kind": "spend_experience", "trait": "endurance"}, role="player")
    assert endurance.sheet["endurance"] == 4 and endurance.sheet["experience"]["spent"] == 40
    arcanes = adjust("tiers", s, {"kind": "spend_experience", "trait": "arcanes"}, role="player")
    assert arcanes.sheet["essence"] == {"current": 3, "max": 4}


def test_T_8_a_spend_beyond_the_points_is_refused_and_only_the_storyteller_awards():
    s = sheet(experience={"total": 49, "spent": 0})
    refused(
        "not_enough_xp", adjust, "tiers", s, {"kind": "spend_experience", "trait": "melee"}, role="player"
    )
    refused(
        "unknown_trait", adjust, "tiers", s, {"kind": "spend_experience", "trait": "juggling"}, role="player"
    )
    refused("storyteller_only", adjust, "tiers", s, {"kind": "award_experience", "amount": 10}, role="player")
    done = adjust("tiers", s, {"kind": "award_experience", "amount": 10}, role="storyteller")
    assert done.sheet["experience"] == {"total": 59, "spent": 0}


def test_T_storyteller_restores_essence_ammunition_and_wounds():
    s = sheet(essence={"current": 0}, wounds={"level": 3, "length": 6})
    refused(
        "storyteller_only",
        adjust,
        "tiers",
        s,
        {"kind": "restore", "resource": "essence", "amount": 5},
        role="player",
    )
    assert (
        adjust("tiers", s, {"kind": "restore", "resource": "essence", "amount": 5}, role="storyteller").sheet[
            "essence"
        ]["current"]
        == 3
    )
    assert (
        adjust("tiers", s, {"kind": "restore", "resource": "wounds", "amount": 2}, role="storyteller").sheet[
            "wounds"
        ]["level"]
        == 1
    )
    ammo = adjust(
        "tiers",
        s,
        {"kind": "restore", "resource": "ammunition", "amount": 10, "weapon": "pistol"},
        role="storyteller",
    )
    assert gun(ammo.sheet)["spare"] == 22
    hurt = adjust("tiers", s, {"kind": "damage", "levels": 2}, role="player")
    assert hurt.sheet["wounds"]["level"] == 5


def test_T_verify_receipt_catches_tampering():
    done = roll(sheet(), {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 2}, [1, 4])
    face = copy.deepcopy(done.receipt)
    face["faces"][1] = 9
    assert "result_mismatch:critical_tiers" in verify_receipt(face)
    tier = copy.deepcopy(done.receipt)
    tier["result"]["tier"] = 40
    assert verify_receipt(tier) == ["result_mismatch:tier"]
    spell = roll(sheet(), {"kind": "spell"}, [9])
    forged = copy.deepcopy(spell.receipt)
    forged["cast"]["spell_success"] = True
    assert verify_receipt(forged) == ["cast_mismatch"]
