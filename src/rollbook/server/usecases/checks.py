"""Checks shared by the use cases: names, choices, standing difficulties, no faces from a client."""

from __future__ import annotations

from typing import Any

from rollbook.rules.base import RuleError, check_range
from rollbook.server.chain import plain
from rollbook.server.problems import ProblemError

MODES = ("strict", "casual")
LANGUAGES = ("en", "fr", "es")
DIFFICULTY_SYSTEMS = {"v20": (2, 10), "v5": (1, 30)}  # systems whose rolls take a standing difficulty
DIFFICULTY_KINDS = {"v20": ("test", "willpower", "virtue"), "v5": ("test", "willpower", "frenzy")}


class _Unset:
    """The default of a keyword a caller did not give (``None`` is a value: "clear it")."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def check_choice(field: str, value: str, choices) -> None:
    if value not in choices:
        raise RuleError("bad_choice", field=field, value=value, choices=list(choices))


def check_name(name: Any) -> None:
    if not isinstance(name, str) or not name.strip():
        raise RuleError("blank_text", field="name")


def check_difficulty(system: str, difficulty: int | None) -> None:
    if difficulty is None:
        return
    if system not in DIFFICULTY_SYSTEMS:
        raise RuleError("field_not_for_system", field="difficulty", system=system)
    low, high = DIFFICULTY_SYSTEMS[system]
    check_range("difficulty", difficulty, low, high)


def reject_faces(value: Any, path: str = "action") -> None:
    """V5-13: a client never sends faces for an online roll, anywhere in its request."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(key, str) and (key == "faces" or key.endswith("_faces")):
                raise ProblemError(422, "faces_not_allowed", field=f"{path}.{key}")
            reject_faces(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            reject_faces(inner, f"{path}[{index}]")


def performed_parts(performed) -> tuple[dict, dict | None, list]:
    """A ``play.Performed``: (new sheet, receipt, effects as plain JSON)."""
    return performed.sheet, performed.receipt, [plain(effect) for effect in (performed.effects or ())]
