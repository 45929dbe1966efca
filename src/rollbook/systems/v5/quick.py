"""V5's quick roll: the values a quick roll takes (dice without a sheet, ``rollbook.play.quick``) and the
rules request they make (V5-1: N dice, Hunger H, difficulty optional)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rollbook.play.common import Mode
from rollbook.play.common import quick_number as number
from rollbook.systems.v5.rules import V5Request

FIELDS = ("pool", "hunger", "difficulty")
KIND = "test"  # the action whose edges a quick roll's values are
REQUEST = V5Request


def request(mode: str, values: Mapping[str, Any]) -> V5Request:
    # the request refuses any other mode itself (bad_choice), in its own order of checks
    return V5Request(
        pool=number(values, "pool", 1),
        hunger=number(values, "hunger", 0),
        difficulty=number(values, "difficulty", 1),
        kind="test",
        mode=cast(Mode, mode),
    )


__all__ = ["FIELDS", "KIND", "REQUEST", "request"]
