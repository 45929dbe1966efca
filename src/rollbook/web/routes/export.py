"""Export and print from the page: the chronicle's log as
JSON Lines, byte for byte what the API's ``GET /api/chronicles/{c}/log/export`` answers (the same use
case, ``usecases.log.export_lines``, as this member may see it), a character's printable sheet
(``sheet_print.html``) and a night's log by scene (``night.html``, ``web.night``); the print CSS is
``static/print.css``."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, Response

from rollbook.present import labels
from rollbook.present.sheetview import identity, rating_groups, specialties
from rollbook.server.usecases import log
from rollbook.web import night, table
from rollbook.web.deps import Db, Signed, page_router
from rollbook.web.respond import page
from rollbook.web.sheetpage import character_or_404

router = page_router()


@router.get("/chronicles/{chronicle_id}/log.jsonl")
def export_log(db: Db, signed: Signed, chronicle_id: int) -> Response:
    """The whole log as JSON Lines (for ``rollbook log verify`` and ``rollbook fair stats``), from one
    read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, _lang, _row = signed.read_in(db)
        with db.read() as session:
            text = "".join(log.export_lines(session, member))
    return Response(
        text.encode("utf-8"),
        media_type="application/jsonl",
        headers={"Content-Disposition": f'attachment; filename="chronicle-{chronicle_id}.jsonl"'},
    )


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/print", response_class=HTMLResponse)
def print_sheet(request: Request, db: Db, signed: Signed, chronicle_id: int, character_id: int) -> Response:
    """A character's sheet on one printable page: identity, resources, traits, specialties, notes;
    from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
    character = character_or_404(state, character_id)
    system = state.chronicle["system"]
    sheet = character.sheet or {}
    return page(
        request,
        "sheet_print.html",
        lang,
        t=state,
        me=state.me,
        character=character,
        sheet=sheet,
        system=system,
        system_name=labels.system_name(system, lang),
        identity=identity(sheet, lang),
        groups=rating_groups(system, sheet, lang),
        specialties=specialties(sheet, lang),
    )


@router.get("/chronicles/{chronicle_id}/night", response_class=HTMLResponse)
def night_log(
    request: Request,
    db: Db,
    signed: Signed,
    chronicle_id: int,
    first: Annotated[int | None, Query(alias="from", ge=1, le=2**31 - 1)] = None,
) -> Response:
    """A night's log by scene, to read and print (``from``: the seq of the night's first entry; the
    last night without it): one line per entry, no button, the other nights linked. From one read
    that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, _row = signed.read_in(db)
        found = night.read(db, member, lang, first)
    return page(
        request,
        "night.html",
        lang,
        t=found,
        chronicle=found.chronicle,
        me=member,
        system_name=labels.system_name(found.chronicle["system"], lang),
    )
