"""V5 compulsions in the log (seed 001, SPEC V5-14, A-1): what ``rollbook log verify`` checks of
them, with no ``--head``, like ``server.baselines`` (``verify_ledger`` runs a new one, ``new_ledger``,
with the others: V5's part ``ledger``, ``server.baselines.SystemLedger``).

Pure (standard library, ``systems.v5.compulsions``, the receipts' models of ``rollbook.entries``).
Following the log in order:

- a ``compulsion`` entry is the Storyteller's, for a character without one in force, and states
  the penalty its compulsion has (dice, Attributes, whether serving the compulsion lifts it);
- a ``compulsion_end`` ends the one in force for its character (the call it names); a
  ``scene_close`` ends the scene-long ones of that scene;
- each V5 test of a character carries exactly the compulsion modifier the one in force gives its
  action (none when none is in force, or when the action serves it), and its pool's total is its
  terms' sum (at least one die), so a penalty removed with the dice recomputed is still caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rollbook.entries import (
    CompulsionEndReceipt,
    CompulsionReceipt,
    Logged,
    RollReceipt,
    SceneCloseReceipt,
    ValidationError,
    receipt_of,
)
from rollbook.play.systems import reads_compulsion, system_ids
from rollbook.systems.v5 import compulsions as rules
from rollbook.systems.v5.sheet import ATTRIBUTES

CALL = "compulsion"
END = "compulsion_end"


@dataclass
class CompulsionLedger:
    in_force: dict = field(default_factory=dict)  # character -> {"compulsion", "called", "until", "scene"}

    def check(self, line: dict) -> list[str]:
        try:
            entry = Logged.of(line)
        except ValidationError:  # no entry of the log: the chain's check says so (chain.header_problems)
            return []
        kind = entry.kind
        if kind not in (CALL, END, "scene_close", "roll", "reroll"):
            return []
        try:
            read = receipt_of(kind, entry.stored)
        except ValidationError:  # not a receipt of its kind: the chain's check says so (chain.kind_problems)
            return []
        if isinstance(read, CompulsionReceipt):
            return self._call(entry, read)
        if isinstance(read, CompulsionEndReceipt):
            return self._end(entry, read)
        if isinstance(read, SceneCloseReceipt):
            for character, found in list(self.in_force.items()):
                if found.get("until") == "scene" and found.get("scene") == read.scene:
                    del self.in_force[character]
            return []
        if (
            isinstance(read, RollReceipt)
            and read.system in system_ids()
            and reads_compulsion(read.system)  # V5's rolls (seed 001)
            and read.kind in ("test", "power")
            and (read.request or {}).get("kind") == "test"
        ):
            return self._roll(entry, read, kind)
        return []

    def _call(self, entry: Logged, receipt: CompulsionReceipt) -> list[str]:
        problems = []
        if (entry.actor or {}).get("role") != "storyteller":
            problems.append("a compulsion called by someone other than the Storyteller")
        character = entry.character
        if receipt.character != character:
            problems.append("a compulsion entry for another character than its own")
        if character in self.in_force:
            problems.append(
                f"a compulsion called while entry {self.in_force[character]['called']}'s is in force"
            )
        shape = rules.COMPULSIONS.get(receipt.compulsion)
        if shape is None:
            problems.append(f"an unknown compulsion {receipt.compulsion!r}")
        elif (receipt.dice, receipt.attributes, receipt.unless_serving) != (
            shape.dice,
            list(shape.attributes),
            shape.unless_serving,
        ):
            problems.append(f"compulsion {receipt.compulsion} does not state its book penalty")
        if receipt.until not in rules.UNTIL:
            problems.append("a compulsion without its duration")
        self.in_force[character] = {
            "compulsion": receipt.compulsion,
            "called": entry.seq,
            "until": receipt.until,
            "scene": receipt.scene,
        }
        return problems

    def _end(self, entry: Logged, receipt: CompulsionEndReceipt) -> list[str]:
        character = entry.character
        found = self.in_force.pop(character, None)
        problems = []
        if (entry.actor or {}).get("role") != "storyteller":
            problems.append("a compulsion ended by someone other than the Storyteller")
        if found is None or found["called"] != receipt.called:
            problems.append(f"ends compulsion {receipt.called}, not the one in force")
        return problems

    def _roll(self, entry: Logged, receipt: RollReceipt, kind: str) -> list[str]:
        pool = receipt.pool
        action = receipt.action
        if not isinstance(pool, dict) or not isinstance(action, dict):
            return []
        problems = []
        modifiers = [m for m in pool.get("modifiers") or [] if isinstance(m, dict)]
        stated = [m for m in modifiers if m.get("source") == "compulsion"]
        if kind == "roll":  # a reroll keeps its roll's pool: checked when the roll was
            found = self.in_force.get(entry.character)
            attributes = tuple(
                trait
                for part in pool.get("parts") or []  # a power's: its pool's
                if isinstance(part, dict)
                and isinstance(trait := part.get("trait"), str)
                and trait in ATTRIBUTES
            )
            expected = rules.modifier(found, "test", attributes, bool(action.get("serves_compulsion")))
            if stated != ([expected] if expected else []):
                problems.append(
                    "the compulsion penalty in the pool is not the one in force"
                    if expected
                    else "a compulsion penalty in the pool with none in force"
                )
        terms = [p.get("rating") for p in pool.get("parts") or [] if isinstance(p, dict)]
        terms += [m.get("dice") for m in modifiers] + [pool.get("wound_penalty", 0)]
        counted = [t for t in terms if isinstance(t, int)]
        if len(counted) == len(terms) and pool.get("total") != max(1, sum(counted)):
            problems.append("the pool's total is not the sum of its terms")
        return problems


def new_ledger() -> CompulsionLedger:
    """A ledger of the compulsions for one log, followed from its start."""
    return CompulsionLedger()


__all__ = ["CompulsionLedger", "new_ledger"]
