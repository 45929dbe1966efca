"""The `tiers` line of the resolve contract (SPEC T-1 … T-5 and the contract table).

`faces` holds the first die, then each critical reroll in order (T-2): while the last face
is a 1 another face is required, and faces after a face that is not a 1 are an error.
"""

from __future__ import annotations

from typing import Any, Literal

from rollbook.contract.base import LineBase
from rollbook.rules.base import to_plain_object
from rollbook.systems.tiers import rules as tiers


class Line(LineBase):
    system: Literal["tiers"]
    kind: Literal["skill", "dodge", "soak"] = "skill"
    skill: int | None = None
    bonus: int = 0
    faces: list[int]
    bullets: int | None = None
    attack_tier: int | None = None
    endurance: int | None = None
    armor: int | None = None


def request_of(line: Line) -> tiers.TiersRequest:
    return tiers.TiersRequest(**line.request_fields("faces"))


def resolve(line: Line) -> dict[str, Any]:
    return to_plain_object(tiers.resolve(request_of(line), tuple(line.faces)))
