"""The roll-under game's quick roll: the values a quick roll takes (dice without a sheet, ``rollbook.play.quick``) and the
rules request they make (R-1 … R-4: a declared action against a level)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollbook.play.common import quick_number as number
from rollbook.systems.rollunder.rules import RollUnderRequest

FIELDS = ("action", "level", "bonus", "malus", "advantage", "disadvantage")
KIND = "check"  # the action whose edges a quick roll's values are
REQUEST = RollUnderRequest


def request(mode: str, values: Mapping[str, Any]) -> RollUnderRequest:
    """``mode``: unused (the game has none)."""
    return RollUnderRequest(
        action=str(values.get("action", "")),
        kind="check",
        level=number(values, "level", 10),
        bonus=number(values, "bonus", 0),
        malus=number(values, "malus", 0),
        advantage=values.get("advantage") is True,
        disadvantage=values.get("disadvantage") is True,
    )


__all__ = ["FIELDS", "KIND", "REQUEST", "request"]
