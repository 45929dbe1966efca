"""Provably fair dice on the pages (SPEC F-2, F-5): a member sets their client seed; the Storyteller
reveals the seed in use and commits the next one. Both answer a 303 back to the chronicle's panel."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from rollbook.server.usecases import fairness
from rollbook.web.deps import Db, Posted, Signed, page_router
from rollbook.web.respond import see_other
from rollbook.web.routes.chronicle import chronicle_page

router = page_router()


@router.post("/chronicles/{chronicle_id}/client-seed")
def set_client_seed(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    signed.refused_into(
        "client-seed",
        lambda member, lang, errors: chronicle_page(request, db, member, lang, errors=errors, values=form),
    )
    value = str(form.get("client_seed", ""))
    signed.write(db, lambda s, member: fairness.set_client_seed(s, member, value))
    return see_other(f"/chronicles/{chronicle_id}#fair")


@router.post("/chronicles/{chronicle_id}/fair/rotate")
def rotate(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    signed.refused_into(
        "rotate-seed", lambda member, lang, errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    reveal_hidden = (
        str(form.get("reveal_hidden", "")) == "1"
    )  # F-7: the hidden rolls and their seed with them
    signed.write(db, lambda s, member: fairness.rotate(s, member, reveal_hidden=reveal_hidden))
    return see_other(f"/chronicles/{chronicle_id}#fair")


@router.post("/chronicles/{chronicle_id}/fair/abandon")
def abandon(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted) -> Response:
    """F-1: the seeds in use the server's secret no longer opens, given up (their rolls stay pending)."""
    signed.refused_into(
        "abandon-seed", lambda member, lang, errors: chronicle_page(request, db, member, lang, errors=errors)
    )
    signed.write(db, fairness.abandon)
    return see_other(f"/chronicles/{chronicle_id}#fair")
