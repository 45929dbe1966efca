"""One mapping from Pydantic's validation errors to the project's stable error codes.

``rule_error(errors, what)`` takes the list Pydantic reports — ``ValidationError.errors(
include_url=False)`` (the resolve contract, the game logic's sheet and action models) or FastAPI's
``RequestValidationError.errors()`` (the JSON API, its location prefix such as ``"body"`` already
removed by the caller) — and returns the first problem as a ``RuleError(code, field=<dotted path>,
...)``. ``what`` names the object validated when the problem is the object itself (empty path).

Codes: ``unknown_field``, ``missing_field``, ``bad_choice`` (literals and enums), ``out_of_range``
(bounds, with the side that failed), ``bad_name``, ``blank_text``, ``too_long``, ``invalid_json``,
a ``RuleError`` a validator raised (given the field when it names none), else ``wrong_type``.
Pure: imports only the standard library and the rules core.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rollbook.rules.base import RuleError

_FIELD_CODES = {"extra_forbidden": "unknown_field", "missing": "missing_field"}
_CHOICE_TYPES = ("literal_error", "enum")
_LOW_TYPES = ("greater_than_equal", "greater_than")
_HIGH_TYPES = ("less_than_equal", "less_than")


def dotted(loc: Iterable[Any]) -> str:
    """``("sheet", "attributes", 0)`` -> ``"sheet.attributes.0"``."""
    return ".".join(str(part) for part in loc)


def plain_value(value: Any) -> Any:
    """A value fit for an error's JSON parameters (its ``repr`` when it is not a JSON scalar)."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    return repr(value)


def rule_error(errors: Sequence[Mapping[str, Any]], what: str = "request") -> RuleError:
    """The first problem Pydantic found, as a stable code with the field's dotted path."""
    if not errors:
        return RuleError("invalid_request", detail=what)
    first = errors[0]
    field = dotted(first.get("loc", ())) or what
    kind = first.get("type", "")
    ctx = first.get("ctx") or {}
    if kind in _FIELD_CODES:
        return RuleError(_FIELD_CODES[kind], field=field)
    if kind in _CHOICE_TYPES:
        return RuleError(
            "bad_choice", field=field, value=plain_value(first.get("input")), choices=ctx.get("expected", "")
        )
    if kind in _LOW_TYPES:
        return RuleError(
            "out_of_range",
            field=field,
            value=plain_value(first.get("input")),
            low=ctx.get("ge", ctx.get("gt")),
            high=None,
        )
    if kind in _HIGH_TYPES:
        return RuleError(
            "out_of_range",
            field=field,
            value=plain_value(first.get("input")),
            low=None,
            high=ctx.get("le", ctx.get("lt")),
        )
    if kind == "string_pattern_mismatch":
        return RuleError("bad_name", field=field, value=plain_value(first.get("input")))
    if kind in ("string_too_short", "too_short"):
        return RuleError("blank_text", field=field)
    if kind in ("string_too_long", "too_long"):
        return RuleError("too_long", field=field, most=ctx.get("max_length"))
    if kind == "json_invalid":
        return RuleError("invalid_json", detail=ctx.get("error", first.get("msg", "")))
    if kind == "value_error" and isinstance(ctx.get("error"), RuleError):
        error: RuleError = ctx["error"]
        if "field" not in error.params:
            return RuleError(error.code, field=field, **error.params)
        where = dotted(first.get("loc", ()))
        if where and isinstance(error.params.get("field"), str) and "." not in error.params["field"]:
            # a check of one item of a list ("loaded" of a weapon) names the item's path: "weapons.0.loaded"
            # (the form puts the message at that row)
            return RuleError(error.code, **{**error.params, "field": f"{where}.{error.params['field']}"})
        return error
    return RuleError("wrong_type", field=field, detail=first.get("msg", ""))
