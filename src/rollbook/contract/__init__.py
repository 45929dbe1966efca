"""The resolve contract (SPEC "The resolve contract"): one JSON request in, one JSON receipt out.

Each system has an adapter module here: a Pydantic model of its request line (unknown fields
refused, strict JSON types) and a function turning the line into a rules request + faces
and the receipt into plain JSON. Nothing here draws dice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from importlib import import_module
from typing import Any

from pydantic import BaseModel, ValidationError

from rollbook.i18n.messages import error_message
from rollbook.rules.base import RuleError

# system id -> adapter module (each defines ``Line`` and ``resolve(line) -> dict``)
ADAPTER_MODULES = {
    "v20": "rollbook.contract.v20",
    "v5": "rollbook.contract.v5",
    "tiers": "rollbook.contract.tiers",
    "rollunder": "rollbook.contract.rollunder",
}


def _adapter(system: str):
    module_name = ADAPTER_MODULES.get(system)
    if module_name is None:
        raise RuleError("unknown_system", system=system, known=sorted(ADAPTER_MODULES))
    try:
        return import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name != module_name:
            raise
        raise RuleError("unknown_system", system=system, known=sorted(ADAPTER_MODULES)) from None


def resolve_request(data: Any) -> dict:
    """A parsed request object -> receipt dict; raises RuleError for every refusal."""
    if not isinstance(data, dict):
        raise RuleError("not_an_object")
    system = data.get("system")
    if system is None:
        raise RuleError("missing_system")
    if not isinstance(system, str):
        raise RuleError("unknown_system", system=system, known=sorted(ADAPTER_MODULES))
    adapter = _adapter(system)
    try:
        line = adapter.Line.model_validate(data, strict=True)
    except ValidationError as invalid:
        raise validation_to_rule_error(invalid) from None
    receipt = adapter.resolve(line)
    if line.id is not None:
        receipt = {"id": line.id, **receipt}
    return receipt


def resolve_text(text: str, lang: str = "en") -> tuple[dict, bool]:
    """One line of text -> (output object, ok)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as bad:
        return error_object(RuleError("invalid_json", detail=bad.msg), lang), False
    try:
        return resolve_request(data), True
    except RuleError as refused:
        out = error_object(refused, lang)
        if isinstance(data, dict) and "id" in data and isinstance(data["id"], (str, int, float, bool, type(None))):
            out = {"id": data["id"], **out}
        return out, False


def resolve_lines(lines: Iterable[str], lang: str = "en") -> Iterator[tuple[dict, bool]]:
    """Every non-blank line, in order; a bad line yields its error and the rest continue."""
    for text in lines:
        if text.strip():
            yield resolve_text(text, lang)


def error_object(error: RuleError, lang: str) -> dict:
    return {"error": {"code": error.code, "message": error_message(error.code, lang, error.params), **_json_params(error.params)}}


def _json_params(params: dict) -> dict:
    safe = {}
    for key, value in params.items():
        if key in ("code", "message"):
            continue
        try:
            json.dumps(value)
        except TypeError:
            value = repr(value)
        safe[key] = value
    return safe


def validation_to_rule_error(invalid: ValidationError) -> RuleError:
    """The first problem Pydantic found, as a stable code with the field's dotted path
    (``rollbook.validation.rule_error``)."""
    from rollbook.validation import rule_error

    return rule_error(invalid.errors(include_url=False))


class LineBase(BaseModel):
    """Fields every request line may carry."""

    model_config = {"extra": "forbid", "strict": True, "frozen": True}

    system: str
    id: str | int | float | bool | None = None

    def request_fields(self, *left_out: str) -> dict[str, Any]:
        """The line's fields as keyword arguments of its rules request: ``system``, ``id`` and the
        fields ``left_out`` (faces, rerolls…) dropped, lists as tuples."""
        dropped = {"system", "id", *left_out}
        return {name: tuple(value) if isinstance(value, list) else value
                for name, value in self.model_dump().items() if name not in dropped}
