"""The web table: server-rendered pages for the Storyteller and players, served by ``rollbook serve``.

``mount(app)`` adds the pages (``rollbook.web.routes``: home, chronicle, characters, rolls, exchange, authority,
fair, solo: playing alone), the
live feed (``rollbook.web.live``), the HTML refusal handlers (``rollbook.web.errors``) and the
static files (``/static``: CSS, the small ``table.js``, and htmx with its server-sent-events
extension, vendored unchanged) to the chronicle server's FastAPI app. The pages call the server's
use cases (``rollbook.server.usecases``), in the same transactions as the JSON API; the live feed is
``GET /chronicles/{id}/live`` (``text/event-stream``, one rendered card per log entry). See
``docs/web.md``.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles

from rollbook.play.systems import SYSTEM_IDS, own_module
from rollbook.web import live
from rollbook.web.errors import install_page_handlers
from rollbook.web.guard import OriginGuard
from rollbook.web.routes import (  # presence, saved rolls, dice statistics
    authority,
    characters,
    chronicle,
    contests,
    exchange,
    export,
    fair,
    home,
    interop,
    presence,
    rolls,
    saved,
    solo,  # playing alone
    stats,
)
from rollbook.web.templating import STATIC

__all__ = ["mount", "page_routers"]


def page_routers() -> tuple[APIRouter, ...]:
    """The pages' routers, in the order ``mount`` includes them (a test draws every GET page of them); a
    shipped system's own pages are its package's ``web_routes`` (``rollbook.systems.<id>.web_routes``:
    V5's compulsions and frenzy), found by name."""
    system_routes = [module for system in SYSTEM_IDS if (module := own_module(system, "web_routes"))]
    return tuple(
        area.router
        for area in (
            home,
            chronicle,
            characters,
            rolls,
            exchange,
            authority,
            fair,
            interop,
            contests,
            export,
            *system_routes,
            stats,
            saved,
            presence,
            solo,
            live,
        )
    )


def mount(app: FastAPI) -> None:
    for router in page_routers():
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    install_page_handlers(app)
    app.add_middleware(OriginGuard)  # cross-site forms refused (rollbook.web.guard)
