"""Contested and extended rolls (SPEC TR-3, TR-4) for V20 and V5: pure functions over the rules
receipts of the rolls that make them (plain dicts, as logged). Codes and numbers only.

- ``contest(system, attacker, defender)``: TR-3 — the side with more successes wins, by the
  difference; a tie is the defender's (nothing changes). A V20 botch on either side is said.
- ``extended(system, target, max_rolls, results)``: TR-4 — each roll adds its successes; the action
  succeeds when the total reaches the target. V20: a botch ends it and loses every success gathered.
  V5: a bestial failure ends it; a messy critical adds its successes and is a complication.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rollbook.rules import get_system, system_ids
from rollbook.rules.base import ContestRules, RuleError, check_range


class _Parts(Mapping[str, ContestRules]):
    """Each system's part of contests, as its rules module declares it (``CONTESTS``: ``systems.v20.rules``'s
    ``systems.v20.contests``, ``systems.v5.rules``'s ``systems.v5.contests``; None for a system without contests): a live view
    of the rules registry (``rollbook.rules``), so a system registered from outside takes part by
    declaring its own."""

    def __getitem__(self, system: str) -> ContestRules:
        part = get_system(system).module.CONTESTS if system in system_ids() else None
        if part is None:
            raise KeyError(system)
        return part

    def __iter__(self) -> Iterator[str]:
        return (system for system in system_ids() if get_system(system).module.CONTESTS is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


PARTS: Mapping[str, ContestRules] = _Parts()
MAX_TARGET = 100
MAX_ROLLS = 50


def check_system(system: str) -> None:
    if system not in PARTS:
        raise RuleError("contest_not_for_system", system=system, systems=list(PARTS))


def check_contest_side(system: str, kind: object, has_difficulty: bool, field: str) -> None:
    """TR-3: a V5 side is a test (never a Rouse check, a Remorse or a frenzy roll) and carries no
    difficulty (only the successes count). V20 sides roll against their own difficulty."""
    part = PARTS.get(system)
    if part is not None:
        part.check_side(kind, has_difficulty, field)


def side(system: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """One side's part of a contest, read off its rules receipt: successes and what the dice said (its
    system's part, ``PARTS``; a system without contests is refused, TR-3)."""
    check_system(system)
    successes = result.get("successes")
    if isinstance(successes, bool) or not isinstance(successes, int):
        raise RuleError("not_a_contest_roll")
    return PARTS[system].side(result, successes)


def contest(system: str, attacker: Mapping[str, Any], defender: Mapping[str, Any]) -> dict[str, Any]:
    """TR-3: ``{"attacker": side, "defender": side, "winner", "margin", "tie"}``."""
    check_system(system)
    a, d = side(system, attacker), side(system, defender)
    if a["successes"] > d["successes"]:
        return {
            "attacker": a,
            "defender": d,
            "winner": "attacker",
            "margin": a["successes"] - d["successes"],
            "tie": False,
        }
    # TR-3 Reading: a tie is won by the defender, and nothing changes (margin 0)
    return {
        "attacker": a,
        "defender": d,
        "winner": "defender",
        "margin": d["successes"] - a["successes"],
        "tie": a["successes"] == d["successes"],
    }


@dataclass(frozen=True, slots=True)
class Extended:
    """TR-4: where an extended action stands after its rolls."""

    target: int
    max_rolls: int | None
    total: int = 0
    rolls: int = 0
    status: str = "going"  # going, reached, botched (V20), bestial (V5), out_of_rolls
    complications: int = 0  # V5: messy criticals along the way
    lost: int = 0  # V20: the successes a botch took away

    @property
    def rolls_left(self) -> int | None:
        if self.max_rolls is None:
            return None
        return 0 if self.status != "going" else self.max_rolls - self.rolls

    def plain(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "max_rolls": self.max_rolls,
            "total": self.total,
            "rolls": self.rolls,
            "rolls_left": self.rolls_left,
            "status": self.status,
            "complications": self.complications,
            "lost": self.lost,
        }


def check_extended(target: int, max_rolls: int | None) -> None:
    check_range("target", target, 1, MAX_TARGET)
    if max_rolls is not None:
        check_range("max_rolls", max_rolls, 1, MAX_ROLLS)


def extended_step(system: str, state: Extended, result: Mapping[str, Any]) -> Extended:
    """TR-4: the state after one more roll (its rules receipt). A roll after the end is refused."""
    check_system(system)
    if state.status != "going":
        raise RuleError("extended_over", state=state.status)
    part = side(system, result)
    rolls = state.rolls + 1
    ended = PARTS[system].ends(part)  # TR-4: a V20 botch, a V5 bestial failure
    if ended is not None:
        status, loses = ended
        return Extended(
            state.target,
            state.max_rolls,
            0 if loses else state.total,
            rolls,
            status,
            state.complications,
            state.total if loses else 0,
        )
    total = state.total + max(0, part["successes"])
    complications = state.complications + PARTS[system].complications(part)
    if total >= state.target:
        status = "reached"
    elif state.max_rolls is not None and rolls >= state.max_rolls:
        status = "out_of_rolls"
    else:
        status = "going"
    return Extended(state.target, state.max_rolls, total, rolls, status, complications)


def extended(
    system: str, target: int, max_rolls: int | None, results: Sequence[Mapping[str, Any]]
) -> Extended:
    """TR-4: the state of an extended action after these rolls, in order."""
    check_extended(target, max_rolls)
    state = Extended(target, max_rolls)
    for result in results:
        state = extended_step(system, state, result)
    return state


__all__ = [
    "ContestRules",
    "Extended",
    "MAX_ROLLS",
    "MAX_TARGET",
    "PARTS",
    "check_contest_side",
    "check_extended",
    "check_system",
    "contest",
    "extended",
    "extended_step",
    "side",
]
