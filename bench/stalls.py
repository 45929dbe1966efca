"""What the server was doing while a request was slow: ``bench/tables.py --why DIR``.

The server is started through this module (``python bench/stalls.py serve …``, one process) instead
of ``rollbook serve``: the same app (``serving.app_for``) under the same uvicorn options
(``serving.run``), with recorders around it, none of them in the product's code:

- **gc**: every collection of the cyclic collector (``gc.callbacks``): when, how long, which
  generation, how many objects it freed;
- **loop lag**: a watchdog thread posts a probe to the event loop every 5 ms; a probe that waits
  more than ``LAG_MS`` is a stall of the loop, and while it waits the loop thread's stack is sampled
  (``sys._current_frames``, the interpreter's documented hook for debuggers) to say what held it;
- **commits**: the time each commit took (SQLAlchemy's ``commit`` connection event to the
  session's ``after_commit``) and, on SQLite, whether it ran a WAL checkpoint: the ``-shm`` file's
  ``nBackfill`` (the frames copied back to the database, SQLite's documented WAL-index format,
  https://sqlite.org/walformat.html) read before and after the commit;
- **PostgreSQL waits**: ``pg_stat_activity`` sampled every 50 ms for the bench's database, the
  active backends that wait (locks, I/O, the WAL);
- **requests**: each HTTP request's time in the app (an ASGI wrapper);
- **statements**: each SQL statement's wall time and its thread's CPU time meanwhile (SQLAlchemy's
  ``before_cursor_execute``/``after_cursor_execute``): the difference is the time the thread waited,
  for PostgreSQL's answer or, once the driver's C call returned, for the GIL.

Everything is kept in memory and written as JSON to ``--record`` when the server stops (SIGTERM).
On SIGUSR1 the server writes a **census** beside it (``census_path``): the objects the collector
tracks, by generation and by type (``tables.py`` asks for it after the rolls, the feeds open).
``explain(record, slow)`` joins it to the client's slow rolls (start and end in
``time.monotonic()``, the same clock in every process of the machine) and counts, per cause, the
share of slow rolls it overlapped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import re
import signal
import struct
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

LAG_MS = 20.0  # a probe this late is a stall of the loop
PROBE_EVERY = 0.005
PG_SAMPLE_EVERY = 0.05
SLOW_MS = 100.0  # a slow request
GC_SIGNIFICANT_MS = 5.0
COMMIT_SLOW_MS = 30.0


class Recorder:
    def __init__(self) -> None:
        self.gc: list[dict] = []
        self.lags: list[dict] = []
        self.commits: list[dict] = []
        self.pg_waits: list[dict] = []
        self.requests: list[dict] = []
        # (start, wall, the thread's CPU, what it is: statement_kind), seconds
        self.statements: list[tuple[float, float, float, str]] = []
        self._gc_started = 0.0
        self._local = threading.local()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.loop_thread = 0
        self.stopping = threading.Event()
        self.shm: Path | None = None
        self.autocheckpoint: int | None = None  # SQLite's wal_autocheckpoint on the app's connections
        self.threads: int | None = None  # the app's worker threads, as served

    # --- gc -------------------------------------------------------------------------------
    def on_gc(self, phase: str, info: dict) -> None:
        now = time.monotonic()
        if phase == "start":
            self._gc_started = now
            self._local.gc_cpu = time.thread_time()  # the collection runs in the thread that set it off
        else:
            self.gc.append(
                {
                    "start": self._gc_started,
                    "end": now,
                    "generation": info["generation"],
                    "collected": info["collected"],
                    "cpu": time.thread_time() - getattr(self._local, "gc_cpu", time.thread_time()),
                    "thread": threading.current_thread().name,
                }
            )

    # --- the loop's lag ----------------------------------------------------------------------
    def watch_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.loop_thread = threading.get_ident()
        threading.Thread(target=self._watchdog, name="stalls-watchdog", daemon=True).start()

    def _watchdog(self) -> None:
        loop = self.loop
        assert loop is not None
        while not self.stopping.is_set():
            landed = threading.Event()
            posted = time.monotonic()
            try:
                loop.call_soon_threadsafe(landed.set)
            except RuntimeError:
                return
            stacks: Counter[str] = Counter()
            while not landed.wait(PROBE_EVERY):
                if self.stopping.is_set():
                    return
                if (time.monotonic() - posted) * 1000 > LAG_MS:
                    frame = sys._current_frames().get(self.loop_thread)
                    if frame is not None:
                        stacks[summarise(frame)] += 1
            lag = time.monotonic() - posted
            if lag * 1000 > LAG_MS:
                self.lags.append({"start": posted, "end": posted + lag, "stacks": dict(stacks)})
            time.sleep(PROBE_EVERY)

    # --- commits -------------------------------------------------------------------------------
    def watch_engine(self, engine) -> None:
        from sqlalchemy import event
        from sqlalchemy.orm import Session

        database = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
        if database:
            self.shm = Path(database).with_name(Path(database).name + "-shm")
            with engine.connect() as connection:
                self.autocheckpoint = connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()

        # Each statement's wall time and its thread's CPU time meanwhile: the rest is time the thread
        # did not run, waiting for the database (PostgreSQL's round trip; SQLite's step runs in the
        # thread, on its CPU) or for the GIL back once the driver's C call returned.
        @event.listens_for(engine, "before_cursor_execute")
        def _before_statement(_connection, _cursor, statement, *_args) -> None:
            self._local.statement = (time.monotonic(), time.thread_time(), statement_kind(statement))

        @event.listens_for(engine, "after_cursor_execute")
        def _after_statement(*_args) -> None:
            began = getattr(self._local, "statement", None)
            if began is not None:
                self._local.statement = None
                self.statements.append(
                    (began[0], time.monotonic() - began[0], time.thread_time() - began[1], began[2])
                )

        @event.listens_for(engine, "commit")
        def _before_commit(_connection) -> None:
            self._local.commit = (time.monotonic(), self._backfill())

        @event.listens_for(Session, "after_commit")
        def _after_commit(_session) -> None:
            began = getattr(self._local, "commit", None)
            if began is None:
                return
            self._local.commit = None
            now = time.monotonic()
            backfill = self._backfill()
            moved = None if began[1] is None or backfill is None else backfill - began[1]
            self.commits.append(
                {
                    "start": began[0],
                    "end": now,
                    "checkpoint_frames": moved if moved and moved > 0 else 0,
                    "thread": threading.current_thread().name,
                }
            )

    def _backfill(self) -> int | None:
        """The WAL-index's nBackfill: the frames of the WAL copied back into the database so far
        (offset 96 of the ``-shm`` file, native byte order)."""
        if self.shm is None:
            return None
        try:
            with self.shm.open("rb") as handle:
                handle.seek(96)
                return struct.unpack("=I", handle.read(4))[0]
        except (OSError, struct.error):
            return None

    # --- PostgreSQL ---------------------------------------------------------------------------
    def watch_postgresql(self, url: str) -> None:
        threading.Thread(target=self._pg_sampler, args=(url,), name="stalls-pg", daemon=True).start()

    def _pg_sampler(self, url: str) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        parsed = make_url(url)
        conninfo = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        with contextlib.suppress(Exception), psycopg.connect(conninfo, autocommit=True) as connection:
            while not self.stopping.wait(PG_SAMPLE_EVERY):
                now = time.monotonic()
                rows = connection.execute(
                    "SELECT wait_event_type, wait_event, left(query, 60) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' "
                    "AND wait_event_type IS NOT NULL AND wait_event_type <> 'Client'"
                ).fetchall()
                for kind, name, query in rows:
                    self.pg_waits.append({"at": now, "wait": f"{kind}:{name}", "query": query})

    # --- requests -----------------------------------------------------------------------------
    def wrap(self, app):
        recorder = self

        async def recorded(scope, receive, send):
            if scope["type"] == "lifespan":
                recorder.watch_loop(asyncio.get_running_loop())
                return await app(scope, receive, send)
            if scope["type"] != "http" or scope["path"].endswith("/events"):
                return await app(scope, receive, send)
            started = time.monotonic()
            try:
                return await app(scope, receive, send)
            finally:
                recorder.requests.append(
                    {
                        "start": started,
                        "end": time.monotonic(),
                        "method": scope["method"],
                        "path": scope["path"],
                    }
                )

        return recorded

    # --- the objects kept ----------------------------------------------------------------------
    @staticmethod
    def census(path: Path) -> None:
        """The objects the collector tracks now, by generation and by type (the most numerous),
        written to ``path`` whole (a file renamed into place): what a full collection walks."""
        generations = [len(gc.get_objects(generation)) for generation in range(3)]
        tracked = gc.get_objects()
        types = Counter(f"{type(found).__module__}.{type(found).__qualname__}" for found in tracked)
        census = {
            "tracked": sum(generations),
            "generations": generations,
            "frozen": gc.get_freeze_count(),
            "types": types.most_common(CENSUS_TYPES),
            # rollbook's own, every one (a feed, its channel, the entries queued …)
            "rollbook_types": {name: n for name, n in types.items() if name.startswith("rollbook.")},
        }
        del tracked
        written = path.with_name(path.name + ".part")
        written.write_text(json.dumps(census), encoding="utf-8")
        written.replace(path)

    def dump(self, path: Path) -> None:
        self.stopping.set()
        record = {
            "gc": self.gc,
            "threads": self.threads,
            "gc_thresholds": gc.get_threshold(),
            "gc_frozen": gc.get_freeze_count(),
            "gc_tracked": len(gc.get_objects()),
            "wal_autocheckpoint": self.autocheckpoint,
            "lags": self.lags,
            "commits": self.commits,
            "pg_waits": self.pg_waits,
            "requests": self.requests,
            "statements": self.statements,
        }
        path.write_text(json.dumps(record), encoding="utf-8")


CENSUS_TYPES = 30  # the types a census names


def census_path(record: Path) -> Path:
    """Where the server writes its census of objects, beside its record."""
    return record.with_suffix(".census.json")


_STATEMENT_TABLE = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+(\w+)", re.IGNORECASE)


def statement_kind(statement: str) -> str:
    """A statement's verb and first table (``SELECT members``, ``UPDATE fair_seeds``): which
    statements a roll sends, counted without their parameters."""
    verb = statement.split(None, 1)[0].upper() if statement.strip() else ""
    table = _STATEMENT_TABLE.search(statement)
    return f"{verb} {table.group(1)}" if table else verb


def summarise(frame) -> str:
    """The loop thread's stack, innermost first, as the first few frames of rollbook's code and of
    the libraries on its way (file stem:function)."""
    names = []
    while frame is not None and len(names) < 40:
        code = frame.f_code
        filename = code.co_filename
        if "asyncio" not in filename or not names:
            names.append(f"{Path(filename).stem}:{code.co_name}")
        frame = frame.f_back
    return " < ".join(names[:6])


# --- the join: causes of the slow rolls --------------------------------------------------------


def loop_category(stacks: dict[str, int]) -> str:
    """What held the loop, from the sampled stacks: the most sampled."""
    if not stacks:
        return "no sample (a C call held the GIL)"
    stack = max(stacks.items(), key=lambda item: item[1])[0]
    for needle, what in (
        ("events:entries", "fan-out: the entries' views and JSON"),
        ("sse:", "fan-out: the feeds' events"),
        ("sse_starlette", "fan-out: sse-starlette's send"),
        ("hub:", "the hub"),
        ("presence:", "presence"),
        ("catchup:", "the catch-up"),
        ("h11", "HTTP parsing (h11)"),
        ("routing", "routing"),
        ("selectors:select", "the selector (woken late)"),
    ):
        if needle in stack:
            return what
    return stack.split(" < ")[0]


def intervals(record: dict) -> list[tuple[float, float, str]]:
    """Every recorded stall as (start, end, cause)."""
    found: list[tuple[float, float, str]] = []
    for g in record["gc"]:
        if (g["end"] - g["start"]) * 1000 >= GC_SIGNIFICANT_MS:
            found.append(
                (g["start"], g["end"], "gc, generation 2" if g["generation"] == 2 else "gc, generation 0/1")
            )
    # with wal_autocheckpoint=0 no commit checkpoints: frames copied back during a commit were copied
    # by the checkpointer's thread beside it (the disk shared), not by the commit
    by_commit = record.get("wal_autocheckpoint") != 0
    for c in record["commits"]:
        if c["checkpoint_frames"] and by_commit:
            found.append((c["start"], c["end"], "SQLite: WAL checkpoint in a commit"))
        elif c["checkpoint_frames"] and (c["end"] - c["start"]) * 1000 >= COMMIT_SLOW_MS:
            found.append((c["start"], c["end"], "SQLite: slow commit beside the checkpointer's checkpoint"))
        elif (c["end"] - c["start"]) * 1000 >= COMMIT_SLOW_MS:
            found.append((c["start"], c["end"], "slow commit, no checkpoint"))
    half = PG_SAMPLE_EVERY / 2
    for wait in record["pg_waits"]:
        kind = "PostgreSQL: lock wait" if wait["wait"].startswith("Lock") else f"PostgreSQL: {wait['wait']}"
        found.append((wait["at"] - half, wait["at"] + half, kind))
    for lag in record["lags"]:
        if (lag["end"] - lag["start"]) * 1000 >= 2 * LAG_MS:
            found.append((lag["start"], lag["end"], "event loop late: " + loop_category(lag["stacks"])))
    return found


NONE = "nothing recorded (waiting for CPU)"


def explain(
    record: dict, slow: list[tuple[float, float]], window: tuple[float, float] | None = None
) -> dict[str, Any]:
    """For each slow roll (the client's start and answer), how long each recorded stall overlapped
    it. Its **main cause** is the one that overlapped it longest, if that covers at least a quarter
    of the roll's time (else ``NONE``); **any**: every cause that overlapped it 10 ms or more. With
    the rolls' ``window``: the statements sent per roll in it, by kind."""
    stalls = sorted(intervals(record))
    main: Counter[str] = Counter()
    anywhere: Counter[str] = Counter()
    for start, end in slow:
        overlap: Counter[str] = Counter()
        for s0, s1, cause in stalls:
            if s0 >= end:
                break
            if s1 > start:
                overlap[cause] += min(s1, end) - max(s0, start)
        # the loop cannot run while the collector does, in whichever thread: the loop's lateness
        # under a collection is the collection's (its stack shows the loop waiting for the GIL)
        gc_time = overlap.get("gc, generation 2", 0.0) + overlap.get("gc, generation 0/1", 0.0)
        if gc_time:
            for cause in list(overlap):
                if cause.startswith("event loop late"):
                    overlap[cause] = max(0.0, overlap[cause] - gc_time)
        anywhere.update(cause for cause, seconds in overlap.items() if seconds >= 0.010)
        top = overlap.most_common(1)
        if top and top[0][1] >= 0.25 * (end - start):
            main[top[0][0]] += 1
        else:
            main[NONE] += 1
    total = len(slow)
    gc_all = record["gc"]
    durations = sorted((g["end"] - g["start"]) * 1000 for g in gc_all if g["generation"] == 2)
    cpu = sorted(g.get("cpu", 0.0) * 1000 for g in gc_all if g["generation"] == 2)
    checkpoints = [c for c in record["commits"] if c["checkpoint_frames"]]
    if record.get("wal_autocheckpoint") == 0:
        checkpoints = []  # none made by a commit (see intervals)
    statements = record.get("statements", [])
    walls = sorted(wall * 1000 for _, wall, *_ in statements)
    waits = sorted(max(0.0, wall - cpu) * 1000 for _, wall, cpu, *_ in statements)
    return {
        "slow_rolls": total,
        "statements": len(statements),
        "statement_ms_p50": round(walls[len(walls) // 2], 3) if walls else None,
        "statement_ms_p99": round(walls[int(len(walls) * 0.99)], 3) if walls else None,
        "statement_off_cpu_ms_p50": round(waits[len(waits) // 2], 3) if waits else None,
        "statement_off_cpu_ms_p99": round(waits[int(len(waits) * 0.99)], 3) if waits else None,
        "statement_off_cpu_ms_mean": round(sum(waits) / len(waits), 3) if waits else None,
        "statements_per_roll": statements_per_roll(record, window) if window else {},
        "main_cause": {cause: round(n / total, 3) for cause, n in main.most_common()} if total else {},
        "any_overlap": {cause: round(n / total, 3) for cause, n in anywhere.most_common()} if total else {},
        "gc_collections": {str(g): sum(1 for c in gc_all if c["generation"] == g) for g in (0, 1, 2)},
        "gc2_ms_max": round(durations[-1], 1) if durations else None,
        "gc2_ms_median": round(durations[len(durations) // 2], 1) if durations else None,
        "gc2_cpu_ms_median": round(cpu[len(cpu) // 2], 1) if cpu else None,
        "gc2_cpu_ms_max": round(cpu[-1], 1) if cpu else None,
        "gc_thresholds": record.get("gc_thresholds"),
        "gc_frozen": record.get("gc_frozen"),
        "gc_tracked_at_end": record.get("gc_tracked"),
        "checkpoints": len(checkpoints),
        "checkpoint_commit_ms_max": round(
            max(((c["end"] - c["start"]) * 1000 for c in checkpoints), default=0), 1
        ),
        "commit_ms_p50": _median_ms(record["commits"]),
        "loop_lags_over_40ms": sum(
            1 for lag in record["lags"] if (lag["end"] - lag["start"]) * 1000 >= 2 * LAG_MS
        ),
        "loop_lag_ms_max": round(
            max(((lag["end"] - lag["start"]) * 1000 for lag in record["lags"]), default=0), 1
        ),
    }


def statements_per_roll(record: dict, window: tuple[float, float]) -> dict[str, float]:
    """Statements sent in the rolls' window (its start and end, ``time.monotonic()``) per roll the
    server began in it, by kind (``statement_kind``): the roll's own, the hub's reads, the
    catch-up's, the presence's."""
    start, end = window
    rolls = sum(
        1
        for r in record["requests"]
        if r["method"] == "POST" and r["path"].endswith("/rolls") and start <= r["start"] <= end
    )
    kinds: Counter[str] = Counter(
        row[3] for row in record.get("statements", []) if len(row) > 3 and start <= row[0] <= end
    )
    return {kind: round(n / rolls, 2) for kind, n in kinds.most_common()} if rolls else {}


def _median_ms(events: list[dict]) -> float | None:
    values = sorted((e["end"] - e["start"]) * 1000 for e in events)
    return round(values[len(values) // 2], 2) if values else None


def explanation_lines(why: dict) -> list[str]:
    lines = [f"slow rolls (> {SLOW_MS:.0f} ms): {why['slow_rolls']}; main cause (share):"]
    lines += [f"    {cause}: {share * 100:.0f}%" for cause, share in why["main_cause"].items()]
    lines.append(
        "  overlapped 10 ms or more by (share): "
        + ", ".join(f"{cause} {share * 100:.0f}%" for cause, share in why["any_overlap"].items())
    )
    lines.append(
        f"  gc collections by generation {why['gc_collections']}, generation 2 median/max "
        f"{why['gc2_ms_median']}/{why['gc2_ms_max']} ms (CPU {why['gc2_cpu_ms_median']}/{why['gc2_cpu_ms_max']} ms), thresholds {why['gc_thresholds']}, "
        f"frozen {why['gc_frozen']}, tracked at the end {why['gc_tracked_at_end']}; checkpoints in commits "
        f"{why['checkpoints']} (max {why['checkpoint_commit_ms_max']} ms), commit p50 {why['commit_ms_p50']} ms; "
        f"loop lags ≥ {2 * LAG_MS:.0f} ms {why['loop_lags_over_40ms']} (max {why['loop_lag_ms_max']} ms)"
    )
    if why.get("statements"):
        lines.append(
            f"  statements {why['statements']}: wall p50/p99 {why['statement_ms_p50']}/{why['statement_ms_p99']} ms, "
            f"off their thread's CPU (the database's answer, then the GIL back) p50/p99/mean "
            f"{why['statement_off_cpu_ms_p50']}/{why['statement_off_cpu_ms_p99']}/{why['statement_off_cpu_ms_mean']} ms"
        )
    if why.get("statements_per_roll"):
        per_roll = why["statements_per_roll"]
        lines.append(
            f"  statements per roll while rolling {sum(per_roll.values()):.1f}: "
            + ", ".join(f"{kind} {n}" for kind, n in per_roll.items())
        )
    return lines


# --- the instrumented server ---------------------------------------------------------------------


def serve(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/stalls.py serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--record", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)

    from rollbook.app import serving
    from rollbook.app.app import WORKER_THREADS
    from rollbook.server.engines import database_url

    recorder = Recorder()
    gc.callbacks.append(recorder.on_gc)
    url = database_url(args.database_url)
    recorder.threads = args.threads or WORKER_THREADS
    app = serving.app_for(url, threads=recorder.threads)
    assert not isinstance(app, str)
    recorder.watch_engine(app.state.db.engine)
    if not app.state.db.sqlite:
        recorder.watch_postgresql(url)

    # uvicorn handles SIGTERM, shuts down, then raises the signal again to the handler it found: this
    # one, which writes the record and exits
    def stop(_signum, _frame) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    # asked by tables.py once the rolls' window is over, the feeds still open
    signal.signal(signal.SIGUSR1, lambda _signum, _frame: recorder.census(census_path(args.record)))
    try:
        serving.run(recorder.wrap(app), host=args.host, port=args.port, log_level="warning")
    finally:
        recorder.dump(args.record)
    return 0


def explain_files(argv: list[str]) -> int:
    """``python bench/stalls.py explain RECORD.json…``: the causes again, from a record and its slow
    rolls (``RECORD.slow.json``, written beside it by ``tables.py --why``)."""
    parser = argparse.ArgumentParser(prog="bench/stalls.py explain")
    parser.add_argument("records", type=Path, nargs="+")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    for path in args.records:
        record = json.loads(path.read_text(encoding="utf-8"))
        slow = [
            tuple(span) for span in json.loads(path.with_suffix(".slow.json").read_text(encoding="utf-8"))
        ]
        why = explain(record, slow)  # type: ignore[arg-type]
        print(
            json.dumps({"record": str(path), **why})
            if args.json
            else "\n".join([str(path), *explanation_lines(why)])
        )
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        os.environ.setdefault("PYTHONUNBUFFERED", "1")
        sys.exit(serve(sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "explain":
        sys.exit(explain_files(sys.argv[2:]))
    print("usage: python bench/stalls.py serve --port N --database-url URL --record FILE", file=sys.stderr)
    print("       python bench/stalls.py explain RECORD.json…", file=sys.stderr)
    sys.exit(2)
