"""The fair-dice panel's statistics: ``GET /chronicles/{id}/fair/stats``,
a fragment drawn when the panel's "Dice statistics" is opened (``web.fairstats``)."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook.web import fairstats
from rollbook.web.deps import Db, Signed, page_router
from rollbook.web.respond import fragment

router = page_router()


@router.get("/chronicles/{chronicle_id}/fair/stats", response_class=HTMLResponse)
def fair_stats(request: Request, db: Db, signed: Signed, chronicle_id: int) -> Response:
    """Drawn from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, _row = signed.read_in(db)
        found, counted = fairstats.groups(db, member, lang)
    return fragment(request, "_fair_stats.html", lang, groups=found, counted=counted)
