"""V5 sheets and actions (SPEC V5-1 … V5-15) through the play layer."""

from __future__ import annotations

import copy

import pytest

from rollbook.dice import GivenFaces
from rollbook.play import adjust, new_sheet, perform, perform_followup, verify_receipt
from rollbook.systems.v5.play import MEND_AMOUNT, SURGE_DICE

from .helpers import NoDice, checked_roll, refused, sample_sheet


def sheet(**extra):
    return sample_sheet("v5", **extra)


def roll(s, action, faces, mode="strict", role="player"):
    return checked_roll("v5", s, action, faces, mode=mode, role=role)


def reroll(s, receipt, dice, faces, mode="strict"):
    before, receipt_before = copy.deepcopy(s), copy.deepcopy(receipt)
    done = perform_followup(
        "v5", s, receipt, {"kind": "reroll", "dice": dice}, mode=mode, role="player", source=GivenFaces(faces)
    )
    assert s == before and receipt == receipt_before, "the follow-up mutated its inputs"
    assert verify_receipt(done.receipt) == []
    return done


BRAWL = {"kind": "test", "attribute": "strength", "skill": "brawl", "difficulty": 4}


# --- the sheet ---------------------------------------------------------------------------------


def test_V5_sheet_defaults():
    s = new_sheet("v5", {"name": "Neonate", "attributes": {"stamina": 2, "composure": 3, "resolve": 2}})
    assert s["hunger"] == 1 and s["blood_potency"] == 1 and s["humanity"] == 7 and s["stains"] == 0
    assert s["health"] == {"max": 5, "superficial": 0, "aggravated": 0}  # Stamina + 3
    assert s["willpower"] == {"max": 5, "superficial": 0, "aggravated": 0}  # Composure + Resolve
    assert s["skills"]["insight"] == 0 and len(s["skills"]) == 27
    ghoul = new_sheet("v5", {"name": "Renfield", "creature": "ghoul"})
    assert ghoul["hunger"] == 0 and ghoul["blood_potency"] == 0


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"creature": "ghoul", "hunger": 2}, "no_hunger_for_creature"),  # V5-12
        ({"creature": "mortal", "hunger": 1}, "no_hunger_for_creature"),
        ({"creature": "thin_blood", "blood_potency": 1}, "no_blood_potency_for_creature"),
        ({"hunger": 6}, "out_of_range"),
        ({"humanity": 8, "stains": 3}, "out_of_range"),
        ({"specialties": {"occult": ["x"]}, "skills": {"occult": 0}}, "specialty_untrained"),
        ({"attributes": {"strength": 6}}, "out_of_range"),
        ({"health": {"max": 4, "superficial": 3, "aggravated": 2}}, "out_of_range"),
        ({"skills": {"strength": 1}}, "duplicate_trait"),
    ],
)
def test_V5_sheet_validation_refuses_bad_sheets(data, code):
    base = {"name": "Marlow", "skills": {"brawl": 2}}
    base.update(data)
    refused(code, new_sheet, "v5", base)


# --- pools and Hunger --------------------------------------------------------------------------


def test_V5_2_V5_13_hunger_dice_extracted_by_the_server_from_the_sheet():
    # Marlow misses the door: 8, 2, 10 and Hunger 1, 6, 4 at difficulty 4 — a bestial failure.
    done = roll(sheet(), BRAWL, [8, 2, 10, 1, 6, 4])
    assert done.receipt["pool"]["total"] == 6 and done.receipt["pool"]["hunger_dice"] == 3
    assert done.receipt["result"]["normal"] == [8, 2, 10] and done.receipt["result"]["hunger"] == [1, 6, 4]
    assert done.receipt["result"]["outcome"] == "bestial_failure"
    assert done.sheet == sheet()  # V5-14: nothing written onto the sheet


def test_V5_13_the_client_can_never_choose_hunger_dice():
    for field in ({"hunger": 1}, {"hunger_dice": [0]}, {"normal": [1, 2]}, {"faces": [10, 10]}):
        refused(
            "unknown_field",
            perform,
            "v5",
            sheet(),
            {**BRAWL, **field},
            mode="strict",
            role="player",
            source=NoDice(),
        )


def test_V5_2_pool_smaller_than_hunger_rolls_only_hunger_dice():
    s = sheet(hunger=5)
    done = roll(s, {"kind": "test", "attribute": "dexterity"}, [6, 7])
    assert done.receipt["pool"]["hunger_dice"] == 2 and done.receipt["result"]["normal"] == []


@pytest.mark.parametrize("creature", ["ghoul", "mortal"])
def test_V5_12_ghouls_and_mortals_roll_no_hunger_dice(creature):
    s = new_sheet(
        "v5",
        {"name": "Renfield", "creature": creature, "attributes": {"strength": 3}, "skills": {"brawl": 2}},
    )
    done = roll(s, {"kind": "test", "attribute": "strength", "skill": "brawl"}, [1, 10, 10, 1, 1])
    assert done.receipt["pool"]["hunger_dice"] == 0 and done.receipt["result"]["outcome"] == "critical"
    assert done.receipt["result"]["hunger"] == [] and not done.receipt["result"]["bestial"]
    # The zero comes from the creature, not from an empty Hunger track: a ghoul or mortal has no Hunger at all.
    refused(
        "no_hunger_for_creature", new_sheet, "v5", {"name": "Renfield", "creature": creature, "hunger": 2}
    )


def test_V5_12_ghouls_cannot_rouse_or_surge():
    ghoul = new_sheet("v5", {"name": "Renfield", "creature": "ghoul"})
    refused(
        "no_rouse_for_creature",
        perform,
        "v5",
        ghoul,
        {"kind": "rouse"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "no_blood_surge_for_creature",
        perform,
        "v5",
        ghoul,
        {"kind": "test", "attribute": "strength", "blood_surge": True},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_specialty_adds_one_die_and_must_be_on_the_skill_rolled():
    done = roll(sheet(), {**BRAWL, "specialty": "grappling"}, [6] * 7)
    assert done.receipt["pool"]["total"] == 7
    assert {"source": "specialty", "dice": 1, "specialty": "grappling"} in done.receipt["pool"]["modifiers"]
    refused(
        "unknown_specialty",
        perform,
        "v5",
        sheet(),
        {**BRAWL, "specialty": "boxing"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_discipline_and_two_attribute_pools():
    assert (
        roll(sheet(), {"kind": "test", "attribute": "strength", "discipline": "potence"}, [6] * 6).receipt[
            "pool"
        ]["total"]
        == 6
    )
    assert (
        roll(
            sheet(), {"kind": "test", "attribute": "strength", "second_attribute": "stamina"}, [6] * 7
        ).receipt["pool"]["total"]
        == 7
    )
    refused(
        "one_trait_only",
        perform,
        "v5",
        sheet(),
        {**BRAWL, "discipline": "potence"},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "trait_not_possessed",
        perform,
        "v5",
        sheet(),
        {"kind": "test", "attribute": "wits", "discipline": "auspex"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_impaired_health_takes_two_dice_from_physical_pools_only():
    s = sheet(health={"superficial": 4, "aggravated": 2})  # 6 = max (Stamina 3 + 3)
    done = roll(s, BRAWL, [6, 6, 6, 6])
    assert done.receipt["pool"]["wound_penalty"] == -2 and done.receipt["pool"]["total"] == 4
    social = roll(s, {"kind": "test", "attribute": "wits", "skill": "occult"}, [6] * 4)
    assert social.receipt["pool"]["wound_penalty"] == 0


def test_V5_impaired_willpower_takes_two_dice_from_mental_and_social_pools():
    s = sheet(willpower={"superficial": 5})
    done = roll(s, {"kind": "test", "attribute": "wits", "skill": "occult"}, [6, 6])
    assert done.receipt["pool"]["wound_penalty"] == -2 and done.receipt["pool"]["total"] == 2


def test_V5_a_modified_pool_never_falls_below_one_die():
    done = roll(sheet(), {"kind": "test", "attribute": "dexterity", "modifier": -5}, [6])
    assert done.receipt["pool"]["total"] == 1


# --- Blood Surge and Rouse ---------------------------------------------------------------------


def test_V5_11_V5_2_blood_surge_adds_normal_dice_and_costs_a_rouse_after_hunger_was_read():
    s = sheet(hunger=2)
    faces = [6] * (6 + SURGE_DICE[1]) + [3]  # the test's dice, then the Rouse die (fails)
    done = roll(s, {**BRAWL, "blood_surge": True}, faces)
    assert done.receipt["pool"]["total"] == 8  # BP 1: +2 dice (Book table)
    assert (
        done.receipt["request"]["hunger"] == 2 and done.receipt["pool"]["hunger_dice"] == 2
    )  # before the Rouse
    assert done.receipt["rouse"]["result"]["hunger_gain"] == 1
    assert done.sheet["hunger"] == 3
    assert done.effects == ({"resource": "hunger", "before": 2, "after": 3},)


def test_V5_11_thin_blood_surges_one_die():
    s = new_sheet("v5", {"name": "Thin", "creature": "thin_blood", "attributes": {"strength": 2}})
    done = roll(s, {"kind": "test", "attribute": "strength", "blood_surge": True}, [6, 6, 6, 9])
    assert done.receipt["pool"]["total"] == 3 and done.sheet["hunger"] == 1


def test_V5_10_rouse_failure_raises_hunger_by_one_success_keeps_it():
    s = sheet(hunger=1)
    failed = roll(s, {"kind": "rouse"}, [5])
    assert failed.sheet["hunger"] == 2 and failed.receipt["pool"]["hunger_dice"] == 0
    kept = roll(s, {"kind": "rouse"}, [6])
    assert kept.sheet["hunger"] == 1 and kept.effects == ()


def test_V5_10_rouse_at_hunger_five_is_flagged_and_not_raised():
    """V5-10 Book: and the receipt offers the hunger frenzy test at difficulty 4 (core p. 211; V5-14: the
    Storyteller calls it, the dice do not)."""
    done = roll(sheet(hunger=5), {"kind": "rouse"}, [2])
    assert done.sheet["hunger"] == 5
    assert done.effects == (
        {"flag": "hunger_frenzy_risk", "hunger": 5, "offers": {"kind": "frenzy", "difficulty": 4}},
    )
    surged = roll(sheet(hunger=5), {**BRAWL, "blood_surge": True}, [6, 6, 6, 6, 6, 6, 6, 6, 2])
    assert surged.effects[-1]["offers"] == {
        "kind": "frenzy",
        "difficulty": 4,
    }  # V5-11: a Blood Surge's Rouse too


def test_V5_10_blood_potency_rerolls_low_discipline_rouse_checks():
    s = sheet(blood_potency=3)  # rerolls Disciplines up to level 2
    done = roll(s, {"kind": "rouse", "discipline_level": 2}, [2, 8])
    assert done.receipt["request"]["blood_potency_reroll"] is True and done.sheet["hunger"] == 3
    done = roll(s, {"kind": "rouse", "discipline_level": 3}, [2])
    assert done.receipt["request"]["blood_potency_reroll"] is False and done.sheet["hunger"] == 4


def test_V5_mend_heals_superficial_health_by_blood_potency():
    s = sheet(blood_potency=2, health={"superficial": 3})
    done = roll(s, {"kind": "rouse", "mend": True}, [7])
    assert done.sheet["health"]["superficial"] == 3 - MEND_AMOUNT[2]
    refused(
        "nothing_to_heal",
        perform,
        "v5",
        sheet(),
        {"kind": "rouse", "mend": True},
        mode="strict",
        role="player",
        source=NoDice(),
    )


# --- rolls without Hunger (V5-9) -----------------------------------------------------------------


def test_V5_9_willpower_roll_uses_current_willpower_and_no_hunger():
    s = sheet(hunger=4, willpower={"superficial": 2})  # max 5, current 3
    done = roll(s, {"kind": "willpower", "difficulty": 2}, [1, 6, 10])
    assert done.receipt["pool"]["total"] == 3 and done.receipt["pool"]["hunger_dice"] == 0
    assert done.receipt["result"]["hunger"] == []
    refused(
        "empty_pool",
        perform,
        "v5",
        sheet(willpower={"superficial": 5}),
        {"kind": "willpower"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_15_remorse_failure_costs_humanity_and_clears_stains():
    s = sheet(humanity=7, stains=2)  # 10 − 7 − 2 = 1 die
    done = roll(s, {"kind": "remorse"}, [4])
    assert done.receipt["pool"]["total"] == 1
    assert done.sheet["humanity"] == 6 and done.sheet["stains"] == 0
    kept = roll(s, {"kind": "remorse"}, [6])
    assert kept.sheet["humanity"] == 7 and kept.sheet["stains"] == 0


def test_V5_15_remorse_without_stains_refused():
    refused(
        "no_stains",
        perform,
        "v5",
        sheet(),
        {"kind": "remorse"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_14_frenzy_roll_never_writes_a_frenzy_onto_the_sheet():
    s = sheet(humanity=7)  # Willpower 5 + 7 // 3 = 7 dice
    done = roll(s, {"kind": "frenzy", "difficulty": 3}, [1, 1, 1, 1, 1, 1, 1])
    assert done.receipt["pool"]["total"] == 7 and done.receipt["result"]["outcome"] == "total_failure"
    assert done.sheet == s and done.effects == ()
    refused(
        "missing_field", perform, "v5", s, {"kind": "frenzy"}, mode="strict", role="player", source=NoDice()
    )


# --- Willpower rerolls (V5-8) ------------------------------------------------------------------


def test_V5_8_willpower_reroll_of_normal_dice_costs_one_superficial_willpower():
    s = sheet()
    first = roll(s, BRAWL, [8, 2, 10, 1, 6, 4])
    done = reroll(first.sheet, first.receipt, [1], [7])
    assert done.receipt["result"]["outcome"] == "success"  # four successes: the bestial failure is gone
    assert done.receipt["rerolls"] == [{"dice": [1], "faces": [7]}]
    assert done.receipt["result"]["original_normal"] == [8, 2, 10]
    assert done.sheet["willpower"]["superficial"] == first.sheet["willpower"]["superficial"] + 1
    assert done.effects == ({"resource": "willpower.superficial", "before": 0, "after": 1},)


def test_V5_8_hunger_die_refused():
    first = roll(sheet(), BRAWL, [8, 2, 10, 1, 6, 4])
    refused(
        "reroll_hunger_die",
        perform_followup,
        "v5",
        first.sheet,
        first.receipt,
        {"kind": "reroll", "dice": [3]},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "reroll_bad_index",
        perform_followup,
        "v5",
        first.sheet,
        first.receipt,
        {"kind": "reroll", "dice": [-1]},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "too_long",
        perform_followup,
        "v5",
        first.sheet,
        first.receipt,
        {"kind": "reroll", "dice": [0, 1, 2, 0]},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_8_strict_allows_one_reroll_casual_another_while_willpower_remains():
    strict = roll(sheet(), BRAWL, [8, 2, 10, 1, 6, 4])
    once = reroll(strict.sheet, strict.receipt, [1], [3])
    refused(
        "reroll_limit_strict",
        perform_followup,
        "v5",
        once.sheet,
        once.receipt,
        {"kind": "reroll", "dice": [1]},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    casual = roll(sheet(), BRAWL, [8, 2, 10, 1, 6, 4], mode="casual")
    once = reroll(casual.sheet, casual.receipt, [1], [3], mode="casual")
    twice = reroll(once.sheet, once.receipt, [1], [9], mode="casual")
    assert len(twice.receipt["rerolls"]) == 2 and twice.sheet["willpower"]["superficial"] == 2


def test_V5_8_reroll_refused_without_willpower():
    s = sheet(willpower={"superficial": 3, "aggravated": 2})
    first = roll(s, BRAWL, [8, 2, 10, 1, 6, 4])
    refused(
        "willpower_exhausted",
        perform_followup,
        "v5",
        first.sheet,
        first.receipt,
        {"kind": "reroll", "dice": [1]},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_8_reroll_only_on_tests_and_only_on_consistent_receipts():
    rouse = roll(sheet(), {"kind": "rouse"}, [3])
    refused(
        "reroll_not_allowed",
        perform_followup,
        "v5",
        rouse.sheet,
        rouse.receipt,
        {"kind": "reroll", "dice": [0]},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    first = roll(sheet(), BRAWL, [8, 2, 10, 1, 6, 4])
    forged = copy.deepcopy(first.receipt)
    forged["faces"][3] = 10  # a Hunger 1 turned into a 10
    refused(
        "receipt_inconsistent",
        perform_followup,
        "v5",
        first.sheet,
        forged,
        {"kind": "reroll", "dice": [1]},
        mode="strict",
        role="player",
        source=NoDice(),
    )
    refused(
        "bad_choice",
        perform_followup,
        "v5",
        first.sheet,
        first.receipt,
        {"kind": "card", "card": "x"},
        mode="strict",
        role="player",
        source=NoDice(),
    )


def test_V5_verify_receipt_catches_tampering():
    first = roll(sheet(hunger=2), {**BRAWL, "blood_surge": True}, [6] * 8 + [3])
    done = reroll(first.sheet, first.receipt, [0, 1], [10, 10])
    for mutate, expected in [
        (lambda r: r["rerolls"][0]["faces"].__setitem__(0, 1), "result_mismatch"),
        (lambda r: r["result"].__setitem__("outcome", "failure"), "result_mismatch:outcome"),
        (lambda r: r["rouse"]["faces"].__setitem__(0, 9), "rouse_mismatch"),
        (lambda r: r["pool"].__setitem__("hunger_dice", 0), "pool_mismatch:hunger_dice"),
        (lambda r: r["faces"].__setitem__(7, 1), "result_mismatch"),
    ]:
        tampered = copy.deepcopy(done.receipt)
        mutate(tampered)
        problems = verify_receipt(tampered)
        assert any(p.startswith(expected) for p in problems), (expected, problems)


# --- changes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "cost", "path", "after"),
    [
        ({"trait": "dexterity"}, 15, ("attributes", "dexterity"), 3),  # new 3 × 5
        ({"trait": "brawl"}, 9, ("skills", "brawl"), 3),  # new 3 × 3
        ({"trait": "insight"}, 3, ("skills", "insight"), 1),  # a new skill
        ({"trait": "potence"}, 15, ("disciplines", "potence"), 3),  # clan: new 3 × 5
        ({"trait": "dominate"}, 14, ("disciplines", "dominate"), 2),  # other: new 2 × 7
        ({"trait": "blood_potency"}, 20, ("blood_potency",), 2),  # new 2 × 10
        ({"trait": "brawl", "specialty": "boxing"}, 3, ("specialties", "brawl"), ["grappling", "boxing"]),
    ],
)
def test_V5_experience_book_costs(change, cost, path, after):
    s = sheet(experience={"total": 40, "spent": 0})
    done = adjust("v5", s, {"kind": "spend_experience", **change}, role="player")
    assert done.sheet["experience"] == {"total": 40, "spent": cost}
    value = done.sheet
    for key in path:
        value = value[key]
    assert value == after


def test_V5_raising_stamina_or_resolve_adds_a_box():
    s = sheet(experience={"total": 40, "spent": 0})
    assert (
        adjust("v5", s, {"kind": "spend_experience", "trait": "stamina"}, role="player").sheet["health"][
            "max"
        ]
        == 7
    )
    assert (
        adjust("v5", s, {"kind": "spend_experience", "trait": "resolve"}, role="player").sheet["willpower"][
            "max"
        ]
        == 6
    )


def test_V5_experience_book_a_caitiffs_discipline_costs_new_level_times_six():
    """Book (V5 experience table; docs/book-sources.md): Caitiff Disciplines cost new level × 6."""
    s = sheet(clan="Caitiff", experience={"total": 40, "spent": 0})
    done = adjust("v5", s, {"kind": "spend_experience", "trait": "obfuscate"}, role="player")
    assert done.sheet["experience"]["spent"] == 6 * (s["disciplines"].get("obfuscate", 0) + 1)


def test_V5_experience_refusals():
    s = sheet(experience={"total": 14, "spent": 0})
    refused(
        "not_enough_xp", adjust, "v5", s, {"kind": "spend_experience", "trait": "dexterity"}, role="player"
    )
    refused(
        "trait_at_maximum",
        adjust,
        "v5",
        sheet(experience={"total": 99}, skills={"brawl": 5}),
        {"kind": "spend_experience", "trait": "brawl"},
        role="player",
    )
    refused(
        "specialty_untrained",
        adjust,
        "v5",
        s,
        {"kind": "spend_experience", "trait": "craft", "specialty": "x"},
        role="player",
    )
    thin = new_sheet("v5", {"name": "Thin", "creature": "thin_blood", "experience": {"total": 99}})
    refused(
        "no_blood_potency_for_creature",
        adjust,
        "v5",
        thin,
        {"kind": "spend_experience", "trait": "blood_potency"},
        role="player",
    )


def test_V5_damage_tracks_superficial_on_a_full_track_turns_aggravated():
    s = sheet(health={"superficial": 6})
    done = adjust("v5", s, {"kind": "damage", "track": "health", "superficial": 2}, role="player")
    assert done.sheet["health"] == {"max": 6, "superficial": 4, "aggravated": 2}
    full = adjust("v5", sheet(), {"kind": "damage", "track": "health", "aggravated": 7}, role="player")
    assert full.sheet["health"]["aggravated"] == 6
    assert {"flag": "track_overflow", "track": "health", "levels": 1} in full.effects


def test_V5_spend_willpower_and_storyteller_only_changes():
    s = sheet()
    assert adjust("v5", s, {"kind": "spend_willpower"}, role="player").sheet["willpower"]["superficial"] == 1
    for change in (
        {"kind": "hunger", "amount": -2},
        {"kind": "stains", "amount": 1},
        {"kind": "restore", "resource": "health", "amount": 1},
        {"kind": "award_experience", "amount": 1},
    ):
        refused("storyteller_only", adjust, "v5", s, change, role="player")
    fed = adjust("v5", s, {"kind": "hunger", "amount": -5}, role="storyteller")
    assert fed.sheet["hunger"] == 0 and fed.effects == ({"resource": "hunger", "before": 3, "after": 0},)


def test_V5_stains_beyond_the_empty_boxes_deal_aggravated_willpower_damage():
    s = sheet(humanity=8, stains=1)
    done = adjust("v5", s, {"kind": "stains", "amount": 3}, role="storyteller")
    assert done.sheet["stains"] == 2 and done.sheet["willpower"]["aggravated"] == 2
