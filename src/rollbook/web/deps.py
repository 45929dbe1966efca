"""The pages' named dependencies, like the API's ``Db`` and ``Auth``:

- ``Db``: the app's ``Database``; ``Dice``: a fresh dice source from the app's factory;
- ``Visitor``: the member the cookie opens, or ``None`` (a broken cookie is no member; a database
  error is a 500, never ``None``);
- ``Reader``: the signed-in member of the chronicle in the path (401 / 403 otherwise);
- ``Signed``: the page's signed access (``PageAccess``): the same member, found first thing in the
  page's one transaction: a change's write (``member_in``), a page's one read (``read_in``);
- ``Lang``: the reader's language on that chronicle's pages; ``VisitorLang`` anywhere else;
- ``Posted``: the posted form, repeated names (checkboxes) as lists; ``Asked``: the query string, alike;
  ``PostedUpload``: a form with a file, whose route answers a body too large itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from rollbook.dice import DiceSource
from rollbook.server import tx
from rollbook.server.access import find_chronicle
from rollbook.server.db import Database
from rollbook.server.deps import (
    database,
    database_dependency,
    dice_dependency,
    optional_member,
    request_token,
)
from rollbook.server.models import Caller, Chronicle
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import chronicles
from rollbook.web.errors import PageRoute, alert_response, on_refusal
from rollbook.web.once import once
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
    token = _keychain_token(request, chronicle_id)
    if token is not None:
        with database(request).read() as session:
            member = _keychain_member(session, request, chronicle_id, token)
            if member is not None:
                _knows(request, *chronicles.chronicle_language(session, member))
                return member
    caller = _other_ways(request, chronicle_id, token)
    with database(request).read() as session:
        _knows(request, *chronicles.chronicle_language(session, caller))
    return caller


def _keychain_token(request: Request, chronicle_id: int) -> str | None:
    from rollbook.web import keychain

    return None if "authorization" in request.headers else keychain.token_for(request, chronicle_id)


def _keychain_member(session, request: Request, chronicle_id: int, token: str) -> Caller | None:
    """The member the keychain's token opens in the chronicle of the path, read in the caller's
    transaction, or None."""
    from rollbook.server.auth import authenticate

    member = authenticate(session, token)
    if member is None or member.chronicle_id != chronicle_id:
        return None
    request.state.rollbook_member = member
    return member


def _other_ways(request: Request, chronicle_id: int, token: str | None) -> Caller:
    """The reader found without the keychain (a bearer token, the older single cookie), in a read of
    its own; the refusals (401, 403 ``wrong_chronicle``, ``member_removed``)."""
    caller = visitor(request)
    if caller is None:
        _refuse_removed(request, chronicle_id, token)
        raise ProblemError(401, "unauthorized")
    if caller.chronicle_id != chronicle_id:
        raise ProblemError(403, "wrong_chronicle")
    return caller


def _knows(request: Request, language: str, system: str) -> None:
    """The chronicle's language (the pages' default) and system (whose words its pages use)."""
    request.state.rollbook_chronicle_language, request.state.rollbook_system = language, system


class PageAccess:
    """A page's signed access to its chronicle: the reader (``reader``'s rules: the keychain's token,
    else a bearer token or the older single cookie) found first thing in the transaction the page
    runs, never in one before it. A change finds it in its own write (``member_in``, as the API's
    signed writes do: ``app.api._signed_write``); a page drawn from one read finds it first thing in
    that read, with the chronicle's row (``read_in``). The chronicle's language and system come from
    the rows the transaction reads (``knows``); ``lang()`` is the reader's language (read, on a refusal
    that came before the transaction read the chronicle)."""

    __slots__ = ("request", "chronicle_id", "found", "known")

    def __init__(self, request: Request, chronicle_id: int) -> None:
        self.request = request
        self.chronicle_id = chronicle_id
        self.found: Caller | None = None
        self.known = False  # the chronicle's language (None: none set) and system

    def member_in(self, session) -> Caller:
        token = _keychain_token(self.request, self.chronicle_id)
        member = None if token is None else _keychain_member(session, self.request, self.chronicle_id, token)
        self.found = member if member is not None else _other_ways(self.request, self.chronicle_id, token)
        return self.found

    @property
    def member(self) -> Caller:
        """The member ``member_in`` found; a refusal that came before the transaction (a body too
        large, a file nested too deep) finds it in a read of its own, so its page is drawn for that
        reader, in their language (``errors``)."""
        if self.found is None:
            with database(self.request).read() as session:
                return self.member_in(session)
        return self.found

    def knows(self, chronicle: Any) -> None:
        """The chronicle's language and system, from its row or its view (``chronicle_view``)."""
        if isinstance(chronicle, dict):
            _knows(self.request, chronicle["language"], chronicle["system"])
        else:
            _knows(self.request, chronicle.language, chronicle.system)
        self.known = True

    def read_in(self, db: Database) -> tuple[Caller, str, Chronicle]:
        """The reader found first thing in a page's one read (``db``: ``Database.one_read``'s), with
        the chronicle's row, read there once (its language and system, and all the page reads of it):
        (the member, the reader's language, the row)."""
        with db.read() as session:
            member = self.member_in(session)
            row = find_chronicle(session, member)
        self.knows(row)
        return member, self.lang(), row

    def write(
        self, db: Database, work: Callable[[Any, Caller], dict], form: Mapping[str, Any] | None = None
    ) -> dict:
        """A page's change: its one write, the reader found first thing in it (``member_in``), then
        ``work(session, member)``; with the posted ``form``, through the pages' exactly-once path
        (``web.once``: its key's scope is that member's). The write sends the statements of the API's
        same operation (``app.api._signed_write``)."""
        if form is None:
            return tx.run(db, lambda session: work(session, self.member_in(session)))
        return once(self.request, db, self.member_in, form, lambda session: work(session, self.member))

    def answer_in(self, db: Database) -> tuple[Caller, str, Chronicle]:
        """After the write, first thing in its answer's one read (``db``: ``Database.one_read``'s): the
        member the write found, the reader's language and the chronicle's row, read there once (for
        its language and everything the answer draws of it)."""
        with db.read() as session:
            row = find_chronicle(session, self.member)
        self.knows(row)
        return self.member, self.lang(), row

    def refused_into(
        self, form_id: str, full_page: Callable[[Caller, str, dict[str, str]], Response]
    ) -> None:
        """A refusal of the change: into the form ``form_id`` with htmx, else ``full_page(member,
        lang, errors)``: the page again with the message in place, in the reader's language (read only
        for the refusal: ``errors.alert_response``)."""
        request = self.request
        on_refusal(
            request,
            lambda error: alert_response(
                request,
                error,
                self.lang(),
                form_id,
                lambda errors: full_page(self.member, self.lang(), errors),
            ),
        )

    def lang(self, db: Database | None = None) -> str:
        """The reader's language; the chronicle's read through ``db`` (the answer's one read) when no
        row of the write said it (a replayed form, a refusal before the write read the chronicle)."""
        if not self.known:
            with (db or database(self.request)).read() as session:
                _knows(self.request, *chronicles.chronicle_language(session, self.member))
            self.known = True
        lang = lang_of(self.request, self.request.state.rollbook_chronicle_language)
        self.request.state.rollbook_lang = lang
        return lang


async def page_access(request: Request, chronicle_id: int) -> PageAccess:
    """A page's signed access (``PageAccess``). ``async``: it reads nothing (the page's transaction
    finds the member); a request with no token at all is refused here, before its form is read, as
    ``reader`` refuses it."""
    if _keychain_token(request, chronicle_id) is None and request_token(request) is None:
        raise ProblemError(401, "unauthorized")
    return PageAccess(request, chronicle_id)


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
Signed = Annotated[PageAccess, Depends(page_access)]
Lang = Annotated[str, Depends(reader_lang)]
VisitorLang = Annotated[str, Depends(visitor_lang)]
Posted = Annotated[dict[str, Any], Depends(posted_form)]
PostedUpload = Annotated[dict[str, Any], Depends(posted_upload)]
Asked = Annotated[dict[str, Any], Depends(asked_query)]
