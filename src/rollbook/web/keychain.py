"""The browser's keychain: every chronicle this browser has joined, each with its own session.

The ``rollbook_keys`` cookie (HttpOnly, SameSite=Lax) holds ``<chronicle id>.<session token>`` for
each chronicle, ``~``-separated. A chronicle's pages read the token of *that* chronicle, so creating
or joining another never signs you out of one. Tokens are sessions
(``usecases.members.open_session``) opened with the member's key: signing out of a chronicle closes
its session on the server (it stops working everywhere) and the key stays valid
for coming back. The key itself is shown once, when it is made (``rollbook_new_key``, a cookie for
that chronicle's pages only, until "I saved it"), and a new one can be made at any time.

The single ``rollbook_token`` cookie holds the session of the chronicle opened last (the JSON API
reads it as a bearer token); a page reads it only when the keychain has no token for its chronicle.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from rollbook.server import auth
from rollbook.server.auth import COOKIE_NAME
from rollbook.server.models import Caller
from rollbook.server.usecases import members as member_cases
from rollbook.web.guard import cookie_secure

KEYS_COOKIE = "rollbook_keys"
NEW_KEY_COOKIE = "rollbook_new_key"
YEAR = 365 * 24 * 3600
MAX_ENTRIES = 40


def read(request: Request) -> dict[int, str]:
    """chronicle id -> token, as this browser holds them."""
    out: dict[int, str] = {}
    for item in (request.cookies.get(KEYS_COOKIE) or "").split("~"):
        cid, _, token = item.partition(".")
        if cid.isdigit() and token:
            out[int(cid)] = token
    return out


def legacy(request: Request) -> str | None:
    return request.cookies.get(COOKIE_NAME) or None


def token_for(request: Request, chronicle_id: int) -> str | None:
    return read(request).get(chronicle_id)


def _write(request: Request, response: Response, keys: dict[int, str]) -> Response:
    if keys:
        value = "~".join(f"{cid}.{token}" for cid, token in list(keys.items())[-MAX_ENTRIES:])
        response.set_cookie(
            KEYS_COOKIE,
            value,
            max_age=YEAR,
            httponly=True,
            samesite="lax",
            path="/",
            secure=cookie_secure(request),
        )
    else:
        response.delete_cookie(KEYS_COOKIE, path="/")
    return response


def add(request: Request, response: Response, chronicle_id: int, token: str) -> Response:
    keys = read(request)
    keys.pop(chronicle_id, None)
    keys[chronicle_id] = token
    # the single cookie follows the chronicle opened last (the JSON API reads it as a bearer token)
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=YEAR,
        httponly=True,
        samesite="lax",
        path="/",
        secure=cookie_secure(request),
    )
    return _write(request, response, keys)


def drop(request: Request, response: Response, chronicle_id: int) -> Response:
    keys = read(request)
    gone = keys.pop(chronicle_id, None)
    if gone is not None and legacy(request) == gone:
        response.delete_cookie(COOKIE_NAME, path="/")
    return _write(request, response, keys)


def session_for(session, key: str) -> tuple[Caller, str]:
    """A new session opened with a key (or a session token: the same member): (member, token)."""
    member = auth.authenticate(session, key)
    if member is None:
        from rollbook.server.problems import ProblemError

        raise ProblemError(401, "token_invalid")
    return member, member_cases.open_session(session, member)["token"]


def show_new_key(request: Request, response: Response, chronicle_id: int, key: str) -> Response:
    """The member's key, shown on that chronicle's pages until they say they saved it."""
    response.set_cookie(
        NEW_KEY_COOKIE,
        key,
        max_age=YEAR,
        httponly=True,
        samesite="lax",
        path=f"/chronicles/{chronicle_id}",
        secure=cookie_secure(request),
    )
    return response


def new_key(request: Request) -> str | None:
    return request.cookies.get(NEW_KEY_COOKIE) or None


def key_saved(response: Response, chronicle_id: int) -> Response:
    response.delete_cookie(NEW_KEY_COOKIE, path=f"/chronicles/{chronicle_id}")
    return response


def close(session, token: str) -> None:
    """Sign out of one chronicle: its session is revoked on the server (a key is left alone)."""
    row = auth.live_token(session, token)
    if row is not None and row.kind == auth.SESSION:
        member_cases.close_session(session, token)


def members(db, request: Request) -> list[tuple[Caller, dict]]:
    """Every chronicle this browser holds a live token for: (member, chronicle view), newest first."""
    from rollbook.server.usecases import chronicles

    held = read(request)
    tokens = list(held.items())
    old_token = legacy(request)
    if old_token and old_token not in held.values():
        tokens.append((0, old_token))
    out: list[tuple[Caller, dict]] = []
    with db.read() as session:
        for _cid, token in reversed(tokens):
            member = auth.authenticate(session, token)
            if member is None or any(m.chronicle_id == member.chronicle_id for m, _ in out):
                continue
            out.append((member, chronicles.chronicle_info(session, member)))
    return out
