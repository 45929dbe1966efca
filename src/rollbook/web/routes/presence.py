"""The "At the table" panel on its own: ``GET /chronicles/{id}/people?v=VERSION``,
polled by the chronicle page; 204 (nothing swapped) while what it shows is still ``VERSION``, else the
panel drawn again: a player who joined, who is online (``web.presence``)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.web import presence, table
from rollbook.web.deps import Db, Signed, page_router
from rollbook.web.respond import fragment

router = page_router()


@router.get("/chronicles/{chronicle_id}/people", response_class=HTMLResponse)
def people(request: Request, db: Db, signed: Signed, chronicle_id: int, v: str = "") -> Response:
    """Drawn from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        state = table.load(db, member, lang, feed=False, row=row)
        found = presence.people(db, member, state)
    if v and v == found.version:
        return Response(status_code=204)
    return fragment(
        request,
        "_people.html",
        lang,
        t=state,
        chronicle=state.chronicle,
        me=state.me,
        errors={},
        online=found.online,
        people_version=found.version,
        people_poll=found.poll,
    )
