"""V20 sheets and actions (SPEC V20-1 … V20-16) through the play layer."""

from __future__ import annotations

import copy

import pytest

from rollbook.dice import SeededDice
from rollbook.play import adjust, edit_sheet, new_sheet, perform, verify_receipt

from .helpers import NoDice, checked_roll, refused, sample_sheet


def sheet(**extra):
    return sample_sheet("v20", **extra)


def roll(s, action, faces, mode="strict", role="player"):
    return checked_roll("v20", s, action, faces, mode=mode, role=role)


# --- the sheet ---------------------------------------------------------------------------------


def test_V20_9_sheet_defaults_willpower_current_to_permanent_and_permanent_to_courage():
    s = sheet()
    assert s["willpower"] == {"permanent": 3, "current": 3}
    assert new_sheet("v20", {"name": "A", "willpower": {"permanent": 6}})["willpower"] == {
        "permanent": 6,
        "current": 6,
    }


def test_V20_16_blood_pool_and_per_turn_from_generation():
    assert sheet()["blood"] == {"current": 10, "max": 10, "per_turn": 1}  # 13th, full by default
    assert sheet(generation=8)["blood"] == {"current": 15, "max": 15, "per_turn": 3}
    assert sheet(generation=4)["blood"]["per_turn"] == 10


def test_V20_16_blood_max_is_derived_and_follows_a_generation_edit():
    s = sheet(blood={"current": 5, "max": 12, "per_turn": 3})
    assert s["blood"]["max"] == 10
    edited = edit_sheet("v20", s, {"generation": 10}, role="storyteller")
    assert edited["blood"] == {"current": 5, "max": 13, "per_turn": 1}


def test_V20_3_standard_abilities_are_filled_with_zero():
    s = sheet()
    assert s["talents"]["alertness"] == 0 and s["skills"]["stealth"] == 0 and s["knowledges"]["law"] == 0
    assert s["talents"]["brawl"] == 2


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"attributes": {"strength": 11}}, "out_of_range"),
        ({"talents": {"brawl": 11}}, "out_of_range"),
        ({"talents": {"Brawl!": 1}}, "bad_name"),
        ({"skills": {"brawl": 1}}, "duplicate_trait"),
        ({"specialties": {"firearms": ["pistols"]}, "skills": {"firearms": 3}}, "specialty_rating_too_low"),
        ({"specialties": {"juggling": ["balls"]}}, "unknown_trait"),
        ({"creature": "mortal", "generation": 13}, "field_not_for_creature"),
        ({"blood": {"current": 11}}, "out_of_range"),
        ({"health": {"bashing": 4, "lethal": 4}}, "out_of_range"),
        ({"willpower": {"permanent": 3, "current": 4}}, "out_of_range"),
        ({"experience": {"total": 3, "spent": 4}}, "out_of_range"),
        ({"generation": 16}, "out_of_range"),
    ],
)
def test_V20_sheet_validation_refuses_bad_sheets(data, code):
    base = {"name": "Nia", "skills": {"firearms": 4}}
    base.update(data)
    refused(code, new_sheet, "v20", base)


def test_V20_mortal_has_no_blood():
    s = new_sheet("v20", {"name": "Hunter", "creature": "mortal"})
    assert s["generation"] is None and s["blood"] == {"current": 0, "max": 0, "per_turn": 0}
    refused("no_blood_pool", adjust, "v20", s, {"kind": "spend_blood", "amount": 1}, role="player")


# --- pools -------------------------------------------------------------------------------------


def test_V20_1_pool_is_attribute_plus_ability_from_the_sheet():
    done = roll(
        sheet(), {"kind": "test", "attribute": "dexterity", "ability": "firearms"}, [6, 7, 2, 3, 1, 9, 10]
    )
    pool = done.receipt["pool"]
    assert pool["parts"] == [
        {"trait": "dexterity", "rating": 3},
        {"trait": "firearms", "rating": 4, "group": "skills"},
    ]
    assert pool["total"] == 7 and done.receipt["request"]["pool"] == 7 and len(done.receipt["faces"]) == 7


def test_V20_3_untrained_talent_rolls_the_attribute_alone_without_penalty():
    done = roll(sheet(), {"kind": "test", "attribute": "wits", "ability": "alertness"}, [6, 6, 6, 6])
    assert done.receipt["pool"]["total"] == 4  # Wits 4, no second copy
    assert done.receipt["result"]["difficulty"] == 6 and done.receipt["result"]["untrained"] == "talent"


def test_V20_3_untrained_skill_adds_one_to_difficulty():
    done = roll(sheet(), {"kind": "test", "attribute": "dexterity", "ability": "melee"}, [6, 7, 7])
    assert done.receipt["result"]["difficulty"] == 7
    assert done.receipt["result"]["rolled_successes"] == 2  # the 6 no longer succeeds


def test_V20_3_untrained_knowledge_refused_unless_the_storyteller_allows():
    s = sheet()
    refused(
        "untrained_knowledge_refused",
        perform,
        "v20",
        s,
        {"kind": "test", "attribute": "wits", "ability": "law"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "storyteller_only",
        perform,
        "v20",
        s,
        {"kind": "test", "attribute": "wits", "ability": "law", "knowledge_allowed": True},
        mode="strict",
        role="player",
        source=NoDice(),
    )  # the leave is the Storyteller's to give
    done = roll(
        s,
        {"kind": "test", "attribute": "wits", "ability": "law", "knowledge_allowed": True},
        [7, 7, 7, 7],
        role="storyteller",
    )
    assert done.receipt["result"]["difficulty"] == 7


def test_V20_9_power_successes_are_granted_by_the_storyteller_not_claimed_by_a_player():
    s = sheet()
    action = {"kind": "test", "attribute": "dexterity", "ability": "firearms", "auto_successes": 2}
    refused("storyteller_only", perform, "v20", s, action, mode="strict", role="player", source=NoDice())
    done = roll(s, action, [2, 3, 4, 5, 6, 7, 8], role="storyteller")
    assert done.receipt["result"]["auto_sources"] == {"powers": 2}


def test_V20_unknown_ability_refused():
    refused(
        "unknown_trait",
        perform,
        "v20",
        sheet(),
        {"kind": "test", "attribute": "wits", "ability": "juggling"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "bad_choice",
        perform,
        "v20",
        sheet(),
        {"kind": "test", "attribute": "luck"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V20_discipline_pool_and_missing_discipline_refused():
    done = roll(sheet(), {"kind": "test", "attribute": "dexterity", "discipline": "celerity"}, [6] * 5)
    assert done.receipt["pool"]["total"] == 5
    refused(
        "trait_not_possessed",
        perform,
        "v20",
        sheet(),
        {"kind": "test", "attribute": "wits", "discipline": "auspex"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V20_16_wound_penalty_reduces_the_pool():
    s = sheet(health={"bashing": 2, "lethal": 1})  # 3 levels: Injured, −1
    done = roll(s, {"kind": "test", "attribute": "dexterity", "ability": "firearms"}, [6] * 6)
    assert done.receipt["pool"]["wound_penalty"] == -1 and done.receipt["pool"]["total"] == 6
    s = sheet(health={"lethal": 6})  # Crippled, −5
    done = roll(s, {"kind": "test", "attribute": "manipulation", "ability": "subterfuge"}, [])
    assert done.receipt["pool"]["total"] == 0 and done.receipt["faces"] == []  # V20-1: nothing synthetic
    assert done.receipt["result"]["outcome"] == "failure"


def test_V20_16_incapacitated_cannot_act():
    s = sheet(health={"lethal": 7})
    refused(
        "incapacitated",
        perform,
        "v20",
        s,
        {"kind": "test", "attribute": "wits"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V20_modifier_adds_dice():
    done = roll(sheet(), {"kind": "test", "attribute": "wits", "modifier": -2}, [6, 6])
    assert done.receipt["pool"]["modifiers"] == [{"source": "modifier", "dice": -2}]


# --- specialty, Willpower, mode -------------------------------------------------------------------


def test_V20_7_specialty_ten_counts_double():
    done = roll(
        sheet(),
        {"kind": "test", "attribute": "dexterity", "ability": "firearms", "specialty": "pistols"},
        [10, 2, 3, 4, 5, 2, 3],
    )
    assert done.receipt["result"]["successes"] == 2 and done.receipt["request"]["specialty_rating"] == 4


def test_V20_7_reading_an_attribute_specialty_applies_with_an_untrained_skill():
    """V20-7 Reading: Wits 4 with the specialty "ambushes", Melee untrained (a Skill): the roll is made,
    each 10 counts two and the untrained +1 applies (difficulty 7)."""
    s = sheet(specialties={"firearms": ["pistols"], "wits": ["ambushes"]})
    done = roll(
        s, {"kind": "test", "attribute": "wits", "ability": "melee", "specialty": "ambushes"}, [7, 10, 3, 2]
    )
    result = done.receipt["result"]
    assert (
        done.receipt["request"]["untrained"] == "skill" and done.receipt["request"]["specialty_rating"] == 4
    )
    assert (result["difficulty"], result["specialty_tens"], result["successes"]) == (7, 1, 3)


def test_V20_7_specialty_on_a_trait_rated_below_4_refused_before_the_dice():
    stored = sheet()
    stored["skills"]["firearms"] = 3  # a stored sheet edited behind the engine's back
    refused(
        "specialty_rating_too_low",
        perform,
        "v20",
        stored,
        {"kind": "test", "attribute": "dexterity", "ability": "firearms", "specialty": "pistols"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V20_7_specialty_the_sheet_does_not_hold_refused():
    refused(
        "unknown_specialty",
        perform,
        "v20",
        sheet(),
        {"kind": "test", "attribute": "dexterity", "ability": "firearms", "specialty": "rifles"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V20_9_willpower_spend_adds_one_success_and_costs_exactly_one():
    # Nia at the office door: faces 1, 2, 4 — a botch, blocked by Willpower.
    s = sheet()
    done = roll(
        s,
        {"kind": "test", "attribute": "manipulation", "ability": "subterfuge", "willpower": True},
        [1, 2, 4],
    )
    assert done.receipt["result"]["outcome"] == "success" and done.receipt["result"]["auto_successes"] == 1
    assert done.sheet["willpower"]["current"] == s["willpower"]["current"] - 1
    assert done.effects == ({"resource": "willpower", "before": 3, "after": 2},)
    without = roll(s, {"kind": "test", "attribute": "manipulation", "ability": "subterfuge"}, [1, 2, 4])
    assert without.receipt["result"]["outcome"] == "botch" and without.sheet == s


def test_V20_9_willpower_spend_refused_at_zero():
    s = sheet(willpower={"permanent": 3, "current": 0})
    refused(
        "willpower_exhausted",
        perform,
        "v20",
        s,
        {"kind": "test", "attribute": "wits", "willpower": True},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V20_9_no_willpower_success_on_a_willpower_roll():
    refused(
        "unknown_field",
        perform,
        "v20",
        sheet(),
        {"kind": "willpower", "willpower": True},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    done = roll(sheet(), {"kind": "willpower"}, [6, 6, 6])
    assert done.receipt["request"]["willpower_roll"] is True and done.receipt["pool"]["total"] == 3


def test_V20_virtue_roll():
    done = roll(sheet(), {"kind": "virtue", "virtue": "courage", "difficulty": 8}, [8, 1, 9])
    assert done.receipt["pool"]["parts"] == [{"trait": "courage", "rating": 3}]


def test_V20_5_casual_mode_halves_the_difficulty_once():
    done = roll(sheet(), {"kind": "test", "attribute": "wits", "difficulty": 8}, [4, 4, 3, 2], mode="casual")
    assert done.receipt["result"]["difficulty"] == 4 and done.receipt["result"]["successes"] == 2


# --- soak and health ---------------------------------------------------------------------------


def test_V20_16_soak_lethal_with_stamina_and_fortitude_marks_what_is_left():
    s = sheet()
    done = roll(s, {"kind": "soak", "damage": 4, "damage_type": "lethal"}, [6, 2, 9])
    assert done.receipt["pool"]["total"] == 3  # Stamina 2 + Fortitude 1
    assert done.receipt["result"]["soaked"] == 2 and done.receipt["result"]["damage_taken"] == 2
    assert done.sheet["health"] == {"bashing": 0, "lethal": 2, "aggravated": 0}
    assert done.effects == ({"resource": "health.lethal", "before": 0, "after": 2},)


def test_V20_16_soak_aggravated_with_fortitude_only():
    done = roll(sheet(), {"kind": "soak", "damage": 2, "damage_type": "aggravated"}, [7])
    assert done.receipt["pool"]["parts"] == [{"trait": "fortitude", "rating": 1}]
    assert done.sheet["health"]["aggravated"] == 1


def test_V20_16_mortals_cannot_soak_lethal():
    s = new_sheet("v20", {"name": "Hunter", "creature": "mortal", "attributes": {"stamina": 3}})
    done = roll(s, {"kind": "soak", "damage": 3, "damage_type": "lethal"}, [])
    assert done.receipt["pool"]["total"] == 0 and done.sheet["health"]["lethal"] == 3


def test_V20_16_soak_is_not_reduced_by_wounds_and_still_allowed_when_incapacitated():
    s = sheet(health={"bashing": 7})
    done = roll(s, {"kind": "soak", "damage": 1, "damage_type": "bashing"}, [1, 1, 1])
    assert done.receipt["pool"]["total"] == 3
    # the track is full: the bashing level upgrades a bashing box to lethal
    assert done.sheet["health"] == {"bashing": 6, "lethal": 1, "aggravated": 0}


def test_V20_16_damage_beyond_the_track_upgrades_then_overflows():
    s = sheet(health={"lethal": 6})
    done = adjust("v20", s, {"kind": "damage", "levels": 3, "damage_type": "lethal"}, role="player")
    assert done.sheet["health"]["lethal"] == 7
    assert {"flag": "health_overflow", "levels": 2} in done.effects and {
        "flag": "incapacitated"
    } in done.effects


# --- changes -----------------------------------------------------------------------------------


def test_V20_16_blood_spend_limited_per_turn_by_generation():
    s = sheet()  # 13th: one per turn
    refused("blood_per_turn_exceeded", adjust, "v20", s, {"kind": "spend_blood", "amount": 2}, role="player")
    done = adjust("v20", s, {"kind": "spend_blood", "amount": 1}, role="player")
    assert done.sheet["blood"]["current"] == 9 and done.effects[0] == {
        "resource": "blood",
        "before": 10,
        "after": 9,
    }
    elder = sheet(generation=8)
    assert (
        adjust("v20", elder, {"kind": "spend_blood", "amount": 3}, role="player").sheet["blood"]["current"]
        == 12
    )


def test_V20_16_blood_spend_refused_when_empty_and_heals_one_level_per_blood():
    refused(
        "not_enough_blood",
        adjust,
        "v20",
        sheet(blood={"current": 0}),
        {"kind": "spend_blood", "amount": 1},
        role="player",
    )
    s = sheet(generation=8, health={"lethal": 2})
    done = adjust("v20", s, {"kind": "spend_blood", "amount": 2, "heal": "lethal"}, role="player")
    assert done.sheet["health"]["lethal"] == 0 and done.sheet["blood"]["current"] == 13
    refused(
        "nothing_to_heal",
        adjust,
        "v20",
        s,
        {"kind": "spend_blood", "amount": 3, "heal": "lethal"},
        role="player",
    )


def test_V20_storyteller_restores_players_may_not():
    s = sheet(willpower={"permanent": 5, "current": 1}, blood={"current": 2})
    refused(
        "storyteller_only",
        adjust,
        "v20",
        s,
        {"kind": "restore", "resource": "willpower", "amount": 2},
        role="player",
    )
    done = adjust("v20", s, {"kind": "restore", "resource": "willpower", "amount": 9}, role="storyteller")
    assert done.sheet["willpower"]["current"] == 5  # capped at permanent
    done = adjust("v20", s, {"kind": "restore", "resource": "blood", "amount": 3}, role="storyteller")
    assert done.sheet["blood"]["current"] == 5


def test_V20_spend_willpower_outside_a_roll():
    s = sheet()
    assert adjust("v20", s, {"kind": "spend_willpower"}, role="player").sheet["willpower"]["current"] == 2
    refused(
        "willpower_exhausted",
        adjust,
        "v20",
        sheet(willpower={"permanent": 3, "current": 0}),
        {"kind": "spend_willpower"},
        role="player",
    )


@pytest.mark.parametrize(
    ("trait", "cost", "path"),
    [
        ("dexterity", 12, ("attributes", "dexterity")),  # current 3 × 4
        ("brawl", 4, ("talents", "brawl")),  # current 2 × 2
        ("alertness", 3, ("talents", "alertness")),  # new ability
        ("celerity", 10, ("disciplines", "celerity")),  # clan: current 2 × 5
        ("fortitude", 7, ("disciplines", "fortitude")),  # other: current 1 × 7
        ("auspex", 10, ("disciplines", "auspex")),  # new discipline
        ("courage", 6, ("virtues", "courage")),
        ("willpower", 3, ("willpower", "permanent")),
    ],
)
def test_V20_experience_book_costs(trait, cost, path):
    s = sheet(experience={"total": 30, "spent": 0})
    done = adjust("v20", s, {"kind": "spend_experience", "trait": trait}, role="player")
    assert done.sheet["experience"] == {"total": 30, "spent": cost}
    before = s[path[0]].get(path[1], 0)
    assert done.sheet[path[0]][path[1]] == before + 1


def test_V20_experience_book_a_caitiff_pays_six_per_dot_for_every_discipline():
    """Book (V20 experience table; docs/book-sources.md): a Caitiff has no clan Disciplines: current × 6."""
    s = sheet(clan="Caitiff", experience={"total": 30, "spent": 0})
    assert (
        adjust("v20", s, {"kind": "spend_experience", "trait": "celerity"}, role="player").sheet[
            "experience"
        ]["spent"]
        == 12
    )  # 2 × 6, though celerity is listed as a clan Discipline
    assert (
        adjust("v20", s, {"kind": "spend_experience", "trait": "auspex"}, role="player").sheet["experience"][
            "spent"
        ]
        == 10
    )  # a new Discipline stays 10


def test_V20_experience_refused_beyond_points_and_at_maximum():
    s = sheet(experience={"total": 11, "spent": 0})
    refused(
        "not_enough_xp", adjust, "v20", s, {"kind": "spend_experience", "trait": "dexterity"}, role="player"
    )
    s = sheet(experience={"total": 100, "spent": 0}, talents={"brawl": 5})
    refused(
        "trait_at_maximum", adjust, "v20", s, {"kind": "spend_experience", "trait": "brawl"}, role="player"
    )
    refused("storyteller_only", adjust, "v20", s, {"kind": "award_experience", "amount": 5}, role="player")
    awarded = adjust("v20", s, {"kind": "award_experience", "amount": 5}, role="storyteller")
    assert awarded.sheet["experience"]["total"] == 105


# --- receipts ----------------------------------------------------------------------------------


def test_V20_14_receipt_keeps_request_faces_and_result_apart():
    done = roll(
        sheet(),
        {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": 7},
        [7, 1, 3, 8, 10, 2, 5],
    )
    receipt = done.receipt
    assert set(receipt) >= {
        "system",
        "kind",
        "action",
        "pool",
        "request",
        "faces",
        "rerolls",
        "result",
        "effects",
    }
    assert receipt["result"]["faces"] == receipt["faces"] == [7, 1, 3, 8, 10, 2, 5]
    assert receipt["action"]["difficulty"] == 7 and receipt["request"]["difficulty"] == 7


def test_V20_verify_receipt_catches_a_tampered_face_result_or_pool():
    done = roll(
        sheet(), {"kind": "test", "attribute": "dexterity", "ability": "firearms"}, [7, 1, 3, 8, 10, 2, 5]
    )
    face = copy.deepcopy(done.receipt)
    face["faces"][1] = 9
    assert verify_receipt(face)
    result = copy.deepcopy(done.receipt)
    result["result"]["outcome"] = "botch"
    assert verify_receipt(result) == ["result_mismatch:outcome"]
    pool = copy.deepcopy(done.receipt)
    pool["pool"]["parts"][1]["rating"] = 5
    assert verify_receipt(pool) == ["pool_mismatch:parts"]
    soak = roll(sheet(), {"kind": "soak", "damage": 4, "damage_type": "lethal"}, [6, 2, 9])
    soak_face = copy.deepcopy(soak.receipt)
    soak_face["faces"][1] = 6
    assert "result_mismatch:soaked" in verify_receipt(soak_face)


def test_V20_seeded_rolls_are_reproducible():
    s = sheet()
    action = {"kind": "test", "attribute": "dexterity", "ability": "firearms"}
    one = perform("v20", s, action, mode="strict", role="player", source=SeededDice(42))
    two = perform("v20", s, action, mode="strict", role="player", source=SeededDice(42))
    assert one.receipt == two.receipt
