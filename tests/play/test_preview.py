"""``play.preview``: the roll ``perform`` would make (rules request and pool), without a die drawn.

Both run the system module's ``prepare``, so for every system the preview equals what ``perform``
writes in its receipt under ``"request"`` and ``"pool"``, and every refusal ``perform`` makes before
drawing comes from ``preview`` too."""

from __future__ import annotations

import copy

import pytest

from rollbook import dice
from rollbook.dice import SeededDice
from rollbook.play import new_sheet, perform, preview

from .helpers import SAMPLE_SHEETS, NoDice, plain, refused

SHEETS = {
    "v20": {**SAMPLE_SHEETS["v20"], "health": {"bashing": 2}},
    "v5": {**SAMPLE_SHEETS["v5"], "blood_potency": 2, "stains": 2, "health": {"superficial": 2}},
    "tiers": {
        **SAMPLE_SHEETS["tiers"],
        "weapons": [
            {**SAMPLE_SHEETS["tiers"]["weapons"][0], "loaded": 4},
            *SAMPLE_SHEETS["tiers"]["weapons"][1:],
        ],
    },
    "rollunder": {**SAMPLE_SHEETS["rollunder"], "cards": SAMPLE_SHEETS["rollunder"]["cards"][:2]},
}

# (system, action, role): at least one roll of every kind of every system.
ROLLS = [
    (
        "v20",
        {
            "kind": "test",
            "attribute": "dexterity",
            "ability": "firearms",
            "specialty": "pistols",
            "difficulty": 7,
            "willpower": True,
        },
        "player",
    ),
    ("v20", {"kind": "test", "attribute": "wits", "ability": "melee", "modifier": -1}, "player"),  # V20-3
    (
        "v20",
        {
            "kind": "test",
            "attribute": "wits",
            "ability": "academics",
            "knowledge_allowed": True,
            "auto_successes": 1,
        },
        "storyteller",
    ),
    ("v20", {"kind": "test", "attribute": "dexterity", "discipline": "celerity", "required": 2}, "player"),
    ("v20", {"kind": "willpower", "difficulty": 8}, "player"),
    ("v20", {"kind": "virtue", "virtue": "courage"}, "player"),
    ("v20", {"kind": "soak", "damage": 3, "damage_type": "lethal"}, "player"),  # V20-16
    (
        "v5",
        {
            "kind": "test",
            "attribute": "strength",
            "skill": "brawl",
            "specialty": "grappling",
            "difficulty": 3,
        },
        "player",
    ),
    (
        "v5",
        {"kind": "test", "attribute": "strength", "discipline": "potence", "blood_surge": True},
        "player",
    ),  # V5-11
    ("v5", {"kind": "test", "attribute": "wits", "second_attribute": "resolve", "modifier": 2}, "player"),
    ("v5", {"kind": "rouse", "discipline_level": 1, "mend": True}, "player"),  # V5-10
    ("v5", {"kind": "willpower", "difficulty": 2}, "player"),  # V5-9
    ("v5", {"kind": "remorse"}, "player"),  # V5-15
    ("v5", {"kind": "frenzy", "difficulty": 3}, "player"),  # V5-14
    ("tiers", {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 2}, "player"),  # T-3
    (
        "tiers",
        {"kind": "skill", "skill": "two_weapons", "weapon": "knife", "second_weapon": "sword"},
        "player",
    ),  # T-7
    ("tiers", {"kind": "dodge", "attack_tier": 5}, "player"),  # T-4
    ("tiers", {"kind": "soak", "attack_tier": 7, "location": "torso"}, "player"),  # T-5
    ("tiers", {"kind": "spell", "spell": "ward"}, "player"),  # T-6
    (
        "rollunder",
        {"kind": "check", "action": "Sneak past", "skill": "stealth", "cards": ["Lucky", "Edge"], "malus": 2},
        "player",
    ),
    (
        "rollunder",
        {"kind": "check", "action": "Lift the gate", "attribute": "strength", "disadvantage": True},
        "player",
    ),
    (
        "rollunder",
        {"kind": "opposed", "action": "Arm-wrestle", "dice": "2d8+1d4", "threshold": 9},
        "storyteller",
    ),
    (
        "rollunder",
        {"kind": "check", "action": "Walk", "skill": "lore", "task": "trivial"},
        "storyteller",
    ),
]


def _id(case) -> str:
    system, action, role = case
    return f"{system}-{action['kind']}-{role}"


@pytest.fixture
def no_dice_anywhere(monkeypatch):
    """Every draw of every dice source fails the test: ``dice.roll`` is given ``NoDice`` whatever
    source it was handed, and the secure source is ``NoDice`` too."""
    real_roll = dice.roll
    monkeypatch.setattr(dice, "roll", lambda system, request, source: real_roll(system, request, NoDice()))
    monkeypatch.setattr(dice.SecureDice, "draw", NoDice.draw)


@pytest.mark.parametrize("mode", ["strict", "casual"])
@pytest.mark.parametrize("case", ROLLS, ids=[_id(case) for case in ROLLS])
def test_preview_and_perform_agree_on_request_and_pool(case, mode):
    system, action, role = case
    sheet = new_sheet(system, SHEETS[system])
    before = copy.deepcopy((sheet, action))
    shown = preview(system, sheet, action, mode=mode, role=role)
    assert (sheet, action) == before, "preview mutated its inputs"
    plain(shown)
    assert set(shown) == {"system", "kind", "request", "pool"}
    for seed in range(3):
        receipt = perform(system, sheet, action, mode=mode, role=role, source=SeededDice(seed)).receipt
        assert shown == {key: receipt[key] for key in shown}


@pytest.mark.parametrize("case", ROLLS, ids=[_id(case) for case in ROLLS])
def test_preview_never_draws_a_die(case, no_dice_anywhere):
    system, action, role = case
    shown = preview(system, new_sheet(system, SHEETS[system]), action, mode="strict", role=role)
    assert shown["system"] == system and shown["kind"] == action["kind"]


def test_the_pool_previewed_is_a_copy():
    sheet = new_sheet("v5", SHEETS["v5"])
    action = {"kind": "test", "attribute": "strength", "skill": "brawl"}
    first = preview("v5", sheet, action, mode="strict", role="player")
    first["pool"]["parts"].clear()
    assert preview("v5", sheet, action, mode="strict", role="player")["pool"]["parts"]


# (system, sheet changes, action, role, code): refusals made before any die.
REFUSALS = [
    (
        "v20",
        {},
        {"kind": "test", "attribute": "dexterity", "ability": "firearms", "specialty": "rifles"},
        "player",
        "unknown_specialty",
    ),
    (
        "v20",
        {},
        {"kind": "test", "attribute": "wits", "ability": "academics"},
        "player",
        "untrained_knowledge_refused",
    ),  # V20-3 Book
    (
        "v20",
        {},
        {"kind": "test", "attribute": "wits", "auto_successes": 2},
        "player",
        "storyteller_only",
    ),  # V20-9
    (
        "v20",
        {"willpower": {"permanent": 3, "current": 0}},
        {"kind": "test", "attribute": "wits", "willpower": True},
        "player",
        "willpower_exhausted",
    ),  # V20-9
    ("v20", {}, {"kind": "willpower", "difficulty": 11}, "player", "out_of_range"),  # V20-2
    (
        "v20",
        {"health": {"lethal": 7}},
        {"kind": "test", "attribute": "wits"},
        "player",
        "incapacitated",
    ),  # V20-16
    (
        "v5",
        {},
        {"kind": "test", "attribute": "strength", "skill": "brawl", "discipline": "potence"},
        "player",
        "one_trait_only",
    ),
    ("v5", {"stains": 0}, {"kind": "remorse"}, "player", "no_stains"),
    ("v5", {"health": {"superficial": 0}}, {"kind": "rouse", "mend": True}, "player", "nothing_to_heal"),
    (
        "v5",
        {"creature": "mortal", "hunger": 0, "blood_potency": 0},
        {"kind": "rouse"},
        "player",
        "no_rouse_for_creature",
    ),  # V5-12
    (
        "v5",
        {"creature": "ghoul", "hunger": 0, "blood_potency": 0},
        {"kind": "test", "attribute": "strength", "blood_surge": True},
        "player",
        "no_blood_surge_for_creature",
    ),
    ("v5", {"willpower": {"superficial": 5}}, {"kind": "willpower"}, "player", "empty_pool"),
    ("tiers", {"turn_spent": True}, {"kind": "skill", "skill": "melee"}, "player", "turn_spent"),  # T-3
    (
        "tiers",
        {},
        {"kind": "skill", "skill": "firearms", "weapon": "knife", "bullets": 1},
        "player",
        "firearm_required",
    ),  # T-3
    (
        "tiers",
        {},
        {"kind": "skill", "skill": "melee", "weapon": "sword", "bullets": 1},
        "player",
        "bullets_need_firearms",
    ),
    (
        "tiers",
        {},
        {"kind": "soak", "attack_tier": 3, "location": "tail"},
        "player",
        "unknown_location",
    ),  # T-5
    ("tiers", {"essence": {"current": 0}}, {"kind": "spell"}, "player", "essence_exhausted"),  # T-6
    (
        "rollunder",
        {},
        {"kind": "check", "action": "  ", "skill": "stealth"},
        "player",
        "action_required",
    ),
    (
        "rollunder",
        {},
        {"kind": "check", "action": "Hide", "skill": "stealth", "cards": ["Ace"]},
        "player",
        "unknown_card",
    ),
    (
        "rollunder",
        {},
        {"kind": "check", "action": "Hide", "skill": "stealth", "task": "absurd"},
        "player",
        "storyteller_only",
    ),
    (
        "rollunder",
        {},
        {"kind": "opposed", "action": "Wrestle", "dice": "3d6", "threshold": 10},
        "player",
        "storyteller_only",
    ),
]


@pytest.mark.parametrize(
    "system,changes,action,role,code", REFUSALS, ids=[f"{r[0]}-{r[4]}" for r in REFUSALS]
)
def test_preview_refuses_what_perform_refuses_before_drawing(system, changes, action, role, code):
    sheet = new_sheet(system, {**SHEETS[system], **changes})
    by_perform = refused(code, perform, system, sheet, action, mode="strict", role=role, source=NoDice())
    by_preview = refused(code, preview, system, sheet, action, mode="strict", role=role)
    assert by_preview.params == by_perform.params


@pytest.mark.parametrize("mode,role,code", [("easy", "player", "bad_choice"), ("strict", "gm", "bad_choice")])
def test_preview_checks_mode_and_role_like_perform(mode, role, code):
    sheet = new_sheet("v20", SHEETS["v20"])
    action = {"kind": "willpower"}
    refused(code, perform, "v20", sheet, action, mode=mode, role=role, source=NoDice())
    refused(code, preview, "v20", sheet, action, mode=mode, role=role)


def test_preview_refuses_an_unknown_system_or_action():
    refused("unknown_system", preview, "d6", {"name": "X"}, {"kind": "test"}, mode="strict", role="player")
    sheet = new_sheet("v5", SHEETS["v5"])
    refused("bad_choice", preview, "v5", sheet, {"kind": "teleport"}, mode="strict", role="player")
    refused(
        "unknown_field", preview, "v5", sheet, {"kind": "rouse", "faces": [10]}, mode="strict", role="player"
    )
