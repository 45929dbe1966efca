"""The `v5` line of the resolve contract: faces given as `normal` and `hunger`, rerolls in order."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from rollbook.contract.base import LineBase
from rollbook.rules.base import RuleError, to_plain_object
from rollbook.systems.v5 import rules as v5


class RerollLine(BaseModel):
    model_config = {"extra": "forbid", "strict": True, "frozen": True}

    dice: list[int]
    faces: list[int]


class Line(LineBase):
    system: Literal["v5"]
    kind: Literal["test", "rouse", "willpower", "remorse", "frenzy"] = "test"
    normal: list[int] = []
    hunger: list[int] = []
    difficulty: int = 1
    mode: Literal["strict", "casual"] = "strict"
    rerolls: list[RerollLine] = []
    creature: Literal["vampire", "thin_blood", "ghoul", "mortal"] = "vampire"
    current_hunger: int | None = None
    blood_potency_reroll: bool = False


def request_of(line: Line) -> v5.V5Request:
    if line.hunger:
        if line.kind != "test" or line.creature not in v5.HUNGRY_CREATURES:  # V5-9, V5-12
            raise RuleError("hunger_not_allowed", kind=line.kind, creature=line.creature)
        if len(line.hunger) > v5.MAX_HUNGER:  # V5-2
            raise RuleError("too_many_hunger_dice", given=len(line.hunger))
    if line.kind == "rouse":
        return v5.rouse_request(
            hunger=line.current_hunger if line.current_hunger is not None else 0,
            blood_potency_reroll=line.blood_potency_reroll,
            creature=line.creature,
        )
    return v5.V5Request(
        pool=len(line.normal) + len(line.hunger),
        hunger=len(line.hunger),
        **line.request_fields("normal", "hunger", "rerolls", "current_hunger"),
    )


def resolve(line: Line) -> dict[str, Any]:
    request = request_of(line)
    if line.kind == "rouse" and line.rerolls:
        raise RuleError("reroll_not_allowed", kind="rouse")
    receipt = v5.resolve(request, tuple(line.normal) + tuple(line.hunger))
    for entry in line.rerolls:  # V5-8, applied in order
        receipt = v5.reroll(request, receipt, tuple(entry.dice), tuple(entry.faces))
    return to_plain_object(receipt)
