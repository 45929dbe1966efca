"""Input hygiene in one place: an ASGI middleware in front of the JSON API and the web pages.

Before any route sees a request:

- its body is at most ``MAX_BODY`` bytes (``Content-Length`` or counted as it streams): else
  ``413 body_too_large``;
- a JSON body nests at most ``MAX_DEPTH`` arrays/objects (counted on the raw bytes, before the
  parser could recurse): else ``422 json_too_deep``. A route whose body carries a document of its own
  bound (an imported character file in ``{"source": …}``) is given a ``DepthBound``: its body may nest
  the document's bound and the envelope's levels, and deeper is refused with the document's own code
  (``import_too_deep``), the answer the page and the CLI give for the same file;
- a JSON body is JSON: UTF-8, parsable, no integer past Python's 4,300 digits: else ``400
  body_not_json`` (one answer whatever the route);
- no text (JSON string or key, form field, query parameter) holds a control character other than tab,
  line feed and carriage return, nor a lone surrogate: else ``422 text_not_allowed`` naming the field.
  Such text would be stored on SQLite and refused by PostgreSQL (a NUL), or could not be encoded at all
  (a lone surrogate): one answer on both stores, before anything is written.

Every refusal is ``application/problem+json``, in the reader's language. Nothing here knows the
routes: the rules checked are the same for every text field. One exception to the answer, not to the
rule: a page's form (``multipart/form-data`` or urlencoded, outside ``/api``) over ``MAX_BODY`` reaches
its route with an empty form and ``request.state.rollbook_body_too_large`` set to the limit, so the
page answers in words (an upload too large on "Import a sheet": that page, its message translated)
instead of a problem document a browser would show raw.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any
from urllib.parse import parse_qsl

from rollbook.server.problems import PROBLEM_MEDIA_TYPE, pick_language, problem_body

MAX_BODY = 1024 * 1024  # bytes
MAX_DEPTH = 32  # nested arrays and objects
# C0 controls but tab, LF, CR; DEL and the C1 controls; UTF-16 surrogates (only ever lone in a str)
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
# A string, to its closing quote or to the end when unterminated (so the scan never starts again
# inside one: linear in the body's length).
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
# Python refuses to read an integer of more than 4,300 digits (sys.get_int_max_str_digits): such a
# body is parsed here, so it answers body_not_json rather than a route's generic 400.
_LONG_DIGITS = re.compile(rb"[0-9]{4301}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class Refused(Exception):
    def __init__(self, status: int, code: str, **params: Any) -> None:
        super().__init__(code)
        self.status, self.code, self.params = status, code, params


@dataclass(frozen=True)
class DepthBound:
    """The JSON bodies of the routes whose path matches ``path`` carry a document nested at most
    ``most`` deep, ``envelope`` levels inside the body: a deeper body is refused as ``code`` with
    ``most`` (the document's bound, as the route's other faces state it), never as json_too_deep."""

    path: re.Pattern[str]
    most: int
    envelope: int
    code: str


def bad_text(value: str) -> bool:
    return FORBIDDEN.search(value) is not None


def json_depth(raw: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (strings skipped; no parsing)."""
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets), initial=0))


def strings_of(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every (field path, text) of a parsed JSON value: keys and string values."""
    stack = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            yield where or "body", item
        elif isinstance(item, dict):
            for key, child in item.items():
                name = f"{where}.{key}" if where else str(key)
                yield name, str(key)
                stack.append((name, child))
        elif isinstance(item, list):
            stack.extend((f"{where}[{index}]", child) for index, child in enumerate(item))


def check_text(field: str, value: str) -> None:
    if bad_text(value):
        raise Refused(422, "text_not_allowed", field=_printable(field))


def _printable(field: str) -> str:
    return FORBIDDEN.sub("\ufffd", field)[:200]


def check_body(content_type: str, raw: bytes, bound: DepthBound | None = None) -> None:
    if not raw:
        return
    kind = content_type.split(";")[0].strip().lower()
    if kind == "application/json" or kind.endswith("+json"):
        depth = json_depth(raw)
        if bound is not None and depth > max(MAX_DEPTH, bound.most + bound.envelope):
            raise Refused(422, bound.code, most=bound.most)
        if bound is None and depth > MAX_DEPTH:
            raise Refused(422, "json_too_deep", limit=MAX_DEPTH)
        if b"\\" not in raw and _clean_utf8(raw) and not _LONG_DIGITS.search(raw):
            return  # no escapes: every key and string is a piece of the raw text, which has no bad character
        try:
            parsed = json.loads(raw)
        except UnicodeDecodeError:
            raise Refused(400, "body_not_json", detail="not UTF-8") from None
        except (ValueError, RecursionError) as error:
            # not JSON, or an integer past Python's 4,300 digits: one answer, before any route;
            # the parser's words name a position, never the body's text
            detail = "an integer of too many digits" if "digits" in str(error) else _json_error(error)
            raise Refused(400, "body_not_json", detail=detail) from None
        for field, text in strings_of(parsed):
            check_text(field, text)
    elif kind == "application/x-www-form-urlencoded":
        _check_pairs(raw, "utf-8", "body")


def _json_error(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno} column {error.colno}"
    return "nested too deep" if isinstance(error, RecursionError) else "not JSON"


def _clean_utf8(raw: bytes) -> bool:
    """The bytes are UTF-8 text without a forbidden character (a lone surrogate is not UTF-8)."""
    try:
        return not bad_text(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return False


def check_query(query: bytes) -> None:
    if query:
        _check_pairs(query, "latin-1", "query")


def _check_pairs(raw: bytes, encoding: str, where: str) -> None:
    """A form body or a query string: every name and every value."""
    try:
        pairs = parse_qsl(raw.decode(encoding), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise Refused(422, "text_not_allowed", field=where) from None
    for name, text in pairs:
        check_text(name, name)
        check_text(name, text)


class InputGuard:
    """The ASGI middleware: reads the body (bounded), checks it, then hands it on unchanged."""

    def __init__(self, app, *, max_body: int = MAX_BODY, bounds: Sequence[DepthBound] = ()) -> None:
        self.app = app
        self.max_body = max_body
        self.bounds = tuple(bounds)

    def bound(self, path: str) -> DepthBound | None:
        return next((bound for bound in self.bounds if bound.path.fullmatch(path)), None)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            check_query(scope.get("query_string", b""))
            if bad_text(headers.get("last-event-id", "")):  # echoed nowhere, refused
                raise Refused(422, "text_not_allowed", field="Last-Event-ID")
            length = headers.get("content-length", "")
            if length.strip().isdigit() and int(length) > self.max_body:
                raise Refused(413, "body_too_large", limit=self.max_body)
            chunks: list[bytes] = []
            size = 0
            more = scope["method"] not in ("GET", "HEAD", "OPTIONS")
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_body:
                    raise Refused(413, "body_too_large", limit=self.max_body)
                chunks.append(chunk)
                more = message.get("more_body", False)
            raw = b"".join(chunks)
            check_body(headers.get("content-type", ""), raw, self.bound(scope.get("path", "")))
        except Refused as refused:
            if refused.code == "body_too_large" and _page_form(scope, headers):
                await self.app(_emptied(scope, self.max_body), replaying(b"", receive), send)
                return
            await _answer(scope, headers, send, refused)
            return
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        await self.app(scope, replaying(raw, receive), send)


def _page_form(scope, headers: dict[str, str]) -> bool:
    """A form a page posts (not the JSON API): its route answers a body too large in words."""
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    path = scope.get("path", "")
    return kind in ("multipart/form-data", "application/x-www-form-urlencoded") and not (
        path == "/api" or path.startswith("/api/")
    )


def _emptied(scope, limit: int):
    """The request as its route sees it when its body was too large: an empty urlencoded form, and
    ``state["rollbook_body_too_large"]`` the limit (``web/deps.py`` refuses it in words)."""
    kept = [
        (name, value)
        for name, value in scope.get("headers", [])
        if name.lower() not in (b"content-type", b"content-length", b"transfer-encoding")
    ]
    headers = [*kept, (b"content-type", b"application/x-www-form-urlencoded"), (b"content-length", b"0")]
    state = {**scope.get("state", {}), "rollbook_body_too_large": limit}
    return {**scope, "headers": headers, "state": state}


def replaying(body: bytes, receive):
    """An ASGI ``receive`` that hands the request's ``body`` (already read) once more, whole, then the
    connection's own messages (a disconnect)."""
    given = False

    async def again():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def _answer(scope, headers: dict[str, str], send, refused: Refused) -> None:
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
    lang = pick_language(
        query.get("lang") if not bad_text(query.get("lang", "")) else None, headers.get("accept-language")
    )
    body = problem_body(
        refused.status, refused.code, lang, refused.params, instance=_printable(scope.get("path", ""))
    )
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": refused.status,
            "headers": [
                (b"content-type", PROBLEM_MEDIA_TYPE.encode()),
                (b"content-length", str(len(payload)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
