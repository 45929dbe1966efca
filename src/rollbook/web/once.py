"""Each rendered form carries its own idempotency key.

A form holds ``<input type="hidden" name="idempotency_key">`` drawn when the form is drawn
(``form_key()`` in the templates); the page routes run their change through ``once``, which is the
API's exactly-once path (``tx.idempotent``) in a scope of their own per member: a network retry of
the same submission (the same key and the same fields) answers the first result again instead of
rolling or spending twice, and the back button with a second submit of a new character finds the
character already made. After a roll or a change the form gets a fresh key (out of band), so the
next submission is a new one.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import Request

from rollbook.server import tx
from rollbook.server.models import Caller

FIELD = "idempotency_key"


def new_key() -> str:
    return secrets.token_urlsafe(18)


def once(
    request: Request,
    db,
    member: Caller | Callable[[Any], Caller] | None,
    form: Mapping[str, Any],
    work: Callable[[Any], dict],
) -> dict:
    """``work`` run once per form key (or every time when the form carries none): its result, or
    the first result again for a retry. ``member`` may be found in the write itself, first thing
    (``web.deps.PageAccess.member_in``), as the API's signed writes find theirs: the key's scope is
    that member's."""
    key = str(form.get(FIELD) or "").strip() or None
    if callable(member):
        find = member
        if key is None:
            return tx.run(db, lambda session: (find(session), work(session))[1])
        scope: tx.Scope = lambda session: f"page:member:{find(session).id}"  # noqa: E731
    elif key is None:
        return tx.run(db, work)
    else:
        scope = f"page:member:{member.id}" if member is not None else "page:anonymous"
    fields = {name: value for name, value in form.items() if name != FIELD}
    fingerprint = tx.fingerprint("POST", request.url.path, fields)
    _status, body, _replayed = tx.idempotent(
        db, scope=scope, key=key, request_fingerprint=fingerprint, work=lambda session: (200, work(session))
    )
    return body
