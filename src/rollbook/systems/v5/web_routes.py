"""V5 at the table on the pages: the Storyteller calls a character's compulsion (from a
messy critical's or bestial failure's card, one tap, or from the sheet's panel, choosing which and
until when) and ends it (seed 001, ``server.usecases.compulsions``); the hunger frenzy test a failed
Rouse at Hunger 5 offers, one tap on its card (V5-10). Each answers a 303 back to where
it was pressed; a refusal shows on that page's alert."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import Response

from rollbook.server.problems import ProblemError
from rollbook.server.usecases import compulsions, frenzy
from rollbook.web.deps import Db, Dice, PageAccess, Posted, Signed, page_router
from rollbook.web.live import step_taken
from rollbook.web.respond import see_other
from rollbook.web.routes.chronicle import chronicle_page
from rollbook.web.sheetpage import sheet_page

router = page_router()


def _back(request: Request, db, signed: PageAccess, chronicle_id: int, character_id: int, form: Any) -> str:
    """Where the answer goes: the sheet when pressed there, else the table; a refusal shows there."""
    on_sheet = str(form.get("back", "")) == "sheet"
    if on_sheet:
        signed.refused_into(
            "compulsion",
            lambda member, lang, errors: sheet_page(request, db, member, lang, character_id, errors=errors),
        )
        return f"/chronicles/{chronicle_id}/characters/{character_id}#compulsion"
    signed.refused_into(
        "compulsion", lambda member, lang, errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    return f"/chronicles/{chronicle_id}"


def _roll(request: Request, form: Any) -> int | None:
    text = str(form.get("roll") or request.query_params.get("roll") or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ProblemError(422, "not_an_integer", field="roll", value=text) from None


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/compulsion/call")
def call_compulsion(
    request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed, form: Posted
) -> Response:
    back = _back(request, db, signed, chronicle_id, character_id, form)
    chosen = str(form.get("compulsion") or "").strip() or None
    until = str(form.get("until") or "").strip() or None
    roll = _roll(request, form)
    result = signed.write(
        db,
        lambda s, member: compulsions.call(
            s, member, character_id, compulsion=chosen, until=until, roll=roll
        ),
        form,
    )
    return see_other(back if "#" in back else f"{back}#entry-{result['entry']['seq']}")


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/compulsion/end")
def end_compulsion(
    request: Request, chronicle_id: int, character_id: int, db: Db, signed: Signed, form: Posted
) -> Response:
    back = _back(request, db, signed, chronicle_id, character_id, form)
    result = signed.write(db, lambda s, member: compulsions.end(s, member, character_id), form)
    return see_other(back if "#" in back else f"{back}#entry-{result['entry']['seq']}")


@router.post("/chronicles/{chronicle_id}/characters/{character_id}/hunger-frenzy")
def call_hunger_frenzy(
    request: Request,
    chronicle_id: int,
    character_id: int,
    db: Db,
    signed: Signed,
    form: Posted,
    dice: Dice,
) -> Response:
    """V5-10: the Storyteller's one tap on a failed Rouse at Hunger 5: the hunger frenzy test it offered
    (with htmx: the test's card, and the Rouse's redrawn without the tap; a refusal on the Rouse's card)."""
    roll = _roll(request, form)
    signed.refused_into(
        f"step-{roll}" if roll is not None else "compulsion",
        lambda member, lang, errors: chronicle_page(request, db, member, lang, errors=errors),
    )
    if roll is None:
        raise ProblemError(422, "missing_field", field="roll")
    result = signed.write(
        db, lambda s, member: frenzy.hunger_frenzy(s, member, character_id, roll, source=dice), form
    )
    return step_taken(request, db, signed, chronicle_id, result["entry"])
