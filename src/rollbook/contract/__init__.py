"""The resolve contract (SPEC "The resolve contract"): one JSON request in, one JSON receipt out.

Each system has an adapter module here: a Pydantic model of its request line (unknown fields
refused, strict JSON types) and a function turning the line into a rules request + faces
and the receipt into plain JSON. Nothing here draws dice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from pydantic import ValidationError

from rollbook.contract import contests
from rollbook.contract.base import LineBase  # noqa: F401 - re-exported: the base of every Line
from rollbook.i18n.messages import error_message
from rollbook.rules.base import RuleError

# system id -> the adapter of a system defined outside the package (``register``: ``Line`` and
# ``resolve(line) -> dict``); a shipped system's is its package's ``contract`` module, found by
# name (``play.systems.own_module``)
ADAPTERS: dict[str, Any] = {}


def register(system: str, adapter: Any) -> None:
    """The line of a system defined outside the package: ``adapter.Line`` (a ``LineBase``) and
    ``adapter.resolve(line) -> dict`` (a shipped system cannot be replaced)."""
    from rollbook.play.systems import SYSTEM_IDS

    if system in SYSTEM_IDS:
        raise ValueError(f"{system} is a shipped system")
    ADAPTERS[system] = adapter


def unregister(system: str) -> None:
    """Remove what ``register`` added."""
    ADAPTERS.pop(system, None)


def _known() -> list[str]:
    from rollbook.play.systems import SYSTEM_IDS

    return sorted({*SYSTEM_IDS, *ADAPTERS})


def _adapter(system: str) -> Any:
    from rollbook.play import systems

    adapter = systems.own_module(system, "contract") or ADAPTERS.get(system)
    if adapter is None:
        raise RuleError("unknown_system", system=system, known=_known())
    return adapter


def resolve_request(data: Any) -> dict[str, Any]:
    """A parsed request object -> receipt dict; raises RuleError for every refusal."""
    if not isinstance(data, dict):
        raise RuleError("not_an_object")
    system = data.get("system")
    if system is None:
        raise RuleError("missing_system")
    if not isinstance(system, str):
        raise RuleError("unknown_system", system=system, known=_known())
    adapter = _adapter(system)
    if contests.is_contest_line(data):  # TR-3, TR-4: the rolls of a contest or an extended action
        receipt = contests.resolve(data, resolve_request)
        return {"id": data["id"], **receipt} if data.get("id") is not None else receipt
    try:
        line = adapter.Line.model_validate(data, strict=True)
    except ValidationError as invalid:
        raise validation_to_rule_error(invalid) from None
    receipt = adapter.resolve(line)
    if line.id is not None:
        receipt = {"id": line.id, **receipt}
    return receipt


def resolve_text(text: str, lang: str = "en") -> tuple[dict[str, Any], bool]:
    """One line of text -> (output object, ok)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as bad:
        return error_object(RuleError("invalid_json", detail=bad.msg), lang), False
    try:
        return resolve_request(data), True
    except RuleError as refused:
        out = error_object(refused, lang)
        if (
            isinstance(data, dict)
            and "id" in data
            and isinstance(data["id"], (str, int, float, bool, type(None)))
        ):
            out = {"id": data["id"], **out}
        return out, False


def resolve_lines(lines: Iterable[str], lang: str = "en") -> Iterator[tuple[dict[str, Any], bool]]:
    """Every non-blank line, in order; a bad line yields its error and the rest continue."""
    for text in lines:
        if text.strip():
            yield resolve_text(text, lang)


def error_object(error: RuleError, lang: str) -> dict[str, Any]:
    return {
        "error": {
            "code": error.code,
            "message": error_message(error.code, lang, error.params),
            **_json_params(error.params),
        }
    }


def _json_params(params: Mapping[str, Any]) -> dict[str, Any]:
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
