"""Every kind of receipt the play layer makes renders (``rollbook.render.view``) in en, fr and es.

Generated: each action kind of each system (``ACTIONS``) must have a sample below, or this test fails,
so a new action kind is covered without anyone remembering to add it. Each sample is rolled with many
seeds, so the outcomes of each kind (success, failure, botch, criticals, soaked, damaged …) come up;
chained rolls (V20-17, T-4, T-5) and the V5 Willpower reroll follow real receipts.
"""

from __future__ import annotations

import pytest

from rollbook.dice import GivenFaces, HmacDice
from rollbook.play import SYSTEM_IDS, new_sheet, perform, perform_followup, system_module
from rollbook.render import ReceiptView, view

LANGS = ("en", "fr", "es")
SEEDS = range(24)

SHEETS = {
    "v20": {"name": "Nia", "attributes": {"strength": 3, "dexterity": 3, "stamina": 2, "wits": 4},
            "skills": {"melee": 2, "firearms": 4}, "disciplines": {"fortitude": 1},
            "specialties": {"firearms": ["pistols"]}, "virtues": {"courage": 3},
            "weapons": [{"name": "knife", "damage": 1},
                        {"name": "pistol", "kind": "firearm", "damage": 4}]},
    "v5": {"name": "Ana", "attributes": {"strength": 3, "wits": 3}, "skills": {"brawl": 2}, "hunger": 2,
           "stains": 2, "blood_potency": 2, "health": {"superficial": 2}},
    "tiers": {"name": "Ana", "skills": {"firearms": 6, "dodge": 4, "arcanes": 3}, "endurance": 3,
              "armor": {"torso": 2}, "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}]},
    "rollunder": {"name": "Zed", "skills": {"stealth": 12}, "attributes": {"strength": 14},
                  "cards": [{"name": "Edge", "effect": "advantage", "consumable": False}]},
}

# (system, action kind) -> samples: (action, role, the rolls it follows: None or [(action, faces), …] in order)
V20_HIT = [({"kind": "test", "attribute": "dexterity", "ability": "melee"}, [10, 9, 8, 7, 6])]
SAMPLES = {
    ("v20", "test"): [({"kind": "test", "attribute": "dexterity", "ability": "firearms", "specialty": "pistols"},
                       "player", None),
                      ({"kind": "test", "attribute": "wits", "ability": "melee", "willpower": True}, "player", None)],
    ("v20", "willpower"): [({"kind": "willpower"}, "player", None)],
    ("v20", "virtue"): [({"kind": "virtue", "virtue": "courage", "difficulty": 8}, "player", None)],
    ("v20", "damage"): [({"kind": "damage", "weapon": "knife"}, "player", V20_HIT),
                        ({"kind": "damage", "weapon": "pistol"}, "player",
                         [({"kind": "test", "attribute": "dexterity", "ability": "firearms"}, [10, 9, 8, 7, 6, 2, 2])]),
                        ({"kind": "damage"}, "player",
                         [({"kind": "test", "attribute": "dexterity", "ability": "melee"}, [6, 2, 3, 4, 5])])],
    ("v20", "soak"): [({"kind": "soak", "damage": 3, "damage_type": "lethal"}, "player", None),
                      ({"kind": "soak", "damage": 2, "damage_type": "aggravated"}, "player", None),
                      ({"kind": "soak"}, "player", V20_HIT + [({"kind": "damage", "weapon": "knife"}, [6, 7, 8, 9, 10, 2, 1, 5])])],
    ("v5", "test"): [({"kind": "test", "attribute": "strength", "skill": "brawl", "difficulty": 3}, "player", None),
                     ({"kind": "test", "attribute": "wits", "skill": "brawl", "blood_surge": True}, "player", None)],
    ("v5", "rouse"): [({"kind": "rouse", "discipline_level": 1, "mend": True}, "player", None)],
    ("v5", "willpower"): [({"kind": "willpower", "difficulty": 2}, "player", None)],
    ("v5", "remorse"): [({"kind": "remorse"}, "player", None)],
    ("v5", "frenzy"): [({"kind": "frenzy", "difficulty": 3}, "player", None)],
    ("tiers", "skill"): [({"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 2}, "player", None),
                         ({"kind": "skill", "skill": "climbing"}, "player", None)],
    ("tiers", "dodge"): [({"kind": "dodge", "attack_tier": 3}, "player", None),
                         ({"kind": "dodge"}, "player", [({"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1}, [2])])],
    ("tiers", "soak"): [({"kind": "soak", "attack_tier": 4, "location": "torso"}, "player", None),
                        ({"kind": "soak", "location": "torso"}, "player",
                         [({"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 1}, [1, 3])])],
    ("tiers", "spell"): [({"kind": "spell", "spell": "light"}, "player", None)],
    ("rollunder", "check"): [({"kind": "check", "action": "sneak", "skill": "stealth", "cards": ["Edge"]}, "player", None),
                             ({"kind": "check", "action": "fly", "attribute": "strength", "task": "absurd"},
                              "storyteller", None)],
    ("rollunder", "opposed"): [({"kind": "opposed", "action": "the storm", "dice": "2d6+1d4", "threshold": 8},
                                "storyteller", None)],
}


def sheet_of(system: str) -> dict:
    data = dict(SHEETS[system])
    if system == "tiers":
        data["skills"] = {**data["skills"], "climbing": 0}
    return new_sheet(system, data)


def rendered(receipt: dict) -> list[ReceiptView]:
    result = receipt["result"]
    views = [view(result, lang) for lang in LANGS]
    for shown in views:
        assert shown.outcome_label and shown.title and shown.lines
    if "rouse" in receipt:
        views += [view(receipt["rouse"]["result"], lang) for lang in LANGS]
    return views


def receipts_of(system: str, kind: str) -> list[dict]:
    receipts = []
    for number, (action, role, chain) in enumerate(SAMPLES[(system, kind)]):
        for seed in SEEDS:
            follows = None
            for step, faces in chain or ():
                follows = perform(system, sheet_of(system), step, mode="strict", role=role,
                                  source=GivenFaces(faces), follows=follows).receipt
            receipts.append(perform(system, sheet_of(system), action, mode="strict", role=role,
                                    source=HmacDice(f"{system}-{kind}-{number}-{seed}"), follows=follows).receipt)
    return receipts


def test_every_action_kind_of_every_system_has_a_sample():
    kinds = {(system, kind) for system in SYSTEM_IDS for kind in system_module(system).ACTIONS}
    assert kinds == set(SAMPLES), f"add samples for {sorted(kinds - set(SAMPLES))}"


@pytest.mark.parametrize("system,kind", sorted(SAMPLES))
def test_every_receipt_renders_in_every_language(system, kind):
    receipts = receipts_of(system, kind)
    outcomes = set()
    for receipt in receipts:
        assert receipt["kind"] == kind
        outcomes.add(rendered(receipt)[0].outcome)
    assert outcomes  # and each outcome met above rendered in every language


def test_the_v5_willpower_reroll_renders():
    sheet = sheet_of("v5")
    first = perform("v5", sheet, SAMPLES[("v5", "test")][0][0], mode="casual", role="player",
                    source=GivenFaces([1, 2, 10, 10, 3]))
    rerolled = perform_followup("v5", sheet, first.receipt, {"kind": "reroll", "dice": [0, 1]}, mode="casual",
                                role="player", source=GivenFaces([10, 6]))
    assert rendered(rerolled.receipt)[0].outcome


def test_the_outcomes_of_damage_and_soak_all_came_up():
    """The seeds above reach every outcome code of the V20 damage and soak receipts (V20-16, V20-17)."""
    damage = {r["result"]["outcome"] for r in receipts_of("v20", "damage")}
    soak = {r["result"]["outcome"] for r in receipts_of("v20", "soak")}
    assert damage == {"damage", "no_damage"} and soak == {"soaked", "damaged"}
