"""The JSON API of V5 at the table: compulsions (seed 001, V5-14) called and ended by the
Storyteller, and the hunger frenzy test a failed Rouse at Hunger 5 offers (V5-10). Thin, like ``app/api.py`` (whose helpers it shares): parse, authenticate, call a use
case in a transaction, answer."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import ERRORS, Auth, Db, Id, IdempotencyKey, _signed_read, _signed_write
from rollbook.app.api_models import Strict
from rollbook.app.openapi import operation_id
from rollbook.server.deps import dice_source
from rollbook.server.usecases import compulsions, frenzy
from rollbook.systems.v5.compulsions import COMPULSIONS

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)

CompulsionId = Annotated[
    str,
    Field(
        max_length=64,
        description="A compulsion's id (default: the clan's).",
        json_schema_extra={"enum": sorted(COMPULSIONS)},
    ),
]


class CompulsionRequest(Strict):
    compulsion: CompulsionId | None = None
    until: Literal["scene", "ended"] | None = Field(
        None, description="Until the end of the open scene (the default when one is open) or until ended."
    )
    roll: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(
        None, description="The messy critical or bestial failure of this character it follows (its seq)."
    )


@router.get(
    "/chronicles/{chronicle_id}/characters/{character_id}/compulsion",
    response_model=dict,
    tags=["v5"],
    responses=ERRORS,
)
def get_compulsion(db: Db, auth: Auth, chronicle_id: Id, character_id: Id) -> JSONResponse:
    """The compulsion in force for a character (null when none): every member of the table sees it."""
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: compulsions.current(session, member, character_id)
    )


@router.post(
    "/chronicles/{chronicle_id}/characters/{character_id}/compulsion",
    status_code=201,
    tags=["v5"],
    responses=ERRORS,
)
def call_compulsion(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    body: CompulsionRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: call a compulsion for a V5 character (a ``compulsion`` entry of the log); until it
    ends, each test of the character carries its penalty in the pool."""
    data = body.model_dump(mode="json")
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=data,
        work=lambda s, member: (
            201,
            compulsions.call(
                s, member, character_id, compulsion=data["compulsion"], until=data["until"], roll=data["roll"]
            ),
        ),
    )


@router.delete(
    "/chronicles/{chronicle_id}/characters/{character_id}/compulsion",
    response_model=dict,
    tags=["v5"],
    responses=ERRORS,
)
def end_compulsion(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: end the compulsion in force for a character (a ``compulsion_end`` entry)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (200, compulsions.end(s, member, character_id)),
    )


class FrenzyRequest(Strict):
    roll: Annotated[int, Field(ge=1, le=2**31 - 1)] = Field(
        description="The failed Rouse at Hunger 5 whose receipt offers the test (its seq)."
    )


@router.post(
    "/chronicles/{chronicle_id}/characters/{character_id}/hunger-frenzy",
    status_code=201,
    tags=["v5"],
    responses=ERRORS,
)
def call_hunger_frenzy(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    body: FrenzyRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: the hunger frenzy test a failed Rouse at Hunger 5 offered (V5-10): the character's
    frenzy roll at the offered difficulty, logged as a roll referring to the Rouse."""
    source = dice_source(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (201, frenzy.hunger_frenzy(s, member, character_id, body.roll, source=source)),
    )
