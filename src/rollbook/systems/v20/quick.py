"""V20's quick roll: the values a quick roll takes (dice without a sheet, ``rollbook.play.quick``) and the
rules request they make (V20-2: N dice at a difficulty)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rollbook.play.common import Mode
from rollbook.play.common import quick_number as number
from rollbook.systems.v20.rules import V20Request

FIELDS = ("pool", "difficulty")
KIND = "test"  # the action whose edges a quick roll's values are
REQUEST = V20Request


def request(mode: str, values: Mapping[str, Any]) -> V20Request:
    # the request refuses any other mode itself (bad_choice), in its own order of checks
    return V20Request(
        pool=number(values, "pool", 1), difficulty=number(values, "difficulty", 6), mode=cast(Mode, mode)
    )


__all__ = ["FIELDS", "KIND", "REQUEST", "request"]
