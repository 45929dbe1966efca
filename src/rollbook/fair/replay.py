"""The dice a receipt drew and their faces rebuilt from a seed (SPEC F-3, F-4): one nonce covers
every die of an action, in the order the rules ask (see ``rollbook.fair``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rollbook import dice
from rollbook.dice import FairDice
from rollbook.entries import DiceReceipt, ValidationError
from rollbook.fair.seeds import MOST_DICE, REROLL, ROLL
from rollbook.play.common import request_from_plain
from rollbook.play.systems import system_ids, system_module
from rollbook.rules import RulesSystem
from rollbook.rules.base import RuleError

# --- the dice a receipt drew ---------------------------------------------------------------------


@dataclass(frozen=True)
class ReceiptDraw:
    """One nonce's dice as a receipt records them: the roll's own draw or one follow-up."""

    part: str  # ROLL or REROLL
    reroll: int | None  # index in receipt["rerolls"] for a follow-up
    record: Any  # the "fair" object as stored (None when the draw has none)
    faces: tuple[int, ...]  # the stored faces, in drawing order (a V5 Rouse die after the roll's dice)
    sizes: tuple[int, ...]  # the die sizes the rules ask for, given the stored faces (what a browser needs)


def receipt_draws(receipt: Mapping[str, Any]) -> list[ReceiptDraw]:
    """The draws a rules receipt records, in order: the roll's (``faces`` then ``rouse.faces``), then
    each follow-up in ``rerolls``. Raises ``RuleError("fair_cannot_replay")`` on a receipt whose dice
    cannot be rebuilt."""
    made = _dice_receipt(receipt)
    plan = _RollPlan.of(made)
    draws = [ReceiptDraw(ROLL, None, made.fair, plan.stored_faces(), plan.stored_sizes())]
    rerolls = made.rerolls or []
    if not isinstance(rerolls, list):
        raise RuleError("fair_cannot_replay")
    for index, step in enumerate(rerolls):  # a follow-up's record (V5-8), no log entry
        if not isinstance(step, Mapping) or not isinstance(step.get("dice"), list):
            raise RuleError("fair_cannot_replay")
        faces = _faces(step.get("faces"))
        draws.append(
            ReceiptDraw(REROLL, index, step.get("fair"), faces, (_REROLL_SIDES,) * len(step["dice"]))
        )
    return draws


def recompute(receipt: Mapping[str, Any], draw: ReceiptDraw, seed: bytes, chronicle: int) -> tuple[int, ...]:
    """The faces a draw should have under a revealed seed: the rules' dice requests replayed on
    ``FairDice`` (the roll's dice, then a Rouse die; a follow-up's d10s)."""
    record = draw.record
    source = FairDice(seed, chronicle, record["client_seed"], record["nonce"])
    if draw.part == REROLL:
        return source.draw(len(draw.sizes), _REROLL_SIDES)
    return _RollPlan.of(_dice_receipt(receipt)).replay(source)


def _dice_receipt(receipt: Mapping[str, Any]) -> DiceReceipt:
    """The receipt read as the dice it drew: ``fair_cannot_replay`` when it is no object naming its
    system."""
    try:
        return DiceReceipt.of(receipt)
    except ValidationError:
        raise RuleError("fair_cannot_replay") from None


_REROLL_SIDES = 10  # V5-8: a Willpower reroll redraws d10s (V5 is the only system with follow-up dice)


class _CountingSource:
    """A dice source that refuses to draw more than MOST_DICE dice (a replay must end)."""

    def __init__(self, source: FairDice) -> None:
        self.source = source
        self.drawn = 0

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        self.drawn += n
        if self.drawn > MOST_DICE:
            raise RuleError("fair_cannot_replay")
        return self.source.draw(n, sides)


@dataclass(frozen=True)
class _Step:
    system: RulesSystem[object]
    request: object
    faces: tuple[int, ...]


@dataclass(frozen=True)
class _RollPlan:
    """What ``rollbook.play.perform`` drew from its one source: the request's dice, then (V5-11) the
    Rouse check of a Blood Surge."""

    steps: tuple[_Step, ...]

    @classmethod
    def of(cls, receipt: DiceReceipt) -> _RollPlan:
        try:
            system_id = receipt.system
            if system_id not in system_ids():
                raise RuleError("fair_cannot_replay")
            # each system's draws (``SystemModule.drawn``): a V20 soak's or damage roll's own pool
            # (V20-16, V20-17), a V5 Blood Surge's Rouse die after the test's (V5-11)
            steps = [
                _Step(
                    drawn.rules,
                    request_from_plain(drawn.request, drawn.stored_request),
                    _faces(drawn.stored_faces),
                )
                for drawn in system_module(system_id).drawn(receipt.dump())
            ]
        except RuleError as refused:
            if refused.code == "fair_cannot_replay":
                raise
            raise RuleError("fair_cannot_replay") from None
        return cls(tuple(steps))

    def stored_faces(self) -> tuple[int, ...]:
        return tuple(face for step in self.steps for face in step.faces)

    def stored_sizes(self) -> tuple[int, ...]:
        """The sizes the rules ask for, step by step, given the stored faces (as far as they go)."""
        sizes: list[int] = []
        for step in self.steps:
            asked: list[int] = []
            try:
                while len(asked) <= len(step.faces):
                    more = step.system.needed(step.request, step.faces[: len(asked)])
                    if not more:
                        break
                    asked.extend(more)
            except (RuleError, TypeError, ValueError):
                raise RuleError("fair_cannot_replay") from None
            sizes.extend(asked)
        return tuple(sizes)

    def replay(self, source: FairDice) -> tuple[int, ...]:
        counting = _CountingSource(source)
        faces: tuple[int, ...] = ()
        try:
            for step in self.steps:
                drawn, _ = dice.roll(step.system, step.request, counting)
                faces += tuple(drawn)
        except (TypeError, ValueError):
            raise RuleError("fair_cannot_replay") from None
        except RuleError as refused:
            if refused.code == "fair_cannot_replay":
                raise
            raise RuleError("fair_cannot_replay") from None
        return faces


def _faces(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or any(isinstance(f, bool) or not isinstance(f, int) for f in value):
        raise RuleError("fair_cannot_replay")
    return tuple(value)
