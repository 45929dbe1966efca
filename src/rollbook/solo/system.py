"""The scenario's system as the solo chronicle plays it (SPEC S-1 … S-10): what the chronicle reads of
the system a scenario names (``format.Scenario.system``), declared once by that system (``SoloSystem``)
and found by its id through the registry (``rollbook.play.systems.part``: a shipped system's ``solo``
module of its package, ``systems/v20/solo.py``; a system registered from outside, its play module's
``SOLO``). The chronicle never imports a system's code. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, cast

from rollbook.play.systems import part, system_ids
from rollbook.rules.base import RuleError


class SoloSystem(Protocol):
    """What a scenario's rolls and fights read of its system: the sheet's attributes, Virtues and groups
    of Abilities a check names (group -> (its kind, its standard Abilities), V20-3), the length of the
    health track a fight fills (V20-16), the combat Abilities an attack is a test of and the weapon
    kinds each may use (V20-17), the rules request every roll of a scenario makes (its odds, read back
    from the plain request), and the health level and wound penalty a damage reaches (V20-16)."""

    @property
    def ATTRIBUTES(self) -> tuple[str, ...]: ...
    @property
    def VIRTUES(self) -> tuple[str, ...]: ...
    @property
    def ABILITY_GROUPS(self) -> Mapping[str, tuple[str, tuple[str, ...]]]: ...
    @property
    def HEALTH_TRACK(self) -> int: ...
    @property
    def COMBAT_ABILITIES(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def REQUEST(self) -> type: ...

    def health_level(self, damage: int) -> str | None: ...

    def wound_penalty(self, damage: int) -> int | None: ...


def solo_system(system: str) -> SoloSystem:
    """The part of the solo room of the system ``system`` (a scenario's); ``unknown_system`` when the
    system has none (no scenario can be played in it)."""
    found = part(system, "solo", lambda module: module.SOLO)
    if found is None:
        raise RuleError("unknown_system", system=system, known=list(system_ids()))
    return cast(SoloSystem, found)


__all__ = ["SoloSystem", "solo_system"]
