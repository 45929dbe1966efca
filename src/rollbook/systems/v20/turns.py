"""V20's per-turn limits (SPEC A-3, V20-9, V20-18; ``rollbook.play.turns`` says how the server uses
them): blood per turn by Generation, one Willpower success per turn (the table's limit; refused only
under the table rule ``v20.willpower_once_per_turn``, TR-2), and what the sheet states of them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rollbook.play.common import JsonObject, table_rules_of
from rollbook.play.turns import blood_spent
from rollbook.rules.base import RuleError
from rollbook.systems.v20.rules import multiple_action_difficulty
from rollbook.systems.v20.table_rules import WILLPOWER_ONCE_PER_TURN

WILLPOWER_SUCCESSES_PER_TURN = 1  # V20-9: the table's limit, stated on the sheet, never enforced


# A-4, V20-13: the kinds of roll a character's declared actions split, each with its raised difficulty
# and the extra successes past 10 (``play.turns.multiple_actions``)
MULTIPLE_ACTIONS = {
    "test": multiple_action_difficulty,
    "willpower": multiple_action_difficulty,
    "virtue": multiple_action_difficulty,
}


def willpower_successes(receipt: Any) -> int:
    """1 when the roll took its Willpower success (V20-9), else 0."""
    request = receipt.get("request") if isinstance(receipt, dict) else None
    return 1 if isinstance(request, dict) and request.get("willpower") is True else 0


def check_turn(
    sheet_before: Mapping[str, Any], receipt: Any, effects: Iterable[Any], usage: Any, *, running: bool
) -> list[JsonObject]:
    """V20-18 (refused past the Generation's blood per turn) and V20-9 (a warning, or refused under TR-2).
    ``usage``: what the character used earlier in the turn (``play.turns.TurnUsage``)."""
    warnings: list[JsonObject] = []
    spent = blood_spent(effects)
    per_turn = (sheet_before.get("blood") or {}).get("per_turn")
    if spent and isinstance(per_turn, int) and usage.blood + spent > per_turn:  # V20-18
        if usage.blood == 0:
            raise RuleError("blood_per_turn_exceeded", amount=spent, per_turn=per_turn)
        raise RuleError("turn_blood_exceeded", amount=spent, spent=usage.blood, per_turn=per_turn)
    taken = willpower_successes(receipt)
    if running and taken and usage.willpower_successes + taken > WILLPOWER_SUCCESSES_PER_TURN:  # V20-9
        if WILLPOWER_ONCE_PER_TURN in table_rules_of(receipt):  # TR-2: the limit enforced
            raise RuleError(
                "willpower_per_turn",
                count=usage.willpower_successes + taken,
                limit=WILLPOWER_SUCCESSES_PER_TURN,
            )
        warnings.append(
            {
                "code": "willpower_per_turn",
                "count": usage.willpower_successes + taken,
                "limit": WILLPOWER_SUCCESSES_PER_TURN,
            }
        )
    return warnings


def check_change(change: Any, role: str, *, running: bool) -> None:
    """No change of V20's is refused for the turn that runs."""


def new_turn_change(sheet: Mapping[str, Any]) -> JsonObject | None:
    """A new turn changes nothing on a V20 sheet (its usage is read from the log: ``play.turns``)."""
    return None


def sheet_limits(sheet: Mapping[str, Any]) -> JsonObject:
    """Blood per turn by Generation (V20-18) and one Willpower success per turn (V20-9, the table's
    limit); a Casual chronicle's traits above the Generation's maximum (V20-19)."""
    limits: JsonObject = {"willpower_successes_per_turn": WILLPOWER_SUCCESSES_PER_TURN}
    per_turn = (sheet.get("blood") or {}).get("per_turn")
    if sheet.get("creature", "vampire") == "vampire" and isinstance(per_turn, int):
        limits["blood_per_turn"] = per_turn
    excess = _above_generation(sheet)
    if excess:  # V20-19: a Casual chronicle takes the sheet, and the sheet says so
        limits["above_generation"] = excess
    return limits


def _above_generation(sheet: Mapping[str, Any]) -> list[JsonObject]:
    from rollbook.systems.v20.sheet import Sheet, above_generation  # the sheet's own reading (V20-19)

    try:
        return above_generation(Sheet.model_validate(dict(sheet), strict=False))
    except (RuleError, ValueError):
        return []


__all__ = [
    "MULTIPLE_ACTIONS",
    "WILLPOWER_SUCCESSES_PER_TURN",
    "check_change",
    "check_turn",
    "new_turn_change",
    "sheet_limits",
    "willpower_successes",
]
