"""A read whose database connection had ended is read again: an ASGI middleware.

PostgreSQL's pool pings a connection before use only when it sat idle ``engines.PING_IDLE_AFTER``
(``engines._ping_when_idle``), so a connection the server ended less than that before (a restart, a
terminated backend; on SQLite, a closed connection) is met by the request's first statement. A
write is run again by ``tx.run`` (``tx.ConnectionLost``). A read cannot be run again from inside
its ``with db.read()`` block, so the request is: a ``GET`` or ``HEAD`` that fails with a database
error saying the connection was invalidated, before any of its answer was sent, is answered by
running it once more (the pool has replaced the ended connections by then). A read changes
nothing, so running it twice is the same as once. Any other error, a second loss, or a loss after
the answer began (a live feed's stream) is raised as before (500).
"""

from __future__ import annotations

import logging

from rollbook.server.hygiene import replaying
from rollbook.server.tx import lost_connection

log = logging.getLogger("rollbook.server")

READ_METHODS = frozenset({"GET", "HEAD"})


class ReadAgain:
    """ASGI middleware: see the module's docstring."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope["method"] not in READ_METHODS:
            await self.app(scope, receive, send)
            return
        started = False

        async def noting_start(message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, noting_start)
        except Exception as error:
            if started or not lost_connection(error):
                raise
            log.warning(
                "rollbook: %s %s met an ended database connection: read again",
                scope["method"],
                scope.get("path"),
            )
            await self.app(scope, replaying(b"", receive), send)  # a read's body is empty
