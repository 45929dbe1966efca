"""V5's part of contested and extended rolls (SPEC TR-3, TR-4; ``rules.contests``): a side is a test
without difficulty; a bestial failure ends an extended action, a messy critical is a complication."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollbook.rules.base import RuleError

ABILITY_FIELD = "skill"  # the field a side's test names its trait in (an Attribute + a Skill)
SIDE_DIFFICULTY = False  # TR-3: only the successes count
# TR-3: each V5 side is a test without difficulty (a Willpower roll is a test without Hunger, V5-9)
CONTEST_KINDS = ("test", "willpower")


def check_side(kind: object, has_difficulty: bool, field: str) -> None:
    """TR-3: a side is a test (never a Rouse check, a Remorse or a frenzy roll) and carries no
    difficulty (only the successes count)."""
    if kind not in CONTEST_KINDS:
        raise RuleError(
            "contest_side_not_a_test", field=f"{field}.kind", kind=kind, kinds=list(CONTEST_KINDS)
        )
    if has_difficulty:
        raise RuleError("contest_side_difficulty", field=f"{field}.difficulty")


def side(result: Mapping[str, Any], successes: int) -> dict[str, Any]:
    return {
        "successes": successes,
        "messy": bool(result.get("messy")),
        "bestial": bool(result.get("bestial")),
    }


def ends(part: Mapping[str, Any]) -> tuple[str, bool] | None:
    """TR-4: a bestial failure ends it (what was gathered stays)."""
    return ("bestial", False) if part["bestial"] else None


def complications(part: Mapping[str, Any]) -> int:
    return 1 if part["messy"] else 0  # TR-4: a messy critical adds its successes and is a complication


__all__ = ["ABILITY_FIELD", "SIDE_DIFFICULTY", "CONTEST_KINDS", "check_side", "complications", "ends", "side"]
