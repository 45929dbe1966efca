"""A failure the server meets is answered, never dropped: an ASGI middleware (``Answered``).

An exception no handler turned into a response (the store down, the disk full, the operator's
secret not opening a seed, a bug) is answered here with a problem (``application/problem+json``),
on a connection that stays open: Starlette's own last resort (``ServerErrorMiddleware``) answers
and then raises the exception again, so uvicorn logged a second traceback and closed the socket.

- the store cannot be reached or refused the work (``OperationalError``, ``InterfaceError``, a
  connection SQLAlchemy invalidated): 503 ``database_unavailable``, ``Retry-After``;
- the store's disk is full (SQLite's "database or disk is full", PostgreSQL's SQLSTATE 53100, an
  ``OSError`` ENOSPC): 507 ``storage_full``, ``Retry-After``;
- the operator's secret does not open a chronicle's server seed: 503 ``secret_does_not_open``;
- anything else: 500 ``internal_error``.

Each failed request is one log line (method, path, code, the cause's first line); the traceback
comes with the first request a cause fails in each ``TRACEBACK_WINDOW_SECONDS`` (an outage of a
few seconds under load was hundreds of thousands of lines).
"""

from __future__ import annotations

import errno
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from rollbook.server.problems import PROBLEM_MEDIA_TYPE, pick_language, problem_body
from rollbook.server.seal import SecretKeyError

log = logging.getLogger("rollbook.server")

TRACEBACK_WINDOW_SECONDS = 60.0
RETRY_AFTER_SECONDS = 5
DISK_FULL_SQLSTATE = "53100"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and the errors it was raised from (``__cause__``, ``__context__``), first to last."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def storage_full(error: BaseException) -> bool:
    """Whether ``error`` (or what it was raised from) says the store's disk is full."""
    for link in _chain(error):
        if isinstance(link, OSError) and link.errno == errno.ENOSPC:
            return True
        orig = getattr(link, "orig", link)
        if getattr(orig, "sqlstate", None) == DISK_FULL_SQLSTATE:
            return True
        if "database or disk is full" in str(orig) or "No space left on device" in str(orig):
            return True
    return False


def database_unavailable(error: BaseException) -> bool:
    """Whether ``error`` (or what it was raised from) says the store cannot do the work now."""
    for link in _chain(error):
        if isinstance(link, (OperationalError, InterfaceError)):
            return True
        if isinstance(link, DBAPIError) and link.connection_invalidated:
            return True
    return False


def classify(error: BaseException) -> tuple[int, str]:
    """The status and code a failure is answered with."""
    if storage_full(error):
        return 507, "storage_full"
    if any(isinstance(link, SecretKeyError) for link in _chain(error)):
        return 503, "secret_does_not_open"
    if database_unavailable(error):
        return 503, "database_unavailable"
    return 500, "internal_error"


def first_line(error: BaseException) -> str:
    orig = getattr(error, "orig", None) or error
    text = str(orig).strip().splitlines()
    return f"{type(orig).__name__}: {text[0][:200]}" if text else type(orig).__name__


class _TracebackWindow:
    """Which causes had their traceback logged within the last window (thread-safe)."""

    def __init__(self, seconds: float = TRACEBACK_WINDOW_SECONDS) -> None:
        self.seconds = seconds
        self._last: dict[str, float] = {}
        self._lock = threading.Lock()

    def due(self, cause: str) -> bool:
        moment = time.monotonic()
        with self._lock:
            last = self._last.get(cause)
            if last is not None and moment - last < self.seconds:
                return False
            self._last[cause] = moment
            if len(self._last) > 256:  # many causes: forget the oldest
                del self._last[min(self._last, key=self._last.__getitem__)]
            return True


tracebacks = _TracebackWindow()


def report(method: str, path: str, code: str, error: BaseException) -> None:
    """One log line for a failed request; its traceback once per cause and window."""
    cause = f"{code}:{first_line(error)[:80]}"
    log.error(
        "rollbook: %s %s failed: %s (%s)",
        method,
        path,
        code,
        first_line(error),
        exc_info=error if tracebacks.due(cause) else None,
    )


def _language(scope: Scope) -> str:
    query = scope.get("query_string", b"").decode("latin-1")
    lang = None
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if name == "lang" and value:
            lang = value
    accept = None
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            accept = value.decode("latin-1")
    return pick_language(lang, accept)


class Answered:
    """ASGI middleware: see the module's docstring. The outermost of the app's own middleware."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def noting_start(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, noting_start)
        except Exception as error:
            status, code = classify(error)
            report(scope.get("method", ""), scope.get("path", ""), code, error)
            if started:  # part of the answer went out (a live feed): nothing else can be said
                return
            body = problem_body(status, code, _language(scope), instance=scope.get("path"))
            headers = [(b"content-type", PROBLEM_MEDIA_TYPE.encode("ascii"))]
            if status in (503, 507):
                headers.append((b"retry-after", str(RETRY_AFTER_SECONDS).encode("ascii")))
            payload = json.dumps(body).encode("utf-8")
            headers.append((b"content-length", str(len(payload)).encode("ascii")))
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": payload})
