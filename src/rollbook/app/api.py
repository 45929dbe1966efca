"""The JSON API (``/api``). Thin: parse, authenticate, call a use case (``server/usecases``) in a
transaction (``tx``), answer its plain JSON.

Every state-changing route accepts an ``Idempotency-Key`` header (see ``tx.idempotent``).
Errors are ``application/problem+json`` (``problems``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from pydantic_core import to_json
from sqlalchemy.orm import Session
from sse_starlette import EventSourceResponse

from rollbook.app.api_models import (
    AdjustRequest,
    CharacterCreate,
    CharacterUpdate,
    ChronicleCreate,
    ChronicleUpdate,
    FollowupRequest,
    JoinRequest,
    RollRequest,
)
from rollbook.app.openapi import (
    CHANGE_EXAMPLES,
    CHARACTER_EXAMPLES,
    FOLLOWUP_EXAMPLES,
    LOG_ENTRY,
    ROLL_EXAMPLES,
    json_response,
    operation_id,
)
from rollbook.server import tx
from rollbook.server.auth import MemberRow
from rollbook.server.db import Database
from rollbook.server.deps import (
    current_member,
    database_dependency,
    dice_source,
    language,
    member_in,
    request_token,
    required_token,
)
from rollbook.server.problems import PROBLEM_MEDIA_TYPE, ProblemError, detail, known_code
from rollbook.server.ratelimit import spend_signin
from rollbook.server.sse import entry_feed, event_stream, json_events
from rollbook.server.usecases import characters, chronicles, log, rolls
from rollbook.server.usecases import members as member_cases
from rollbook.server.views import member_view

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)
bearer = HTTPBearer(auto_error=False, description="The token returned when creating or joining a chronicle.")

Id = Annotated[int, Path(ge=1, le=2**31 - 1)]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=255,
        description="Makes the request safe to retry: the same key and body return the stored response.",
    ),
]

PROBLEM: dict[str, Any] = {
    "model": None,
    "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
}


class Caller:
    """A request that presents a token: ``member()`` checks it where the endpoint runs;
    ``_signed_read`` and ``_signed_write`` read it in the request's own transaction instead
    (``deps.member_in``).

    The check reads the database, so as a ``def`` dependency it would run in a thread-pool hop of its
    own before the endpoint's (a hop costs more CPU than the check, bench/README.md); called first
    thing in the endpoint, it shares the endpoint's place. A request
    without any token is refused (401 ``unauthorized``) before its body is read, as before."""

    __slots__ = ("request",)

    def __init__(self, request: Request) -> None:
        self.request = request

    def member(self) -> MemberRow:
        """The member the token opens; 401 ``token_invalid`` when it opens none."""
        return current_member(self.request)


class _SignedBearer(HTTPBearer):
    """The bearer scheme the schema names and the refusal of a request with no token, as one
    dependency (``Auth``): a sub-dependency for the scheme would give every signed request a second
    dependency to solve."""

    async def __call__(self, request: Request) -> Caller:  # type: ignore[override]  # HTTPBearer answers credentials; this scheme answers the caller
        required_token(request)
        return Caller(request)


caller = _SignedBearer(auto_error=False, scheme_name="HTTPBearer", description=bearer.model.description)


def member_dep(
    request: Request, _credentials: HTTPAuthorizationCredentials | None = Depends(bearer)
) -> MemberRow:
    return current_member(request)


Auth = Annotated[Caller, Depends(caller)]
SignedMember = Annotated[MemberRow, Depends(member_dep)]  # for an async endpoint (the live feed): its own hop
Db = Annotated[Database, Depends(database_dependency)]


def _mutate(
    request: Request, db: Database, *, scope: tx.Scope, key: str | None, body: Any, work
) -> JSONResponse:
    # Anonymous requests (create, join) answer a token: their key alone guards it, so it must be unguessable.
    status, payload, replayed = tx.idempotent(
        db,
        scope=scope,
        key=key,
        request_fingerprint=_fingerprint(request, key, body),
        work=work,
        min_key_length=tx.ANONYMOUS_KEY_MIN if scope == ANONYMOUS else 1,
    )
    return _answer(status, payload, replayed)


def _fingerprint(request: Request, key: str | None, body: Any) -> str:
    # Only a request with a key is compared with a stored one: without, no fingerprint to compute.
    return tx.fingerprint(request.method, request.url.path, body) if key is not None else ""


class Answer(JSONResponse):
    """A JSON answer serialised by pydantic-core (compact, UTF-8, as Starlette's): the same bytes as
    ``json.dumps`` for a roll's answer, its entry and character, in a fraction of its time."""

    def render(self, content: Any) -> bytes:
        return to_json(content)


def _answer(status: int, payload: dict, replayed: bool) -> JSONResponse:
    return Answer(payload, status_code=status, headers={"Idempotent-Replayed": "true"} if replayed else {})


ANONYMOUS = "anonymous"


def _scope(member: MemberRow) -> str:
    return f"member:{member.id}"


def _same_chronicle(member: MemberRow, chronicle_id: int) -> None:
    if chronicle_id != member.chronicle_id:
        raise ProblemError(403, "wrong_chronicle")


def _signed_read(
    db: Database, auth: Caller, chronicle_id: int, read: Callable[[Session, MemberRow], dict | list]
) -> JSONResponse:
    """A member's read of their own chronicle: the token checked and ``read(session, member)`` run in
    one read transaction (one pooled connection: on PostgreSQL one ping, not two), answered as it is:
    the views are plain JSON already. (Returned as a dict, FastAPI would walk it with
    ``jsonable_encoder``, or, for a route with a response model, validate it in one more thread-pool
    hop, work the views already did; the routes keep their ``response_model`` for the schema.)"""
    with db.read() as session:
        member = member_in(session, auth.request)
        _same_chronicle(member, chronicle_id)
        return Answer(read(session, member))


def _signed_write(
    request: Request,
    db: Database,
    auth: Caller,
    chronicle_id: int | None,
    key: str | None,
    *,
    body: Any,
    work: Callable[[Session, MemberRow], tuple[int, dict]],
) -> JSONResponse:
    """A member's write (in their own chronicle, when ``chronicle_id`` is given), idempotent under the
    member's scope: ``work(session, member)`` answers ``(status, body)``. The token is read in the
    write's own transaction, first thing (its refusal comes before the key's): one connection per
    request. The write is ``tx.idempotent``'s, as the pages' and the CLI's (the endpoint runs in a
    worker thread)."""
    scope, signed = _signed_scope(auth, chronicle_id)
    status, payload, replayed = tx.idempotent(
        db,
        scope=scope,
        key=key,
        request_fingerprint=_fingerprint(request, key, body),
        work=lambda session: work(session, signed[0]),
    )
    return _answer(status, payload, replayed)


def _signed_scope(auth: Caller, chronicle_id: int | None) -> tuple[Callable[[Session], str], list[MemberRow]]:
    """The key's scope found in the write's transaction (``tx.idempotent``): the member the token opens
    (401 when none; 403 for another chronicle), handed to the work through the list."""
    signed: list[MemberRow] = []

    def member_scope(session: Session) -> str:
        member = member_in(session, auth.request)
        if chronicle_id is not None:
            _same_chronicle(member, chronicle_id)
        signed[:] = [member]
        return _scope(member)

    return member_scope, signed


def _given(model: BaseModel) -> dict[str, Any]:
    return {name: getattr(model, name) for name in model.model_fields_set}


ERRORS: dict[int | str, dict[str, Any]] = {
    401: PROBLEM,
    403: PROBLEM,
    404: PROBLEM,
    409: PROBLEM,
    422: PROBLEM,
}


# --- about the server -------------------------------------------------------------------------


@router.get("/health", tags=["server"], responses={503: {"description": "A check failed: see `failed`."}})
def health(db: Db) -> JSONResponse:
    """The server is up, and says which of its checks fail (503 then): ``store`` (a read and a tiny
    write), ``disk`` (the SQLite file's free space), ``secret`` (the operator's secret opens the
    server seeds in use)."""
    from rollbook.server.health import checks

    found = checks(db)
    failed = [name for name, check in found.items() if not check["ok"]]
    body = {
        "status": "ok" if not failed else "failing",
        "database": "sqlite" if db.sqlite else "postgresql",
        "revision": found["store"].get("revision"),
        "checks": found,
        "failed": failed,
    }
    return JSONResponse(body, status_code=503 if failed else 200)


@router.get("/systems", tags=["server"])
def systems() -> dict:
    """The game systems a chronicle can use."""
    return {"systems": chronicles.system_ids()}


# --- chronicles and people --------------------------------------------------------------------


@router.post(
    "/chronicles",
    status_code=201,
    tags=["chronicles"],
    responses={
        409: PROBLEM,
        422: PROBLEM,
        201: json_response("Created", "The chronicle, your token, the invitation."),
    },
)
def create_chronicle(request: Request, db: Db, body: ChronicleCreate, idempotency_key: IdempotencyKey = None):
    """Create a chronicle; you are its Storyteller. The answer holds your bearer token and the
    invitation code for players, each shown once."""
    return _mutate(
        request,
        db,
        scope=ANONYMOUS,
        key=idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s: (201, chronicles.create_chronicle(s, **body.model_dump())),
    )


@router.post(
    "/join",
    status_code=201,
    tags=["chronicles"],
    responses={404: PROBLEM, 422: PROBLEM, 201: json_response("Joined", "The chronicle and your token.")},
)
def join(request: Request, db: Db, body: JoinRequest, idempotency_key: IdempotencyKey = None):
    """Join a chronicle as a player with its invitation code; the answer holds your bearer token.
    429 ``too_many_signins`` beyond the address's or the code's budget (``server/ratelimit.py``)."""
    spend_signin(request, body.invitation)
    return _mutate(
        request,
        db,
        scope=ANONYMOUS,
        key=idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s: (201, chronicles.join(s, invitation=body.invitation, name=body.name)),
    )


@router.get("/me", tags=["chronicles"], responses=ERRORS)
def me(db: Db, auth: Auth) -> dict:
    """Who this token is, in which chronicle."""
    member = auth.member()
    with db.read() as session:
        return chronicles.whoami(session, member)


@router.get("/chronicles/{chronicle_id}", response_model=dict, tags=["chronicles"], responses=ERRORS)
def get_chronicle(db: Db, auth: Auth, chronicle_id: Id) -> JSONResponse:
    """The chronicle, with the head of its log (``log_head``: seq and entry_hash)."""
    return _signed_read(
        db,
        auth,
        chronicle_id,
        lambda session, member: chronicles.chronicle_info(session, member, chronicle_id),
    )


@router.patch("/chronicles/{chronicle_id}", tags=["chronicles"], responses=ERRORS)
def update_chronicle(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: ChronicleUpdate,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: rename, switch mode or language, set the standing difficulty (null clears it)."""
    changes = _given(body)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json", exclude_unset=True),
        work=lambda s, member: (200, chronicles.update_chronicle(s, member, **changes)),
    )


@router.post("/chronicles/{chronicle_id}/invitation", status_code=201, tags=["chronicles"], responses=ERRORS)
def new_invitation(
    request: Request, db: Db, auth: Auth, chronicle_id: Id, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Storyteller: a new invitation code (the old one stops working)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (201, chronicles.new_invitation(s, member)),
    )


@router.get("/chronicles/{chronicle_id}/members", response_model=dict, tags=["chronicles"], responses=ERRORS)
def members(db: Db, auth: Auth, chronicle_id: Id) -> JSONResponse:
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: {"members": chronicles.list_members(session, member)}
    )


# --- tokens: sessions, keys, removal ----------------------------------------------------------


@router.post("/session", status_code=201, tags=["members"], responses=ERRORS)
def open_session(
    request: Request, db: Db, auth: Auth, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """A new session token for you (``expires_at`` null: until closed). Close it with ``DELETE
    /api/session``; rotating your key closes every session. 429 ``too_many_signins`` beyond the
    address's or the key's budget (``server/ratelimit.py``)."""
    spend_signin(request, request_token(request) or "")
    return _signed_write(
        request,
        db,
        auth,
        None,
        idempotency_key,
        body=None,
        work=lambda s, member: (201, {**member_cases.open_session(s, member), "member": member_view(member)}),
    )


@router.delete("/session", tags=["members"], responses=ERRORS)
def close_session(request: Request, db: Db, auth: Auth) -> dict:
    """Sign out: the session token of this request stops working (a key is rotated instead)."""
    auth.member()  # only a token that opens a member signs out
    token = request_token(request)
    return tx.run(db, lambda s: member_cases.close_session(s, token))


@router.post("/chronicles/{chronicle_id}/members/me/key", status_code=201, tags=["members"], responses=ERRORS)
def rotate_key(
    request: Request, db: Db, auth: Auth, chronicle_id: Id, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """A new key for you; your older key and every session of yours stop working."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (201, member_cases.rotate_key(s, member)),
    )


@router.delete("/chronicles/{chronicle_id}/members/{member_id}", tags=["members"], responses=ERRORS)
def remove_member(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    member_id: Id,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: remove a player. Their tokens stop working, their characters lose their owner,
    and the log records it (``member_removed``)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (200, member_cases.remove_member(s, member, member_id)),
    )


# --- characters -------------------------------------------------------------------------------


@router.get(
    "/chronicles/{chronicle_id}/characters",
    tags=["characters"],
    responses={**ERRORS, 200: json_response("CharacterList", "The characters.")},
)
def list_characters(db: Db, auth: Auth, chronicle_id: Id):
    """The Storyteller sees every character; a player sees their own."""
    return _signed_read(
        db,
        auth,
        chronicle_id,
        lambda session, member: {"characters": characters.list_characters(session, member)},
    )


@router.post(
    "/chronicles/{chronicle_id}/characters",
    status_code=201,
    tags=["characters"],
    responses={**ERRORS, 201: json_response("CharacterView", "The character, its sheet as stored.")},
)
def add_character(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: Annotated[CharacterCreate, Body(openapi_examples=CHARACTER_EXAMPLES)],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Add a character; the sheet is validated by the chronicle's rules."""
    fields = _given(body)
    fields.setdefault("sheet", {})
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json", exclude_unset=True),
        work=lambda s, member: (201, characters.add_character(s, member, **fields)),
    )


@router.get(
    "/chronicles/{chronicle_id}/characters/{character_id}",
    tags=["characters"],
    responses={**ERRORS, 200: json_response("CharacterView", "The character.")},
)
def get_character(db: Db, auth: Auth, chronicle_id: Id, character_id: Id):
    return _signed_read(
        db,
        auth,
        chronicle_id,
        lambda session, member: characters.get_character(session, member, character_id),
    )


@router.patch(
    "/chronicles/{chronicle_id}/characters/{character_id}",
    tags=["characters"],
    responses={**ERRORS, 200: json_response("CharacterView", "The character after the edit.")},
)
def edit_character(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    body: CharacterUpdate,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Edit a sheet (``patch``), rename; Storyteller: standing difficulty, owner. ``version`` guards
    against editing a sheet that moved meanwhile."""
    fields = _given(body)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json", exclude_unset=True),
        work=lambda s, member: (200, characters.edit_character(s, member, character_id, **fields)),
    )


@router.post(
    "/chronicles/{chronicle_id}/characters/{character_id}/rolls",
    status_code=201,
    tags=["rolls"],
    responses={
        **ERRORS,
        201: json_response("RollAnswer", "The roll: its entry and receipt."),
        202: json_response("AskAnswer", "An ask, waiting for the Storyteller (SPEC A-1)."),
    },
)
def roll(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    body: Annotated[RollRequest, Body(openapi_examples=ROLL_EXAMPLES)],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Roll for a character: the server builds the roll from the stored sheet and rolls the dice
    itself. Resources the roll spends are spent in the same transaction as the receipt is logged.
    A step of the combat chain names the entry it ``follows``: a soak takes the damage levels from the
    damage receipt and marks the defender's health (wound) track in its own transaction."""
    source = dice_source(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json") if idempotency_key is not None else None,
        work=lambda s, member: _roll_status(
            rolls.roll(
                s,
                member,
                character_id,
                body.action,
                hidden=body.hidden,
                ask=body.ask,
                source=source,
                follows=body.follows,
                target=body.target,
            )
        ),
    )


def _roll_status(result: dict) -> tuple[int, dict]:
    """201 with the roll, or 202 with the ask that waits for the Storyteller (SPEC A-1)."""
    return (202 if "ask" in result else 201), result


@router.post(
    "/chronicles/{chronicle_id}/characters/{character_id}/adjustments",
    status_code=201,
    tags=["characters"],
    responses={**ERRORS, 201: json_response("RollAnswer", "The change: its entry and receipt.")},
)
def adjust(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    body: Annotated[AdjustRequest, Body(openapi_examples=CHANGE_EXAMPLES)],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller restores, grants, awards experience; a player spends experience, reloads, …"""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (201, characters.adjust(s, member, character_id, body.change)),
    )


# --- the log ----------------------------------------------------------------------------------


@router.get(
    "/chronicles/{chronicle_id}/log",
    tags=["log"],
    responses={**ERRORS, 200: json_response("LogPage", "A page of the log.")},
)
def log_page(
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
):
    """Entries with seq > ``after``, oldest first; ``next`` is the ``after`` of the next page.
    A player sees a hidden entry redacted (its hashes only) until it is revealed."""
    return _signed_read(
        db,
        auth,
        chronicle_id,
        lambda session, member: log.log_page(session, member, after=after, limit=limit),
    )


@router.get("/chronicles/{chronicle_id}/log/export", tags=["log"], responses=ERRORS, response_class=Response)
def log_export(db: Db, auth: Auth, chronicle_id: Id) -> Response:
    """The whole log as JSON Lines, for ``rollbook log verify FILE``."""
    member = auth.member()
    _same_chronicle(member, chronicle_id)
    with db.read() as session:
        text = "".join(log.export_lines(session, member))
    return Response(
        text.encode("utf-8"),
        media_type="application/jsonl",
        headers={"Content-Disposition": f'attachment; filename="chronicle-{chronicle_id}.jsonl"'},
    )


@router.get(
    "/chronicles/{chronicle_id}/log/{seq}",
    tags=["log"],
    responses={
        **ERRORS,
        200: {"description": "The entry.", "content": {"application/json": {"schema": LOG_ENTRY}}},
    },
)
def log_entry(db: Db, auth: Auth, chronicle_id: Id, seq: Id):
    return _signed_read(db, auth, chronicle_id, lambda session, member: log.log_entry(session, member, seq))


@router.post(
    "/chronicles/{chronicle_id}/log/{seq}/rerolls",
    status_code=201,
    tags=["rolls"],
    responses={
        **ERRORS,
        201: json_response("RollAnswer", "The follow-up: the roll's receipt again, with it."),
    },
)
def reroll(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    seq: Id,
    body: Annotated[FollowupRequest, Body(openapi_examples=FOLLOWUP_EXAMPLES)],
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """A follow-up on a roll's latest receipt (V5 Willpower reroll); the server rolls the new dice."""
    source = dice_source(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (201, rolls.reroll(s, member, seq, body.action, source=source)),
    )


@router.post(
    "/chronicles/{chronicle_id}/log/{seq}/reveal",
    status_code=201,
    tags=["log"],
    responses={**ERRORS, 201: json_response("RevealAnswer", "The reveal and the entry revealed.")},
)
def reveal(
    request: Request, db: Db, auth: Auth, chronicle_id: Id, seq: Id, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Storyteller: reveal a hidden roll (a new public entry referencing it)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (201, log.reveal(s, member, seq)),
    )


@router.get(
    "/chronicles/{chronicle_id}/events", tags=["log"], responses=ERRORS, response_class=EventSourceResponse
)
async def events(
    request: Request,
    chronicle_id: Id,
    member: SignedMember,
    after: Annotated[int | None, Query(ge=0, le=2**31 - 1)] = None,
    idle_timeout: Annotated[
        float | None, Query(gt=0, le=3600, description="Close after this many idle seconds.")
    ] = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
) -> EventSourceResponse:
    """Server-sent events (``text/event-stream``): one ``entry`` event per log entry with seq >
    ``after`` (or > ``Last-Event-ID`` on reconnection), then each new entry as it is committed, by
    any app process. When the token stops opening the chronicle (signed out, key rotated, member
    removed, session expired) a last ``end`` event, ``{"reason": "revoked" | "removed" | "expired"}``,
    and the stream ends."""
    _same_chronicle(member, chronicle_id)
    start = after if after is not None else 0
    if after is None and last_event_id and last_event_id.strip().isdigit():
        start = int(last_event_id.strip())
    feed = entry_feed(
        request.app.state.hub,
        request.app.state.db,
        member,
        start,
        tokens=[request_token(request)],
        idle_timeout=idle_timeout,
    )
    return event_stream(json_events(feed))


# --- problem types ----------------------------------------------------------------------------

problems_router = APIRouter(generate_unique_id_function=operation_id)


@problems_router.get("/problems/{code}", tags=["server"], responses={404: PROBLEM})
def problem_type(code: Annotated[str, Path(max_length=100)], request: Request) -> dict:
    """What a problem ``type`` means: its code and sentence (in the reader's language)."""
    if not known_code(code):
        raise ProblemError(404, "not_found", path=request.url.path)
    return {"code": code, "message": detail(code, language(request), {})}
