"""The `rollunder` line of the resolve contract (SPEC R-1 … R-8 and the contract table).

`cards` (names of cards or abilities played before the roll, R-6) is accepted besides the
table's fields and recorded on the receipt.
"""

from __future__ import annotations

from typing import Any, Literal

from rollbook.contract.base import LineBase
from rollbook.rules.base import to_plain_object
from rollbook.systems.rollunder import rules as rollunder


class Line(LineBase):
    system: Literal["rollunder"]
    kind: Literal["check", "opposed"] = "check"
    action: str  # required; an empty one is refused by the rules
    level: int | None = None
    bonus: int = 0
    malus: int = 0
    advantage: bool = False
    disadvantage: bool = False
    task: Literal["normal", "absurd", "trivial"] = "normal"
    faces: list[int] = []
    dice: str | None = None
    threshold: int | None = None
    cards: list[str] = []


def request_of(line: Line) -> rollunder.RollUnderRequest:
    return rollunder.RollUnderRequest(**line.request_fields("faces"))


def resolve(line: Line) -> dict[str, Any]:
    return to_plain_object(rollunder.resolve(request_of(line), tuple(line.faces)))
