"""Errors as ``application/problem+json`` (RFC 9457) with a stable ``code``.

Every refusal of the server is a ``ProblemError(status, code, **params)``; every refusal of the
rules is a ``RuleError(code, **params)`` mapped to a status here. ``detail`` is the code's
sentence in the reader's language (``?lang=`` then ``Accept-Language``; en, fr, es).

The server's English msgids are ``SERVER_MESSAGES`` (looked up first; every other code is the
engine's, ``rollbook.i18n.messages``); their French and Spanish texts are the ``server.po``
catalogues in ``rollbook/i18n/locale``. ``storyteller_only`` is the play layer's code (and
msgid), used here with ``action`` naming what was refused.
"""

from __future__ import annotations

import re
from typing import Any

from rollbook.i18n import N_, normalize, translate
from rollbook.i18n.messages import ERROR_MESSAGES, error_message
from rollbook.rules.base import RuleError

PROBLEM_MEDIA_TYPE = "application/problem+json"

SERVER_MESSAGES: dict[str, str] = {
    "unauthorized": N_(
        "A bearer token is needed: send it as 'Authorization: Bearer TOKEN' (or the rollbook_token cookie)."
    ),
    "token_invalid": N_("This token does not open any chronicle."),
    "wrong_chronicle": N_("Your token belongs to another chronicle."),
    "member_removed": N_("The Storyteller removed you from this chronicle."),
    "not_your_character": N_("You act only for your own characters."),
    "not_found": N_("Nothing here: {path}."),
    "method_not_allowed": N_("{method} is not allowed here."),
    "chronicle_not_found": N_("No chronicle {chronicle}."),
    "character_not_found": N_("There is no such character in this chronicle."),
    "character_removed": N_("{name} is no longer at the table: the Storyteller removed this character."),
    "member_not_found": N_("No member {member} in this chronicle."),
    "entry_not_found": N_("No log entry {seq} in this chronicle."),
    "invitation_invalid": N_("This invitation code opens no chronicle."),
    "faces_not_allowed": N_(
        "An online roll never takes faces from the client: the server rolls the dice ({field})."
    ),
    "not_hidden": N_("Entry {seq} is not a hidden roll."),
    "already_revealed": N_("Entry {seq} was already revealed by entry {by}."),
    "seed_readable": N_(
        "The server's secret opens every seed in use: nothing to give up (reveal a seed by rotating it)."
    ),
    "not_a_roll": N_("Entry {seq} is not a roll."),
    "roll_finished": N_("Entry {seq} was followed up by entry {by}: follow up the latest receipt."),
    "version_conflict": N_(
        "The sheet changed meanwhile (version {current}, not {given}): reload it and try again."
    ),
    "edit_conflict": N_(
        "{field} was changed meanwhile by someone else: reload the sheet to see it, then change it again."
    ),
    "sheet_changed": N_("The sheet changed meanwhile: try again."),
    "busy": N_("The chronicle is busy: try again."),
    "idempotency_key_reused": N_("This Idempotency-Key was already used with another request."),
    "idempotency_key_invalid": N_("An Idempotency-Key is 1 to 255 printable characters."),
    "field_not_for_system": N_("{field} does not apply to {system} chronicles."),
    "validation_failed": N_("Invalid request: {detail}."),
    "body_not_json": N_("The request body is not valid JSON: {detail}."),
    "internal_error": N_("Something went wrong on the server."),
    "database_unavailable": N_("The database cannot be reached just now: try again in a few seconds."),
    "storage_full": N_("The server's disk is full: nothing was written; try again once space is freed."),
    "secret_does_not_open": N_(
        "The server's secret does not open this chronicle's seed: the host must restore the key it was "
        "sealed under, or the Storyteller commits a new seed. Try again later."
    ),
}

TITLES: dict[int, str] = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
    507: "Insufficient Storage",
}

# Rules refusals that depend on the sheet's current state (a resource spent, a roll finished):
# 409 Conflict. Every other rules refusal is a bad request: 422.
CONFLICT_RULE_CODES = frozenset(
    {
        "willpower_exhausted",
        "essence_exhausted",
        "magazine_empty",
        "bullets_exceed_magazine",
        "not_enough_bullets",
        "turn_spent",
        "not_enough_xp",
        "not_enough_experience",
        "reroll_limit_strict",
        "card_after_roll",
        "card_too_late",
        "roll_already_made",
        "roll_finished",
        "blood_exhausted",
        "not_enough_blood",
        "hunger_full",
        "hunger_slaked",  # V5 feeding
        "not_enough_willpower",
        "nothing_to_heal",
        "trait_at_maximum",
        "incapacitated",
        "receipt_inconsistent",
        "no_stains",
        "blood_per_turn_exceeded",
        "turn_blood_exceeded",  # V20-18, A-3
        "turn_runs",  # T-3, A-3
        "willpower_per_turn",  # TR-2 v20.willpower_once_per_turn
    }
)
# Rules refusals that are about who asks: 403 Forbidden.
FORBIDDEN_RULE_CODES = frozenset({"storyteller_only", "forbidden_edit"})


class ProblemError(Exception):
    """A refusal of the server: HTTP status, stable code, parameters for the sentence."""

    def __init__(self, status: int, code: str, headers: dict[str, str] | None = None, **params: Any) -> None:
        super().__init__(code, params)
        self.status = status
        self.code = code
        self.params = params
        self.headers = headers or {}

    def __str__(self) -> str:
        return f"{self.status} {self.code}({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"


def rule_status(code: str) -> int:
    if code in FORBIDDEN_RULE_CODES:
        return 403
    if code in CONFLICT_RULE_CODES or code.endswith("_exhausted"):
        return 409
    return 422


def from_rule_error(error: RuleError) -> ProblemError:
    return ProblemError(rule_status(error.code), error.code, **error.params)


def known_code(code: str) -> bool:
    return code in SERVER_MESSAGES or code in ERROR_MESSAGES


def allowed_methods(app: Any, path: str) -> list[str]:
    """Every method some route of ``app`` answers at ``path`` (a 405's ``Allow``: Starlette's names only
    the first route that matched the path). Each method is asked of the routes as a
    request would be (included routers and mounts answer for their own routes)."""
    from starlette.routing import Match

    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope: dict[str, Any] = {
            "type": "http",
            "path": path,
            "method": method,
            "root_path": "",
            "headers": [],
        }
        if any(route.matches(scope)[0] == Match.FULL for route in getattr(app, "routes", ())):
            allowed.append(method)
    return allowed


def detail(code: str, lang: str, params: dict[str, Any]) -> str:
    """The sentence for a code in the reader's language (the project's gettext catalogues)."""
    template = SERVER_MESSAGES.get(code)
    if template is None:
        return error_message(code, normalize(lang), params)
    printable = {k: _printable(v) for k, v in params.items()}
    try:
        return translate(template, normalize(lang), **printable)
    except (KeyError, IndexError):
        return translate(template, normalize(lang))


# What a problem's text never holds (its schema's pattern): a control character but tab, LF, CR
# (a path or a parameter echoed back, such as /problems/a%01b, had them).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _CONTROL.sub("\ufffd", value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_clean(v) for v in value)
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    return value


def problem_body(
    status: int, code: str, lang: str, params: dict[str, Any] | None = None, instance: str | None = None
) -> dict[str, Any]:
    params = _clean(params or {})
    instance = _clean(instance)
    body: dict[str, Any] = {
        "type": f"/problems/{code}",
        "title": TITLES.get(status, "Error"),
        "status": status,
        "detail": detail(code, lang, params),
        "code": code,
    }
    if instance:
        body["instance"] = instance
    extras = {k: v for k, v in params.items() if k not in body and _jsonable(v)}
    if extras:
        body["params"] = extras
    return body


def _printable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return value


def _jsonable(value: Any) -> bool:
    import json

    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def pick_language(query_lang: str | None, accept_language: str | None) -> str:
    """``?lang=`` wins; then the best of ``Accept-Language`` (q-values honoured); else English."""
    from rollbook.i18n import LANGUAGES

    if query_lang:
        return normalize(query_lang)
    if not accept_language:
        return "en"
    choices: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")):
        pieces = part.strip().split(";")
        tag = pieces[0].strip().lower()
        quality = 1.0
        for piece in pieces[1:]:
            name, _, value = piece.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        short = tag.split("-")[0]
        if short in LANGUAGES and quality > 0:
            choices.append((-quality, position, short))
    return min(choices)[2] if choices else "en"
