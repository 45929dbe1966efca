"""How many tables one server holds: players at a human pace, every member's live feed open.

    pip install -e '.[bench]'
    python bench/tables.py                                   # both stores, 1 and 2 app processes, search N
    python bench/tables.py --stores sqlite --processes 1 --tables 50,100 --no-search --duration 30
    python bench/tables.py --stores postgresql --tables 250,500,1000 --profile prof/

A **table** is one V20 chronicle: its Storyteller and four players, one character per player, and
all five members' live feeds open (``GET /api/chronicles/{id}/events``, server-sent events). Each
table rolls at a human rate: one roll every ``--gap`` seconds on average (exponential gaps, 5 s by
default, the first wait too: the rolls of N tables are a Poisson process of N/gap a second from the
window's start; ``--first-gap uniform`` starts them together instead), by its players in turn. For
each N the script starts a fresh server and store (as ``bench/load.py`` does: ``rollbook serve``
on a temp SQLite file, or a fresh PostgreSQL database dropped afterwards), sets the N tables up
(each with its first roll made: the chronicle's fair-dice seed committed), opens the 5·N feeds,
waits ``--idle`` seconds with every feed open and nothing happening (the server's CPU then is
what idle feeds cost), rolls for ``--duration`` seconds, waits for the feeds to drain, and reports:

- roll latency p50/p99 (``POST …/rolls`` to its answer);
- feed delivery p50/p99: from a roll's answer to each open feed's event of that entry (an event
  that arrives before the answer counts 0);
- missing events (an acknowledged roll some feed of its table never showed, after the drain) and
  feeds that ended early; errors (non-2xx answers, transport errors);
- server CPU per roll (every app process, and PostgreSQL's backends for that database), and the
  server's CPU share while the feeds were idle;
- the machine's speed of the moment: a fixed pure-Python work's CPU time (``reference_work``),
  before and after the step, and the roll's server CPU as a share of it (the shared cores' speed
  varies by half within hours: compare steps by that share, not by milliseconds).

A step **holds** when roll p99 < 100 ms, delivery p99 < 250 ms, nothing is missing and nothing
failed. With ``--search`` (the default) the steps of ``--tables`` are tried in order until one does
not hold, then ``--refine`` bisection steps between the last that held and the first that did not:
the largest N that holds is reported. ``--profile DIR`` records each app process with py-spy during
the rolling window (collapsed stacks, and a summary of where the samples were). ``--why DIR`` (one
process) serves through ``bench/stalls.py`` and says what the server was doing during each roll
slower than 100 ms: collections, the loop's stalls, commits and checkpoints, PostgreSQL's waits;
once the window is over, the feeds still open, it asks that server for a census of the objects it
keeps (what a full collection walks: by generation, the most numerous types, per feed).
``--threads N`` sets the server's worker threads (``rollbook serve --threads``; one process).

The load generator is aiohttp, one process; its own CPU is reported (a saturated generator shows
as delivery, not as the server). The file-descriptor limit is raised to the hard limit for the
generator and the server it starts. Bounded: every step lasts set-up + idle + duration + drain;
every request times out after 30 s. The target is always 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import resource
import secrets
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import (
    STANDING_DIFFICULTY,
    V20_SHEET,
    V20_TEST,
    Profiler,
    Server,
    cpu_spent,
    find_py_spy,
    machine,
    open_store,
    percentile,
    postgres_backend_cpu,
    postgres_problem,
    postgres_version,
    profile_summary,
    stop_on_sigterm,
)
from stalls import SLOW_MS, census_path, explain, explanation_lines

REQUEST_TIMEOUT = 30.0
PLAYERS = 4
ROLL_P99_GOAL_MS = 100.0
DELIVERY_P99_GOAL_MS = 250.0
DEFAULT_TABLES = (50, 100, 200, 400, 700, 1000, 1500)


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else 1 << 20
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


@dataclass
class Member:
    token: str
    character: int | None = None


@dataclass
class Table:
    index: int
    chronicle: int
    storyteller: Member
    players: list[Member]
    start_seq: int = 0
    acknowledged: dict[int, float] = field(default_factory=dict)  # seq -> when its answer arrived
    seen: list[dict[int, float]] = field(default_factory=list)  # per feed: seq -> when its event arrived
    turn: int = 0

    @property
    def base(self) -> str:
        return f"/api/chronicles/{self.chronicle}"

    @property
    def members(self) -> list[Member]:
        return [self.storyteller, *self.players]


@dataclass
class Tally:
    rolls: list[float] = field(default_factory=list)  # seconds
    spans: list[tuple[float, float]] = field(default_factory=list)  # each roll's start and answer
    errors: dict[str, int] = field(default_factory=dict)
    feeds_open: int = 0
    feeds_ended: int = 0  # a feed that ended (or failed) before the step was over
    stop: bool = False

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def set_up(session: aiohttp.ClientSession, count: int, concurrency: int = 16) -> list[Table]:
    semaphore = asyncio.Semaphore(concurrency)

    async def post(path: str, body: dict, token: str | None = None) -> dict:
        async with session.post(path, json=body, headers=headers(token) if token else {}) as response:
            answer = await response.json(content_type=None)
            if response.status != 201:
                raise RuntimeError(f"set-up: POST {path} answered {response.status}: {answer}")
            return answer

    async def table(index: int) -> Table:
        async with semaphore:
            created = await post(
                "/api/chronicles",
                {"name": f"Table {index}", "system": "v20", "difficulty": STANDING_DIFFICULTY["v20"]},
            )
            chronicle = created["chronicle"]["id"]
            players = []
            for number in range(PLAYERS):
                joined = await post(
                    "/api/join", {"invitation": created["invitation"], "name": f"Player {number}"}
                )
                character = await post(
                    f"/api/chronicles/{chronicle}/characters",
                    {"name": f"{V20_SHEET['name']} {number}", "sheet": V20_SHEET},
                    joined["token"],
                )
                players.append(Member(joined["token"], character["id"]))
            # the table's first roll, before the feeds open: it commits the chronicle's fair-dice seed (an
            # entry more) and, the process's first, derives the seed key (scrypt): what a table at play did
            # long ago, not what each of its rolls costs
            await post(
                f"/api/chronicles/{chronicle}/characters/{players[0].character}/rolls",
                {"action": V20_TEST},
                players[0].token,
            )
            async with session.get(
                f"/api/chronicles/{chronicle}/log?limit=1", headers=headers(created["token"])
            ) as r:
                head = (await r.json())["head"]
            return Table(index, chronicle, Member(created["token"]), players, start_seq=head["seq"])

    return list(await asyncio.gather(*(table(i) for i in range(count))))


async def feed(
    session: aiohttp.ClientSession,
    table: Table,
    member: Member,
    seen: dict[int, float],
    tally: Tally,
    opened: asyncio.Event,
    connect: asyncio.Semaphore,
    web: bool = False,
) -> None:
    """One member's live feed: every ``entry`` event's seq and when it arrived (``web``: the web
    table's feed, ``/chronicles/{id}/live``, each event the card drawn for that member)."""
    url = f"{table.base}/events?after={table.start_seq}"
    if web:
        url = f"/chronicles/{table.chronicle}/live?after={table.start_seq}"
    try:
        async with connect:
            response = await session.get(
                url,
                headers=headers(member.token),
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=REQUEST_TIMEOUT),
            )
        async with response:
            if response.status != 200:
                tally.error(f"feed {response.status}")
                return
            tally.feeds_open += 1
            opened.set()
            event, seq = None, None
            async for raw in response.content:
                line = raw.rstrip(b"\r\n")
                if not line:
                    if event == b"entry" and seq is not None:
                        seen.setdefault(seq, time.monotonic())
                    event, seq = None, None
                elif line.startswith(b"id:"):
                    seq = int(line[3:].strip())
                elif line.startswith(b"event:"):
                    event = line[6:].strip()
    except asyncio.CancelledError:
        raise
    except Exception as error:
        tally.error(f"feed {type(error).__name__}")
    finally:
        opened.set()
        if not tally.stop:
            tally.feeds_ended += 1


def reference_work() -> tuple[int, str]:
    """A fixed pure-Python work (dicts, strings, JSON both ways, a hash), independent of rollbook:
    the yardstick of the machine's speed, which on these shared cores is not constant."""
    rows = [{"seq": i, "faces": [i % 10 + 1, (i * 7) % 10 + 1], "name": f"roll {i}"} for i in range(20_000)]
    text = json.dumps(rows)
    back = json.loads(text)
    return sum(row["faces"][0] * row["faces"][1] for row in back), hashlib.sha256(text.encode()).hexdigest()


def reference_ms(rounds: int = 5) -> float:
    """``reference_work``'s CPU time in this thread, best of ``rounds``, in ms: measured before and
    after each step, so that a step's CPU per roll is read against the machine's speed of the moment
    (the same code has cost 7 to 16 ms a roll within three hours)."""
    best = float("inf")
    for _ in range(rounds):
        began = time.thread_time()
        reference_work()
        best = min(best, time.thread_time() - began)
    return round(best * 1000, 1)


def first_wait(rng: random.Random, gap: float, first_gap: str) -> float:
    """A table's wait before its first roll of the window (``--first-gap``)."""
    return rng.uniform(0, gap) if first_gap == "uniform" else rng.expovariate(1.0 / gap)


async def roller(
    session: aiohttp.ClientSession, table: Table, gap: float, until: float, tally: Tally, first_gap: str
) -> None:
    """The table's rolls: one every ``gap`` seconds on average (exponential gaps), players in turn.

    With the first wait exponential too, the N tables' rolls are a Poisson process of N/gap a
    second from the window's first instant. ``first_gap="uniform"`` (the script's only start before
    7 December 2026) puts every table's first roll in the window's first ``gap`` seconds, and a
    third of the tables' second ones: about 1.4 times the rate there, a synchronised start."""
    rng = random.Random(secrets.randbits(64))
    await asyncio.sleep(min(first_wait(rng, gap, first_gap), max(0.0, until - time.monotonic())))
    while time.monotonic() < until and not tally.stop:
        player = table.players[table.turn % len(table.players)]
        table.turn += 1
        path = f"{table.base}/characters/{player.character}/rolls"
        started = time.monotonic()
        try:
            async with session.post(
                path,
                json={"action": V20_TEST},
                headers={**headers(player.token), "Idempotency-Key": secrets.token_urlsafe(16)},
                timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT),
            ) as response:
                body = await response.json(content_type=None)
                answered = time.monotonic()
                if response.status != 201:
                    tally.error(f"roll {response.status} {(body or {}).get('code', '')}".strip())
                else:
                    tally.rolls.append(answered - started)
                    tally.spans.append((started, answered))
                    table.acknowledged[body["entry"]["seq"]] = answered
        except Exception as error:
            tally.error(f"roll {type(error).__name__}")
        await asyncio.sleep(min(rng.expovariate(1.0 / gap), max(0.0, until - time.monotonic())))


def _ms(values: list[float], fraction: float) -> float | None:
    return round(percentile(values, fraction) * 1000, 1) if values else None


async def step(
    server: Server, store_name: str, store_database: str, count: int, args, log, profiler: Profiler | None
) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    async with aiohttp.ClientSession(server.url, connector=connector, timeout=timeout) as session:
        began = time.monotonic()
        tables = await set_up(session, count)
        log(
            f"  {count} tables set up in {time.monotonic() - began:.1f} s; opening {count * (PLAYERS + 1)} feeds"
        )
        tally = Tally()
        connect = asyncio.Semaphore(100)
        feeds, waits = [], []
        for table in tables:
            for member in table.members:
                seen: dict[int, float] = {}
                table.seen.append(seen)
                opened = asyncio.Event()
                waits.append(opened)
                feeds.append(
                    asyncio.create_task(
                        feed(session, table, member, seen, tally, opened, connect, args.feeds == "web")
                    )
                )
        await asyncio.wait_for(asyncio.gather(*(w.wait() for w in waits)), timeout=120)
        log(f"  {tally.feeds_open} feeds open; idle {args.idle:.0f} s")
        db_cpu = (lambda: postgres_backend_cpu(store_database)) if store_name == "postgresql" else dict
        idle_profile = None
        if profiler is not None:
            idle_profile = profiler.start(
                server.pids(), f"{store_name}-{server.processes}p-{count}t-idle", args.idle
            )
        cpu0, db0, t0 = server.cpu(), db_cpu(), time.monotonic()
        await asyncio.sleep(args.idle)
        cpu1, db1, t1 = server.cpu(), db_cpu(), time.monotonic()
        if profiler is not None:
            profiler.stop(idle_profile)
        idle_share = cpu_spent(cpu0, cpu1) / (t1 - t0)
        idle_db_share = cpu_spent(db0, db1) / (t1 - t0)
        log(f"  rolling {args.duration:.0f} s")
        running = None
        if profiler is not None:
            running = profiler.start(
                server.pids(), f"{store_name}-{server.processes}p-{count}t", args.duration
            )
        client0 = time.process_time()
        until = time.monotonic() + args.duration
        await asyncio.gather(
            *(roller(session, table, args.gap, until, tally, args.first_gap) for table in tables)
        )
        rolled = time.monotonic() - (until - args.duration)
        cpu2, db2 = server.cpu(), db_cpu()
        if profiler is not None:
            profiler.stop(running)
        client_cpu = time.process_time() - client0
        # the drain: every acknowledged entry in every feed of its table, or the drain's time is up
        deadline = time.monotonic() + args.drain
        while time.monotonic() < deadline:
            if all(seq in seen for table in tables for seen in table.seen for seq in table.acknowledged):
                break
            await asyncio.sleep(0.1)
        census = await server.census() if isinstance(server, WhyServer) else None
        tally.stop = True
        for task in feeds:
            task.cancel()
        await asyncio.gather(*feeds, return_exceptions=True)
    delivery, missing = [], 0
    for table in tables:
        for seen in table.seen:
            for seq, answered in table.acknowledged.items():
                arrived = seen.get(seq)
                if arrived is None:
                    missing += 1
                else:
                    delivery.append(max(0.0, arrived - answered))
    delivery.sort()
    rolls = sorted(tally.rolls)
    server_cpu = cpu_spent(cpu1, cpu2)
    database_cpu = cpu_spent(db1, db2)
    result = {
        "tables": count,
        "feeds": count * (PLAYERS + 1),
        "feeds_open": tally.feeds_open,
        "feeds_ended_early": tally.feeds_ended,
        "rolls": len(rolls),
        "seconds": round(rolled, 1),
        "rolls_per_s": round(len(rolls) / rolled, 1) if rolled else 0,
        "roll_p50_ms": _ms(rolls, 0.5),
        "roll_p99_ms": _ms(rolls, 0.99),
        "delivery_p50_ms": _ms(delivery, 0.5),
        "delivery_p99_ms": _ms(delivery, 0.99),
        "deliveries": len(delivery),
        "missing": missing,
        "errors": dict(tally.errors),
        "server_cpu_ms_per_roll": round(server_cpu * 1000 / len(rolls), 2) if rolls else None,
        "database_cpu_ms_per_roll": round(database_cpu * 1000 / len(rolls), 2)
        if rolls and store_name == "postgresql"
        else None,
        "idle_cpu_share": round(idle_share, 3),
        "idle_database_cpu_share": round(idle_db_share, 3),
        "client_cpu_share": round(client_cpu / rolled, 2) if rolled else None,
        "load_average": [round(v, 2) for v in os.getloadavg()],
        "slow_spans": [span for span in tally.spans if (span[1] - span[0]) * 1000 > SLOW_MS],
        "window": (until - args.duration, until),
    }
    if census is not None:  # what a full collection walks, the feeds open
        census["per_feed"] = round(census["tracked"] / tally.feeds_open) if tally.feeds_open else None
        result["census"] = census
    result["holds"] = bool(
        rolls
        and result["roll_p99_ms"] < ROLL_P99_GOAL_MS
        and delivery
        and result["delivery_p99_ms"] < DELIVERY_P99_GOAL_MS
        and not missing
        and not tally.errors
        and not tally.feeds_ended
    )
    return result


class WhyServer(Server):
    """One app process started through ``bench/stalls.py serve``: the same app and uvicorn options,
    with its recorders (gc, the loop's lag, commits and checkpoints, PostgreSQL's waits)."""

    def __init__(
        self, store, processes: int, log_dir: Path, record: Path, *, threads: int | None = None
    ) -> None:
        super().__init__(store, processes, log_dir, threads=threads)
        self.record = record

    def command(self) -> list[str]:
        stalls = str(Path(__file__).resolve().with_name("stalls.py"))
        return [
            sys.executable,
            stalls,
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            self.store.url,
            "--record",
            str(self.record),
            *(["--threads", str(self.threads)] if self.threads is not None else []),
        ]

    async def census(self, timeout: float = 60.0) -> dict | None:
        """The server's census of the objects it keeps (``stalls.Recorder.census``), asked for once
        the rolls' window is over and the feeds still open; None if it did not come in time."""
        path = census_path(self.record)
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while not path.exists():
            if time.monotonic() > deadline:
                return None
            await asyncio.sleep(0.1)
        return json.loads(path.read_text(encoding="utf-8"))


def run_step(store_name: str, processes: int, count: int, args, directory: Path, log) -> dict[str, Any]:
    with open_store(store_name, directory) as store:
        record = None
        if args.why is not None:
            if processes != 1:
                raise SystemExit("--why records one app process: --processes 1")
            args.why.mkdir(parents=True, exist_ok=True)
            record = args.why.resolve() / f"{store_name}-{count}t-{secrets.token_hex(3)}.json"
            server: Server = WhyServer(store, processes, directory, record, threads=args.threads)
        else:
            server = Server(store, processes, directory, threads=args.threads)
        profiler = None if args.profile is None else Profiler(args.py_spy, args.profile, gil=args.profile_gil)
        reference_before = reference_ms()
        try:
            server.start()
            result = asyncio.run(step(server, store_name, store.database, count, args, log, profiler))
        finally:
            server.stop()
        result["reference_ms"] = [reference_before, reference_ms()]
        result["threads"] = args.threads
        if result["server_cpu_ms_per_roll"] is not None:
            result["roll_cpu_in_references"] = round(
                result["server_cpu_ms_per_roll"] / (sum(result["reference_ms"]) / 2), 3
            )
        slow, window = result.pop("slow_spans"), result.pop("window")
        if record is not None and record.exists():
            record.with_suffix(".slow.json").write_text(json.dumps(slow), encoding="utf-8")
            result["why"] = explain(json.loads(record.read_text(encoding="utf-8")), slow, window)
            result["why"]["record"] = str(record)
        result["server_tracebacks"] = server.tracebacks()
        if result["server_tracebacks"]:
            result["holds"] = False
            result["server_log_tail"] = server.log_tail(30)
        if profiler is not None:
            result["profile"] = {"files": profiler.files, **profile_summary(profiler.files)}
    return result


def search(store_name: str, processes: int, args, directory: Path, log) -> dict[str, Any]:
    steps, best, worst = [], None, None
    for count in args.tables:
        log(f"{store_name}, {processes} process(es): {count} tables")
        result = run_step(store_name, processes, count, args, directory, log)
        steps.append(result)
        log("  " + line(result))
        for why in explanation_lines(result["why"]) if "why" in result else ():
            log("  " + why)
        if "census" in result:
            census = result["census"]
            log(
                f"    objects tracked, the feeds open: {census['tracked']} (generations "
                f"{'/'.join(map(str, census['generations']))}, frozen apart {census['frozen']}), "
                f"{census['per_feed']} per feed; most: "
                + ", ".join(f"{name.rsplit('.', 1)[-1]} {n}" for name, n in census["types"][:8])
            )
        if result["holds"]:
            best = count
        else:
            worst = count
            if args.search:
                break
    if args.search and worst is not None and best is not None:
        low, high = best, worst
        for _ in range(args.refine):
            middle = (low + high) // 2
            if middle in (low, high) or high - low <= max(10, low // 10):
                break
            log(f"{store_name}, {processes} process(es): {middle} tables")
            result = run_step(store_name, processes, middle, args, directory, log)
            steps.append(result)
            log("  " + line(result))
            low, high = (middle, high) if result["holds"] else (low, middle)
        best = low
    return {"store": store_name, "processes": processes, "largest_holding": best, "steps": steps}


def line(result: dict) -> str:
    errors = ", ".join(f"{k}×{v}" for k, v in result["errors"].items()) or "none"
    db = result.get("database_cpu_ms_per_roll")
    return (
        f"{result['tables']} tables ({result['feeds_open']}/{result['feeds']} feeds): {result['rolls']} rolls "
        f"({result['rolls_per_s']}/s) roll p50/p99 {result['roll_p50_ms']}/{result['roll_p99_ms']} ms, "
        f"delivery p50/p99 {result['delivery_p50_ms']}/{result['delivery_p99_ms']} ms, "
        f"missing {result['missing']}, ended early {result['feeds_ended_early']}, errors {errors}; "
        f"server CPU {result['server_cpu_ms_per_roll']} ms/roll"
        + (f" + PostgreSQL {db} ms/roll" if db is not None else "")
        + f", idle {result['idle_cpu_share'] * 100:.1f}% of a core"
        + (f" + PostgreSQL {result['idle_database_cpu_share'] * 100:.1f}%" if db is not None else "")
        + f", client {result['client_cpu_share']}, load {result['load_average'][0]}"
        + (
            f"; reference work {result['reference_ms'][0]}/{result['reference_ms'][1]} ms before/after"
            f" (a roll's server CPU {result['roll_cpu_in_references']} of it)"
            if result.get("roll_cpu_in_references") is not None
            else ""
        )
        + (" — holds" if result["holds"] else " — does not hold")
    )


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--processes", default="1,2")
    parser.add_argument(
        "--tables", default=",".join(map(str, DEFAULT_TABLES)), help="the numbers of tables to try, in order"
    )
    parser.add_argument(
        "--no-search",
        dest="search",
        action="store_false",
        help="run every step of --tables (else stop at the first that does not hold, then refine)",
    )
    parser.add_argument("--refine", type=int, default=2, help="bisection steps after the first failing N")
    parser.add_argument("--duration", type=float, default=40.0, help="seconds of rolling per step")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds with every feed open and no roll")
    parser.add_argument("--drain", type=float, default=10.0, help="seconds to wait for the last events")
    parser.add_argument("--gap", type=float, default=5.0, help="mean seconds between two rolls of a table")
    parser.add_argument(
        "--first-gap",
        choices=("exponential", "uniform"),
        default="exponential",
        help="a table's wait before its first roll: exponential (the rolls a Poisson process from the "
        "start) or uniform over one gap (every table's first roll in the first gap: a synchronised start)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="the server's worker threads (rollbook serve --threads; one process); default the server's",
    )
    parser.add_argument("--profile", type=Path, default=None, help="py-spy each app process while rolling")
    parser.add_argument(
        "--profile-gil",
        action="store_true",
        help="only the samples of the thread holding the GIL (py-spy --gil): where the CPU goes",
    )
    parser.add_argument(
        "--feeds",
        choices=("api", "web"),
        default="api",
        help="the feeds opened: the API's JSON events (default) or the web table's cards (/live)",
    )
    parser.add_argument(
        "--why",
        type=Path,
        default=None,
        help="record gc, the loop's lag, commits/checkpoints and PostgreSQL's waits in the server "
        "(bench/stalls.py; one process) into DIR, and say what overlapped each roll slower than 100 ms",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    args.stores = [s for s in args.stores.split(",") if s]
    args.processes = [int(p) for p in args.processes.split(",") if p]
    if args.threads is not None and args.processes != [1]:
        parser.error("--threads sets one process's worker threads: --processes 1")
    args.tables = [int(t) for t in args.tables.split(",") if t]
    args.py_spy = find_py_spy() if args.profile else None
    if args.profile and args.py_spy is None:
        parser.error("--profile needs py-spy (the bench extra)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    stop_on_sigterm()
    fds = raise_fd_limit()

    def log(message):
        return print(message, file=sys.stderr, flush=True)

    report: dict[str, Any] = {
        "tool": "bench/tables.py",
        "machine": machine(),
        "fd_limit": fds,
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "runs": [],
    }
    if "postgresql" in args.stores:
        problem = postgres_problem()
        if problem:
            log(f"rollbook tables: {problem}")
            return 2
        report["machine"]["postgresql"] = postgres_version()
    with tempfile.TemporaryDirectory(prefix="rollbook-tables-") as temp:
        for store_name in args.stores:
            for processes in args.processes:
                report["runs"].append(search(store_name, processes, args, Path(temp), log))
    report["load_average_end"] = [round(v, 2) for v in os.getloadavg()]
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(
            f"commit {report['machine']['commit']}, {report['machine']['cores']} cores, load at the end "
            f"{report['load_average_end']}"
        )
        for run in report["runs"]:
            print(
                f"{run['store']}, {run['processes']} process(es): largest N that holds: {run['largest_holding']}"
            )
            for result in run["steps"]:
                print("  " + line(result))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
