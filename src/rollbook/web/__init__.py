"""The web table: server-rendered pages for the Storyteller and players, served by ``rollbook serve``.

``mount(app)`` adds the pages (``rollbook.web.pages``) and the static files (``/static``: CSS, the
small ``table.js``, and htmx with its server-sent-events extension, vendored unchanged) to the
chronicle server's FastAPI app. The pages call the server's use cases (``rollbook.server.usecases``), in the same
transactions as the JSON API; the live feed is ``GET /chronicles/{id}/live`` (``text/event-stream``,
one rendered card per log entry). See ``docs/web.md``.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from rollbook.web.templating import STATIC

__all__ = ["mount"]


def mount(app: FastAPI) -> None:
    from rollbook.web.pages import router

    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
