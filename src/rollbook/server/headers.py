"""The security headers of every response (an ASGI middleware, outermost in ``create_app``).

- ``Content-Security-Policy``: scripts, styles, images, connections and forms from this origin
  only; no inline script, no style attribute, no ``eval`` (htmx's eval is off: ``allowEval`` and
  ``includeIndicatorStyles`` are false in ``base.html``'s ``htmx-config``; a bar's length is a class,
  ``table.css``'s ``w0``–``w100``); ``frame-ancestors 'none'``: no page is framed by another site.
  FastAPI's own ``/docs`` and ``/redoc`` pages load Swagger UI and ReDoc from jsDelivr with an inline
  script: they alone get ``DOCS_POLICY``, which allows exactly that.
- ``X-Frame-Options: DENY`` (``frame-ancestors`` for older browsers), ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: same-origin`` (a link followed away carries no page address: a
  chronicle's URL names its id), ``Cross-Origin-Opener-Policy: same-origin``.

A header the route set itself is kept (none does today).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]

POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
DOCS_PATHS = ("/docs", "/redoc")
DOCS_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'",
        "style-src 'self' https://cdn.jsdelivr.net https://fonts.googleapis.com 'unsafe-inline'",
        "font-src https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "connect-src 'self'",
        "worker-src blob:",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def policy_for(path: str) -> str:
    return DOCS_POLICY if path in DOCS_PATHS or path.startswith("/docs/") else POLICY


class SecurityHeaders:
    """Adds ``policy_for(path)`` and ``HEADERS`` to every HTTP response that lacks them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = (
            (b"content-security-policy", policy_for(str(scope.get("path", ""))).encode("ascii")),
            *HEADERS,
        )

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _value in headers}
                headers.extend((name, value) for name, value in added if name not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)
