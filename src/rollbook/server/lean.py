"""``LeanRoute``: the API's route class. A well-formed request to an async endpoint that answers with
a ``Response`` is solved by a plan worked out once per route, instead of FastAPI's generic solving,
which inspects every parameter's annotation again on every request: ~70 µs of a durable roll's
~0.8–1 ms of server CPU (issue 15; bench/README.md, "Tenth pass").

The plan takes only what it can take exactly as FastAPI would, with the same validators (each
parameter's own ``ModelField``): path parameters, scalar header parameters, one JSON body, and
dependencies that take the request alone. Anything else, at start-up or on a request, goes to
FastAPI's own handler, which then answers as it always did:

- a route with a parameter of another kind (query, cookie, form, a sub-dependency of its own, a
  sync endpoint or dependency, an endpoint not annotated to return a ``Response``) has no plan;
- a request whose path or header value fails its validator, whose body is empty, not JSON, not
  sent as exactly ``application/json`` or fails the body model, or an app with dependency
  overrides, is handed to FastAPI's handler whole: so a refusal (422 and its errors, 400, 401 …)
  is FastAPI's own, word for word.

Order: FastAPI solves the dependencies before validating the parameters. The plan validates first
and declines on any error, so a dependency runs here only when FastAPI's validation would have
passed too, and whatever it raises (401 without a token) is what FastAPI would have raised.
``tests/server/test_lean.py`` sends the same requests, well-formed and hostile, through both handlers.
"""

from __future__ import annotations

import copy
import inspect
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Union, get_args, get_origin

from fastapi import params
from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import _get_param_aliases
from fastapi.routing import APIRoute, _effective_route_context_var
from pydantic import Json
from starlette.requests import Request
from starlette.responses import Response

JSON_MEDIA_TYPE = "application/json"
_SCALARS = (str, int, bool)
_MISSING = object()


@dataclass(frozen=True, slots=True)
class _Param:
    name: str      # the endpoint's parameter
    key: str       # where the request carries it (path parameter, header name)
    field: Any     # FastAPI's ModelField: its validator, default
    required: bool


@dataclass(frozen=True, slots=True)
class _Dependency:
    name: str
    call: Callable[..., Awaitable[Any]]
    request_name: str


@dataclass(frozen=True, slots=True)
class Plan:
    """How a route's endpoint gets its arguments from a well-formed request."""

    path: tuple[_Param, ...]
    headers: tuple[_Param, ...]
    body: _Param | None
    request_name: str | None
    dependencies: tuple[_Dependency, ...]

    async def arguments(self, request: Request) -> dict[str, Any] | None:
        """The endpoint's arguments, or None: FastAPI's handler is to answer this request."""
        values: dict[str, Any] = {}
        path_params = request.path_params
        for param in self.path:
            raw = path_params.get(param.key)
            if raw is None:
                return None
            value, errors = param.field.validate(raw, values, loc=("path", param.key))
            if errors:
                return None
            values[param.name] = value
        headers = request.headers
        for param in self.headers:
            raw = headers.get(param.key)
            if raw is None:
                if param.required or param.field.field_info.validate_default:
                    return None
                values[param.name] = copy.deepcopy(param.field.default)
                continue
            value, errors = param.field.validate(raw, values, loc=("header", param.key))
            if errors:
                return None
            values[param.name] = value
        if self.body is not None:
            if headers.get("content-type") != JSON_MEDIA_TYPE:
                return None
            if not await request.body():
                return None
            try:
                parsed = await request.json()
            except Exception:  # noqa: BLE001 - FastAPI's handler parses it again and answers its own way
                return None
            value, errors = self.body.field.validate(parsed, values, loc=("body",))
            if errors:
                return None
            values[self.body.name] = value
        if self.request_name is not None:
            values[self.request_name] = request
        solved: dict[int, Any] = {}
        for dependency in self.dependencies:  # once per request, as FastAPI's cache does
            key = id(dependency.call)
            if key not in solved:
                solved[key] = await dependency.call(**{dependency.request_name: request})
            values[dependency.name] = solved[key]
        return values


class LeanRoute(APIRoute):
    """An API route that answers well-formed requests through its ``Plan`` (module docstring)."""

    def get_route_handler(self) -> Callable[[Request], Awaitable[Response]]:
        standard = super().get_route_handler()
        # A route included in a router or the app is served through FastAPI's "effective" copy of it
        # (the full path, the including routers' dependencies, the app's dependency overrides): the
        # handler FastAPI just built solves that copy's dependant, so the plan is made from it too.
        context = _effective_route_context_var.get()
        route = context if context is not None and context.original_route is self else self
        plan = plan_of(route)
        if plan is None:
            return standard
        endpoint = route.dependant.call
        provider = route.dependency_overrides_provider

        async def handler(request: Request) -> Response:
            if provider is not None and getattr(provider, "dependency_overrides", None):
                return await standard(request)
            arguments = await plan.arguments(request)
            if arguments is None:
                return await standard(request)
            response = await endpoint(**arguments)
            if not isinstance(response, Response):
                raise TypeError(f"{endpoint.__qualname__} is annotated to return a Response and returned "
                                f"{type(response).__name__}")
            return response

        handler.plan = plan  # type: ignore[attr-defined]  # for the tests
        return handler


def plan_of(route: Any) -> Plan | None:
    """The route's plan, or None when it has anything the plan does not take exactly."""
    dependant = route.dependant
    endpoint = dependant.call
    if not inspect.iscoroutinefunction(endpoint) or not _answers_with_response(endpoint):
        return None
    if (dependant.query_params or dependant.cookie_params or dependant.websocket_param_name
            or dependant.http_connection_param_name or dependant.response_param_name
            or dependant.background_tasks_param_name or dependant.security_scopes_param_name):
        return None
    path = tuple(_param(field, "path") for field in dependant.path_params)
    headers = tuple(_param(field, "header") for field in dependant.header_params)
    body = _body(route)
    dependencies = tuple(_dependency(sub) for sub in dependant.dependencies)
    if None in path or None in headers or body is _MISSING or None in dependencies:
        return None
    return Plan(path=path, headers=headers, body=body,  # type: ignore[arg-type]  # no None left in them
                request_name=dependant.request_param_name, dependencies=dependencies)  # type: ignore[arg-type]


def _answers_with_response(endpoint: Callable[..., Any]) -> bool:
    try:
        annotation = inspect.signature(endpoint, eval_str=True).return_annotation
    except (NameError, TypeError):
        return False
    return isinstance(annotation, type) and issubclass(annotation, Response)


def _scalar(annotation: Any) -> bool:
    """``str``, ``int``, ``bool``, or one of them or None."""
    if annotation in _SCALARS:
        return True
    arguments = get_args(annotation)
    origin = get_origin(annotation)
    return (origin in (Union, types.UnionType) and len(arguments) == 2
            and type(None) in arguments and all(a in _SCALARS or a is type(None) for a in arguments))


def _param(field: Any, where: str) -> _Param | None:
    info = field.field_info
    expected = params.Path if where == "path" else params.Header
    if (not isinstance(info, expected) or not _scalar(info.annotation)
            or any(type(item) is Json for item in info.metadata)):
        return None
    aliases = _get_param_aliases(field)  # as FastAPI's request_params_to_args asks (a header's "-" is in its alias)
    if len(aliases) != 1:
        return None
    return _Param(name=field.name, key=aliases[0][1], field=field, required=info.is_required())


def _body(route: Any) -> _Param | None | object:
    """The one JSON body parameter (None: the route takes no body; ``_MISSING``: it takes one the plan
    does not: several, embedded, a form or files)."""
    fields = route.dependant.body_params
    if not fields:
        return None
    if len(fields) != 1 or route._embed_body_fields:
        return _MISSING
    field = fields[0]
    info = field.field_info
    if (not isinstance(info, params.Body) or isinstance(info, (params.Form, params.File))
            or getattr(info, "embed", False)):
        return _MISSING
    return _Param(name=field.name, key="body", field=field, required=info.is_required())


def _dependency(sub: Dependant) -> _Dependency | None:
    """A dependency that takes the request alone and is a coroutine (the API's ``Db`` and ``Auth``)."""
    call = sub.call
    coroutine = inspect.iscoroutinefunction(call) or (
        not inspect.isroutine(call) and inspect.iscoroutinefunction(type(call).__call__))
    if (not coroutine or sub.name is None or not sub.use_cache or sub.request_param_name is None or sub.dependencies
            or sub.path_params or sub.query_params or sub.header_params or sub.cookie_params or sub.body_params
            or sub.websocket_param_name or sub.http_connection_param_name or sub.response_param_name
            or sub.background_tasks_param_name or sub.security_scopes_param_name
            or getattr(sub, "concurrency", None) is not None):
        return None
    return _Dependency(name=sub.name, call=call, request_name=sub.request_param_name)  # type: ignore[arg-type]
