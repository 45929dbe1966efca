"""The app factory: ``create_app(database_url=None, *, dice=None) -> FastAPI``.

The database is ``database_url``, else ``ROLLBOOK_DATABASE_URL``, else ``./rollbook.sqlite3``;
its migrations are applied when the app is created.

``dice`` is a zero-argument factory returning a ``DiceSource`` (default ``SecureDice``), kept as
``app.state.dice``: every roll and reroll of the API and the web pages draws from a source it makes.
It is a Python argument only, for tests that need chosen faces: no setting, environment variable
or request field reaches it, and ``rollbook serve`` never passes one.

``rollbook.web.mount(app)`` adds the server-rendered pages (they reuse ``app.state.db``, ``deps``
and the same use cases as the JSON API).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from rollbook import __version__, plugins
from rollbook.app import openapi as typed_schema
from rollbook.app.api import problems_router, router
from rollbook.app.api_authority import router as authority_router
from rollbook.app.api_contests import router as contests_router
from rollbook.app.api_discord import router as discord_router
from rollbook.app.api_fair import router as fair_router
from rollbook.app.api_interop import IMPORT_BODY
from rollbook.app.api_interop import router as interop_router
from rollbook.app.api_models import Problem
from rollbook.app.api_odds import router as odds_router
from rollbook.app.api_saved import router as saved_router
from rollbook.app.api_solo import router as solo_router
from rollbook.dice import DiceSource, SecureDice
from rollbook.discord.poster import Poster
from rollbook.discord.rest import client_for
from rollbook.i18n import GAME_MASTER_SYSTEMS, game_master_words, languages_text
from rollbook.play.systems import SYSTEM_IDS, own_module
from rollbook.rules.base import RuleError
from rollbook.server.db import Database
from rollbook.server.deps import language
from rollbook.server.failures import Answered
from rollbook.server.headers import SecurityHeaders
from rollbook.server.hub import Hub
from rollbook.server.hygiene import InputGuard
from rollbook.server.problems import (
    PROBLEM_MEDIA_TYPE,
    ProblemError,
    allowed_methods,
    from_rule_error,
    problem_body,
)
from rollbook.server.ratelimit import Signins
from rollbook.server.reread import ReadAgain
from rollbook.server.secret_check import secret_at_start
from rollbook.server.usecases import solo as solo_usecases
from rollbook.settings import Settings, install, load
from rollbook.validation import rule_error
from rollbook.web import mount as mount_web

log = logging.getLogger("rollbook.server")

DESCRIPTION = f"""\
The rollbook chronicle server: character sheets, rolls made by the server with a secure dice
source, resources spent exactly once, and an append-only, hash-chained receipt log.

Authenticate with `Authorization: Bearer TOKEN` (the token returned when you create or join a
chronicle). Send an `Idempotency-Key` header with any state-changing request to make it safe to
retry. Errors are `application/problem+json` with a stable `code`; `?lang=` or
`Accept-Language` picks {languages_text()} for their `detail`.
"""


# The worker threads of one app process for the sync endpoints and dependencies (anyio's default
# limiter of the server's event loop; anyio's own default is 40). A process runs Python one thread at
# a time: more threads only overlap waits (PostgreSQL round trips, SQLite's fsync, row locks), and
# past a few they fight over the GIL instead: fewer threads made a PostgreSQL roll cheaper and its
# p99 shorter under load (bench/README.md). `rollbook serve --threads` changes it.
WORKER_THREADS = 4


def create_app(
    database_url: str | None = None,
    *,
    migrate: bool = True,
    dice: Callable[[], DiceSource] | None = None,
    threads: int = WORKER_THREADS,
    settings: Settings | None = None,
) -> FastAPI:
    plugins.load()  # the systems installed beside rollbook, before the faces read the registries
    # the environment's settings, read once (SettingsError names a variable that does not parse)
    settings = settings or load()
    install(settings)
    if threads < 1:
        raise ValueError("threads must be at least 1")
    if dice is None:
        dice = SecureDice
    elif not callable(dice):
        raise TypeError("dice must be a zero-argument factory returning a DiceSource")
    for refused in solo_usecases.hosted_refusals(
        settings.language
    ):  # S-10: the host's scenarios, checked now
        log.warning("solo scenario refused: %s", refused)
    db = Database(database_url)
    if migrate:
        db.upgrade()
    try:  # F-1: the key the server seeds are sealed under opens them (a key file is made only for a store without seeds)
        secret_at_start(db)
    except BaseException:
        db.dispose()
        raise
    listen_url = None
    if not db.sqlite:
        listen_url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    hub = Hub(db, listen_url=listen_url, poll_interval=0.5 if db.sqlite else 5.0)
    hub.feeds_per_member, hub.feeds_per_process = settings.feeds_per_member, settings.feeds_per_process
    descriptor_limit(settings.feeds_per_process)
    db.after_commit.append(hub.wake)
    db.after_revoke.append(hub.revoked)  # a revocation committed here ends its feeds at once
    # public entries posted to the Discord channels bound to their chronicle, off the
    # request's thread (``discord.poster``); channels are bound through the application only
    poster = Poster(db, lambda: client_for(app.state), hub=hub)  # woken by the hub, like the feeds

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        hub.start_listener()
        if settings.discord_application_id:
            poster.start()
        try:
            yield
        finally:
            close_app(_app)

    app = FastAPI(
        title="rollbook",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        generate_unique_id_function=typed_schema.operation_id,
    )
    app.state.db = db
    app.state.settings = settings
    app.state.hub = hub
    app.state.discord_poster = poster
    app.state.dice = dice
    app.state.signins = Signins(settings.signins_per_address, settings.signins_per_code)  # 429 beyond
    for api_router in API_ROUTERS:
        app.router.routes.extend(api_router.routes)
    install_problem_handlers(app)
    _add_problem_schema(app)
    mount_web(app)
    app.add_middleware(ReadAgain)  # a GET whose database connection had ended, read once more
    # input hygiene, in front of the API and the pages alike; an imported file nests under its own bound
    app.add_middleware(InputGuard, bounds=(IMPORT_BODY,))
    app.add_middleware(Answered)  # a failure no handler answered: a problem, the connection kept
    app.add_middleware(SecurityHeaders)  # outermost: every answer has them, a refusal's too
    return app


def descriptor_limit(feeds: int) -> int | None:
    """Raise the process's soft limit of open files toward its hard limit (each live feed is a
    connection: ``feeds`` of them and room for the rest), and log what it has: the soft limit now,
    or None where the platform has none (``resource`` is POSIX's)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = feeds + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as error:
            log.warning("rollbook: could not raise the open-file limit from %s: %s", soft, error)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        log.warning(
            "rollbook: %s open files allowed, fewer than %s live feeds need: raise `ulimit -n`", soft, wanted
        )
    else:
        log.info("rollbook: %s open files allowed (%s live feeds at most)", soft, feeds)
    return None if soft == resource.RLIM_INFINITY else soft


def close_app(app: FastAPI) -> None:
    """What the end of the app's lifespan does, and what closes an app whose lifespan never ran (a
    test's app used without it): the Discord poster, the hub's listener thread and readers, the
    pool. Idempotent; to be done before the app's database is dropped (a listener left running
    reconnects to a database that no longer exists)."""
    app.state.discord_poster.close()
    app.state.hub.close()
    app.state.db.dispose()


# The JSON API's routers, their routes tried in this order. Their routes become the app's own
# (``app.router.routes``, as routes declared on the app are), matched once per request: an included
# router (``include_router``, lazy since FastAPI 0.137) is scanned route by route once to be chosen
# and once more to dispatch (a roll: ~680 of its ~4,900 Python calls). What an inclusion would add
# is nothing here (no prefix, tags, dependencies or responses of its own), but the operation ids:
# each router is made with ``openapi.operation_id``, the app's. A shipped system's own routes are its
# package's ``api`` module (``rollbook.systems.<id>.api``: V5's compulsions and frenzy), found by name.
SYSTEM_ROUTERS = tuple(
    module.router for system in SYSTEM_IDS if (module := own_module(system, "api")) is not None
)
API_ROUTERS = (
    router,
    authority_router,
    fair_router,
    odds_router,
    contests_router,
    *SYSTEM_ROUTERS,
    interop_router,
    discord_router,
    solo_router,
    saved_router,
    problems_router,
)


def _problem(
    request: Request,
    status: int,
    code: str,
    params: dict[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> JSONResponse:
    lang = language(request)
    body = problem_body(status, code, lang, params, instance=request.url.path)
    body["detail"] = _in_the_games_words(request, body["detail"], lang)
    if extra:
        body.update(extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _in_the_games_words(request: Request, detail: str, lang: str) -> str:
    """A refusal that names the Storyteller says "MJ" / "DJ" / "GM" in a Tiers or roll-under chronicle,
    as the seeds do. Only such a refusal reads the chronicle's system (the path's chronicle, one
    column; it names nothing the refusal does not): a roll never pays for it."""
    chronicle = str(request.path_params.get("chronicle_id") or "")
    if not chronicle.isdigit() or game_master_words(detail, lang) == detail:
        return detail
    from types import SimpleNamespace

    from rollbook.server.usecases.chronicles import chronicle_language

    try:
        with request.app.state.db.read() as session:
            _language, system = chronicle_language(session, SimpleNamespace(chronicle_id=int(chronicle)))
    except Exception:
        return detail
    return game_master_words(detail, lang) if system in GAME_MASTER_SYSTEMS else detail


def _field_loc(loc) -> tuple:
    """FastAPI's location starts with where the field was sent (body, query, path, header,
    cookie): the field is the rest."""
    return tuple(loc)[1:]


def install_problem_handlers(app: FastAPI) -> None:
    @app.exception_handler(ProblemError)
    async def _problem_error(request: Request, error: ProblemError) -> JSONResponse:
        return _problem(request, error.status, error.code, error.params, error.headers)

    @app.exception_handler(RuleError)
    async def _rule_error(request: Request, error: RuleError) -> JSONResponse:
        problem = from_rule_error(error)
        return _problem(request, problem.status, problem.code, problem.params)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        found = list(error.errors())
        summary = {
            "errors": [
                {
                    "loc": [str(part) for part in item.get("loc", ())],
                    "type": item.get("type", ""),
                    "msg": item.get("msg", ""),
                }
                for item in found
            ]
        }
        if found and found[0].get("type") == "json_invalid":
            return _problem(request, 400, "body_not_json", {"detail": found[0].get("msg", "")}, extra=summary)
        refused = rule_error([{**item, "loc": _field_loc(item.get("loc", ()))} for item in found])
        return _problem(request, 422, refused.code, refused.params, extra=summary)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 404:
            return _problem(request, 404, "not_found", {"path": request.url.path}, error.headers)
        if error.status_code == 405:
            allow = ", ".join(allowed_methods(request.app, request.url.path)) or (error.headers or {}).get(
                "Allow", ""
            )
            return _problem(
                request,
                405,
                "method_not_allowed",
                {"method": request.method},
                {**(error.headers or {}), "Allow": allow},
            )
        body = {
            "type": "about:blank",
            "title": str(error.detail),
            "status": error.status_code,
            "detail": str(error.detail),
            "code": f"http_{error.status_code}",
        }
        return JSONResponse(
            body, status_code=error.status_code, media_type=PROBLEM_MEDIA_TYPE, headers=error.headers
        )


def _add_problem_schema(app: FastAPI) -> None:
    def openapi() -> dict:
        if app.openapi_schema:
            return app.openapi_schema
        from fastapi.openapi.utils import get_openapi

        schema = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components["Problem"] = Problem.model_json_schema()
        for path in schema.get("paths", {}).values():  # validation errors are problems too
            for operation in path.values():
                responses = operation.get("responses", {})
                if "422" in responses:
                    responses["422"] = {
                        "description": "Unprocessable Content",
                        "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
                    }
        schema["components"]["schemas"].pop("HTTPValidationError", None)
        schema["components"]["schemas"].pop("ValidationError", None)
        typed_schema.install(schema)  # sheets, actions, changes, receipts: the play layer's own models
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema
