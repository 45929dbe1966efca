"""The `v20` line of the resolve contract (SPEC V20-14 and the contract table)."""

from __future__ import annotations

from typing import Any, Literal

from rollbook.contract.base import LineBase
from rollbook.rules.base import to_plain_object
from rollbook.systems.v20 import rules as v20


class Line(LineBase):
    system: Literal["v20"]
    faces: list[int]
    pool: int | None = None  # TR-2 v20.specialty_reroll_tens: the pool's dice among the faces (default: all)
    difficulty: int = v20.DEFAULT_DIFFICULTY
    required: int = 1
    mode: Literal["strict", "casual"] = "strict"
    untrained: Literal["talent", "skill", "knowledge"] | None = None
    knowledge_allowed: bool = False
    specialty: bool = False
    specialty_rating: int | None = None
    willpower: bool = False
    willpower_roll: bool = False
    willpower_current: int | None = None
    auto_successes: int = 0
    table_rules: list[str] = []  # TR-1: the table rules in force (TR-2 ids)


def request_of(line: Line) -> v20.V20Request:
    pool = len(line.faces) if line.pool is None else line.pool
    return v20.V20Request(pool=pool, **line.request_fields("faces", "pool"))


def resolve(line: Line) -> dict[str, Any]:
    return to_plain_object(v20.resolve(request_of(line), tuple(line.faces)))
