"""V20's part of the solo chronicle (SPEC S-1 … S-10; ``rollbook.solo.system.SoloSystem``): the sheet's
traits a scenario's check names, the health track a fight fills, the combat Abilities an attack is a
test of (V20-17), the request every roll makes (V20-2), and the health level and wound penalty of a damage (V20-16)."""

from __future__ import annotations

from rollbook.systems.v20.play import COMBAT_ABILITIES
from rollbook.systems.v20.rules import V20Request, health_level, wound_penalty
from rollbook.systems.v20.sheet import ABILITY_GROUPS, ATTRIBUTES, HEALTH_TRACK, VIRTUES

REQUEST = V20Request  # every roll a scenario makes: a test, a Virtue, Willpower (V20-2)

__all__ = [
    "ABILITY_GROUPS",
    "ATTRIBUTES",
    "COMBAT_ABILITIES",
    "HEALTH_TRACK",
    "REQUEST",
    "VIRTUES",
    "health_level",
    "wound_penalty",
]
