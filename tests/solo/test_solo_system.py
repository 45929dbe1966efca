"""The scenario's system as the chronicle plays it (SPEC S-2, S-3): its facts found by the scenario's
system id through the registry (``rollbook.solo.system``, ``play.systems.part``), V20's its package's
``solo`` module, a system registered from outside its play module's ``SOLO``; none: no scenario."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rollbook.rules.base import RuleError
from rollbook.solo import actions, fight
from rollbook.solo.format import Attack
from rollbook.solo.system import solo_system
from tests.toy_system import registered, variant


def test_v20_plays_its_own_sheet_and_combat_abilities():
    v20 = solo_system("v20")
    assert v20.HEALTH_TRACK == 7  # V20-16: Bruised … Incapacitated
    assert "courage" in v20.VIRTUES and "dexterity" in v20.ATTRIBUTES
    assert v20.COMBAT_ABILITIES["brawl"] == ("unarmed",)  # V20-17
    assert (v20.health_level(0), v20.wound_penalty(0)) == (None, 0)
    assert v20.health_level(6) == "crippled" and v20.wound_penalty(6) == -5
    assert actions.roll_action("v20", {}, ["courage"], 6)["kind"] == "virtue"


def test_a_system_without_a_solo_part_plays_no_scenario():
    with registered() as toy, pytest.raises(RuleError) as refused:
        solo_system(toy)
    assert refused.value.code == "unknown_system"
    with pytest.raises(RuleError):
        solo_system("tiers")  # a shipped system whose package has no ``solo`` module


def test_a_system_registered_from_outside_is_played_through_its_declared_part():
    """Its traits and its track, not V20's: a ``might`` attribute, a ``grit`` virtue, a 3-level track."""
    part = SimpleNamespace(
        ATTRIBUTES=("might",),
        VIRTUES=("grit",),
        ABILITY_GROUPS={"knacks": ("knack", ("sneak",))},
        HEALTH_TRACK=3,
        COMBAT_ABILITIES={"sneak": ("unarmed",)},
        REQUEST=dict,
        health_level=lambda damage: None,
        wound_penalty=lambda damage: 0,
    )
    with registered(variant("solo", SOLO=part)) as toy:
        assert actions.roll_action(toy, {}, ["grit"], 6)["kind"] == "virtue"
        assert actions.roll_action(toy, {}, ["might", "sneak"], 6)["ability"] == "sneak"
        with pytest.raises(RuleError) as refused:
            actions.roll_action(toy, {}, ["dexterity"], 6)  # V20's attribute is not the toy's
        assert refused.value.code == "unknown_trait"
        assert fight.down(toy, {"health": {"lethal": 3}})
        assert not fight.down("v20", {"health": {"lethal": 3}})
        assert actions.weapon_of(toy, {}, Attack(traits=["might", "sneak"], difficulty=6)) is None
        with pytest.raises(RuleError) as refused:
            actions.weapon_of(toy, {}, Attack(traits=["might", "brawl"], difficulty=6))
        assert refused.value.code == "not_an_attack" and refused.value.params["abilities"] == ["sneak"]
