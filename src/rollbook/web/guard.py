"""Cross-site request forgery guard and the cookie's ``Secure`` flag.

The web pages authenticate by the ``rollbook_token`` cookie (``SameSite=Lax``), and so may the JSON
API. ``OriginGuard`` (an ASGI middleware, registered by ``rollbook.web.mount``) refuses an unsafe
request (POST, PUT, PATCH, DELETE) that carries no bearer token and comes from another site,
whichever path it targets:

- ``Sec-Fetch-Site: cross-site`` or ``same-site`` (a sibling host): refused;
- else an ``Origin`` header (``null`` included) that is not this server's own origin: refused;
- else a ``Referer`` whose origin is not this server's: refused;
- no such header at all: not a browser's cross-site request (browsers send ``Origin`` with every
  cross-origin POST), let through.

The refusal is ``403 origin_refused``, ``application/problem+json``. A request with a bearer token
(``Authorization: Bearer TOKEN``, a token present) is never a forgery (a page cannot make a browser add
one). Any other ``Authorization`` header (``Basic …``, a bare ``Bearer``) is no bearer token: the request
is checked like any other. A request is authenticated by exactly one means
(``rollbook.server.deps.request_token``): its bearer token when it has an ``Authorization`` header,
never the cookie behind a header that holds none, so a cookie-borne request always passed this check.

This server's origin is the request's scheme and ``Host``; behind a reverse proxy that terminates
TLS, ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` are honoured only when ``ROLLBOOK_TRUST_PROXY``
is ``1`` (a client could send them otherwise). ``cookie_secure(request)`` says whether cookies must
be ``Secure``: when the page was served over HTTPS.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

from rollbook import settings
from rollbook.server.auth import token_from_headers
from rollbook.server.problems import PROBLEM_MEDIA_TYPE, pick_language, problem_body

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": "80", "https": "443"}


def trust_proxy() -> bool:
    return settings.current().trust_proxy


def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _first(value: str) -> str:
    return value.split(",")[0].strip()


def scheme_of(scope, headers: dict[str, str] | None = None) -> str:
    """``https`` or ``http``: the scheme the client used (the proxy's word only when trusted)."""
    headers = headers if headers is not None else _headers(scope)
    if trust_proxy() and headers.get("x-forwarded-proto"):
        return _first(headers["x-forwarded-proto"]).lower()
    return str(scope.get("scheme", "http")).lower()


def origin_of(scope, headers: dict[str, str] | None = None) -> str:
    """This server's origin as the client sees it: ``scheme://host[:port]``, default port dropped."""
    headers = headers if headers is not None else _headers(scope)
    scheme = scheme_of(scope, headers)
    host = (
        _first(headers["x-forwarded-host"])
        if trust_proxy() and headers.get("x-forwarded-host")
        else headers.get("host", "")
    )
    if not host and scope.get("server"):
        name, port = scope["server"]
        host = f"{name}:{port}"
    return _normal(f"{scheme}://{host}")


def _normal(origin: str) -> str:
    parts = urlsplit(origin.strip())
    if not parts.scheme or not parts.hostname:
        return "null"
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        return "null"
    port_text = str(port) if port is not None else DEFAULT_PORTS.get(parts.scheme.lower(), "")
    suffix = "" if port_text == DEFAULT_PORTS.get(parts.scheme.lower()) or not port_text else f":{port_text}"
    return f"{parts.scheme.lower()}://{host}{suffix}"


def cookie_secure(request) -> bool:
    """Whether a cookie set in answer to this request must be ``Secure`` (it was served over HTTPS)."""
    return scheme_of(request.scope) == "https"


def has_bearer(authorization: str | None) -> bool:
    """Whether the header holds a bearer token (``Bearer`` and a token), the one thing a page cannot
    make a browser send; ``Basic …`` or a bare ``Bearer`` is not one."""
    return bool(authorization) and token_from_headers(authorization, None) is not None


def cross_site(scope, headers: dict[str, str] | None = None) -> bool:
    """An unsafe request without a bearer token that a browser sent from another site."""
    headers = headers if headers is not None else _headers(scope)
    if scope.get("method", "GET").upper() not in UNSAFE or has_bearer(headers.get("authorization")):
        return False
    fetch_site = headers.get("sec-fetch-site", "").strip().lower()
    if fetch_site in ("cross-site", "same-site"):
        return True
    own = origin_of(scope, headers)
    if "origin" in headers:
        return _normal(headers["origin"]) != own
    if headers.get("referer"):
        return _normal(headers["referer"]) != own
    return False


class OriginGuard:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            headers = _headers(scope)
            if cross_site(scope, headers):
                await _refuse(scope, headers, send)
                return
        await self.app(scope, receive, send)


async def _refuse(scope, headers: dict[str, str], send) -> None:
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
    lang = pick_language(query.get("lang"), headers.get("accept-language"))
    body = problem_body(403, "origin_refused", lang, {}, instance=scope.get("path", ""))
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                (b"content-length", str(len(payload)).encode()),
                (b"vary", b"Origin"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
