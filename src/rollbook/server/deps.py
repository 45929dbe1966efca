"""Request-level helpers shared by the JSON API and the web pages (``rollbook.web``).

- ``database(request)``: the app's ``Database`` (``app.state.db``).
- ``dice_source(request)``: a new dice source from the app's factory (``app.state.dice``,
  ``SecureDice`` unless a test's ``create_app(dice=...)`` gave another) for one roll or reroll.
- ``database_dependency`` / ``dice_dependency``: the same two as dependencies (``Depends``). They are
  ``async`` because they only read the app: FastAPI runs a plain ``def`` dependency in its thread
  pool, a hop that costs more than reading an attribute (bench/README.md).
- ``language(request)``: ``?lang=``, then ``Accept-Language``; en, fr or es.
- ``request_token(request)``: ``Authorization: Bearer TOKEN``, else the ``rollbook_token`` cookie;
  exactly one means: a request with an ``Authorization`` header is authenticated by it alone, and one
  that holds no bearer token (``Basic …``, a bare ``Bearer``) presents no token, never the cookie
  (the cross-site guard checks every request without a bearer token).
- ``optional_member(request)`` / ``current_member(request)``: the member the token opens (a frozen
  ``auth.MemberRow``), read in a read transaction of its own (it outlives it: read its attributes,
  pass it to the use cases); the latter raises a 401 problem when there is none (``required_token``: when no token is
  presented at all); ``member_in(session, request)`` the same in the caller's own transaction (a
  signed read's or write's).
"""

from __future__ import annotations

from fastapi import Request
from sqlalchemy.orm import Session

from rollbook.dice import DiceSource
from rollbook.server.auth import COOKIE_NAME, MemberRow, authenticate, token_from_headers
from rollbook.server.db import Database
from rollbook.server.problems import ProblemError, pick_language


def database(request: Request) -> Database:
    return request.app.state.db


def dice_source(request: Request) -> DiceSource:
    return request.app.state.dice()


async def database_dependency(request: Request) -> Database:
    return database(request)


async def dice_dependency(request: Request) -> DiceSource:
    return dice_source(request)


def language(request: Request) -> str:
    return pick_language(request.query_params.get("lang"), request.headers.get("accept-language"))


def request_token(request: Request) -> str | None:
    authorization = request.headers.get("authorization")
    if authorization is not None:
        return token_from_headers(authorization, None)
    return token_from_headers(None, request.cookies.get(COOKIE_NAME))


def optional_member(request: Request) -> MemberRow | None:
    cached = getattr(request.state, "rollbook_member", None)
    if cached is not None:
        return cached
    token = request_token(request)
    if token is None:
        return None
    with database(request).read() as session:
        member = authenticate(session, token)
    request.state.rollbook_member = member
    return member


def required_token(request: Request) -> str:
    """The request's token; 401 ``unauthorized`` when it presents none (no database read)."""
    token = request_token(request)
    if token is None:
        raise ProblemError(401, "unauthorized", headers={"WWW-Authenticate": 'Bearer realm="rollbook"'})
    return token


def current_member(request: Request) -> MemberRow:
    required_token(request)
    return _opened(optional_member(request))


def member_in(session: Session, request: Request) -> MemberRow:
    """``current_member`` read in the caller's transaction: a write's own, so that nothing happens
    between the check and the write (a key rotated meanwhile waits for it, or it for the rotation)."""
    member = _opened(authenticate(session, required_token(request)))
    request.state.rollbook_member = member
    return member


def _opened(member: MemberRow | None) -> MemberRow:
    if member is None:
        raise ProblemError(401, "token_invalid", headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
    return member
