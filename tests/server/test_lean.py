"""``server/lean.py``: the API routes' plans against FastAPI's own solving (issue 15).

The same requests, well-formed and hostile, go through a route's lean handler and through
FastAPI's handler of the same route, each ending in a spy in place of the endpoint: both must
call the endpoint with the same arguments, or raise the same refusal. Generated over every
planned route of the API, so a route added later is checked too."""

from __future__ import annotations

import inspect
import json
from contextlib import AsyncExitStack
from types import SimpleNamespace
from typing import Annotated, Any

import pytest
from fastapi import Body, Depends, FastAPI, Header, Path
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute, request_response
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.requests import Request

from rollbook.server import api, api_authority, api_fair, lean
from rollbook.server.api import Caller
from rollbook.server.hygiene import replaying
from rollbook.server.lean import LeanRoute, plan_of
from rollbook.server.problems import ProblemError

from .conftest import in_a_loop

ROUTES = [route for router in (api.router, api_authority.router, api_fair.router) for route in router.routes
          if isinstance(route, LeanRoute)]
PLANNED = [route for route in ROUTES if plan_of(route) is not None]


async def _request_only(request: Request) -> str:
    return request.headers.get("host", "")


async def _header_shapes(request: Request, item_id: Annotated[int, Path(ge=0, le=99)],
                         x_token: Annotated[str | None, Header()] = None,
                         count: Annotated[int | None, Header(alias="X-Count", ge=0, le=9)] = None,
                         flag: Annotated[bool, Header(alias="X-Flag")] = False) -> JSONResponse:
    return JSONResponse({})


async def _body_shapes(items: Annotated[list[int], Body(max_length=3)], first: Annotated[str, Depends(_request_only)],
                       again: Annotated[str, Depends(_request_only)],
                       tag: Annotated[str, Header(alias="X-Tag")]) -> JSONResponse:
    return JSONResponse({})


# Shapes the API has no route of today (a header named by its parameter, int and bool headers, a
# required header, a list body, one dependency twice): planned as FastAPI would solve them.
SYNTHETIC = [LeanRoute("/synthetic/{item_id}/headers", _header_shapes, methods=["POST"]),
             LeanRoute("/synthetic/body", _body_shapes, methods=["PUT"])]
DATABASE = object()  # what the Db dependency hands out here (request.app.state.db)


def _label(route: APIRoute) -> str:
    return f"{min(route.methods)} {route.path}"


def test_every_async_api_route_but_the_live_feed_has_a_plan():
    """The signed writes (the roll among them) all take the lean way; a route that stops qualifying
    (a new kind of parameter, its ``-> JSONResponse`` dropped) fails here instead of slowing down."""
    async_routes = {_label(route) for route in ROUTES if inspect.iscoroutinefunction(route.endpoint)}
    live_feed = "GET /api/chronicles/{chronicle_id}/events"  # its member dependency has one of its own
    assert {_label(route) for route in PLANNED} == async_routes - {live_feed}
    assert "POST /api/chronicles/{chronicle_id}/characters/{character_id}/rolls" in async_routes
    assert len(async_routes) >= 20


def test_a_route_with_another_kind_of_parameter_has_no_plan():
    async def with_query(chronicle_id: int, page: int = 0) -> JSONResponse:
        return JSONResponse({})

    async def unannotated(chronicle_id: int):
        return JSONResponse({})

    def sync(chronicle_id: int) -> JSONResponse:
        return JSONResponse({})

    for endpoint in (with_query, unannotated, sync):
        assert plan_of(LeanRoute("/x/{chronicle_id}", endpoint, methods=["POST"])) is None


def _spied(route: APIRoute) -> tuple[Any, Any, list[dict]]:
    """The route rebuilt with a spy for its endpoint: (its lean ASGI app, FastAPI's ASGI app of it, the
    arguments of each call the spy got)."""
    copy = LeanRoute(route.path, route.endpoint, methods=list(route.methods), status_code=route.status_code)
    calls: list[dict] = []

    async def spy(**arguments) -> JSONResponse:
        calls.append(arguments)
        return JSONResponse({"spied": True})

    copy.dependant.call = spy  # both handlers call the dependant's call: the spy
    lean_handler = copy.get_route_handler()
    assert lean_handler.plan is not None
    return request_response(lean_handler), request_response(APIRoute.get_route_handler(copy)), calls


@pytest.fixture
def ways(monkeypatch) -> list[str]:
    """Which way each lean handler went: "lean" (its plan solved the request), "fallback" (FastAPI's
    handler answered it) or "raised" (a dependency of the plan refused it)."""
    taken: list[str] = []
    original = lean.Plan.arguments

    async def counted(self, request):
        try:
            found = await original(self, request)
        except Exception:
            taken.append("raised")
            raise
        taken.append("lean" if found is not None else "fallback")
        return found

    monkeypatch.setattr(lean.Plan, "arguments", counted)
    return taken


def _scope(route: APIRoute, path_values: dict[str, str], headers: list[tuple[bytes, bytes]]) -> dict:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": min(route.methods),
            "scheme": "http", "path": route.path, "raw_path": route.path.encode(), "query_string": b"",
            "root_path": "", "headers": headers, "client": ("127.0.0.1", 1), "server": ("test", 80),
            "path_params": path_values, "app": SimpleNamespace(state=SimpleNamespace(db=DATABASE)),
            "state": {}}


async def _call(asgi, scope: dict, body: bytes) -> tuple[str, Any]:
    """What happened: ("called", the status) or the refusal raised, in comparable form."""

    async def disconnected():
        return {"type": "http.disconnect"}

    receive = replaying(body, disconnected)  # the body whole, as InputGuard hands it on
    status: list[int] = []

    async def send(message):
        if message["type"] == "http.response.start":
            status.append(message["status"])

    try:
        async with AsyncExitStack() as stack:  # what FastAPI's own middleware puts in the scope
            await asgi({**scope, "fastapi_middleware_astack": stack}, receive, send)
    except RequestValidationError as error:
        return "422", json.loads(json.dumps(error.errors(), default=str))
    except ProblemError as error:
        return "problem", (error.status, error.code)
    except HTTPException as error:
        return "http", (error.status_code, error.detail)
    return "called", status


def _comparable(arguments: dict) -> dict:
    out = {}
    for name, value in arguments.items():
        if isinstance(value, BaseModel):
            out[name] = (type(value).__qualname__, value.model_dump(mode="json"))
        elif isinstance(value, Request):
            out[name] = "request"
        elif isinstance(value, Caller):
            out[name] = ("caller", value.request is not None)
        elif value is DATABASE:
            out[name] = "database"
        else:
            out[name] = (type(value).__name__, value)
    return out


ID_TEXTS = st.one_of(
    st.sampled_from(["1", "7", "2147483647", "2147483648", "0", "-1", "01", "+1", " 1", "1 ", "1.0", "1e3",
                     "١", "1_0", "0x1", "", "abc", "99999999999999999999"]),
    st.integers(min_value=-10, max_value=2**32).map(str),
    st.text(alphabet=st.characters(codec="latin-1", exclude_characters="/"), max_size=12),
)
SIMPLE_HEADERS = st.one_of(st.sampled_from(["1", "0", "-1", "7", "true", "false", "yes", " 5", "k-1"]), st.text(
    alphabet=st.characters(codec="ascii", min_codepoint=33, max_codepoint=126), min_size=1, max_size=40))
HEADER_TEXTS = st.one_of(st.none(), SIMPLE_HEADERS,
                         st.text(alphabet=st.characters(codec="latin-1", min_codepoint=32), max_size=300))
CONTENT_TYPES = st.sampled_from([None, "application/json", "application/json", "Application/JSON",
                                 "application/json; charset=utf-8", "text/plain", "text/json", "application/jsonp",
                                 "application/merge-patch+json", ""])
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                           lambda inner: (st.lists(inner, max_size=3)
                                          | st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                           max_leaves=8)


# A well-formed body for the routes whose schema gives no example and takes no empty object (a route
# with a body that none of these fits fails test_a_well_formed_request_takes_the_lean_way).
WELL_FORMED = {
    "POST /api/chronicles/{chronicle_id}/standing-grants": {"edges": {"modifier": 1}},
    "POST /api/chronicles/{chronicle_id}/characters/{character_id}/actions": {"actions": 2},
    "PUT /api/chronicles/{chronicle_id}/members/me/client-seed": {"client_seed": "table 3"},
    "PUT /synthetic/body": [1, 2],
}


def _examples(route: APIRoute) -> list[Any]:
    """Well-formed bodies for the route: its OpenAPI examples, an empty object, ``WELL_FORMED``'s."""
    plan = plan_of(route)
    if plan is None or plan.body is None:
        return [{}]
    examples = plan.body.field.field_info.openapi_examples or {}
    extra = [WELL_FORMED[_label(route)]] if _label(route) in WELL_FORMED else []
    return [example["value"] for example in examples.values()] + [{}] + extra


@st.composite
def requests(draw, route: APIRoute):
    plan = plan_of(route)
    well_formed = draw(st.booleans())
    path_values = {param.key: (str(draw(st.integers(1, 2**31 - 1))) if well_formed else draw(ID_TEXTS))
                   for param in plan.path}
    headers: list[tuple[bytes, bytes]] = [(b"host", b"test")]
    if draw(st.booleans()) or well_formed:
        headers.append((b"authorization", b"Bearer " + draw(st.sampled_from([b"token", b"x" * 40]))))
    for param in plan.headers:  # every header the route reads, by the name it reads it by
        value = draw(HEADER_TEXTS) if not well_formed else draw(st.one_of(st.none(), SIMPLE_HEADERS))
        if value is not None:
            headers.append((param.key.lower().encode("latin-1"), value.encode("latin-1")))
    content_type = "application/json" if well_formed else draw(CONTENT_TYPES)
    if content_type is not None:
        headers.append((b"content-type", content_type.encode()))
    if well_formed:
        body = json.dumps(draw(st.sampled_from(_examples(route)))).encode()
    else:
        body = draw(st.one_of(st.just(b""), st.binary(max_size=20), JSON_VALUES.map(lambda v: json.dumps(v).encode()),
                              st.sampled_from(_examples(route)).map(lambda v: json.dumps(v).encode())))
    return path_values, headers, body


async def _both(lean_app, standard_app, calls: list[dict], scope: dict, body: bytes):
    """The request through the lean app, then through FastAPI's: each outcome, and the spy's calls."""
    lean_outcome = await _call(lean_app, scope, body)
    lean_calls = [_comparable(arguments) for arguments in calls]
    calls.clear()
    standard_outcome = await _call(standard_app, scope, body)
    standard_calls = [_comparable(arguments) for arguments in calls]
    calls.clear()
    return (lean_outcome, lean_calls), (standard_outcome, standard_calls)


@pytest.mark.parametrize("route", PLANNED + SYNTHETIC, ids=_label)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_lean_handler_answers_as_fastapi_does(route, data, ways):
    lean_app, standard_app, calls = _spied(route)
    path_values, headers, body = data.draw(requests(route))
    ways.clear()
    scope = _scope(route, path_values, headers)
    lean_side, standard_side = in_a_loop(_both(lean_app, standard_app, calls, scope, body))
    assert lean_side == standard_side
    assert len(ways) == 1
    if ways == ["lean"]:  # taken only when FastAPI, too, calls the endpoint
        assert standard_side[0][0] == "called"


@pytest.mark.parametrize("route", [route for route in PLANNED if plan_of(route).body is not None], ids=_label)
def test_a_well_formed_request_takes_the_lean_way(route, ways):
    """Not vacuous: the route's own body examples, sent as the API's clients send them, are solved by
    the plan, with FastAPI's values."""
    lean_app, standard_app, calls = _spied(route)
    headers = [(b"host", b"test"), (b"authorization", b"Bearer t"), (b"content-type", b"application/json"),
               (b"idempotency-key", b"k-1")]
    scope = _scope(route, {param.key: "3" for param in plan_of(route).path}, headers)
    for example in _examples(route):
        ways.clear()
        lean_side, standard_side = in_a_loop(_both(lean_app, standard_app, calls, scope, json.dumps(example).encode()))
        assert lean_side == standard_side
        if lean_side[0][0] == "called":
            assert ways == ["lean"]
    assert any(in_a_loop(_call(lean_app, scope, json.dumps(example).encode()))[0] == "called"
               for example in _examples(route))


@pytest.mark.parametrize(("route", "path_values", "headers", "body", "arguments"), [
    (SYNTHETIC[0], {"item_id": "5"}, [(b"x-token", b"abc"), (b"x-count", b"3"), (b"x-flag", b"yes")], b"",
     {"item_id": ("int", 5), "x_token": ("str", "abc"), "count": ("int", 3), "flag": ("bool", True),
      "request": "request"}),
    (SYNTHETIC[1], {}, [(b"content-type", b"application/json"), (b"x-tag", b"t")], b"[1, 2]",
     {"items": ("list", [1, 2]), "first": ("str", "test"), "again": ("str", "test"), "tag": ("str", "t")}),
], ids=["headers", "body"])
def test_the_synthetic_shapes_take_the_lean_way(route, path_values, headers, body, arguments, ways):
    lean_app, standard_app, calls = _spied(route)
    lean_side, standard_side = in_a_loop(_both(lean_app, standard_app, calls,
                                               _scope(route, path_values, [(b"host", b"test"), *headers]), body))
    assert ways == ["lean"]
    assert lean_side == standard_side == (("called", [200]), [arguments])


def test_dependency_overrides_take_fastapis_way():
    """An app with dependency overrides (a test's) is solved by FastAPI, which applies them."""
    from rollbook.server.deps import database_dependency

    app = FastAPI()
    app.router.route_class = LeanRoute
    seen: list[Any] = []

    async def endpoint(db: api.Db, chronicle_id: api.Id) -> JSONResponse:
        seen.append(db)
        return JSONResponse({})

    app.add_api_route("/x/{chronicle_id}", endpoint, methods=["POST"])
    app.dependency_overrides[database_dependency] = lambda: "overridden"
    scope = _scope(APIRoute("/x/{chronicle_id}", endpoint, methods=["POST"]), {}, [(b"host", b"t")])
    scope.update(path="/x/5", raw_path=b"/x/5")
    del scope["path_params"]
    scope["app"] = app

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        pass

    in_a_loop(app(scope, receive, send))
    assert seen == ["overridden"]
