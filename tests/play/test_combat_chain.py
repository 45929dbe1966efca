"""The combat chain through the play layer (SPEC V20-17, T-4, T-5): each roll follows the receipt before
it, takes what it needs from that receipt (never typed in), and the last one hands back the defender's
sheet with the damage marked (see ``rollbook.play``'s docstring)."""

from __future__ import annotations

import copy

from rollbook.play import new_sheet, perform, preview

from .helpers import NoDice, checked_roll, refused


def act(system, sheet, action, faces, follows=None, role="player"):
    return checked_roll(system, sheet, action, faces, role=role, follows=follows)


# --- V20 (V20-17): attack -> damage -> soak -> health track ---------------------------------------


def v20_sheet(**extra):
    data = {
        "name": "Nia",
        "attributes": {"strength": 3, "dexterity": 3, "stamina": 2},
        "skills": {"melee": 2, "firearms": 3},
        "disciplines": {"fortitude": 1},
        "weapons": [
            {"name": "knife", "damage": 1, "damage_type": "lethal"},
            {"name": "club", "damage": 2, "damage_type": "bashing"},
            {"name": "pistol", "kind": "firearm", "damage": 4, "damage_type": "lethal"},
        ],
    }
    data.update(extra)
    return new_sheet("v20", data)


def v20_attack(faces, ability="melee"):
    return act("v20", v20_sheet(), {"kind": "test", "attribute": "dexterity", "ability": ability}, faces)


def test_V20_17_chain_attack_damage_soak_marks_the_defenders_health():
    attack = v20_attack([6, 8, 9, 2, 3])  # 3 successes
    assert attack.receipt["result"]["successes"] == 3
    # Hand-to-hand: Strength 3 + knife 1 + (3 − 1) = 6 dice, taken from the attack's receipt.
    damage = act(
        "v20", v20_sheet(), {"kind": "damage", "weapon": "knife"}, [6, 1, 1, 7, 2, 10], follows=attack.receipt
    )
    assert damage.receipt["pool"]["total"] == 6 and damage.receipt["follows"] == {
        "system": "v20",
        "kind": "test",
    }
    result = damage.receipt["result"]
    assert (result["levels"], result["ones"], result["damage_type"], result["outcome"]) == (
        3,
        2,
        "lethal",
        "damage",
    )
    assert damage.sheet == v20_sheet()  # the attacker's sheet does not change
    # The defender (a vampire: Stamina 2 + Fortitude 1) soaks the 3 lethal levels from the damage receipt.
    defender = v20_sheet(name="Ghoul hunter")
    soak = act("v20", defender, {"kind": "soak"}, [6, 2, 3], follows=damage.receipt)
    assert soak.receipt["request"]["damage"] == 3 and soak.receipt["request"]["damage_type"] == "lethal"
    assert soak.receipt["pool"]["damage_from"] == {"levels": 3, "damage_type": "lethal", "weapon": "knife"}
    assert (soak.receipt["result"]["soaked"], soak.receipt["result"]["damage_taken"]) == (1, 2)
    assert soak.sheet["health"] == {"bashing": 0, "lethal": 2, "aggravated": 0}  # a pure change, returned
    assert {"resource": "health.lethal", "before": 0, "after": 2} in soak.effects


def test_V20_17_firearm_pool_is_the_rating_plus_extra_successes_and_bullets_bash_vampires():
    attack = v20_attack([7, 7, 1, 9, 8, 2], ability="firearms")  # 4 successes − one 1 = 3
    damage = act("v20", v20_sheet(), {"kind": "damage", "weapon": "pistol"}, [1] * 6, follows=attack.receipt)
    assert damage.receipt["pool"]["parts"] == [
        {"trait": "weapon", "weapon": "pistol", "rating": 4}
    ]  # no Strength
    assert damage.receipt["pool"]["total"] == 4 + 2
    assert (
        damage.receipt["result"]["levels"] == 0 and damage.receipt["result"]["outcome"] == "no_damage"
    )  # no botch
    hit = act(
        "v20", v20_sheet(), {"kind": "damage", "weapon": "pistol"}, [6, 6, 6, 2, 2, 2], follows=attack.receipt
    )
    # Book (V20 p. 281): a bullet is bashing damage to a vampire, lethal to a mortal or when aimed at the head.
    vampire = act("v20", v20_sheet(), {"kind": "soak"}, [2, 2, 2], follows=hit.receipt)
    assert vampire.receipt["request"]["damage_type"] == "bashing"
    assert vampire.receipt["pool"]["damage_from"]["soaked_as"] == "bashing"
    assert vampire.sheet["health"]["bashing"] == 3
    mortal = act(
        "v20", v20_sheet(creature="mortal", disciplines={}), {"kind": "soak"}, [], follows=hit.receipt
    )
    assert mortal.receipt["request"]["damage_type"] == "lethal" and mortal.receipt["result"]["soak_pool"] == 0
    assert mortal.sheet["health"]["lethal"] == 3
    head = act(
        "v20",
        v20_sheet(),
        {"kind": "damage", "weapon": "pistol", "aimed_at_head": True},
        [6, 6, 6, 2, 2, 2],
        follows=attack.receipt,
    )
    assert (
        act("v20", v20_sheet(), {"kind": "soak"}, [2, 2, 2], follows=head.receipt).sheet["health"]["lethal"]
        == 3
    )


def test_V20_17_unarmed_damage_is_strength_bashing():
    attack = v20_attack([6, 2, 3, 4, 5])  # one success: no extra die
    damage = act("v20", v20_sheet(), {"kind": "damage"}, [6, 7, 2], follows=attack.receipt)
    assert damage.receipt["pool"]["total"] == 3 and damage.receipt["result"]["damage_type"] == "bashing"


def test_V20_17_preview_shows_the_pool_the_chain_will_roll():
    attack = v20_attack([6, 8, 9, 2, 3])
    shown = preview(
        "v20",
        v20_sheet(),
        {"kind": "damage", "weapon": "club"},
        mode="strict",
        role="player",
        follows=attack.receipt,
    )
    assert shown["pool"]["total"] == 3 + 2 + 2 and shown["request"] == {
        "pool": 7,
        "damage_type": "bashing",
        "potence": 0,
    }


def test_V20_17_chain_refusals_come_before_any_die():
    attack = v20_attack([6, 8, 9, 2, 3])
    missed = v20_attack([2, 3, 4, 5, 5])
    damage = act("v20", v20_sheet(), {"kind": "damage", "weapon": "knife"}, [6] * 6, follows=attack.receipt)
    cases = [
        ("follows_required", {"kind": "damage", "weapon": "knife"}, None),
        ("attack_missed", {"kind": "damage", "weapon": "knife"}, missed.receipt),
        ("unknown_weapon", {"kind": "damage", "weapon": "axe"}, attack.receipt),
        ("follows_wrong_kind", {"kind": "soak"}, attack.receipt),
        ("follows_wrong_kind", {"kind": "damage"}, damage.receipt),
        ("follows_conflict", {"kind": "soak", "damage": 3}, damage.receipt),
        ("follows_conflict", {"kind": "soak", "damage_type": "lethal"}, damage.receipt),
        ("missing_field", {"kind": "soak", "damage": 3}, None),
        ("follows_not_for_kind", {"kind": "test", "attribute": "wits"}, attack.receipt),
        ("not_an_object", {"kind": "soak"}, ["not", "a", "receipt"]),
    ]
    for code, action, follows in cases:
        refused(
            code,
            perform,
            "v20",
            v20_sheet(),
            action,
            mode="strict",
            role="player",
            source=NoDice(),
            follows=follows,
        )
    tampered = copy.deepcopy(damage.receipt)
    tampered["result"]["levels"] = 9  # a receipt that does not match its dice is never followed
    refused(
        "receipt_inconsistent",
        perform,
        "v20",
        v20_sheet(),
        {"kind": "soak"},
        mode="strict",
        role="player",
        source=NoDice(),
        follows=tampered,
    )
    other = dict(damage.receipt, system="tiers")
    refused(
        "receipt_system_mismatch",
        perform,
        "v20",
        v20_sheet(),
        {"kind": "soak"},
        mode="strict",
        role="player",
        source=NoDice(),
        follows=other,
    )


def test_V20_16_a_typed_soak_still_works_without_a_chain():
    done = act("v20", v20_sheet(), {"kind": "soak", "damage": 2, "damage_type": "aggravated"}, [7])
    assert done.receipt["result"]["damage_taken"] == 1 and "follows" not in done.receipt


# --- V20 (V20-20): attack -> dodge -> damage with the successes left --------------------------------


def test_V20_20_dodge_follows_the_attack_and_the_damage_takes_the_successes_left():
    attack = v20_attack([6, 8, 9, 2, 3])  # 3 successes with the knife's Melee
    attack = act(
        "v20",
        v20_sheet(),
        {"kind": "test", "attribute": "dexterity", "ability": "melee", "weapon": "knife"},
        [6, 8, 9, 2, 3],
    )
    defender = v20_sheet(name="Ghoul hunter", talents={"athletics": 2})
    # Dexterity 3 + Athletics 2 (V20 core folds Dodge into Athletics) at difficulty 6: 2 successes.
    dodge = act("v20", defender, {"kind": "dodge"}, [6, 7, 2, 3, 4], follows=attack.receipt)
    assert dodge.receipt["follows"] == {"system": "v20", "kind": "test"}
    assert [p["trait"] for p in dodge.receipt["pool"]["parts"]] == ["dexterity", "athletics"]
    assert dodge.receipt["request"]["difficulty"] == 6 and dodge.receipt["result"]["successes"] == 2
    assert dodge.receipt["attack"] == {"ability": "melee", "weapon": "knife", "successes": 3, "left": 1}
    # The damage follows the dodge: Strength 3 + knife 1 + (1 − 1) dice, the attack's weapon.
    damage = act("v20", v20_sheet(), {"kind": "damage"}, [6, 6, 2, 2], follows=dodge.receipt)
    assert damage.receipt["follows"] == {"system": "v20", "kind": "dodge"}
    assert damage.receipt["pool"]["total"] == 4 and damage.receipt["pool"]["weapon"]["name"] == "knife"
    soak = act("v20", defender, {"kind": "soak"}, [2, 2, 2], follows=damage.receipt)
    assert soak.sheet["health"]["lethal"] == 2


def test_V20_20_a_dodge_that_takes_every_success_leaves_no_damage_roll():
    attack = v20_attack([6, 8, 2, 3, 4])  # 2 successes
    dodge = act("v20", v20_sheet(), {"kind": "dodge"}, [6, 9, 10], follows=attack.receipt)  # 3 successes
    assert dodge.receipt["attack"]["left"] == 0
    refused(
        "attack_dodged",
        perform,
        "v20",
        v20_sheet(),
        {"kind": "damage"},
        mode="strict",
        role="player",
        source=NoDice(),
        follows=dodge.receipt,
    )


def test_V20_20_the_dodge_rolls_the_sheets_dodge_and_halves_in_casual():
    attack = v20_attack([6, 8, 9, 2, 3])
    classic = v20_sheet(talents={"dodge": 2, "athletics": 4})
    dodge = act("v20", classic, {"kind": "dodge", "difficulty": 8}, [8, 7, 2, 3, 4], follows=attack.receipt)
    assert [p["trait"] for p in dodge.receipt["pool"]["parts"]] == ["dexterity", "dodge"]
    assert dodge.receipt["result"]["successes"] == 1 and dodge.receipt["attack"]["left"] == 2
    casual = checked_roll(
        "v20",
        classic,
        {"kind": "dodge", "difficulty": 8},
        [4, 5, 2, 2, 2],
        mode="casual",
        follows=attack.receipt,
    )
    assert casual.receipt["result"]["difficulty"] == 4 and casual.receipt["result"]["successes"] == 2


def test_V20_20_dodge_refusals_come_before_any_die():
    attack = v20_attack([6, 8, 9, 2, 3])
    missed = v20_attack([2, 3, 4, 5, 5])
    look = act("v20", v20_sheet(), {"kind": "test", "attribute": "wits"}, [2])
    for code, follows in (
        ("follows_required", None),
        ("attack_missed", missed.receipt),
        ("not_an_attack", look.receipt),
    ):
        refused(
            code,
            perform,
            "v20",
            v20_sheet(),
            {"kind": "dodge"},
            mode="strict",
            role="player",
            source=NoDice(),
            follows=follows,
        )
    dodge = act("v20", v20_sheet(), {"kind": "dodge"}, [2, 2, 2], follows=attack.receipt)
    refused(
        "follows_wrong_kind",
        perform,
        "v20",
        v20_sheet(),
        {"kind": "soak"},
        mode="strict",
        role="player",
        source=NoDice(),
        follows=dodge.receipt,
    )


# --- V20 (V20-21): Potence on Brawl and Melee damage, Fortitude on soak --------------------------------


def test_V20_21_potence_adds_automatic_levels_to_brawl_and_melee_damage_recorded_apart():
    strong = v20_sheet(disciplines={"potence": 2}, talents={"brawl": 2})
    attack = act(
        "v20", strong, {"kind": "test", "attribute": "dexterity", "ability": "brawl"}, [6, 2, 2, 2, 2]
    )
    damage = act("v20", strong, {"kind": "damage"}, [1, 2, 3], follows=attack.receipt)
    result = damage.receipt["result"]
    assert damage.receipt["request"]["potence"] == 2
    assert (result["levels"], result["auto_successes"], result["auto_sources"]) == (2, 2, {"potence": 2})
    assert result["outcome"] == "damage" and result["ones"] == 1  # still no botch
    melee = act(
        "v20", strong, {"kind": "test", "attribute": "dexterity", "ability": "melee"}, [6, 2, 2, 2, 2]
    )
    knife = act("v20", strong, {"kind": "damage", "weapon": "knife"}, [6, 2, 2, 2], follows=melee.receipt)
    assert knife.receipt["result"]["levels"] == 1 + 2
    shot = act(
        "v20", strong, {"kind": "test", "attribute": "dexterity", "ability": "firearms"}, [6, 2, 2, 2, 2, 2]
    )
    pistol = act("v20", strong, {"kind": "damage", "weapon": "pistol"}, [2, 2, 2, 2], follows=shot.receipt)
    assert pistol.receipt["result"]["levels"] == 0 and pistol.receipt["request"]["potence"] == 0  # no firearm


def test_V20_21_fortitude_adds_to_the_soak_pool():
    attack = v20_attack([6, 8, 9, 2, 3])
    damage = act("v20", v20_sheet(), {"kind": "damage", "weapon": "knife"}, [6] * 6, follows=attack.receipt)
    tough = v20_sheet(disciplines={"fortitude": 3})
    soak = act("v20", tough, {"kind": "soak"}, [6, 6, 6, 6, 2], follows=damage.receipt)
    assert soak.receipt["result"]["soak_pool"] == 2 + 3 and soak.receipt["result"]["soaked"] == 4
    assert {"trait": "fortitude", "rating": 3} in soak.receipt["pool"]["parts"]


def test_V20_21_a_damage_receipt_from_before_potence_still_verifies():
    from rollbook.play import verify_receipt

    attack = v20_attack([6, 8, 9, 2, 3])
    damage = act("v20", v20_sheet(), {"kind": "damage", "weapon": "knife"}, [6] * 6, follows=attack.receipt)
    old = copy.deepcopy(damage.receipt)
    del old["request"]["potence"], old["result"]["auto_successes"], old["result"]["auto_sources"]
    assert verify_receipt(old) == []


# --- Tiers (T-3, T-4, T-5): attack -> dodge -> soak -> wounds ------------------------------------


def tiers_sheet(**extra):
    data = {
        "name": "Ana",
        "skills": {"firearms": 6, "dodge": 4, "melee": 3},
        "endurance": 3,
        "armor": {"torso": 2},
        "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}],
    }
    data.update(extra)
    return new_sheet("tiers", data)


def shot(faces, bullets=2):
    return act(
        "tiers",
        tiers_sheet(),
        {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": bullets},
        faces,
    )


def test_T_4_T_5_chain_firearms_dodge_soak_advances_the_wounds():
    attack = shot([6])  # (6 + 2 − 6) × 2 bullets = tier 4 (T-3)
    assert attack.receipt["result"]["tier"] == 4
    dodge = act("tiers", tiers_sheet(), {"kind": "dodge"}, [1, 3], follows=attack.receipt)  # 4 − 1 + 1 = 4
    assert dodge.receipt["request"]["attack_tier"] == 4 and dodge.receipt["pool"]["attack_tier"] == 4
    assert not dodge.receipt["result"]["dodged"]  # T-4: equal is not strictly greater
    soak = act("tiers", tiers_sheet(), {"kind": "soak", "location": "torso"}, [4], follows=dodge.receipt)
    assert soak.receipt["request"]["attack_tier"] == 4 and soak.receipt["result"]["soak_tier"] == 1
    assert soak.receipt["result"]["damage"] == 3 and soak.sheet["wounds"]["level"] == 3  # T-5
    assert soak.receipt["follows"] == {"system": "tiers", "kind": "dodge"}


def test_T_5_soak_may_follow_the_attack_directly():
    attack = shot([3], bullets=1)  # tier 5
    soak = act("tiers", tiers_sheet(), {"kind": "soak", "location": "torso"}, [2], follows=attack.receipt)
    assert soak.receipt["result"]["damage"] == 2 and soak.sheet["wounds"]["level"] == 2


def test_T_4_chain_refusals_come_before_any_die():
    hit, missed = shot([6]), shot([10])
    dodged = act("tiers", tiers_sheet(skills={"dodge": 9}), {"kind": "dodge"}, [2], follows=hit.receipt)
    assert dodged.receipt["result"]["dodged"]
    for code, action, follows in [
        ("attack_missed", {"kind": "dodge"}, missed.receipt),
        ("attack_missed", {"kind": "soak", "location": "torso"}, missed.receipt),
        ("attack_dodged", {"kind": "soak", "location": "torso"}, dodged.receipt),
        ("follows_conflict", {"kind": "dodge", "attack_tier": 4}, hit.receipt),
        ("missing_field", {"kind": "dodge"}, None),
        ("follows_wrong_kind", {"kind": "dodge"}, dodged.receipt),
        ("follows_not_for_kind", {"kind": "skill", "skill": "melee"}, hit.receipt),
    ]:
        refused(
            code,
            perform,
            "tiers",
            tiers_sheet(),
            action,
            mode="strict",
            role="player",
            source=NoDice(),
            follows=follows,
        )
