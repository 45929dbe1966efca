"""Per-turn limits and multiple actions (SPEC A-3, A-4, V20-9, V20-13, V20-18, T-3).

Pure, like the rest of ``rollbook.play``: the chronicle server tells these functions what the
character already did in the running turn (``TurnUsage``, read from the log entries of the turn)
and whether a turn is running at all; they answer with a refusal (``RuleError``), warnings (codes
and numbers) or the change a new turn brings.

- **V20-18** Blood per turn by Generation counts every blood spend of a character within one turn;
  outside a running turn it bounds each spend (``check_turn``, over the effects of what was just
  done, so any action that spends blood is counted, whatever its kind).
- **V20-9** One Willpower success per turn is the table's limit: stated on the sheet
  (``sheet_limits``), shown as a warning on a second one in the same turn, never refused — unless
  the table rule ``v20.willpower_once_per_turn`` (TR-2) is in force (the receipt records it): then a
  second one in a running turn is refused (``willpower_per_turn``).
- **T-3** Changing a magazine costs the rest of the turn (the sheet's ``turn_spent``): a new turn
  clears it (``new_turn_change``); while a turn runs, only the Storyteller's turn advance does, so a
  player's own ``new_turn`` change is refused (``check_change``).
- **A-4 / V20-13** ``multiple_actions``: for each of a character's declared actions, the raised
  difficulty and the share of the split pool; an offer only, applied when the Storyteller grants it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rollbook.play.common import JsonObject, table_rules_of
from rollbook.play.systems import TurnRules, system_ids, system_module
from rollbook.rules.base import RuleError, check_range

MAX_DECLARED_ACTIONS = 10


def _turns_of(system: Any) -> TurnRules | None:
    """The system's turn rules (its module's ``TURNS``: ``systems.v20.turns``, ``systems.tiers.turns``), or None."""
    try:
        return system_module(system).TURNS
    except RuleError:  # no system (a quick roll's receipt): no turn rules
        return None


def blood_spent(effects: Iterable[Any]) -> int:
    """Blood that left the pool in one roll or change (its ``blood`` effects that went down): read off
    the effects alone, whatever the receipt says of its system (a change without dice names none),
    for the system whose turn rules bound it (V20-18: ``systems.v20.turns``)."""
    total = 0
    for effect in effects or ():
        if isinstance(effect, dict) and effect.get("resource") == "blood":
            before, after = effect.get("before"), effect.get("after")
            if isinstance(before, int) and isinstance(after, int) and after < before:
                total += before - after
    return total


@dataclass(frozen=True)
class TurnUsage:
    """What one character has used so far in the running turn."""

    blood: int = 0  # V20-18: blood spent, all spends added up
    willpower_successes: int = 0  # V20-9: rolls that took a Willpower success

    def plus(self, receipt: Any, effects: Iterable[Any]) -> TurnUsage:
        return TurnUsage(
            blood=self.blood + blood_spent(effects),
            willpower_successes=self.willpower_successes + willpower_successes(receipt),
        )


def willpower_successes(receipt: Any) -> int:
    """1 when a roll took its Willpower success (V20-9: the system's turn rules say), else 0."""
    turns = _turns_of(receipt.get("system") if isinstance(receipt, dict) else None)
    return 0 if turns is None else int(turns.willpower_successes(receipt))


def usage_of(entries: Iterable[tuple[Any, Iterable[Any]]]) -> TurnUsage:
    """The usage of a turn from its log entries of one character: (receipt, effects) pairs."""
    usage = TurnUsage()
    for receipt, effects in entries:
        usage = usage.plus(receipt, effects)
    return usage


def check_turn(
    system: str,
    sheet_before: Mapping[str, Any],
    receipt: Any,
    effects: Iterable[Any],
    usage: TurnUsage,
    *,
    running: bool,
) -> list[JsonObject]:
    """The per-turn limits on what was just done (a roll or change, given by its receipt and
    effects, not yet stored): a refusal (``RuleError``) when it breaks a limit that binds, else the
    warnings to show (codes and numbers). ``usage``: what the character used earlier in the running
    turn (ignored when no turn runs: then each action is bounded alone, A-3)."""
    if not running:
        usage = TurnUsage()
    turns = _turns_of(system)
    return [] if turns is None else turns.check_turn(sheet_before, receipt, effects, usage, running=running)


def check_change(system: str, change: Any, role: str, *, running: bool) -> None:
    """T-3 and A-3: while a turn runs, turns move only when the Storyteller advances them; a player's
    own ``new_turn`` change (which would clear a spent turn) is refused."""
    turns = _turns_of(system)
    if turns is not None:
        turns.check_change(change, role, running=running)


def new_turn_change(system: str, sheet: Mapping[str, Any]) -> JsonObject | None:
    """T-3: the change a new turn makes to a sheet (a Tiers turn spent on a reload is over), or None."""
    turns = _turns_of(system)
    return None if turns is None else turns.new_turn_change(sheet)


def sheet_limits(system: str, sheet: Mapping[str, Any]) -> JsonObject:
    """What the sheet states about per-turn limits (A-3): V20 blood per turn by Generation (V20-18)
    and one Willpower success per turn (V20-9, the table's limit); Tiers' spent turn (T-3)."""
    turns = _turns_of(system)
    return {} if turns is None else turns.sheet_limits(sheet)


# --- multiple actions (V20-13) ---------------------------------------------------------


class _MultipleActionKinds(Mapping[str, tuple[str, ...]]):
    """System id -> the kinds of roll its declared actions split (A-4: each system's turn rules,
    ``MULTIPLE_ACTIONS``, V20-13 for V20's); a system without any is not in it. A live view of the
    registry: a system registered from outside takes part by declaring its own."""

    def __getitem__(self, system: str) -> tuple[str, ...]:
        turns = _turns_of(system)
        kinds = tuple(turns.MULTIPLE_ACTIONS) if turns is not None else ()
        if not kinds:
            raise KeyError(system)
        return kinds

    def __iter__(self) -> Iterator[str]:
        return (system for system in system_ids() if system in self)

    def __contains__(self, system: object) -> bool:
        turns = _turns_of(system)
        return turns is not None and bool(turns.MULTIPLE_ACTIONS)

    def __len__(self) -> int:
        return sum(1 for _ in self)


MULTIPLE_ACTION_KINDS: Mapping[str, tuple[str, ...]] = _MultipleActionKinds()


def multiple_actions(
    system: str, kind: str, pool: Mapping[str, Any], *, difficulty: int, required: int, actions: int
) -> list[JsonObject]:
    """A-4, V20-13: the offers for a character who declared ``actions`` actions this turn, one per
    action: the difficulty raised as the system's turn rules say (V20: by one for each action after
    the first; past 10, more successes required, V20-4) and the dice split between the actions (as
    even as possible, the larger shares first). ``pool`` is the roll's pool as ``preview`` describes
    it; the offer's ``modifier`` is what brings that pool, without its own modifiers, to the share.
    Nothing is applied here: an offer becomes a roll only when the Storyteller grants it (A-1)."""
    turns = _turns_of(system)
    raise_difficulty = turns.MULTIPLE_ACTIONS.get(kind) if turns is not None else None
    if raise_difficulty is None:
        raise RuleError("no_multiple_actions", system=system, kind=kind)
    check_range("actions", actions, 1, MAX_DECLARED_ACTIONS)
    raised, extra = raise_difficulty(difficulty, actions)  # V20-13
    unmodified = sum(part["rating"] for part in pool.get("parts", ())) + pool.get("wound_penalty", 0)
    dice = max(0, unmodified)
    offers = []
    for index in range(actions):
        share = dice // actions + (1 if index < dice % actions else 0)
        offers.append(
            {
                "action": index + 1,
                "of": actions,
                "difficulty": raised,
                "required": required + extra,
                "dice": share,
                "modifier": share - unmodified,
            }
        )
    return offers


__all__ = [
    "TurnUsage",
    "blood_spent",
    "table_rules_of",
    "willpower_successes",
    "usage_of",
    "check_turn",
    "check_change",
    "new_turn_change",
    "sheet_limits",
    "multiple_actions",
    "MULTIPLE_ACTION_KINDS",
]
