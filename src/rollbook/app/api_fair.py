"""The JSON API of provably fair dice (SPEC F-1 … F-6): the chronicle's fairness state, a member's
client seed, the Storyteller's rotation. Thin, like ``app/api.py`` (whose helpers it shares).

The seed in use is never in an answer: only its commitment; a seed appears once it is revealed.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import ERRORS, Auth, Db, Id, IdempotencyKey, _signed_read, _signed_write
from rollbook.app.api_models import Strict
from rollbook.app.openapi import operation_id
from rollbook.server.usecases import fairness

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)


class ClientSeedRequest(Strict):
    client_seed: Annotated[
        str, Field(max_length=64, description='Any text of at most 64 characters (F-2); "" is the default.')
    ]


@router.get("/chronicles/{chronicle_id}/fair", response_model=dict, tags=["fair"], responses=ERRORS)
def fair_state(db: Db, auth: Auth, chronicle_id: Id) -> JSONResponse:
    """The algorithm, the commitment of the seed in use (never the seed), how many rolls it served,
    your client seed, and every revealed seed (with its entry): what ``rollbook log verify`` and
    the page's verify button need besides the log."""
    return _signed_read(db, auth, chronicle_id, lambda session, member: fairness.fair_state(session, member))


@router.put("/chronicles/{chronicle_id}/members/me/client-seed", tags=["fair"], responses=ERRORS)
def set_client_seed(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: ClientSeedRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Set your client seed (F-2): a log entry; your later rolls and follow-ups use it."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (200, fairness.set_client_seed(s, member, body.client_seed)),
    )


@router.post("/chronicles/{chronicle_id}/fair/rotate", status_code=201, tags=["fair"], responses=ERRORS)
def rotate(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    reveal_hidden: Annotated[
        bool,
        Query(
            description=(
                "F-7: also reveal every hidden roll made under the hidden seed in use, and that seed, in "
                "this transaction (without it the hidden seed is revealed only once all its rolls are)."
            )
        ),
    ] = False,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: reveal the public seed in use and commit the next one, in one transaction (F-5);
    the hidden seed too when all its rolls are revealed, or with ``reveal_hidden`` (F-7). The
    revealed seeds are under ``revealed`` and ``hidden_revealed``, each with ``rolls`` and
    ``last_nonce`` (F-8)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body={"reveal_hidden": True} if reveal_hidden else None,
        work=lambda s, member: (201, fairness.rotate(s, member, reveal_hidden=reveal_hidden)),
    )


@router.post("/chronicles/{chronicle_id}/fair/abandon", status_code=201, tags=["fair"], responses=ERRORS)
def abandon(
    request: Request, db: Db, auth: Auth, chronicle_id: Id, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Storyteller: give up the seeds in use that the operator's secret no longer opens (a lost or
    replaced key file): a ``seed_abandon`` entry each, whose rolls stay pending for good, and a new
    public seed committed (F-1). ``abandoned`` lists them; 409 ``seed_readable`` when the secret opens
    every seed in use (reveal them with ``…/fair/rotate`` instead)."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (201, fairness.abandon(s, member)),
    )
