"""Tiers' quick roll: the values a quick roll takes (dice without a sheet, ``rollbook.play.quick``) and the
rules request they make (T-1: a skill and a bonus)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollbook.play.common import quick_number as number
from rollbook.systems.tiers.rules import TiersRequest

FIELDS = ("skill", "bonus")
KIND = "skill"  # the action whose edges a quick roll's values are
REQUEST = TiersRequest


def request(mode: str, values: Mapping[str, Any]) -> TiersRequest:
    """``mode``: unused (the game has none)."""
    return TiersRequest(kind="skill", skill=number(values, "skill", 0), bonus=number(values, "bonus", 0))


__all__ = ["FIELDS", "KIND", "REQUEST", "request"]
