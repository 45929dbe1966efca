"""The pages' named dependencies, like the API's ``Db`` and ``Auth``:

- ``Db``: the app's ``Database``; ``Dice``: a fresh dice source from the app's factory;
- ``Visitor``: the member the cookie opens, or ``None`` (a broken cookie is no member; a database
  error is a 500, never ``None``);
- ``Reader``: the signed-in member of the chronicle in the path (401 / 403 otherwise);
- ``Lang``: the reader's language on that chronicle's pages; ``VisitorLang`` anywhere else;
- ``Posted``: the posted form, repeated names (checkboxes) as lists; ``Asked``: the query string, alike;
  ``PostedUpload``: a form with a file, whose route answers a body too large itself.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from rollbook.dice import DiceSource
from rollbook.server.db import Database
from rollbook.server.deps import (
    database,
    database_dependency,
    dice_dependency,
    optional_member,
    request_token,
)
from rollbook.server.models import Caller
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import chronicles
from rollbook.web.errors import PageRoute
from rollbook.web.respond import lang_of


def page_router() -> APIRouter:
    return APIRouter(route_class=PageRoute, include_in_schema=False)


def visitor(request: Request) -> Caller | None:
    """The member the request's token opens, or None (no token, or one that opens nothing). A
    database error is not "no member": it propagates, a 500 with a log line."""
    return optional_member(request)


def reader(request: Request, chronicle_id: int) -> Caller:
    """The member this browser is in the chronicle of the path: the keychain's token for that
    chronicle (``rollbook.web.keychain``), else a bearer token or the older single cookie. The
    chronicle's language is read in the same read transaction, for ``reader_lang``. A request with an
    ``Authorization`` header is read by that header alone, never by a cookie."""
    from rollbook.server.auth import authenticate
    from rollbook.web import keychain

    token = None if "authorization" in request.headers else keychain.token_for(request, chronicle_id)
    if token is not None:
        with database(request).read() as session:
            member = authenticate(session, token)
            if member is not None and member.chronicle_id == chronicle_id:
                request.state.rollbook_member = member
                (request.state.rollbook_chronicle_language, request.state.rollbook_system) = (
                    chronicles.chronicle_language(session, member)
                )
                return member
    caller = visitor(request)
    if caller is None:
        _refuse_removed(request, chronicle_id, token)
        raise ProblemError(401, "unauthorized")
    if caller.chronicle_id != chronicle_id:
        raise ProblemError(403, "wrong_chronicle")
    with database(request).read() as session:
        (request.state.rollbook_chronicle_language, request.state.rollbook_system) = (
            chronicles.chronicle_language(session, caller)
        )
    return caller


def _refuse_removed(request: Request, chronicle_id: int, token: str | None) -> None:
    """A member the Storyteller removed reads that, in words, on the chronicle's pages (403
    ``member_removed``), not a request for a token."""
    from rollbook.server.auth import removed_from

    tokens = [t for t in (token, request_token(request)) if t]
    if not tokens:
        return
    with database(request).read() as session:
        if any(removed_from(session, t) == chronicle_id for t in tokens):
            raise ProblemError(403, "member_removed")


async def reader_lang(request: Request, member: Annotated[Caller, Depends(reader)]) -> str:
    """The reader's language on a chronicle's pages (the chronicle's own language, which ``reader``
    read, as a default). ``async``: it reads nothing more, so it takes no thread-pool hop."""
    lang = lang_of(request, request.state.rollbook_chronicle_language)
    request.state.rollbook_lang = lang  # a refusal after this is in the reader's language
    return lang


async def visitor_lang(request: Request) -> str:  # async: reads the request only (no thread-pool hop)
    return lang_of(request)


def _multi(items) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in items:
        values = items.getlist(key)
        out[key] = values if len(values) > 1 else values[0]
    return out


def body_too_large(request: Request) -> int | None:
    """The limit a posted form went over (``server/hygiene.py`` handed the route an empty form), else None."""
    return getattr(request.state, "rollbook_body_too_large", None)


async def posted_form(request: Request) -> dict[str, Any]:
    """The posted form; repeated names (checkboxes) become lists. A form over the server's limit is
    refused in words on the error page (413 ``body_too_large``)."""
    limit = body_too_large(request)
    if limit is not None:
        raise ProblemError(413, "body_too_large", limit=limit)
    return _multi(await request.form())


async def posted_upload(request: Request) -> dict[str, Any]:
    """A form with a file: as ``posted_form``, but a form over the server's limit arrives empty and
    the route says so on its own page (``body_too_large(request)``)."""
    return _multi(await request.form())


async def asked_query(request: Request) -> dict[str, Any]:
    """The query string; ticked boxes repeat their name, as in a posted form."""
    return _multi(request.query_params)


Db = Annotated[Database, Depends(database_dependency)]
Dice = Annotated[DiceSource, Depends(dice_dependency)]
Visitor = Annotated[Caller | None, Depends(visitor)]
Reader = Annotated[Caller, Depends(reader)]
Lang = Annotated[str, Depends(reader_lang)]
VisitorLang = Annotated[str, Depends(visitor_lang)]
Posted = Annotated[dict[str, Any], Depends(posted_form)]
PostedUpload = Annotated[dict[str, Any], Depends(posted_upload)]
Asked = Annotated[dict[str, Any], Depends(asked_query)]
