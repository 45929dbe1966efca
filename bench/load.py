"""Load on the chronicle server, over HTTP on loopback only: the bare endpoint against the durable roll.

    pip install -e '.[bench]'
    python bench/load.py                                  # SQLite and PostgreSQL, 1 and 2 processes each
    python bench/load.py --duration 8 --connections 32    # the defaults
    python bench/load.py --stores sqlite --duration 3 --json
    python bench/load.py --processes 1 --threads 2,4,40     # one-process servers with 2, 4 and 40 worker threads
    python bench/load.py --stores sqlite --processes 1 --profile prof/   # + where the server's time goes (py-spy)

For each store and number of app processes the script starts the server itself (``rollbook serve``
on a temp SQLite file; on PostgreSQL a fresh database created through
``postgresql://postgres@127.0.0.1:5432/test`` — or ``$ROLLBOOK_BENCH_POSTGRES`` — and dropped
afterwards), sets up one V20 and one V5 chronicle per connection (a Storyteller, one player, one
character each) through the JSON API, then drives three kinds of load, each with ``--connections``
concurrent clients, one player per connection, in the same run:

- ``bare``: ``GET /api/systems`` (no database, no token): the speed of the HTTP stack;
- ``roll``: ``POST …/characters/{id}/rolls``, a V20 test (the chronicle's standing difficulty 6:
  the player sets nothing the Storyteller sets, SPEC A-1), each connection on its own chronicle:
  the durable roll of issue 15 (token checked, sheet read, dice drawn, receipt appended, committed);
- ``play``: players at the table: a V20 test spending Willpower, the Storyteller restoring it, a
  V5 test and its Willpower reroll, the Storyteller healing the superficial damage — every
  request with its own ``Idempotency-Key``.

The phases are interleaved in ``--rounds`` slices so that a busy neighbour on a shared machine
weighs on all of them alike. It prints throughput, p50/p95/p99 and the ratio roll / bare per store
and process count, the CPU each request cost the server (and PostgreSQL's backends), and every
non-2xx answer by code. The load generator is aiohttp (httpx's AsyncClient spent ~6 ms of client
CPU per request at 32 connections and became the bottleneck; see bench/README.md); ``--wrk`` adds
a cross-check with ``wrk`` (installed from Debian's packages when missing and possible).

``--profile DIR`` records every server process with py-spy (a ``bench`` extra) during the slices of
``--profile-kinds`` (default ``roll``): one file of collapsed stacks per process and slice in DIR
(speedscope and flamegraph.pl read them), and prints the functions of rollbook the samples were in
and the functions they were spent in, each as a share of the samples. Sampling costs the server a
little CPU: compare CPU per request between runs that both profile, or both do not.

Bounded: every phase stops after its duration (and ``--max-requests``), every request after 30 s,
every server start after 60 s; the servers are stopped and the databases dropped at the end.
The target is always 127.0.0.1: there is no option to aim it elsewhere.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import platform
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

LOOPBACK = "127.0.0.1"
PG_ADMIN_URL = os.environ.get("ROLLBOOK_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REQUEST_TIMEOUT = 30.0
START_TIMEOUT = 60.0
STORES = ("sqlite", "postgresql")
PHASES = ("bare", "roll", "play")

V20_SHEET = {
    "name": "Lucita",
    "attributes": {"dexterity": 3, "wits": 2},
    "skills": {"firearms": 2},
    "virtues": {"courage": 3},
    "willpower": {"permanent": 5, "current": 5},
}
V5_SHEET = {
    "name": "Sasha",
    "attributes": {"dexterity": 3, "wits": 2, "composure": 2, "resolve": 2},
    "skills": {"firearms": 3},
    "hunger": 1,
}
# The player names traits only; the difficulty is the Storyteller's (SPEC A-1): each chronicle is
# created with it as its standing difficulty, so no roll of the mix needs a grant (a player's roll
# that set it would be refused 403 grant_required, or become an ask with "ask": true).
STANDING_DIFFICULTY = {"v20": 6, "v5": 3}
# Issue 15's goals for the durable roll, at 32 connections: its throughput at least half the bare
# endpoint's in the same run, its p99 under 50 ms.
RATIO_GOAL = 0.5
P99_GOAL_MS = 50.0
V20_TEST = {"kind": "test", "attribute": "dexterity", "ability": "firearms"}
V5_TEST = {"kind": "test", "attribute": "dexterity", "skill": "firearms"}


# --- the machine -----------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    commit = None
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=Path(__file__).resolve().parent,
        )
        commit = done.stdout.strip() or None
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "load_average": [round(value, 2) for value in os.getloadavg()],
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "aiohttp": aiohttp.__version__,
        "commit": commit,
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


# --- stores ----------------------------------------------------------------------------------


@dataclass
class Store:
    name: str  # "sqlite" or "postgresql"
    url: str  # the SQLAlchemy URL the server is given
    database: str  # file path or PostgreSQL database name


@contextlib.contextmanager
def sqlite_store(directory: Path) -> Iterator[Store]:
    path = directory / f"bench-{secrets.token_hex(4)}.sqlite3"
    try:
        yield Store("sqlite", f"sqlite:///{path}", str(path))
    finally:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{path}{suffix}").unlink()


def postgres_problem(admin_url: str = PG_ADMIN_URL) -> str | None:
    """None when the PostgreSQL server answers, else why not."""
    import psycopg

    try:
        with psycopg.connect(admin_url, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except Exception as error:
        return f"no PostgreSQL server answers at {admin_url}: {error}".strip()
    return None


def postgres_version(admin_url: str = PG_ADMIN_URL) -> str:
    import psycopg

    with psycopg.connect(admin_url, connect_timeout=3) as connection:
        return str(connection.execute("SHOW server_version").fetchone()[0])


@contextlib.contextmanager
def postgres_store(admin_url: str = PG_ADMIN_URL) -> Iterator[Store]:
    """A fresh database, dropped (WITH (FORCE)) afterwards."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"rollbook_bench_{secrets.token_hex(6)}"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    url = (
        make_url(admin_url)
        .set(drivername="postgresql+psycopg", database=name)
        .render_as_string(hide_password=False)
    )
    try:
        yield Store("postgresql", url, name)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def open_store(name: str, directory: Path) -> Iterator[Store]:
    factory = sqlite_store(directory) if name == "sqlite" else postgres_store()
    with factory as store:
        yield store


# --- the server ------------------------------------------------------------------------------


def serve_has_workers_option() -> bool:
    """Whether this checkout's ``rollbook serve`` takes ``--workers`` (else uvicorn --factory is used)."""
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
    )
    return "--workers" in done.stdout


class Server:
    """The chronicle server as its own process group on 127.0.0.1, killable as a whole."""

    def __init__(
        self,
        store: Store,
        processes: int,
        log_dir: Path,
        *,
        workers_option: bool | None = None,
        threads: int | None = None,
    ) -> None:
        self.store, self.processes, self.log_dir = store, processes, log_dir
        self.threads = threads  # rollbook serve --threads (one process only); None: the server's default
        self.workers_option = workers_option
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.starts = 0
        self.log_path = log_dir / f"server-{store.name}-{processes}-{secrets.token_hex(3)}.log"

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def command(self) -> list[str]:
        port = str(self.port)
        if self.processes == 1:
            threads = ["--threads", str(self.threads)] if self.threads is not None else []
            return [
                sys.executable,
                "-m",
                "rollbook",
                "serve",
                "--host",
                LOOPBACK,
                "--port",
                port,
                "--database-url",
                self.store.url,
                "--log-level",
                "warning",
                *threads,
            ]
        if self.workers_option is None:
            self.workers_option = serve_has_workers_option()
        if self.workers_option:
            return [
                sys.executable,
                "-m",
                "rollbook",
                "serve",
                "--host",
                LOOPBACK,
                "--port",
                port,
                "--database-url",
                self.store.url,
                "--log-level",
                "warning",
                "--workers",
                str(self.processes),
            ]
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "rollbook.app.app:create_app",
            "--host",
            LOOPBACK,
            "--port",
            port,
            "--workers",
            str(self.processes),
            "--log-level",
            "warning",
            "--no-access-log",
        ]

    def shown_command(self) -> str:
        words = ["python" if word == sys.executable else word for word in self.command()]
        return " ".join(words).replace(self.store.url, "URL").replace(f"--port {self.port}", "--port PORT")

    def start(self) -> None:
        self.port = free_port()
        # the bench measures how many feeds a process holds: no bound of the live feeds stops it first,
        # nor the sign-in budgets its one address spends joining every table's players
        env = {
            **os.environ,
            "ROLLBOOK_DATABASE_URL": self.store.url,
            "ROLLBOOK_FEEDS_PER_PROCESS": "1000000",
            "ROLLBOOK_SIGNINS_PER_ADDRESS": "1000000",
            "ROLLBOOK_SIGNINS_PER_CODE": "1000000",
        }
        log = self.log_path.open("a", encoding="utf-8")
        log.write(f"--- start {self.starts + 1}: {self.shown_command()}\n")
        log.flush()
        self.process = subprocess.Popen(
            self.command(),
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=self.log_dir,
        )
        log.close()
        self.starts += 1
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the server exited with status {self.process.returncode}:\n{self.log_tail()}"
                )
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(
                    f"the server did not answer within {START_TIMEOUT:.0f} s:\n{self.log_tail()}"
                )
            if self._healthy():
                break
            time.sleep(0.1)
        if self.processes > 1:  # every worker up: they all answer health once they are started
            deadline = time.monotonic() + START_TIMEOUT
            while len(self.pids()) < self.processes + 1 and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.5)

    def _healthy(self) -> bool:
        with contextlib.suppress(OSError):
            with socket.create_connection((LOOPBACK, self.port), timeout=1) as sock:
                sock.sendall(
                    f"GET /api/health HTTP/1.1\r\nHost: {LOOPBACK}\r\nConnection: close\r\n\r\n".encode()
                )
                return sock.recv(64).startswith(b"HTTP/1.1 200")
        return False

    def pids(self) -> list[int]:
        """Every live process of the server's group (the server, uvicorn's workers)."""
        if self.process is None:
            return []
        group = self.process.pid
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    if int(fields[2]) == group:
                        found.append(int(entry.name))
        return found

    def cpu(self) -> dict[int, float]:
        """CPU seconds so far of each process of the group (see ``cpu_spent``)."""
        return {pid: _cpu_of(pid) for pid in self.pids()}

    def kill(self) -> None:
        """SIGKILL to the whole process group, mid-whatever."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_tail(self, lines: int = 40) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(
                self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
            )
        return ""

    def tracebacks(self) -> int:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(encoding="utf-8", errors="replace").count(
                "Traceback (most recent call last)"
            )
        return 0


_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_of(pid: int) -> float:
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS  # utime + stime
    return 0.0


def cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two samples by the processes alive at the second one (a process
    born in between counts whole; one that ended in between is not seen: a slight undercount)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def postgres_backend_cpu(database: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving ``database`` (their titles name it)."""
    found = {}
    marker = f" {database} ".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                title = (entry / "cmdline").read_bytes()
                if title.startswith(b"postgres: ") and marker in title:
                    found[int(entry.name)] = _cpu_of(int(entry.name))
    return found


# --- the table: chronicles, players, characters ----------------------------------------------


@dataclass
class Table:
    """One chronicle with its Storyteller, one player and the player's character."""

    system: str
    chronicle: int
    storyteller: str
    player: str
    character: int
    start: dict  # the character's sheet as created (the resources' starting values)

    @property
    def base(self) -> str:
        return f"/api/chronicles/{self.chronicle}"


@dataclass
class Op:
    """One request of the play load; kept as is for a retry with the same key."""

    kind: str
    method: str
    path: str
    token: str
    body: dict | None = None
    key: str | None = None
    table: Table | None = None
    attempts: int = 0


@dataclass
class Slot:
    """One connection: one player with a V20 and a V5 character, and where they are in their turn."""

    index: int
    v20: Table
    v5: Table
    step: int = 0
    v20_willpower: int = 0  # current Willpower (V20)
    v5_superficial: int = 0  # superficial Willpower damage (V5)
    v5_roll: int | None = None  # seq of the V5 roll awaiting its reroll
    pending: Op | None = None  # sent, not answered: retried with its key

    def __post_init__(self) -> None:
        self.v20_willpower = self.v20.start["willpower"]["current"]
        self.v5_superficial = self.v5.start["willpower"]["superficial"]

    def bare(self) -> Op:
        return Op("bare", "GET", "/api/systems", "")

    def durable_roll(self) -> Op:
        t = self.v20
        return Op(
            "roll",
            "POST",
            f"{t.base}/characters/{t.character}/rolls",
            t.player,
            {"action": V20_TEST},
            table=t,
        )

    def next_play(self) -> Op:
        """The player's turn, in five steps; a restore is made only when something was spent."""
        while True:
            step, self.step = self.step, (self.step + 1) % 5
            key = secrets.token_urlsafe(24)
            v20, v5 = self.v20, self.v5
            if step == 0:
                return Op(
                    "v20_roll_willpower",
                    "POST",
                    f"{v20.base}/characters/{v20.character}/rolls",
                    v20.player,
                    {"action": {**V20_TEST, "willpower": True}},
                    key,
                    v20,
                )
            if step == 1 and self.v20_willpower < v20.start["willpower"]["permanent"]:
                amount = v20.start["willpower"]["permanent"] - self.v20_willpower
                return Op(
                    "v20_restore",
                    "POST",
                    f"{v20.base}/characters/{v20.character}/adjustments",
                    v20.storyteller,
                    {"change": {"kind": "restore", "resource": "willpower", "amount": amount}},
                    key,
                    v20,
                )
            if step == 2:
                return Op(
                    "v5_roll",
                    "POST",
                    f"{v5.base}/characters/{v5.character}/rolls",
                    v5.player,
                    {"action": V5_TEST},
                    key,
                    v5,
                )
            if step == 3 and self.v5_roll is not None:
                seq, self.v5_roll = self.v5_roll, None
                return Op(
                    "v5_reroll",
                    "POST",
                    f"{v5.base}/log/{seq}/rerolls",
                    v5.player,
                    {"action": {"kind": "reroll", "dice": [0]}},
                    key,
                    v5,
                )
            if step == 4 and self.v5_superficial > 0:
                return Op(
                    "v5_restore",
                    "POST",
                    f"{v5.base}/characters/{v5.character}/adjustments",
                    v5.storyteller,
                    {"change": {"kind": "restore", "resource": "willpower", "amount": self.v5_superficial}},
                    key,
                    v5,
                )

    def acknowledged(self, op: Op, body: dict) -> None:
        sheet = (body.get("character") or {}).get("sheet") or {}
        if op.table is self.v20 and "willpower" in sheet:
            self.v20_willpower = sheet["willpower"]["current"]
        if op.table is self.v5 and "willpower" in sheet:
            self.v5_superficial = sheet["willpower"]["superficial"]
        if op.kind == "v5_roll":
            self.v5_roll = body["entry"]["seq"]


# --- measuring -------------------------------------------------------------------------------


@dataclass
class Receipt:
    """A 2xx answer that appended to a log: what the server acknowledged."""

    chronicle: int
    seq: int
    entry_hash: str
    kind: str
    key: str | None
    replayed: bool


@dataclass
class Recorder:
    latencies: dict[str, list[float]] = field(default_factory=dict)  # kind -> seconds
    statuses: dict[str, Counter] = field(default_factory=dict)  # kind -> Counter("201", "409 busy", …)
    transport_errors: Counter = field(default_factory=Counter)  # kind: error class
    receipts: list[Receipt] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # 5xx and other anomalies, described
    disagreements: list[str] = field(default_factory=list)  # retries of one key answered unlike

    def record(self, kind: str, status: int, code: str | None, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)
        label = str(status) if 200 <= status < 300 or not code else f"{status} {code}"
        self.statuses.setdefault(kind, Counter())[label] += 1

    def count(self, kinds: tuple[str, ...] | None = None) -> int:
        return sum(len(values) for kind, values in self.latencies.items() if kinds is None or kind in kinds)


TRANSPORT_ERRORS = (aiohttp.ClientError, asyncio.TimeoutError, ConnectionError, OSError)


class Killed(Exception):
    """The server went away because the controller killed it: the op stays pending."""


@dataclass
class Control:
    killed: bool = False
    stop: bool = False


async def send(session: aiohttp.ClientSession, op: Op) -> tuple[int, dict | None, bool, str | None]:
    headers = {}
    if op.token:
        headers["Authorization"] = f"Bearer {op.token}"
    if op.key:
        headers["Idempotency-Key"] = op.key
    async with session.request(op.method, op.path, json=op.body, headers=headers) as response:
        raw = await response.read()
        body = None
        code = None
        if raw and response.content_type in ("application/json", "application/problem+json"):
            body = json.loads(raw)
            if response.status >= 300 and isinstance(body, dict):
                code = body.get("code")
        return response.status, body, response.headers.get("Idempotent-Replayed") == "true", code


async def perform(
    session: aiohttp.ClientSession, slot: Slot, op: Op, recorder: Recorder, control: Control
) -> bool:
    """Send ``op`` until it has an answer; True when acknowledged (2xx).

    A 5xx or ``409 busy`` is recorded and the op retried with the same key (a client would), three
    times at most; a transport error while the controller has killed the server raises ``Killed``
    with the op left pending, else it is retried too."""
    while True:
        op.attempts += 1
        slot.pending = op if op.key else None
        started = time.perf_counter()
        try:
            status, body, replayed, code = await send(session, op)
        except TRANSPORT_ERRORS as error:
            if control.killed:
                raise Killed from error
            recorder.transport_errors[f"{op.kind}: {type(error).__name__}"] += 1
            if op.attempts >= 3:
                recorder.problems.append(
                    f"{op.kind} {op.method} {op.path}: no answer after 3 tries "
                    f"({type(error).__name__}: {error})"
                )
                slot.pending = None
                return False
            await asyncio.sleep(0.1)
            continue
        elapsed = time.perf_counter() - started
        recorder.record(op.kind, status, code, elapsed)
        if 200 <= status < 300:
            slot.pending = None
            if body and isinstance(body.get("entry"), dict) and op.table is not None:
                entry = body["entry"]
                recorder.receipts.append(
                    Receipt(op.table.chronicle, entry["seq"], entry["entry_hash"], op.kind, op.key, replayed)
                )
                slot.acknowledged(op, body)
            return True
        if status >= 500:
            recorder.problems.append(
                f"{op.kind} {op.method} {op.path}: {status} {code or ''} "
                f"(attempt {op.attempts}): {json.dumps(body)[:300] if body else ''}"
            )
        if (status >= 500 or code == "busy") and op.key and op.attempts < 3:
            await asyncio.sleep(0.05)
            continue
        slot.pending = None
        return False


def new_session(base_url: str) -> aiohttp.ClientSession:
    """One keep-alive connection per player, as a browser tab or a wrk connection would hold."""
    connector = aiohttp.TCPConnector(limit=1, force_close=False)
    return aiohttp.ClientSession(
        base_url, connector=connector, timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    )


async def drive(
    base_url: str,
    slots: list[Slot],
    phase: str,
    seconds: float,
    recorder: Recorder,
    control: Control,
    max_requests: int | None = None,
) -> float:
    """Every slot loops on ``phase`` for ``seconds`` (or until ``control.stop`` / ``max_requests``);
    returns the elapsed wall time."""
    deadline = time.monotonic() + seconds
    sent = 0

    async def player(slot: Slot) -> None:
        nonlocal sent
        async with new_session(base_url) as session:
            while time.monotonic() < deadline and not control.stop:
                if max_requests is not None and sent >= max_requests:
                    return
                sent += 1
                if slot.pending is not None:
                    op = slot.pending
                elif phase == "bare":
                    op = slot.bare()
                elif phase == "roll":
                    op = slot.durable_roll()
                else:
                    op = slot.next_play()
                try:
                    await perform(session, slot, op, recorder, control)
                except Killed:
                    return

    started = time.monotonic()
    await asyncio.gather(*(player(slot) for slot in slots))
    return time.monotonic() - started


async def set_up(base_url: str, connections: int) -> list[Slot]:
    """One V20 and one V5 chronicle per connection: Storyteller, one player, one character each."""
    semaphore = asyncio.Semaphore(8)

    async def table(session: aiohttp.ClientSession, system: str, sheet: dict, index: int) -> Table:
        async with semaphore:

            async def post(path: str, body: dict, token: str | None = None) -> dict:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                async with session.post(path, json=body, headers=headers) as response:
                    answer = await response.json(content_type=None)
                    if response.status != 201:
                        raise RuntimeError(f"set-up: POST {path} answered {response.status}: {answer}")
                    return answer

            created = await post(
                "/api/chronicles",
                {
                    "name": f"Bench {system} {index}",
                    "system": system,
                    "difficulty": STANDING_DIFFICULTY[system],
                },
            )
            chronicle = created["chronicle"]["id"]
            joined = await post("/api/join", {"invitation": created["invitation"], "name": f"Player {index}"})
            character = await post(
                f"/api/chronicles/{chronicle}/characters",
                {"name": sheet["name"], "sheet": sheet},
                joined["token"],
            )
            return Table(
                system, chronicle, created["token"], joined["token"], character["id"], character["sheet"]
            )

    connector = aiohttp.TCPConnector(limit=8)
    async with aiohttp.ClientSession(
        base_url, connector=connector, timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    ) as session:
        v20 = await asyncio.gather(*(table(session, "v20", V20_SHEET, i) for i in range(connections)))
        v5 = await asyncio.gather(*(table(session, "v5", V5_SHEET, i) for i in range(connections)))
    return [Slot(i, a, b) for i, (a, b) in enumerate(zip(v20, v5))]


# --- figures ---------------------------------------------------------------------------------


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest rank."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), int(-(-fraction * len(sorted_values) // 1))))
    return sorted_values[rank - 1]


def figures(latencies: list[float], seconds: float) -> dict[str, Any]:
    values = sorted(latencies)
    ms = 1000.0
    return {
        "requests": len(values),
        "throughput": round(len(values) / seconds, 1) if seconds > 0 else 0.0,
        "p50_ms": round(percentile(values, 0.50) * ms, 2) if values else None,
        "p95_ms": round(percentile(values, 0.95) * ms, 2) if values else None,
        "p99_ms": round(percentile(values, 0.99) * ms, 2) if values else None,
        "max_ms": round(values[-1] * ms, 2) if values else None,
    }


@dataclass
class PhaseTotals:
    seconds: float = 0.0
    server_cpu: float = 0.0
    db_cpu: float = 0.0
    client_cpu: float = 0.0


PLAY_KINDS = ("v20_roll_willpower", "v20_restore", "v5_roll", "v5_reroll", "v5_restore")


def phase_report(phase: str, recorder: Recorder, totals: PhaseTotals) -> dict[str, Any]:
    kinds = PLAY_KINDS if phase == "play" else (phase,)
    latencies = [value for kind in kinds for value in recorder.latencies.get(kind, [])]
    report = figures(latencies, totals.seconds)
    statuses: Counter = Counter()
    for kind in kinds:
        statuses.update(recorder.statuses.get(kind, Counter()))
    requests = max(1, report["requests"])
    report.update(
        seconds=round(totals.seconds, 2),
        statuses=dict(sorted(statuses.items())),
        server_cpu_ms_per_request=round(totals.server_cpu * 1000 / requests, 3),
        db_cpu_ms_per_request=round(totals.db_cpu * 1000 / requests, 3),
        client_cpu_ms_per_request=round(totals.client_cpu * 1000 / requests, 3),
    )
    if phase == "play":
        report["operations"] = {
            kind: {
                **figures(recorder.latencies.get(kind, []), totals.seconds),
                "statuses": dict(sorted(recorder.statuses.get(kind, Counter()).items())),
            }
            for kind in kinds
        }
    return report


# --- where the server's time goes: py-spy, optional ---------------------------------------------


def find_py_spy() -> str | None:
    beside = Path(sys.executable).with_name("py-spy")  # installed with the bench extra, in the venv
    return str(beside) if beside.exists() else shutil.which("py-spy")


class Profiler:
    """py-spy on every process of the server during one slice of load: collapsed stacks without line
    numbers (``record --format raw --nolineno``), one file per process, stopped with SIGINT (py-spy
    then writes what it sampled) when the slice ends."""

    def __init__(self, py_spy: str, directory: Path, *, gil: bool = False, rate: int = 200) -> None:
        self.py_spy, self.directory, self.gil, self.rate = py_spy, directory, gil, rate
        self.files: list[str] = []
        self.errors: list[str] = []

    def start(self, pids: list[int], name: str, seconds: float) -> list[tuple[subprocess.Popen, Path]]:
        self.directory.mkdir(parents=True, exist_ok=True)
        running = []
        for pid in pids:
            path = self.directory / f"{name}-pid{pid}.txt"
            command = [
                self.py_spy,
                "record",
                "--pid",
                str(pid),
                "--format",
                "raw",
                "--nolineno",
                "--nonblocking",
                "--rate",
                str(self.rate),
                "--duration",
                str(int(seconds) + 5),
                "--output",
                str(path),
            ]
            if self.gil:
                command.append("--gil")
            running.append(
                (
                    subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True),
                    path,
                )
            )
        return running

    def stop(self, running: list[tuple[subprocess.Popen, Path]]) -> None:
        for process, _ in running:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process, path in running:
            try:
                _, error = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                _, error = process.communicate()
            if not path.exists():
                last = (error or "").strip().splitlines()[-1:]
                self.errors.append(f"py-spy wrote no {path.name}: {last[0] if last else 'no message'}")
            elif path.stat().st_size > 0:
                self.files.append(str(path))
            else:  # a process that ran no Python meanwhile (uvicorn's supervisor, a resource tracker)
                path.unlink()


def stack_samples(paths: list[str]) -> Iterator[tuple[list[str], int]]:
    """Every (frames, samples) line of py-spy's collapsed stacks, outermost frame first."""
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                yield stack.split(";"), int(count)


# The frames every sample of the server's main thread is in (the command line, uvicorn's start):
# nothing to learn from their share.
_ENTRY_FRAMES = ("(rollbook/__main__.py)", "(rollbook/cli/", "(rollbook/app/serving.py)")


def profile_summary(paths: list[str], top: int = 16) -> dict[str, Any]:
    """The samples' total; rollbook's functions by the share of samples they were in (inclusive;
    not the entry points every sample of the main thread is in); every function by the share of
    samples spent in it (its own time)."""
    total = 0
    inside: Counter = Counter()
    own: Counter = Counter()
    for frames, count in stack_samples(paths):
        total += count
        for frame in set(frames):
            if "(rollbook/" in frame and not any(entry in frame for entry in _ENTRY_FRAMES):
                inside[frame] += count
        own[frames[-1]] += count
    share = (lambda n: round(n / total, 4)) if total else (lambda n: 0.0)
    return {
        "samples": total,
        "rollbook_inclusive": [{"function": f, "share": share(n)} for f, n in inside.most_common(top)],
        "own_time": [{"function": f, "share": share(n)} for f, n in own.most_common(top)],
    }


# --- one configuration: a store and a number of app processes -------------------------------


async def measure(
    server: Server,
    store: Store,
    connections: int,
    duration: float,
    rounds: int,
    max_requests: int | None,
    log=print,
    profiler: Profiler | None = None,
    profile_kinds: tuple[str, ...] = ("roll",),
) -> dict[str, Any]:
    slots = await set_up(server.url, connections)
    recorder = Recorder()
    control = Control()
    # Warm-up (not recorded): every slot's first roll and the code paths of the bare endpoint.
    warm = Recorder()
    await drive(server.url, slots, "bare", 0.3, warm, control)
    await drive(server.url, slots, "roll", 0.3, warm, control)
    recorder.problems.extend(warm.problems)
    totals = {phase: PhaseTotals() for phase in PHASES}
    slice_seconds = duration / rounds
    for round_number in range(rounds):
        for phase in PHASES:
            sampling = []
            if profiler is not None and phase in profile_kinds:
                sampling = profiler.start(
                    server.pids(),
                    f"{store.name}-{server.processes}p-{phase}-{round_number + 1}",
                    slice_seconds,
                )
                await asyncio.sleep(0.2)  # py-spy attached before the slice starts
            cpu0, db0, client0 = server.cpu(), _db_cpu(store), time.process_time()
            elapsed = await drive(server.url, slots, phase, slice_seconds, recorder, control, max_requests)
            phase_total = totals[phase]
            phase_total.seconds += elapsed
            phase_total.server_cpu += cpu_spent(cpu0, server.cpu())
            phase_total.db_cpu += cpu_spent(db0, _db_cpu(store))
            phase_total.client_cpu += time.process_time() - client0
            if sampling:
                profiler.stop(sampling)
            log(
                f"  round {round_number + 1}/{rounds} {phase}: "
                f"{len(recorder.latencies.get(phase, [])) if phase != 'play' else recorder.count(PLAY_KINDS)} "
                f"requests so far"
            )
    phases = {phase: phase_report(phase, recorder, totals[phase]) for phase in PHASES}
    bare, roll = phases["bare"]["throughput"], phases["roll"]["throughput"]
    ratio = round(roll / bare, 3) if bare else None
    return {
        "phases": phases,
        "ratio_roll_to_bare": ratio,
        "goals": goals(ratio, phases["roll"]["p99_ms"]),
        "server_errors": sum(
            count
            for phase in phases.values()
            for label, count in phase["statuses"].items()
            if label[:1] == "5"
        ),
        "transport_errors": dict(recorder.transport_errors),
        "problems": recorder.problems[:20],
        "receipts": len(recorder.receipts),
        "slots": slots,
    }


def _db_cpu(store: Store) -> dict[int, float]:
    return postgres_backend_cpu(store.database) if store.name == "postgresql" else {}


# --- wrk, an optional cross-check -----------------------------------------------------------


def find_wrk(install: bool = True) -> str | None:
    """``wrk`` on PATH; else installed from Debian's packages when running as root with apt-get."""
    found = shutil.which("wrk")
    if found or not install:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        done = subprocess.run(
            ["apt-get", "install", "-y", "-qq", "wrk"], capture_output=True, text=True, env=env, timeout=300
        )
        if done.returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], capture_output=True, env=env, timeout=300)
            subprocess.run(
                ["apt-get", "install", "-y", "-qq", "wrk"], capture_output=True, env=env, timeout=300
            )
    return shutil.which("wrk")


WRK_ROLL_SCRIPT = """
local paths = {%(paths)s}
local tokens = {%(tokens)s}
local body = '%(body)s'
local n = #paths
local i = 0
request = function()
  i = i + 1
  local k = (i %% n) + 1
  return wrk.format("POST", paths[k], {["Content-Type"] = "application/json",
                                       ["Authorization"] = "Bearer " .. tokens[k]}, body)
end
"""


def run_wrk(wrk: str, url: str, slots: list[Slot], connections: int, seconds: float, directory: Path) -> dict:
    """wrk -t2 on the bare endpoint, then on the durable roll spread over the slots' chronicles."""
    script = directory / "roll.lua"
    paths = ", ".join(f'"{slot.durable_roll().path}"' for slot in slots)
    tokens = ", ".join(f'"{slot.v20.player}"' for slot in slots)
    script.write_text(
        WRK_ROLL_SCRIPT % {"paths": paths, "tokens": tokens, "body": json.dumps({"action": V20_TEST})}
    )
    results = {}
    for name, extra in (("bare", [f"{url}/api/systems"]), ("roll", ["-s", str(script), url])):
        done = subprocess.run(
            [
                wrk,
                "-t2",
                f"-c{connections}",
                f"-d{max(1, round(seconds))}s",
                "--latency",
                "--timeout",
                "30s",
                *extra,
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
        )
        results[name] = parse_wrk(done.stdout)
    bare, roll = results["bare"].get("throughput"), results["roll"].get("throughput")
    results["ratio_roll_to_bare"] = round(roll / bare, 3) if bare and roll else None
    return results


def parse_wrk(text: str) -> dict[str, Any]:
    result: dict[str, Any] = {"non_2xx": 0}
    units = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}
    for line in text.splitlines():
        words = line.split()
        if line.startswith("Requests/sec:"):
            result["throughput"] = float(words[1])
        elif line.strip().startswith("Non-2xx or 3xx responses:"):
            result["non_2xx"] = int(words[-1])
        elif len(words) == 2 and words[0] in ("50%", "90%", "99%"):
            value = words[1]
            for unit in ("us", "ms", "s", "m"):
                if value.endswith(unit) and value[: -len(unit)].replace(".", "", 1).isdigit():
                    result[f"p{words[0][:-1]}_ms"] = round(float(value[: -len(unit)]) * units[unit], 2)
                    break
        elif "requests in" in line:
            result["requests"] = int(words[0])
        elif line.strip().startswith("Socket errors:"):
            result["socket_errors"] = line.split(":", 1)[1].strip()
    return result


# --- output ----------------------------------------------------------------------------------


def goals(ratio: float | None, roll_p99_ms: float | None) -> dict[str, bool]:
    """Issue 15's two goals, each met or not: ``ratio`` (roll/bare ≥ RATIO_GOAL) and ``p99`` (the
    roll's p99 < P99_GOAL_MS)."""
    return {
        "ratio": ratio is not None and ratio >= RATIO_GOAL,
        "p99": roll_p99_ms is not None and roll_p99_ms < P99_GOAL_MS,
    }


def _goals_text(run: dict) -> str:
    met = run["goals"]
    return f"ratio {'met' if met['ratio'] else 'not met'}, p99 {'met' if met['p99'] else 'not met'}"


def _procs(run: dict) -> str:
    """``1``, or ``1×4`` for one process with 4 worker threads asked for."""
    return f"{run['processes']}×{run['threads']}" if run.get("threads") else str(run["processes"])


def print_report(report: dict, console) -> None:
    from rich.table import Table as RichTable

    m = report["machine"]
    console.print(
        f"[bold]rollbook load[/] — {m['cores']} cores ({m['cpu']}), load average at start "
        f"{m['load_average']}, Python {m['python']}, SQLite {m['sqlite']}"
        + (f", PostgreSQL {m['postgresql']}" if m.get("postgresql") else "")
        + (f", commit {m['commit']}" if m.get("commit") else "")
    )
    s = report["settings"]
    console.print(
        f"{s['connections']} connections (one player each), {s['duration']} s per kind of load in "
        f"{s['rounds']} interleaved slices, loopback only"
    )
    summary = RichTable(title="Bare endpoint against the durable roll (issue 15)")
    for column in (
        "store",
        "procs",
        "bare req/s",
        "bare p50/p95/p99 ms",
        "roll req/s",
        "roll p50/p95/p99 ms",
        "roll/bare",
        "goals",
        "play req/s",
        "play p99 ms",
        "5xx",
    ):
        summary.add_column(column, justify="left" if column in ("store",) else "right")
    for run in report["runs"]:
        bare, roll, play = (run["phases"][p] for p in PHASES)
        summary.add_row(
            run["store"],
            _procs(run),
            f"{bare['throughput']:,.0f}",
            _pcts(bare),
            f"{roll['throughput']:,.0f}",
            _pcts(roll),
            f"{run['ratio_roll_to_bare']:.2f}",
            _goals_text(run),
            f"{play['throughput']:,.0f}",
            f"{play['p99_ms']}",
            str(run["server_errors"]),
        )
    console.print(summary)
    console.print(
        f"goals (issue 15): roll/bare ≥ {RATIO_GOAL}, roll p99 < {P99_GOAL_MS:.0f} ms at 32 connections"
    )
    detail = RichTable(title="Per kind of request: latency, answers, CPU per request")
    for column in (
        "store",
        "procs",
        "request",
        "req/s",
        "p50",
        "p95",
        "p99",
        "max ms",
        "answers",
        "server CPU ms",
        "db CPU ms",
    ):
        detail.add_column(column, justify="left" if column in ("store", "request", "answers") else "right")
    for run in report["runs"]:
        for phase in PHASES:
            figures_ = run["phases"][phase]
            rows = [(phase, figures_)]
            if phase == "play":
                rows += [(f"  {kind}", value) for kind, value in figures_["operations"].items()]
            for name, value in rows:
                cpu = value.get("server_cpu_ms_per_request")
                db = value.get("db_cpu_ms_per_request")
                detail.add_row(
                    run["store"],
                    _procs(run),
                    name,
                    f"{value['throughput']:,.1f}",
                    str(value["p50_ms"]),
                    str(value["p95_ms"]),
                    str(value["p99_ms"]),
                    str(value["max_ms"]),
                    ", ".join(f"{k}×{v}" for k, v in value["statuses"].items()),
                    "" if cpu is None else f"{cpu:.2f}",
                    "" if db is None or run["store"] == "sqlite" else f"{db:.2f}",
                )
    console.print(detail)
    for run in report["runs"]:
        if run.get("wrk"):
            w = run["wrk"]
            console.print(
                f"wrk cross-check {run['store']}/{run['processes']}: bare {w['bare'].get('throughput')} req/s "
                f"(p50 {w['bare'].get('p50_ms')} ms, p99 {w['bare'].get('p99_ms')} ms), roll "
                f"{w['roll'].get('throughput')} req/s (p50 {w['roll'].get('p50_ms')} ms, p99 "
                f"{w['roll'].get('p99_ms')} ms, non-2xx {w['roll'].get('non_2xx')}), ratio "
                f"{w.get('ratio_roll_to_bare')}"
            )
        for problem in run["problems"]:
            console.print(f"[red]{run['store']}/{run['processes']}: {problem}[/]")
        if run["server_tracebacks"]:
            console.print(
                f"[red]{run['store']}/{run['processes']}: {run['server_tracebacks']} traceback(s) in the "
                f"server log[/]"
            )
    for run in report["runs"]:
        profile = run.get("profile")
        if not profile:
            continue
        kinds = ", ".join(report["settings"]["profile"]["kinds"])
        where = RichTable(
            title=f"{run['store']}/{_procs(run)}: where the server's samples went during {kinds} "
            f"(py-spy, {profile['samples']:,} samples, {len(profile['files'])} files)"
        )
        for column in (
            "rollbook's function (the samples it was in)",
            "share",
            "function the samples were spent in",
            "share ",
        ):
            where.add_column(column, justify="right" if column.startswith("share") else "left")
        for inside, own in itertools.zip_longest(
            profile["rollbook_inclusive"], profile["own_time"], fillvalue=None
        ):
            where.add_row(
                inside["function"] if inside else "",
                f"{inside['share']:.1%}" if inside else "",
                own["function"] if own else "",
                f"{own['share']:.1%}" if own else "",
            )
        console.print(where)
        for error in profile["errors"]:
            console.print(f"[red]{error}[/]")
    console.print(
        "client CPU per request (load generator): "
        + ", ".join(
            f"{r['store']}/{r['processes']} {r['phases']['roll']['client_cpu_ms_per_request']:.2f} ms"
            for r in report["runs"]
        )
        + f"; load average at the end {report['load_average_end']}"
    )


def _pcts(figures_: dict) -> str:
    return f"{figures_['p50_ms']} / {figures_['p95_ms']} / {figures_['p99_ms']}"


# --- command line ----------------------------------------------------------------------------


def parse_list(text: str, allowed: tuple[str, ...] | None = None, kind=str) -> list:
    values = [kind(part.strip()) for part in text.split(",") if part.strip()]
    if allowed is not None:
        bad = [value for value in values if value not in allowed]
        if bad:
            raise argparse.ArgumentTypeError(f"unknown {', '.join(bad)} (choose from {', '.join(allowed)})")
    if not values:
        raise argparse.ArgumentTypeError("empty list")
    return values


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=8.0,
        help="seconds of each kind of load (bare, roll, play) per configuration (default 8)",
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=32,
        help="concurrent connections, one player and chronicle pair each (default 32)",
    )
    parser.add_argument(
        "--stores",
        type=lambda t: parse_list(t, STORES),
        default=list(STORES),
        help="sqlite,postgresql (default both)",
    )
    parser.add_argument(
        "--processes",
        type=lambda t: parse_list(t, kind=int),
        default=[1, 2],
        help="app processes (rollbook serve --workers), e.g. 1,2 (default): one run each, on each store",
    )
    parser.add_argument(
        "--threads",
        type=lambda t: parse_list(t, kind=int),
        default=[],
        help="worker threads of a one-process server (rollbook serve --threads), e.g. 4,40: "
        "one run each; default the server's own",
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="interleaved slices per kind of load (default 2)"
    )
    parser.add_argument(
        "--max-requests",
        type=int,
        default=2_000_000,
        help="cap on the requests of one slice (default 2,000,000)",
    )
    parser.add_argument("--wrk", action="store_true", help="cross-check bare and roll with wrk (-t2)")
    parser.add_argument("--json", action="store_true", help="print one JSON document on standard output")
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="record the server's processes with py-spy during the slices of --profile-kinds "
        "(collapsed stacks in DIR) and print where their samples went",
    )
    parser.add_argument(
        "--profile-kinds",
        type=lambda t: parse_list(t, PHASES),
        default=["roll"],
        help="the kinds of load --profile samples (default roll)",
    )
    parser.add_argument(
        "--profile-gil",
        action="store_true",
        help="only the samples of the thread holding the GIL (py-spy --gil)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.connections <= 512:
        parser.error("--connections must be 1–512")
    if not 0.2 <= args.duration <= 600:
        parser.error("--duration must be 0.2–600 seconds")
    if not 1 <= args.rounds <= 20:
        parser.error("--rounds must be 1–20")
    if any(not 1 <= n <= 8 for n in args.processes):
        parser.error("--processes must be 1–8 each")
    if any(not 1 <= n <= 64 for n in args.threads):
        parser.error("--threads must be 1–64 each")
    args.py_spy = None
    if args.profile is not None:
        args.py_spy = find_py_spy()
        if args.py_spy is None:
            parser.error("--profile needs py-spy (pip install -e '.[bench]')")
    return args


def configurations(
    stores: list[str], processes: list[int], threads: list[int] | None = None
) -> list[tuple[str, int, int | None]]:
    """(store, app processes, worker threads or None for the server's default); ``threads`` applies to
    one-process servers (``rollbook serve --threads``; several processes run uvicorn's factory)."""
    configs = []
    for store in stores:
        for count in processes:
            for thread_count in (threads or [None]) if count == 1 else [None]:
                configs.append((store, count, thread_count))
    return configs


def stop_on_sigterm() -> None:
    """SIGTERM unwinds like Ctrl+C, so the servers are stopped and the databases dropped."""

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    args = arguments(argv)
    stop_on_sigterm()
    console = Console(stderr=args.json)
    console.width = max(console.width, 150)  # the tables are wide; piped output keeps every column

    def log(message):
        return console.print(message, style="dim")

    report: dict[str, Any] = {
        "tool": "bench/load.py",
        "machine": machine(),
        "settings": {
            "duration": args.duration,
            "connections": args.connections,
            "rounds": args.rounds,
            "stores": args.stores,
            "processes": args.processes,
            "threads": args.threads,
            "profile": None
            if args.profile is None
            else {"directory": str(args.profile), "kinds": args.profile_kinds, "gil": args.profile_gil},
        },
        "runs": [],
    }
    if "postgresql" in args.stores:
        problem = postgres_problem()
        if problem:
            console.print(f"[red]rollbook load: {problem}[/]")
            return 2
        report["machine"]["postgresql"] = postgres_version()
    wrk = find_wrk() if args.wrk else None
    if args.wrk and wrk is None:
        log("wrk is not available here: no cross-check")
    failed = False
    with tempfile.TemporaryDirectory(prefix="rollbook-load-") as temp:
        directory = Path(temp)
        for store_name, count, threads in configurations(args.stores, args.processes, args.threads):
            log(f"{store_name}, {count} app process(es){f', {threads} threads' if threads else ''}: starting")
            with open_store(store_name, directory) as store:
                server = Server(store, count, directory, threads=threads)
                profiler = (
                    None
                    if args.profile is None
                    else Profiler(args.py_spy, args.profile, gil=args.profile_gil)
                )
                try:
                    server.start()
                    run = asyncio.run(
                        measure(
                            server,
                            store,
                            args.connections,
                            args.duration,
                            args.rounds,
                            args.max_requests,
                            log,
                            profiler,
                            tuple(args.profile_kinds),
                        )
                    )
                    if profiler is not None:
                        run["profile"] = {
                            "files": profiler.files,
                            "errors": profiler.errors,
                            **profile_summary(profiler.files),
                        }
                    slots = run.pop("slots")
                    if wrk:
                        run["wrk"] = run_wrk(
                            wrk, server.url, slots, args.connections, args.duration, directory
                        )
                finally:
                    server.stop()
                run.update(
                    store=store_name,
                    processes=count,
                    threads=threads,
                    server_command=server.shown_command(),
                    server_tracebacks=server.tracebacks(),
                )
                if run["server_tracebacks"]:
                    run["server_log_tail"] = server.log_tail(60)
                failed |= bool(run["server_errors"] or run["server_tracebacks"] or run["problems"])
                report["runs"].append(run)
    report["load_average_end"] = [round(value, 2) for value in os.getloadavg()]
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report, console)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
