"""Property tests over random sheets, actions and changes, for every system:
- perform / perform_followup / adjust never mutate their inputs (refused or not);
- a refusal is a RuleError; a success gives a valid sheet, a consistent receipt, plain JSON;
- resources never go negative nor past their maximum; V5 Hunger dice are always the server's
  extraction (V5-2, V5-13).
"""

from __future__ import annotations

import copy
import json

from hypothesis import event, given, settings
from hypothesis import strategies as st

from rollbook.dice import SeededDice
from rollbook.play import adjust, new_sheet, perform, perform_followup, verify_receipt
from rollbook.rules.base import RuleError

FAST = settings(max_examples=120)

seeds = st.integers(0, 10_000)
modes = st.sampled_from(["strict", "casual"])
roles = st.sampled_from(["player", "storyteller"])


def attempt(call, *args, **kwargs):
    """Run a play call; check it did not touch its inputs; return the result or None if refused."""
    snapshots = copy.deepcopy(args)
    try:
        done = call(*args, **kwargs)
    except RuleError as refused:
        event(f"refused {refused.code}")
        done = None
    else:
        event("performed")
    assert args == snapshots, "a play call mutated its input"
    if done is not None:
        json.dumps(done.sheet)
        json.dumps(done.receipt)
        assert list(done.effects) == [e for e in done.effects if isinstance(e, dict)]
        if done.receipt is not None:
            assert verify_receipt(done.receipt) == []
    return done


def adjusted(system, data, change, role, check):
    """A change on a new sheet built from ``data``: (that sheet, the result or None if refused); the
    changed sheet passes ``check``."""
    sheet = new_sheet(system, data)
    done = attempt(adjust, system, sheet, change, role=role)
    if done is not None:
        check(done.sheet)
    return sheet, done


# --- V20 ---------------------------------------------------------------------------------------

v20_sheets = st.builds(
    lambda attrs, brawl, firearms, occult, fortitude, courage, wp_spent, generation, blood_spent, bashing, lethal: {
        "name": "Prop",
        "attributes": attrs,
        "talents": {"brawl": brawl},
        "skills": {"firearms": firearms},
        "knowledges": {"occult": occult},
        "disciplines": {"fortitude": fortitude},
        "virtues": {"courage": courage},
        "willpower": {"permanent": courage, "current": max(0, courage - wp_spent)},
        "generation": generation,
        "blood": {"current": 0} if blood_spent else {},
        "health": {"bashing": bashing, "lethal": min(lethal, 7 - bashing)},
        "experience": {"total": 20, "spent": 0},
    },
    st.fixed_dictionaries(
        {name: st.integers(1, 5) for name in ("dexterity", "stamina", "wits", "manipulation")}
    ),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 3),
    st.integers(1, 5),
    st.integers(0, 5),
    st.integers(4, 15),
    st.booleans(),
    st.integers(0, 4),
    st.integers(0, 3),
)

v20_actions = st.one_of(
    st.fixed_dictionaries(
        {
            "kind": st.just("test"),
            "attribute": st.sampled_from(["dexterity", "stamina", "wits", "manipulation"]),
            "ability": st.sampled_from(["brawl", "firearms", "occult", "alertness", "melee", "law"]),
        },
        optional={
            "difficulty": st.integers(1, 11),
            "willpower": st.booleans(),
            "modifier": st.integers(-6, 6),
            "knowledge_allowed": st.booleans(),
            "specialty": st.just("guns"),
            "required": st.integers(1, 4),
        },
    ),
    st.fixed_dictionaries({"kind": st.just("willpower")}, optional={"difficulty": st.integers(2, 10)}),
    st.fixed_dictionaries(
        {
            "kind": st.just("soak"),
            "damage": st.integers(0, 9),
            "damage_type": st.sampled_from(["bashing", "lethal", "aggravated"]),
        }
    ),
)

v20_changes = st.one_of(
    st.fixed_dictionaries(
        {"kind": st.just("spend_blood"), "amount": st.integers(1, 12)},
        optional={"heal": st.sampled_from(["bashing", "lethal"])},
    ),
    st.fixed_dictionaries({"kind": st.just("spend_willpower"), "amount": st.integers(1, 6)}),
    st.fixed_dictionaries(
        {
            "kind": st.just("damage"),
            "levels": st.integers(1, 9),
            "damage_type": st.sampled_from(["bashing", "lethal", "aggravated"]),
        }
    ),
    st.fixed_dictionaries(
        {
            "kind": st.just("restore"),
            "resource": st.sampled_from(["willpower", "blood", "health"]),
            "amount": st.integers(1, 9),
        },
        optional={"damage_type": st.sampled_from(["bashing", "lethal", "aggravated"])},
    ),
    st.fixed_dictionaries(
        {
            "kind": st.just("spend_experience"),
            "trait": st.sampled_from(["dexterity", "brawl", "fortitude", "courage", "willpower"]),
        }
    ),
)


def check_v20(sheet: dict) -> None:
    assert new_sheet("v20", sheet) == sheet
    assert 0 <= sheet["willpower"]["current"] <= sheet["willpower"]["permanent"]
    assert 0 <= sheet["blood"]["current"] <= sheet["blood"]["max"]
    assert all(v >= 0 for v in sheet["health"].values()) and sum(sheet["health"].values()) <= 7
    assert 0 <= sheet["experience"]["spent"] <= sheet["experience"]["total"]


@FAST
@given(v20_sheets, v20_actions, seeds, modes, roles)
def test_V20_perform_never_mutates_and_resources_stay_in_range(data, action, seed, mode, role):
    sheet = new_sheet("v20", data)
    done = attempt(perform, "v20", sheet, action, mode=mode, role=role, source=SeededDice(seed))
    if done is not None:
        check_v20(done.sheet)
        if action.get("willpower"):
            assert done.sheet["willpower"]["current"] == sheet["willpower"]["current"] - 1  # V20-9
        else:
            assert done.sheet["willpower"] == sheet["willpower"]
    if action.get("willpower") and action["kind"] == "test" and sheet["willpower"]["current"] == 0:
        assert done is None  # V20-9: no Willpower spend at 0


@FAST
@given(v20_sheets, v20_changes, roles)
def test_V20_adjust_never_mutates_and_resources_stay_in_range(data, change, role):
    _, done = adjusted("v20", data, change, role, check_v20)
    assert done is None or not (role == "player" and change["kind"] == "restore")


# --- V5 ----------------------------------------------------------------------------------------

v5_sheets = st.builds(
    lambda creature, hunger, bp, strength, brawl, wp_sup, hp_sup, humanity, stains: {
        "name": "Prop",
        "creature": creature,
        "hunger": hunger if creature in ("vampire", "thin_blood") else 0,
        "blood_potency": bp if creature == "vampire" else 0,
        "attributes": {"strength": strength, "composure": 2, "resolve": 2, "stamina": 2},
        "skills": {"brawl": brawl},
        "willpower": {"superficial": wp_sup},
        "health": {"superficial": hp_sup},
        "humanity": humanity,
        "stains": min(stains, 10 - humanity),
    },
    st.sampled_from(["vampire", "thin_blood", "ghoul", "mortal"]),
    st.integers(0, 5),
    st.integers(0, 10),
    st.integers(1, 5),
    st.integers(0, 5),
    st.integers(0, 4),
    st.integers(0, 5),
    st.integers(0, 10),
    st.integers(0, 4),
)

v5_actions = st.one_of(
    st.fixed_dictionaries(
        {"kind": st.just("test"), "attribute": st.sampled_from(["strength", "resolve"])},
        optional={
            "skill": st.just("brawl"),
            "difficulty": st.integers(1, 6),
            "blood_surge": st.booleans(),
            "modifier": st.integers(-8, 3),
        },
    ),
    st.fixed_dictionaries(
        {"kind": st.just("rouse")}, optional={"discipline_level": st.integers(1, 5), "mend": st.booleans()}
    ),
    st.fixed_dictionaries({"kind": st.just("willpower")}),
    st.fixed_dictionaries({"kind": st.just("remorse")}),
    st.fixed_dictionaries({"kind": st.just("frenzy"), "difficulty": st.integers(1, 5)}),
)


def check_v5(sheet: dict) -> None:
    assert new_sheet("v5", sheet) == sheet
    assert 0 <= sheet["hunger"] <= 5
    for track in ("willpower", "health"):
        t = sheet[track]
        assert (
            t["superficial"] >= 0 and t["aggravated"] >= 0 and t["superficial"] + t["aggravated"] <= t["max"]
        )
    assert sheet["stains"] >= 0 and sheet["humanity"] + sheet["stains"] <= 10


@FAST
@given(
    v5_sheets, v5_actions, seeds, modes, st.lists(st.integers(-1, 8), min_size=1, max_size=3), st.booleans()
)
def test_V5_perform_and_reroll_never_mutate_and_hunger_is_the_servers(data, action, seed, mode, dice, again):
    sheet = new_sheet("v5", data)
    done = attempt(perform, "v5", sheet, action, mode=mode, role="player", source=SeededDice(seed))
    if done is None:
        return
    check_v5(done.sheet)
    receipt = done.receipt
    hungry = sheet["creature"] in ("vampire", "thin_blood")
    if receipt["kind"] == "test":
        expected = min(sheet["hunger"], receipt["pool"]["total"]) if hungry else 0  # V5-2, V5-12
        assert receipt["pool"]["hunger_dice"] == expected == len(receipt["result"]["hunger"])
    else:
        assert receipt["result"]["hunger"] == []  # V5-9
    assert sheet["hunger"] <= done.sheet["hunger"] <= min(5, sheet["hunger"] + 1)
    followed = attempt(
        perform_followup,
        "v5",
        done.sheet,
        receipt,
        {"kind": "reroll", "dice": dice},
        mode=mode,
        role="player",
        source=SeededDice(seed + 1),
    )
    if followed is None:
        return
    check_v5(followed.sheet)
    assert all(0 <= i < len(receipt["result"]["normal"]) for i in dice)  # V5-8: never a Hunger die
    assert followed.receipt["result"]["hunger"] == receipt["result"]["hunger"]
    assert (
        followed.sheet["willpower"]["superficial"] + followed.sheet["willpower"]["aggravated"]
        == done.sheet["willpower"]["superficial"] + done.sheet["willpower"]["aggravated"] + 1
    )
    if again:
        second = attempt(
            perform_followup,
            "v5",
            followed.sheet,
            followed.receipt,
            {"kind": "reroll", "dice": dice},
            mode=mode,
            role="player",
            source=SeededDice(seed + 2),
        )
        if mode == "strict":
            assert second is None  # V5-8: once in Strict


# --- Tiers -------------------------------------------------------------------------------------

tiers_sheets = st.builds(
    lambda firearms, arcanes, essence, capacity, loaded, spare, turn_spent, level: {
        "name": "Prop",
        "skills": {"firearms": firearms, "arcanes": arcanes, "melee": 3},
        "essence": {"current": min(essence, arcanes)},
        "endurance": 2,
        "weapons": [
            {
                "name": "gun",
                "bonus": 1,
                "capacity": capacity,
                "loaded": min(loaded, capacity),
                "spare": spare,
            },
            {"name": "blade", "bonus": 2},
        ],
        "turn_spent": turn_spent,
        "wounds": {"level": level, "length": 6},
        "experience": {"total": 60, "spent": 0},
    },
    st.integers(0, 10),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(1, 8),
    st.integers(0, 8),
    st.integers(0, 10),
    st.booleans(),
    st.integers(0, 6),
)

tiers_actions = st.one_of(
    st.fixed_dictionaries(
        {"kind": st.just("skill"), "skill": st.sampled_from(["firearms", "melee", "two_weapons"])},
        optional={
            "weapon": st.sampled_from(["gun", "blade"]),
            "second_weapon": st.sampled_from(["gun", "blade"]),
            "bullets": st.integers(1, 9),
        },
    ),
    st.fixed_dictionaries({"kind": st.just("dodge"), "attack_tier": st.integers(0, 9)}),
    st.fixed_dictionaries(
        {
            "kind": st.just("soak"),
            "attack_tier": st.integers(0, 12),
            "location": st.sampled_from(["head", "torso", "tail"]),
        }
    ),
    st.fixed_dictionaries({"kind": st.just("spell")}),
)

tiers_changes = st.one_of(
    st.fixed_dictionaries({"kind": st.just("reload"), "weapon": st.sampled_from(["gun", "blade"])}),
    st.fixed_dictionaries({"kind": st.just("new_turn")}),
    st.fixed_dictionaries({"kind": st.just("damage"), "levels": st.integers(1, 9)}),
    st.fixed_dictionaries(
        {
            "kind": st.just("spend_experience"),
            "trait": st.sampled_from(["firearms", "arcanes", "endurance", "nope"]),
        }
    ),
    st.fixed_dictionaries(
        {
            "kind": st.just("restore"),
            "resource": st.sampled_from(["essence", "wounds"]),
            "amount": st.integers(1, 9),
        }
    ),
)


def check_tiers(sheet: dict) -> None:
    assert new_sheet("tiers", sheet) == sheet
    gun = sheet["weapons"][0]
    assert 0 <= gun["loaded"] <= gun["capacity"] and gun["spare"] >= 0
    assert 0 <= sheet["essence"]["current"] <= sheet["essence"]["max"] == sheet["skills"]["arcanes"]
    assert 0 <= sheet["wounds"]["level"] <= sheet["wounds"]["length"]


@FAST
@given(tiers_sheets, tiers_actions, seeds)
def test_T_perform_never_mutates_and_ammunition_essence_wounds_stay_in_range(data, action, seed):
    sheet = new_sheet("tiers", data)
    done = attempt(perform, "tiers", sheet, action, mode="strict", role="player", source=SeededDice(seed))
    if done is None:
        return
    check_tiers(done.sheet)
    before, after = sheet["weapons"][0]["loaded"], done.sheet["weapons"][0]["loaded"]
    assert before - after == (action.get("bullets") or 0)  # T-3: exactly the bullets declared
    if action["kind"] == "spell":
        assert done.sheet["essence"]["current"] == sheet["essence"]["current"] - 1  # T-6


@FAST
@given(tiers_sheets, tiers_changes, roles)
def test_T_adjust_never_mutates_and_stays_in_range(data, change, role):
    sheet, done = adjusted("tiers", data, change, role, check_tiers)
    if done is not None:
        total = lambda s: s["weapons"][0]["loaded"] + s["weapons"][0]["spare"]  # noqa: E731
        assert total(done.sheet) == total(sheet)  # a reload moves rounds, never makes them


# --- roll-under --------------------------------------------------------------------------------

rollunder_actions = st.fixed_dictionaries(
    {
        "kind": st.just("check"),
        "action": st.sampled_from(["climb the wall"] * 6 + ["", " "]),
        "skill": st.sampled_from(["climb"] * 6 + ["swim"]),
    },
    optional={
        "cards": st.lists(st.sampled_from(["Lucky", "Edge", "Joker"]), max_size=3),
        "advantage": st.booleans(),
        "disadvantage": st.booleans(),
        "bonus": st.integers(0, 5),
        "malus": st.integers(0, 5),
        "task": st.sampled_from(["normal", "absurd", "trivial"]),
    },
)


@FAST
@given(rollunder_actions, seeds, roles)
def test_R_perform_never_mutates_and_only_played_consumables_leave(action, seed, role):
    sheet = new_sheet(
        "rollunder",
        {
            "name": "Prop",
            "skills": {"climb": 11},
            "cards": [
                {"name": "Lucky", "effect": "bonus", "bonus": 2},
                {"name": "Edge", "effect": "advantage", "consumable": False},
            ],
        },
    )
    done = attempt(perform, "rollunder", sheet, action, mode="strict", role=role, source=SeededDice(seed))
    if done is None:
        return
    assert action["action"].strip()
    names = [card["name"] for card in done.sheet["cards"]]
    assert ("Lucky" in names) == ("Lucky" not in action.get("cards", [])) and "Edge" in names


# --- a valid sheet validates to itself (common.performed skips the validation of an unchanged sheet) ---


def validates_to_itself(system: str, data: dict) -> None:
    """``performed`` hands back an unchanged sheet as loaded, not validated again: that is only the
    same answer if validating a valid sheet gives it back as it is."""
    from hypothesis import assume

    from rollbook.play import system_module
    from rollbook.play.common import dump, parse, revalidate

    try:
        stored = new_sheet(system, data)
    except RuleError:
        assume(False)
    loaded = parse(system_module(system).Sheet, stored, "sheet")
    assert dump(loaded) == stored
    assert dump(revalidate(loaded)) == stored


@FAST
@given(data=v20_sheets)
def test_V20_a_valid_sheet_validates_to_itself(data):
    validates_to_itself("v20", data)


@FAST
@given(data=v5_sheets)
def test_V5_a_valid_sheet_validates_to_itself(data):
    validates_to_itself("v5", data)


@FAST
@given(data=tiers_sheets)
def test_T_a_valid_sheet_validates_to_itself(data):
    validates_to_itself("tiers", data)


def test_R_and_every_example_sheet_validates_to_itself():
    from rollbook.play.examples import EXAMPLES

    for system, examples in EXAMPLES.items():
        validates_to_itself(system, examples.sheet.value)
