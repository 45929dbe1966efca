"""V20's part of contested and extended rolls (SPEC TR-3, TR-4; ``rules.contests``): a side rolls against
its own difficulty; a botch is said, and ends an extended action losing every success gathered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ABILITY_FIELD = "ability"  # the field a side's test names its trait in (an Attribute + an Ability)
SIDE_DIFFICULTY = True  # TR-3: a side rolls against a difficulty of its own


def check_side(kind: object, has_difficulty: bool, field: str) -> None:
    """TR-3: any V20 roll may be a side, against its own difficulty."""


def side(result: Mapping[str, Any], successes: int) -> dict[str, Any]:
    return {"successes": successes, "botch": result.get("outcome") == "botch"}  # TR-3: a botch is said


def ends(part: Mapping[str, Any]) -> tuple[str, bool] | None:
    """TR-4: a botch ends it and loses everything gathered."""
    return ("botched", True) if part["botch"] else None


def complications(part: Mapping[str, Any]) -> int:
    return 0


__all__ = ["ABILITY_FIELD", "SIDE_DIFFICULTY", "check_side", "complications", "ends", "side"]
