"""Tiers' turns (SPEC T-3, A-3; ``rollbook.play.turns`` says how the server uses them): changing a
magazine costs the rest of the turn (the sheet's ``turn_spent``); a new turn clears it; while a turn
runs only the Storyteller's advance does, so a player's own ``new_turn`` change is refused."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rollbook.play.common import STORYTELLER, JsonObject
from rollbook.rules.base import RuleError

# no Tiers roll is split between a character's declared actions (``play.turns.multiple_actions``)
MULTIPLE_ACTIONS: dict[str, Callable[[int, int], tuple[int, int]]] = {}


def willpower_successes(receipt: Any) -> int:
    """No Willpower success in Tiers: none counted."""
    return 0


def check_turn(
    sheet_before: Mapping[str, Any], receipt: Any, effects: Iterable[Any], usage: Any, *, running: bool
) -> list[JsonObject]:
    """No limit on what a Tiers roll spends in a turn (T-3 is the magazine's: ``check_change``)."""
    return []


def check_change(change: Any, role: str, *, running: bool) -> None:
    """T-3, A-3: a player's ``new_turn`` change while a turn runs is refused."""
    if running and role != STORYTELLER and isinstance(change, dict) and change.get("kind") == "new_turn":
        raise RuleError("turn_runs", action="new_turn")


def new_turn_change(sheet: Mapping[str, Any]) -> JsonObject | None:
    """T-3: a turn spent on a reload is over when a new one starts."""
    return {"kind": "new_turn"} if sheet.get("turn_spent") else None


def sheet_limits(sheet: Mapping[str, Any]) -> JsonObject:
    """T-3: whether the turn is spent."""
    return {"turn_spent": bool(sheet.get("turn_spent"))}


__all__ = [
    "MULTIPLE_ACTIONS",
    "check_change",
    "check_turn",
    "new_turn_change",
    "sheet_limits",
    "willpower_successes",
]
