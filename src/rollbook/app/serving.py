"""How ``rollbook serve`` runs the app under uvicorn: one process, or several sharing the port
(``--workers``: PostgreSQL is the store several processes share; on SQLite their writers take turns
at the database's lane file, ``lane.WriterLane``).

Every connection is answered with ``TCP_NODELAY`` (``NoDelayHttpProtocol``). asyncio sets it only on
a socket whose protocol number is TCP's; uvicorn's workers accept on a socket made without one, so
without it their answers wait for the client's delayed ACK (tens of milliseconds per request, far
more than the request's own work; bench/README.md has the measure).

The HTTP parser is httptools' and the event loop uvloop's (``EVENT_LOOP``: uvicorn's ``auto``, the
plain asyncio loop where uvloop is not installed, as on Windows): both are C where h11's parser and
asyncio's loop are Python, and at 300 tables on one process (1,500 open feeds, 65 rolls a second) they
took the server's CPU per roll on SQLite from 11.1 to 9.5 ms in a back-to-back pair (bench/README.md,
"Three hundred tables, the evening of 7 December").

The cyclic garbage collector is settled once the app is made (``settle_collector``): what start-up
made (the modules, the app, its routes and templates: some hundreds of thousands of objects that
live as long as the process) is moved out of the collector's generations (``gc.freeze``), so a full
collection no longer walks them all, and young collections come every ``YOUNG_COLLECTION_EVERY``
objects, so that fewer requests in flight are promoted, and a full collection waits for
``FULL_COLLECTION_AFTER`` generation-1 collections. Each full collection stops the loop, every request
and every feed: 0.2–0.46 s of CPU with two thousand feeds open (bench/README.md, "Stalls at 300
tables", "The collector's full collections").

With several workers each process builds its own app from the settings the parent leaves in
``ROLLBOOK_SERVE_SETTINGS`` (``worker_app``, ``rollbook.settings``); the parent applies the migrations and makes the operator's
key file first, once.
"""

from __future__ import annotations

import gc
import os
import socket
from collections.abc import Callable
from typing import TypedDict

import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess

from rollbook.app.app import create_app
from rollbook.server.db import Database
from rollbook.server.secret_check import secret_at_start
from rollbook.settings import ServeSettings, SettingsError, current, load

EVENT_LOOP = "auto"  # uvicorn's choice: uvloop when it is installed (a dependency, not on Windows)
SETTINGS_VARIABLE = "ROLLBOOK_SERVE_SETTINGS"  # parent to workers only: settings.ServeSettings
GRACEFUL_SHUTDOWN_SECONDS = 3  # live feeds stream until their client leaves: this long to end on SIGTERM
# A worker answers uvicorn's health checks only once it has unpickled its settings, which imports
# this module and with it the whole app: on a busy 2-core machine that took longer than uvicorn's
# 5 s, and the worker was killed and started again, for ever.
WORKER_HEALTHCHECK_SECONDS = 60


class NoDelayHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol on httptools' parser, with ``TCP_NODELAY`` on the connection's socket."""

    def connection_made(self, transport) -> None:
        connection = transport.get_extra_info("socket")
        if connection is not None and connection.family in (socket.AF_INET, socket.AF_INET6):
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)


def app_for(url: str, *, threads: int, workers: int = 1) -> FastAPI | str:
    """What uvicorn runs: the app itself (one process), or, for several, the factory each worker
    calls (the migrations applied and the operator's key file made here first, once)."""
    if workers == 1:
        return create_app(url, threads=threads)
    database = Database(url)
    try:
        database.upgrade()
        secret_at_start(database)  # F-1: checked (and a key file made) here, not raced for by the workers
    finally:
        database.dispose()
    os.environ[SETTINGS_VARIABLE] = ServeSettings(url=url, threads=threads).model_dump_json()
    return f"{__name__}:worker_app"


# A young collection once this many more container objects were made than freed (CPython's default:
# 700). Each young collection promotes what is alive at that moment; while serving that is mostly
# requests in flight, which die soon after in an older generation, and those promotions set off the
# full collections, which walk every feed's objects. A young collection walks the objects made since
# the last one, and every tenth (generation 1) what the last ten kept: the larger the threshold, the
# longer each pause. Measured at 300 tables (1,500 feeds opened together, then 20 s of rolls; the
# largest pause of the collector while rolling): at 700 full collections of 340-380 ms came back; at
# 50,000 (this module's earlier choice) a generation-1 collection of 260-290 ms walked the feeds' newly
# made objects, in every run; at 5,000 it took 43-73 ms; at 2,000, 21-26 ms, and no full collection
# (bench/README.md, "Three hundred tables, the evening of 7 December").
YOUNG_COLLECTION_EVERY = 2_000

# A full collection once this many generation-1 collections have run (CPython's default: 10), and, as
# CPython always asks, once a quarter more objects have reached the oldest generation since the last.
# A full collection walks every object the process keeps, mostly the open feeds' (each a request held
# open: about 315 objects, its tasks, coroutines, cancel scopes and queue): at 2,000 feeds one took
# 190-460 ms of CPU, every request and feed stopped. What reaches the oldest generation meanwhile is
# mostly requests in flight that die soon after, so CPython's trigger came every ~50 s of steady
# rolls at 400 tables (and three times in the first 40 s) and freed little. At 100 it comes about
# every four minutes there: over 120 s of rolls the roll's p99 went from 183 to 46 ms (SQLite, 400
# tables) and from 166 to 84 ms (PostgreSQL, 300) (bench/README.md, "The collector's full
# collections"). The price: cyclic garbage that reaches the oldest generation (a closed feed's
# objects) waits that much longer to be freed.
FULL_COLLECTION_AFTER = 100


def settle_collector() -> int:
    """The objects alive now (start-up's) are never collected again: collect once, then freeze them
    (``gc.freeze``: they leave the generations a collection walks); then the collector's thresholds
    while serving (``YOUNG_COLLECTION_EVERY``; generation 1's stays CPython's, 10;
    ``FULL_COLLECTION_AFTER``). Returns how many objects are frozen."""
    gc.collect()
    gc.freeze()
    _, older, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, older, FULL_COLLECTION_AFTER)
    return gc.get_freeze_count()


class _Options(TypedDict):
    """What ``uvicorn.run`` is given for one process and for several."""

    host: str
    port: int
    log_level: str
    http: type[NoDelayHttpProtocol]
    loop: str
    timeout_graceful_shutdown: int
    proxy_headers: bool
    forwarded_allow_ips: str | None


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, calling ``announce`` once its socket is bound and it serves."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], None] | None) -> None:
        super().__init__(config)
        self.announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            settle_collector()  # the app and its lifespan's start are made: what they made stays
            if self.announce is not None:
                self.announce()


def run(
    target: FastAPI | str,
    *,
    host: str,
    port: int,
    log_level: str,
    workers: int = 1,
    announce: Callable[[], None] | None = None,
) -> None:
    """Serve ``app_for``'s answer until SIGINT or SIGTERM; ``announce()`` once the port is bound (with
    several workers, once the parent has bound the socket they share, before they start). Behind a trusted proxy
    (``ROLLBOOK_TRUST_PROXY``) uvicorn takes the client's scheme and address from the proxy's
    ``X-Forwarded-Proto``/``-For`` whatever the proxy's address (a container network's, not 127.0.0.1)."""
    options: _Options = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "http": NoDelayHttpProtocol,
        "loop": EVENT_LOOP,
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
        "proxy_headers": True,
        "forwarded_allow_ips": "*" if current().trust_proxy else None,
    }
    if workers == 1:
        AnnouncingServer(uvicorn.Config(target, **options), announce).run()
    else:  # as ``uvicorn.run`` serves several workers, the line once the parent's socket is bound
        config = uvicorn.Config(
            target,
            factory=True,
            workers=workers,
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
            **options,
        )
        bound = config.bind_socket()
        bound.listen(config.backlog)  # connections wait in its queue until a worker takes them
        if announce is not None:
            announce()
        try:
            Multiprocess(config, sockets=[bound]).run()
        except KeyboardInterrupt:  # as ``uvicorn.run``: the workers stopped, the parent ends quietly
            pass


def worker_app() -> FastAPI:
    """The app of one of the worker processes (uvicorn calls it in each)."""
    given = load()
    if given.serve_settings is None:
        raise SettingsError(
            f"{SETTINGS_VARIABLE} is not set: the parent `rollbook serve --workers N` sets it"
        )
    serve = given.serve_settings
    made = create_app(serve.url, migrate=False, threads=serve.threads)
    settle_collector()
    return made
