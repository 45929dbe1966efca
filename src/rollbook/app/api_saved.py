"""The JSON API of saved rolls: a member's named rolls of their characters,
listed, saved, deleted and repeated (``usecases.saved_rolls``). Member-scoped: a member only ever sees
and touches their own. Thin, like ``app/api.py`` (whose helpers it shares)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import (
    ERRORS,
    Auth,
    Db,
    Id,
    IdempotencyKey,
    _roll_status,
    _signed_read,
    _signed_write,
)
from rollbook.app.api_models import Strict
from rollbook.app.openapi import ActionJSON, operation_id
from rollbook.server.deps import dice_source
from rollbook.server.usecases import saved_rolls

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)


class SavedRollRequest(Strict):
    character: Annotated[int, Field(ge=1, le=2**31 - 1, description="The character the roll is for.")]
    name: Annotated[
        str,
        Field(
            min_length=1,
            max_length=saved_rolls.NAME_MAX,
            description='What the member calls it: "Shoot with the Glock", "Rouse".',
        ),
    ]
    action: ActionJSON = Field(
        description="The roll, named by traits (never faces), as a roll's `action`: it is "
        "validated now, and each repeat is an ordinary roll (an edge is asked)."
    )
    hidden: bool = Field(False, description="A hidden roll (a player's repeat asks for it, A-1).")


@router.get(
    "/chronicles/{chronicle_id}/saved-rolls", response_model=list, tags=["saved rolls"], responses=ERRORS
)
def list_saved_rolls(
    db: Db, auth: Auth, chronicle_id: Id, character: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None
) -> JSONResponse:
    """Your saved rolls (of one ``character``, or all), of characters still at the table and yours to roll."""
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: saved_rolls.list_saved(session, member, character)
    )


@router.post(
    "/chronicles/{chronicle_id}/saved-rolls", status_code=201, tags=["saved rolls"], responses=ERRORS
)
def save_roll(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: SavedRollRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Save a named roll of one of your characters (every refusal the roll would meet is made now)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (
            201,
            saved_rolls.save(s, member, body.character, body.name, body.action, hidden=body.hidden),
        ),
    )


@router.delete("/chronicles/{chronicle_id}/saved-rolls/{saved_id}", tags=["saved rolls"], responses=ERRORS)
def delete_saved_roll(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    saved_id: Id,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Forget one of your saved rolls."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (200, saved_rolls.delete_saved(s, member, saved_id)),
    )


@router.post(
    "/chronicles/{chronicle_id}/saved-rolls/{saved_id}/rolls",
    status_code=201,
    tags=["saved rolls"],
    responses=ERRORS,
)
def repeat_saved_roll(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    saved_id: Id,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Roll a saved roll again: an ordinary roll (201), or an ask that waits for the Storyteller (202)."""
    source = dice_source(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: _roll_status(saved_rolls.repeat(s, member, saved_id, source=source)),
    )
