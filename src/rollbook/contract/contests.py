"""Contested and extended rolls in the resolve contract (SPEC TR-3, TR-4; a contract extension, docs/resolve.md):
a line with ``contest`` or ``extended`` holds the rolls that make it, each an ordinary line of its
system without ``system``; the answer holds each roll's receipt and what the rules make of them
(``rules.contests``). Nothing here draws dice.

    {"system": "v20", "contest": {"attacker": {"faces": [8, 9, 2]}, "defender": {"faces": [6, 3]}}}
    {"system": "v5", "extended": {"target": 5, "max_rolls": 3, "rolls": [{"normal": [8, 10, 2]}, …]}}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rollbook.rules import contests
from rollbook.rules.base import RuleError

KEYS = ("contest", "extended")


def is_contest_line(data: dict[str, Any]) -> bool:
    return any(key in data for key in KEYS)


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RuleError("wrong_type", field=field, detail="an object")
    return value


def _roll(
    system: str, value: Any, field: str, resolve_one: Callable[[Any], dict[str, Any]]
) -> dict[str, Any]:
    line = _object(value, field)
    for key in ("system", *KEYS):
        if key in line:
            raise RuleError("unknown_field", field=f"{field}.{key}")  # the system is the contest's, once
    return resolve_one({**line, "system": system})


def resolve(data: dict[str, Any], resolve_one: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """TR-3: ``{"kind": "contest", "attacker_roll", "defender_roll", "attacker", "defender", "winner",
    "margin", "tie"}``; TR-4: ``{"kind": "extended", "results": [receipts], "target", "total", "rolls",
    "rolls_left", "status", …}``."""
    system = data["system"]
    contests.check_system(system)
    unknown = sorted(set(data) - {"system", "id", *KEYS})
    if unknown:
        raise RuleError("unknown_field", field=unknown[0])
    if all(key in data for key in KEYS):
        raise RuleError("invalid_request", detail="a line is a contest or an extended action, not both")
    if "contest" in data:
        spec = _object(data["contest"], "contest")
        extra = sorted(set(spec) - {"attacker", "defender"})
        if extra:
            raise RuleError("unknown_field", field=f"contest.{extra[0]}")
        for side in ("attacker", "defender"):
            if side not in spec:
                raise RuleError("missing_field", field=f"contest.{side}")
        for side in ("attacker", "defender"):
            line = _object(spec[side], f"contest.{side}")
            contests.check_contest_side(
                system, line.get("kind", "test"), "difficulty" in line, f"contest.{side}"
            )
        attacker = _roll(system, spec["attacker"], "contest.attacker", resolve_one)
        defender = _roll(system, spec["defender"], "contest.defender", resolve_one)
        return {
            "system": system,
            "kind": "contest",
            "attacker_roll": attacker,
            "defender_roll": defender,
            **contests.contest(system, attacker, defender),
        }
    spec = _object(data["extended"], "extended")
    extra = sorted(set(spec) - {"target", "max_rolls", "rolls"})
    if extra:
        raise RuleError("unknown_field", field=f"extended.{extra[0]}")
    target, max_rolls, rolls = spec.get("target"), spec.get("max_rolls"), spec.get("rolls")
    for name, value in (("target", target), ("max_rolls", max_rolls)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise RuleError("not_an_integer", field=f"extended.{name}", value=value)
    if target is None:
        raise RuleError("missing_field", field="extended.target")
    if rolls is None:
        raise RuleError("missing_field", field="extended.rolls")
    if not isinstance(rolls, list):
        raise RuleError("wrong_type", field="extended.rolls", detail="a list")
    if not rolls:  # TR-4: the line answers what its rolls make; none make nothing to answer
        raise RuleError("extended_without_rolls", field="extended.rolls")
    results = [
        _roll(system, roll, f"extended.rolls.{index}", resolve_one) for index, roll in enumerate(rolls)
    ]
    state = contests.extended(system, target, max_rolls, results)  # TR-4; a roll after the end is refused
    return {"system": system, "kind": "extended", "results": results, **state.plain()}


__all__ = ["KEYS", "is_contest_line", "resolve"]
