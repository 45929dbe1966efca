"""The JSON API of the solo chronicle (SPEC S-1 … S-5): the scenarios, a new solo chronicle,
its state in the reader's language, the player's choice. Thin, like ``app/api.py`` (whose helpers it
shares); the use cases are ``server.usecases.solo``'s."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import (
    ANONYMOUS,
    ERRORS,
    PROBLEM,
    Auth,
    Db,
    Id,
    IdempotencyKey,
    _mutate,
    _signed_read,
    _signed_write,
)
from rollbook.app.api_models import Name, Strict
from rollbook.app.openapi import NewSheetJSON, operation_id
from rollbook.i18n import LanguageCode
from rollbook.server.deps import dice_source, language
from rollbook.server.usecases import solo

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)

Lang = Annotated[
    LanguageCode | None,
    Query(description="The language of the texts (default: Accept-Language)."),
]


class SoloStart(Strict):
    scenario: Annotated[
        str, Field(min_length=1, max_length=60, description="A scenario's id (GET /api/solo/scenarios).")
    ]
    language: LanguageCode = "en"
    player: Name = Field("Player", description="The player's name at the table.")
    sheet: NewSheetJSON | None = Field(
        None, description="The player's own V20 sheet; left out: the scenario's pregenerated character."
    )
    client_seed: Annotated[str, Field(max_length=64)] | None = Field(
        None, description="F-2: the client seed the scenario's rolls draw under."
    )


class SoloAct(Strict):
    option: Annotated[
        str, Field(min_length=1, max_length=120, description="The id of one of the state's choices.")
    ]
    passage: Annotated[str, Field(min_length=1, max_length=60)] | None = Field(
        None,
        description="The passage the choice was shown at (the state's passage.id): "
        "409 solo_passage_moved when the story has moved on since.",
    )


@router.get("/solo/scenarios", tags=["solo"])
def scenarios(request: Request, lang: Lang = None) -> dict:
    """The scenarios that ship with rollbook (each checked, S-4): id, title, summary, languages, the
    pregenerated character's sheet."""
    return {"scenarios": solo.scenario_list(lang or language(request))}


@router.post(
    "/solo",
    status_code=201,
    tags=["solo"],
    responses={
        404: PROBLEM,
        422: PROBLEM,
        201: {"description": "The chronicle, the player's token (shown once) and the first state."},
    },
)
def start(request: Request, db: Db, body: SoloStart, idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Begin a solo chronicle: the scenario is its Storyteller; you are its one player. Your own sheet
    is validated as any sheet; left out, you play the scenario's pregenerated character."""
    source = dice_source(request)
    return _mutate(
        request,
        db,
        scope=ANONYMOUS,
        key=idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s: (201, solo.start(s, **body.model_dump(), source=source)),
    )


@router.get("/chronicles/{chronicle_id}/solo", tags=["solo"], responses=ERRORS)
def get_state(request: Request, db: Db, auth: Auth, chronicle_id: Id, lang: Lang = None) -> JSONResponse:
    """Where the story is (S-5: replayed from the log): the passage, the choices (with the odds of each
    roll), the health track, blood and Willpower, the NPCs of a fight, the receipts since your last choice."""
    chosen = lang or language(request)
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: solo.state(session, member, chosen, chronicle_id)
    )


@router.post("/chronicles/{chronicle_id}/solo/act", tags=["solo"], responses=ERRORS)
def act(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: SoloAct,
    lang: Lang = None,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Make one of the choices offered: the engine rolls what follows (checks, the fight's attacks, damage
    and soak: S-2, S-3), each an ordinary receipt of the log; answers the new state."""
    source = dice_source(request)
    chosen = lang or language(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (
            200,
            solo.act(
                s,
                member,
                body.option,
                lang=chosen,
                chronicle_id=chronicle_id,
                source=source,
                passage=body.passage,
            ),
        ),
    )
