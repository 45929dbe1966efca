"""The JSON API of sheet import and export: another tool's file as a new character of the
chronicle, a character as another tool's file. Thin, like ``app/api.py`` (whose helpers it
shares); the writes are ``api._signed_write``'s, as the character-creation route's."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import ERRORS, Auth, Db, Id, IdempotencyKey, _given, _signed_write
from rollbook.app.api_models import Name, Strict
from rollbook.app.openapi import operation_id
from rollbook.interop import FORMATS, MAX_DEPTH, ImportRefused
from rollbook.render import interop as render_interop
from rollbook.rules.base import RuleError
from rollbook.server.deps import language
from rollbook.server.hygiene import DepthBound
from rollbook.server.usecases import interop

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)

Format = Literal[FORMATS]  # type: ignore[valid-type]  # a Literal built from the registered formats at import

# The file is one level inside the body ({"source": file}): the server's InputGuard lets the body nest
# that much more than the file's own bound and refuses a deeper one as the page and the CLI refuse the
# file, import_too_deep at interop.MAX_DEPTH (server/hygiene.py).
IMPORT_BODY = DepthBound(
    re.compile(r"/api/chronicles/[^/]+/characters/import"), most=MAX_DEPTH, envelope=1, code="import_too_deep"
)


class ImportRequest(Strict):
    source: Any = Field(
        description="The file's JSON as it is: a Progeny character, a WoD5e or Foundry WoD20 actor, "
        "or the V5 Discord bot's character body."
    )
    format: Format | None = Field(None, description="progeny, wod5e, v5bot or wod20; left out: detected.")
    system: Literal["v5", "v20"] | None = Field(
        None, description="Refuse unless the chronicle plays this system."
    )
    name: Name | None = Field(None, description="The character's name, instead of the file's.")
    owner: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = Field(
        None, description="Storyteller only: the member who plays it (omitted or null: an NPC)."
    )
    pick: Annotated[int, Field(ge=0, le=2**31 - 1)] | None = Field(
        None,
        description="A file holding several characters (the V5 Discord bot's guild export): which one, "
        "from 0 (left out: refused as import_pick_character, naming them).",
    )


@router.post(
    "/chronicles/{chronicle_id}/characters/import",
    status_code=201,
    tags=["characters"],
    responses={
        **ERRORS,
        201: {
            "description": "The new character, its rollbook sheet and the import's report "
            "(mapped, homebrew, dropped: each at its JSON path; homebrew: a trait kept under its name, or a "
            "text the sheet has no field for kept in its notes, target ``notes``, its label as name)."
        },
    },
)
def import_character(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: ImportRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """A new character from another tool's file: answers the character, the rollbook sheet and the report
    (each source field mapped, kept as homebrew, or dropped and why). A file with problems is refused
    (422 ``import_refused``, every problem at its JSON path with its code, params and message) and
    nothing is written. Names the file
    gives as translation keys (WoD20's clans) are read in the reader's language (``?lang=``, then
    ``Accept-Language``)."""
    lang = language(request)
    fields = _given(body) | {"lang": lang}

    def work(s, member) -> tuple[int, Any]:
        try:
            return 201, interop.import_character(s, member, **fields)
        except ImportRefused as refused:  # each problem in words too, as the page and the CLI say it
            problems = [
                {**entry, "message": render_interop.problem(entry, lang)}
                for entry in refused.params["problems"]
            ]
            raise RuleError(refused.code, **{**refused.params, "problems": problems}) from None

    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json", exclude_unset=True),
        work=work,
    )


@router.get(
    "/chronicles/{chronicle_id}/characters/{character_id}/export",
    tags=["characters"],
    responses={**ERRORS, 200: {"description": "The actor JSON (an attachment), to import in Foundry VTT."}},
)
def export_character(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    character_id: Id,
    format: Annotated[Literal["wod5e", "wod20"] | None, Query()] = None,
) -> JSONResponse:
    """The character as a WoD5e actor (V5) or a Foundry WoD20 actor (V20), to import in Foundry; logged.
    ``format`` left out: the chronicle's (wod5e for V5, wod20 for V20)."""
    answer = _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        None,
        body=None,
        work=lambda s, member: (200, interop.export_character(s, member, character_id, format)),
    )
    answer.headers["Content-Disposition"] = f'attachment; filename="character-{character_id}.json"'
    return answer
