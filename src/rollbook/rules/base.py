"""Shared pieces of the pure rules core: the error type and face checks.

Nothing here (or anywhere under ``rollbook.rules``) imports a web, storage or CLI
library, and no user-facing sentence lives here: errors carry a stable ``code`` and
the numbers needed to explain them; ``rollbook.i18n`` turns them into sentences.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

Faces = tuple[int, ...]


class RuleError(ValueError):
    """A request the rules refuse. ``code`` is stable; ``params`` explain it."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:  # for logs and tracebacks only, never shown to players
        details = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code}({details})"


def check_faces(faces: Iterable[int], sides: int, *, field: str = "faces") -> Faces:
    """Every face must be an integer 1..sides (not a bool)."""
    checked = tuple(faces)
    for index, face in enumerate(checked):
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise RuleError("face_out_of_range", field=field, index=index, face=face, sides=sides)
    return checked


def check_range(field: str, value: object, low: int | None, high: int | None) -> int:
    """An integer field within [low, high] (either bound may be open)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("not_an_integer", field=field, value=value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise RuleError("out_of_range", field=field, value=value, low=low, high=high)
    return value


def check_choice(field: str, value: object, choices: tuple[T, ...]) -> T:
    """``value`` as one of ``choices``, or the refusal the requests make of any other (``bad_choice``)."""
    for choice in choices:
        if value == choice:
            return choice
    raise RuleError("bad_choice", field=field, value=value, choices=list(choices))


def present(value: T | None, field: str) -> T:
    """A field the request's own checks already required, narrowed from ``None`` for the type
    checker (the raise is unreachable for a request that was built)."""
    if value is None:
        raise RuleError("field_required", field=field)
    return value


def check_count(field: str, faces: Faces, expected: int) -> None:
    if len(faces) != expected:
        raise RuleError("wrong_face_count", field=field, expected=expected, given=len(faces))


# The values ``to_plain`` answers as they are, by their exact type: a receipt's leaves are mostly
# these, taken in place without a call of ``to_plain`` each (a subclass, a bool's or an enum's, takes
# the call, and is answered as it is there too).
_LEAF_TYPES = frozenset({str, int, float, bool, type(None)})


def to_plain(value: Any) -> Any:
    """A receipt (frozen dataclass) as JSON-ready builtins: tuples become lists."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _LEAF_TYPES else to_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: v if type(v) in _LEAF_TYPES else to_plain(v) for k, v in value.items()}
    names = _field_names(type(value))
    if names is None:
        return value
    plain = {}
    for name in names:
        field_value = getattr(value, name)
        plain[name] = field_value if type(field_value) in _LEAF_TYPES else to_plain(field_value)
    return plain


def to_plain_object(value: object) -> dict[str, Any]:
    """A receipt (frozen dataclass or mapping) as a JSON object (``to_plain``'s values)."""
    plain = to_plain(value)
    if not isinstance(plain, dict):
        raise TypeError(f"not a receipt: {type(value).__name__}")
    return plain


def _field_names(cls: type) -> tuple[str, ...] | None:
    """A dataclass's field names, the system id first (a receipt says what it is first); None for
    any other class."""
    if not is_dataclass(cls):
        return None
    names = [f.name for f in fields(cls)]
    if "system" in names:
        names.remove("system")
        names.insert(0, "system")
    return tuple(names)


class ContestRules(Protocol):
    """A system's part of contests and extended actions (TR-3, TR-4: ``rules.contests``; ``systems.v20.contests``,
    ``systems.v5.contests``), declared as ``CONTESTS`` on its rules module (``rollbook.rules.SystemRules``)."""

    @property
    def ABILITY_FIELD(self) -> str: ...  # the action field a side's test names its trait in
    @property
    def SIDE_DIFFICULTY(self) -> bool: ...  # whether a side rolls against a difficulty of its own

    def check_side(self, kind: object, has_difficulty: bool, field: str) -> None: ...

    def side(self, result: Mapping[str, Any], successes: int) -> dict[str, Any]: ...

    # TR-4: (the status it ends with, whether it loses the successes gathered), None: it goes on
    def ends(self, part: Mapping[str, Any]) -> tuple[str, bool] | None: ...

    def complications(self, part: Mapping[str, Any]) -> int: ...


__all__ = [
    "ContestRules",
    "Faces",
    "RuleError",
    "check_faces",
    "check_range",
    "check_choice",
    "check_count",
    "present",
    "to_plain",
    "to_plain_object",
]
