"""The JSON API of the table's authority (SPEC A-1 … A-4): asks and grants, standing grants,
scenes and turns, multiple actions. Thin, like ``app/api.py`` (whose helpers it shares): parse,
authenticate, call a use case in a transaction, answer.

A player's roll that carries an edge is sent to ``POST …/characters/{id}/rolls`` with
``"ask": true`` and answered 202 with the ask; the Storyteller grants it
(``POST …/asks/{id}/grant``, 201 with the roll) or refuses it (``POST …/asks/{id}/refuse``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import ERRORS, Auth, Db, Id, IdempotencyKey, _signed_read, _signed_write
from rollbook.app.api_models import Strict
from rollbook.app.openapi import ActionJSON, EdgesJSON, operation_id
from rollbook.server.deps import dice_source
from rollbook.server.usecases import authority, grants, scenes
from rollbook.server.usecases.checks import NAME_MAX

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)


class GrantRequest(Strict):
    edges: EdgesJSON | None = Field(
        None,
        description="The edges granted, when they differ from those asked (e.g. fewer dice, another "
        "difficulty): exactly what applies. Omitted: granted as asked.",
    )


class RefuseRequest(Strict):
    reason: Annotated[str, Field(max_length=500)] = ""


class StandingRequest(Strict):
    edges: EdgesJSON = Field(
        description='What the Storyteller grants ahead, e.g. {"modifier": 1} or {"advantage": true}.'
    )
    character: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(
        None, description="The character it is for; omitted or null: every character."
    )
    scene: bool = Field(False, description="Until the open scene closes (else until ended).")


class SceneRequest(Strict):
    name: Annotated[str, Field(max_length=NAME_MAX)] = ""


class ActionsRequest(Strict):
    actions: Annotated[int, Field(ge=1, le=10)] = Field(description="How many actions this turn (A-4).")


class OffersRequest(Strict):
    action: ActionJSON = Field(description="The roll the offers are for, named by traits.")


# --- asks and grants (A-1, A-2) -----------------------------------------------------------------


@router.get("/chronicles/{chronicle_id}/asks", response_model=dict, tags=["authority"], responses=ERRORS)
def list_asks(
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    status: Annotated[Literal["pending"] | None, Query(description="pending: the queue")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> JSONResponse:
    """The asks, newest first (a player sees their own); ``status=pending``: what waits for the Storyteller."""
    return _signed_read(
        db,
        auth,
        chronicle_id,
        lambda session, member: {"asks": authority.list_asks(session, member, status=status, limit=limit)},
    )


@router.get(
    "/chronicles/{chronicle_id}/asks/{ask_id}", response_model=dict, tags=["authority"], responses=ERRORS
)
def get_ask(db: Db, auth: Auth, chronicle_id: Id, ask_id: Id) -> JSONResponse:
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: {"ask": authority.get_ask(session, member, ask_id)}
    )


@router.post(
    "/chronicles/{chronicle_id}/asks/{ask_id}/grant", status_code=201, tags=["authority"], responses=ERRORS
)
def grant(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    ask_id: Id,
    body: GrantRequest | None = None,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: grant an ask as asked, or changed (``edges``). The server makes the roll in the
    same transaction; the answer holds the ``grant`` entry and the roll's ``entry``."""
    body = body or GrantRequest()
    source = dice_source(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (201, grants.grant(s, member, ask_id, edges=body.edges, source=source)),
    )


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/refuse", tags=["authority"], responses=ERRORS)
def refuse(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    ask_id: Id,
    body: RefuseRequest | None = None,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: refuse an ask; nothing is rolled."""
    body = body or RefuseRequest()
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (200, grants.refuse(s, member, ask_id, reason=body.reason)),
    )


@router.post("/chronicles/{chronicle_id}/asks/{ask_id}/withdraw", tags=["authority"], responses=ERRORS)
def withdraw(
    request: Request, db: Db, auth: Auth, chronicle_id: Id, ask_id: Id, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """The player who asked takes back an ask that still waits."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (200, grants.withdraw(s, member, ask_id)),
    )


# --- standing grants (A-1) ----------------------------------------------------------------------


@router.get(
    "/chronicles/{chronicle_id}/standing-grants", response_model=dict, tags=["authority"], responses=ERRORS
)
def list_standing(db: Db, auth: Auth, chronicle_id: Id) -> JSONResponse:
    """The standing grants in force."""
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: {"standing": authority.list_standing(session, member)}
    )


@router.post(
    "/chronicles/{chronicle_id}/standing-grants", status_code=201, tags=["authority"], responses=ERRORS
)
def set_standing(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: StandingRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: grant edges ahead, for a character or everyone, until ended or for the scene."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (
            201,
            authority.set_standing(
                s, member, edges=body.edges, character_id=body.character, scene=body.scene
            ),
        ),
    )


@router.delete(
    "/chronicles/{chronicle_id}/standing-grants/{standing_id}", tags=["authority"], responses=ERRORS
)
def end_standing(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    standing_id: Id,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: end a standing grant (a log entry; the grant stays in the log)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (200, authority.end_standing(s, member, standing_id)),
    )


# --- scenes and turns (A-3) ---------------------------------------------------------------------


@router.get("/chronicles/{chronicle_id}/scene", response_model=dict, tags=["scenes"], responses=ERRORS)
def current_scene(db: Db, auth: Auth, chronicle_id: Id) -> JSONResponse:
    """The open scene and its turn (``null`` when no scene is open)."""
    return _signed_read(db, auth, chronicle_id, lambda session, member: scenes.current_scene(session, member))


@router.post("/chronicles/{chronicle_id}/scenes", status_code=201, tags=["scenes"], responses=ERRORS)
def open_scene(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: SceneRequest | None = None,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: open a scene (its turns start with ``POST …/scene/turns``)."""
    body = body or SceneRequest()
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (201, scenes.open_scene(s, member, name=body.name)),
    )


@router.post("/chronicles/{chronicle_id}/scene/turns", status_code=201, tags=["scenes"], responses=ERRORS)
def advance_turn(
    request: Request, db: Db, auth: Auth, chronicle_id: Id, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Storyteller: start the next turn of the open scene (the first call starts turn 1)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (201, scenes.advance_turn(s, member)),
    )


@router.post("/chronicles/{chronicle_id}/scene/close", tags=["scenes"], responses=ERRORS)
def close_scene(
    request: Request, db: Db, auth: Auth, chronicle_id: Id, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Storyteller: close the open scene; its scene-long standing grants end."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (200, scenes.close_scene(s, member)),
    )


# --- multiple actions (A-4) ---------------------------------------------------------------------


@router.post(
    "/chronicles/{chronicle_id}/characters/{character_id}/actions",
    status_code=201,
    tags=["scenes"],
    responses=ERRORS,
)
def declare_actions(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    body: ActionsRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: the character's number of actions in the running turn (A-4)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (201, scenes.declare_actions(s, member, character_id, body.actions)),
    )


@router.post(
    "/chronicles/{chronicle_id}/characters/{character_id}/offers",
    response_model=dict,
    tags=["scenes"],
    responses=ERRORS,
)
def offers(db: Db, auth: Auth, chronicle_id: Id, character_id: Id, body: OffersRequest) -> JSONResponse:
    """The multiple-action offers for a roll (V20-13): each action's raised difficulty and share of
    the split pool. Reads only: an offer is rolled when the Storyteller grants it as an ask."""
    return _signed_read(
        db,
        auth,
        chronicle_id,
        lambda session, member: authority.multiple_action_offers(session, member, character_id, body.action),
    )
