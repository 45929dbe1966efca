"""The roll path in-process: the server's CPU per request without a network, a load generator or
uvicorn, for the bare endpoint and the durable roll of ``bench/load.py`` (issue 15).

    python bench/inproc.py                       # SQLite and PostgreSQL: CPU ms per request, ratio
    python bench/inproc.py --stores sqlite --profile roll     # + cProfile of the roll, top 40
    python bench/inproc.py --profile roll --sort tottime --top 60
    python bench/inproc.py --inline              # sync endpoints and dependencies run in the event loop's
                                                 # thread: the difference is the thread-pool hops' CPU

The app is ``create_app`` as ``rollbook serve`` builds it (same middleware, same routes), called
as an ASGI application from one event loop, one request at a time (so the CPU is the request's
own, sync endpoints' thread-pool hop included). CPU is ``time.process_time`` (every thread of
this process; PostgreSQL's backend is not counted): best of ``--repeat`` runs of ``--requests``
requests each. ``calls`` is the number of Python function calls per request counted by cProfile
(deterministic: a fair before/after on a noisy machine), ``SQL`` the statements sent to the database
per request (BEGIN included, COMMIT not: the driver's). ``--key``: each roll carries a new
``Idempotency-Key``, as ``bench/tables.py``'s do (two statements more: the key's claim and its answer).
``--system v5``: the same requests for a V5 character (``bench/load.py``'s V5 sheet and test) instead
of the V20 one; ``--log N``: N rolls made first, so that the chronicle's log holds N entries more
(what a roll reads of the log may grow with it).

Five requests: ``bare`` (``GET /api/systems``: no token, no database), ``read`` (``GET`` of the
character: the token checked, one read transaction, the character's JSON: what every authenticated
request pays before its own work), ``roll`` (the durable roll of ``bench/load.py``) and ``web``
(the same roll posted from the sheet page's form, as a browser's htmx posts it: the keychain's
cookie, its form key, the new card and the sheet's resources in answer), and ``page`` (the
chronicle's table page as a browser loads it, by the keychain's cookie, its feed holding the rolls
made before). ``tx`` is the transactions per request (reads and writes).
The web roll's form carries a key: compare it with ``--key``'s roll, whose statements its one write
sends, the answer's one read after it (``tests/server/test_page_roll_cost.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from urllib.parse import urlencode

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import PG_ADMIN_URL, V5_SHEET, V5_TEST, V20_SHEET, V20_TEST

SYSTEMS = {"v20": (V20_SHEET, V20_TEST), "v5": (V5_SHEET, V5_TEST)}
KINDS = ("bare", "read", "roll", "web", "page")


@contextmanager
def store(name: str) -> Iterator[str]:
    if name == "sqlite":
        with tempfile.TemporaryDirectory() as directory:
            yield f"sqlite:///{directory}/bench.sqlite3"
        return
    import psycopg
    from sqlalchemy.engine import make_url

    database = f"rollbook_inproc_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{database}"')
    try:
        yield (
            make_url(PG_ADMIN_URL)
            .set(drivername="postgresql+psycopg", database=database)
            .render_as_string(hide_password=False)
        )
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


class Caller:
    """A minimal ASGI client: one request, the whole answer."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        token: str | None = None,
        key: bool = False,
        form: bool = False,
        cookie: bool = False,
    ):
        headers = [(b"host", b"bench"), (b"user-agent", b"inproc")]
        if form:  # the sheet page's form as htmx posts it, with the key each drawn form carries
            assert body is not None
            raw = urlencode({**body, "idempotency_key": secrets.token_urlsafe(18)}).encode()
            headers += [
                (b"content-type", b"application/x-www-form-urlencoded"),
                (b"content-length", str(len(raw)).encode()),
                (b"hx-request", b"true"),
            ]
        else:
            raw = b"" if body is None else json.dumps(body).encode()
        if key:  # a new Idempotency-Key, as bench/tables.py's and load.py's rolls carry
            headers.append((b"idempotency-key", secrets.token_urlsafe(16).encode()))
        if body is not None and not form:
            headers += [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
        if token and (form or cookie):  # a browser's session: the keychain's cookie, its own origin
            chronicle = path.split("/")[2]
            headers += [
                (b"cookie", f"rollbook_keys={chronicle}.{token}".encode()),
                (b"origin", b"http://bench"),
            ]
        elif token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("bench", 80),
        }
        sent = False

        async def receive():
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}

        answer = {"status": 0, "body": b""}

        async def send(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        return answer["status"], answer["body"]


@contextmanager
def inline_threadpool() -> Iterator[None]:
    import fastapi.dependencies.utils
    import fastapi.routing

    async def inline(func, *args, **kwargs):
        return func(*args, **kwargs)

    async def inline_worker(func, *args, limiter=None, abandon_on_cancel=False):  # anyio.to_thread.run_sync
        return func(*args)

    modules = [m for m in (fastapi.routing, fastapi.dependencies.utils) if hasattr(m, "run_in_threadpool")]
    saved = [m.run_in_threadpool for m in modules]
    saved_worker = anyio.to_thread.run_sync  # what Starlette's run_in_threadpool calls
    for module in modules:
        module.run_in_threadpool = inline
    anyio.to_thread.run_sync = inline_worker
    try:
        yield
    finally:
        for module, original in zip(modules, saved):
            module.run_in_threadpool = original
        anyio.to_thread.run_sync = saved_worker


async def set_up(call: Caller, system: str = "v20") -> tuple[str, str]:
    sheet = SYSTEMS[system][0]
    created_body = {"name": "Bench", "system": system, **({"difficulty": 6} if system == "v20" else {})}
    status, raw = await call("POST", "/api/chronicles", created_body)
    assert status == 201, raw
    created = json.loads(raw)
    chronicle = created["chronicle"]["id"]
    status, raw = await call("POST", "/api/join", {"invitation": created["invitation"], "name": "Player"})
    assert status == 201, raw
    token = json.loads(raw)["token"]
    status, raw = await call(
        "POST",
        f"/api/chronicles/{chronicle}/characters",
        {"name": sheet["name"], "sheet": sheet},
        token,
    )
    assert status == 201, raw
    character = json.loads(raw)["id"]
    return f"/api/chronicles/{chronicle}/characters/{character}/rolls", token


async def measure(
    url: str,
    requests: int,
    repeat: int,
    profile: str | None,
    sort: str,
    top: int,
    inline: bool = False,
    key: bool = False,
    system: str = "v20",
    log: int = 0,
    only: tuple[str, ...] = KINDS,
) -> dict:
    from rollbook.app.app import create_app

    app = create_app(url)
    # the server's lifespan, as uvicorn runs it (the worker threads' limit, the live feed's listener)
    async with app.router.lifespan_context(app):
        return await _measure(app, requests, repeat, profile, sort, top, inline, key, system, log, only)


async def _measure(
    app,
    requests: int,
    repeat: int,
    profile: str | None,
    sort: str,
    top: int,
    inline: bool,
    key: bool,
    system: str = "v20",
    log: int = 0,
    only: tuple[str, ...] = KINDS,
) -> dict:
    from sqlalchemy import event

    call = Caller(app)
    path, token = await set_up(call, system)
    test = SYSTEMS[system][1]
    for _ in range(log):  # the chronicle's log, longer
        status, raw = await call("POST", path, {"action": test}, token)
        assert status == 201, raw
    kinds = {
        "bare": ("GET", "/api/systems", None, None, 200, False, False),
        "read": ("GET", path.removesuffix("/rolls"), None, token, 200, False, False),
        "roll": ("POST", path, {"action": test}, token, 201, key, False),
        "web": ("POST", path.removeprefix("/api"), test, token, 200, False, True),
        # the chronicle's table page as a browser loads it (the feed holding the rolls made above)
        "page": ("GET", path.removeprefix("/api").split("/characters")[0], None, token, 200, False, False),
    }
    statements = [0]
    transactions = [0]

    def count(*_args) -> None:
        statements[0] += 1

    def count_transaction(*_args) -> None:
        transactions[0] += 1

    event.listen(app.state.db.engine, "before_cursor_execute", count)
    event.listen(app.state.db.engine, "begin", count_transaction)
    out: dict = {}
    for kind, (method, target, body, tok, expected, keyed, form) in kinds.items():
        if kind not in only:
            continue
        for _ in range(20):  # warm-up
            status, raw = await call(method, target, body, tok, keyed, form, kind == "page")
            assert status == expected, (status, raw[:300])
        best = float("inf")
        with inline_threadpool() if inline else nullcontext():
            for _ in range(repeat):
                started = time.process_time()
                for _ in range(requests):
                    await call(method, target, body, tok, keyed, form, kind == "page")
                best = min(best, (time.process_time() - started) / requests)
        profiler = cProfile.Profile(time.process_time)
        statements[0] = transactions[0] = 0
        with inline_threadpool():  # cProfile sees the calling thread only: run sync endpoints inline
            profiler.enable()
            for _ in range(50):
                await call(method, target, body, tok, keyed, form, kind == "page")
            profiler.disable()
        stats = pstats.Stats(profiler)
        out[kind] = {
            "cpu_ms": best * 1000,
            "calls": round(stats.total_calls / 50),
            "statements": statements[0] / 50,
            "transactions": transactions[0] / 50,
        }
        if profile == kind:
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats(sort).print_stats(top)
            out[kind]["profile"] = text.getvalue()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", choices=KINDS)
    parser.add_argument(
        "--kinds",
        default=",".join(KINDS),
        help="the requests measured, comma-separated (a before/after series of the roll: --kinds roll)",
    )
    parser.add_argument(
        "--inline",
        action="store_true",
        help="run sync endpoints and dependencies in the event loop's thread (no thread-pool hop)",
    )
    parser.add_argument(
        "--key",
        action="store_true",
        help="each roll carries a new Idempotency-Key (as bench/tables.py's rolls do)",
    )
    parser.add_argument("--system", choices=tuple(SYSTEMS), default="v20", help="the character's system")
    parser.add_argument("--log", type=int, default=0, help="rolls made first: the chronicle's log, longer")
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args(argv)
    os.environ.setdefault("ROLLBOOK_SECRET_KEY_FILE", str(Path(tempfile.mkdtemp()) / "operator.key"))
    print(f"load average {Path('/proc/loadavg').read_text().split()[0]}")
    for name in args.stores.split(","):
        with store(name) as url:
            result = asyncio.run(
                measure(
                    url,
                    args.requests,
                    args.repeat,
                    args.profile,
                    args.sort,
                    args.top,
                    args.inline,
                    args.key,
                    args.system,
                    args.log,
                    tuple(args.kinds.split(",")),
                )
            )
        head = (
            f"{name:10} {args.system}{' inline' if args.inline else ''}{' keyed' if args.key else ''}"
            f"{f' log+{args.log}' if args.log else ''} "
        )
        if set(result) != set(KINDS):  # some of them: each on its own
            print(
                head
                + "   ".join(
                    f"{kind} {got['cpu_ms']:.3f} ms ({got['calls']} calls, {got['statements']:g} SQL, "
                    f"{got['transactions']:g} tx)"
                    for kind, got in result.items()
                )
            )
            for got in result.values():
                if "profile" in got:
                    print(got["profile"])
            continue
        bare, read, roll, web, table = (result[k] for k in KINDS)
        print(
            f"{head}bare {bare['cpu_ms']:.3f} ms ({bare['calls']} calls)   "
            f"read {read['cpu_ms']:.3f} ms ({read['calls']} calls, {read['statements']:g} SQL)   "
            f"roll {roll['cpu_ms']:.3f} ms ({roll['calls']} calls, {roll['statements']:g} SQL, "
            f"{roll['transactions']:g} tx)   "
            f"web roll {web['cpu_ms']:.3f} ms ({web['calls']} calls, {web['statements']:g} SQL, "
            f"{web['transactions']:g} tx)   "
            f"table page {table['cpu_ms']:.3f} ms ({table['calls']} calls, {table['statements']:g} SQL, "
            f"{table['transactions']:g} tx)   "
            f"CPU ratio bare/roll {bare['cpu_ms'] / roll['cpu_ms']:.2f}"
        )
        for kind in KINDS:
            if "profile" in result[kind]:
                print(result[kind]["profile"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
