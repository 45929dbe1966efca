"""Kill the chronicle server with SIGKILL under load, start it again, and prove nothing was lost.

    pip install -e '.[bench]'
    python bench/crash.py                                  # SQLite and PostgreSQL, 1 and 2 processes each
    python bench/crash.py --stores sqlite --connections 4 --kills 1 --json

For each store and number of app processes it starts the server (as ``bench/load.py`` does: a temp
SQLite file, or a fresh PostgreSQL database dropped afterwards, always on 127.0.0.1), sets up one V20
and one V5 chronicle per connection, and drives the ``play`` load of ``bench/load.py`` (V20 rolls
spending Willpower, V5 rolls and Willpower rerolls, the Storyteller's restores; every request with
its own ``Idempotency-Key``). After ``--kill-after`` seconds it sends SIGKILL to the server's whole
process group, mid-load, starts the server again on the same database, lets every player retry the
request that was cut off (same key, same body) and play on; ``--kills`` times, then ``--after``
seconds more. Then, for every chronicle, it proves through the API and the CLI:

1. **nothing acknowledged is lost**: every 2xx receipt (seq and entry hash) is in the log export;
2. **exactly once**: every log entry was acknowledged to exactly one request (the cut-off requests
   were retried with their keys, so none is left unaccounted for), and no key got two entries;
3. **the chain verifies**: ``rollbook log verify EXPORT --head SEQ:HASH`` (the ``log_head`` the
   server reports) exits 0;
4. **the bank balances**: each character's resources (V20 Willpower, V5 superficial Willpower
   damage) equal their starting value plus the sum of the log's ``effects`` for that character,
   each effect starting where the previous one ended.

It exits 0 when every check holds on every store, 1 when anything is lost or broken (each problem
is printed), 2 when it could not run (e.g. no PostgreSQL server).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load
from load import Control, Recorder, Server, Slot, Table


async def retry_together(url: str, slot: Slot, copies: int, recorder: Recorder) -> None:
    """Retry a cut-off request ``copies`` times at once with its key (a client and a proxy both
    retrying): every answer must be the same acknowledgement, or the same refusal."""
    op = slot.pending
    sessions = [load.new_session(url) for _ in range(copies)]
    try:
        answers = await asyncio.gather(
            *(load.send(session, op) for session in sessions), return_exceptions=True
        )
    finally:
        await asyncio.gather(*(session.close() for session in sessions))
    slot.pending = None
    seen: list[str] = []
    acknowledged = False
    for answer in answers:
        if isinstance(answer, BaseException):
            recorder.problems.append(
                f"{op.kind} {op.path}: a retry after the restart got no answer ({answer!r})"
            )
            seen.append("no answer")
            continue
        status, body, replayed, code = answer
        recorder.record(op.kind, status, code, 0.0)
        if 200 <= status < 300 and body and isinstance(body.get("entry"), dict):
            entry = body["entry"]
            recorder.receipts.append(
                load.Receipt(op.table.chronicle, entry["seq"], entry["entry_hash"], op.kind, op.key, replayed)
            )
            seen.append(f"{status} entry {entry['seq']}")
            if not acknowledged:
                slot.acknowledged(op, body)
                acknowledged = True
        else:
            seen.append(f"{status} {code}")
    if len(set(seen)) > 1:
        recorder.disagreements.append(
            f"{op.kind} {op.method} {op.path}: {copies} retries with one key got {', '.join(sorted(seen))}"
        )


async def crash_run(
    server: Server,
    connections: int,
    kill_after: float,
    kills: int,
    after: float,
    retry_copies: int = 1,
    log=print,
) -> tuple[list[Slot], Recorder, list[int]]:
    """Play, kill -9, restart, retry the cut-off requests (``retry_copies`` at once each), play on.
    Returns the slots, what was acknowledged, and how many requests were cut off at each kill."""
    slots = await load.set_up(server.url, connections)
    recorder = Recorder()
    cut_off = []
    for kill in range(kills):
        control = Control()
        playing = asyncio.create_task(
            load.drive(server.url, slots, "play", kill_after + 120, recorder, control)
        )
        await asyncio.sleep(kill_after)
        control.killed = True
        server.kill()
        await playing
        pending = sum(slot.pending is not None for slot in slots)
        cut_off.append(pending)
        log(
            f"  kill {kill + 1}/{kills}: SIGKILL after {kill_after} s, {recorder.count()} answers so far, "
            f"{pending} request(s) cut off; restarting"
        )
        server.start()
        if retry_copies > 1:
            await asyncio.gather(
                *(
                    retry_together(server.url, slot, retry_copies, recorder)
                    for slot in slots
                    if slot.pending is not None
                )
            )
    await load.drive(server.url, slots, "play", after, recorder, Control())
    return slots, recorder, cut_off


# --- the checks ------------------------------------------------------------------------------


def resource_value(sheet: dict, resource: str) -> Any:
    """The sheet's value of an effect's resource: ``willpower`` (V20: its ``current``),
    ``willpower.superficial`` (V5), …"""
    value: Any = sheet
    for part in resource.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(resource)
        value = value[part]
    if isinstance(value, dict) and "current" in value:
        value = value["current"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise KeyError(resource)
    return value


def check_resources(table: Table, entries: list[dict], sheet_now: dict) -> list[str]:
    """Start + the log's effects = now, each effect starting where the last one ended."""
    problems = []
    running: dict[str, int] = {}
    for entry in entries:
        if entry.get("character") != table.character:
            continue
        for effect in entry.get("effects") or []:
            if "resource" not in effect:
                continue  # a flag (impaired, …), not a change
            resource = effect["resource"]
            if resource not in running:
                try:
                    running[resource] = resource_value(table.start, resource)
                except KeyError:
                    problems.append(
                        f"character {table.character}: cannot read {resource} on its starting sheet"
                    )
                    continue
            if effect["before"] != running[resource]:
                problems.append(
                    f"character {table.character}: entry {entry['seq']} says {resource} went from "
                    f"{effect['before']}, but the log before it leaves {running[resource]}"
                )
            running[resource] = running[resource] + (effect["after"] - effect["before"])
    for resource, expected in sorted(running.items()):
        try:
            actual = resource_value(sheet_now, resource)
        except KeyError:
            problems.append(f"character {table.character}: cannot read {resource} on its sheet")
            continue
        if actual != expected:
            problems.append(
                f"character {table.character}: {resource} is {actual}, start + the log's effects "
                f"give {expected}"
            )
    return problems


def verify_with_cli(path: Path, head: str | None) -> tuple[int, list[str]]:
    """``rollbook log verify FILE --head SEQ:HASH --quiet``: (exit status, its lines).

    Run through the ``rollbook`` console script's own entry point (``rollbook.cli:main``) in this
    process: the same command, without a Python start-up per chronicle."""
    from rollbook.cli import main as rollbook_main

    argv = ["rollbook", "log", "verify", str(path), *(["--head", head] if head else []), "--quiet"]
    out, err = io.StringIO(), io.StringIO()
    saved, sys.argv = sys.argv, argv
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rollbook_main()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.argv = saved
    return code, [line for line in (out.getvalue() + err.getvalue()).splitlines() if line.strip()]


def acknowledged_entries(receipts: list[load.Receipt]) -> tuple[dict[int, dict[int, str]], list[str]]:
    """{chronicle: {seq: entry_hash}} of every 2xx answer, and the contradictions among them
    (one seq acknowledged with two hashes; one Idempotency-Key acknowledged as two entries)."""
    acknowledged: dict[int, dict[int, str]] = {}
    by_key: dict[str, set[tuple[int, int]]] = {}
    twice = []
    for receipt in receipts:
        seqs = acknowledged.setdefault(receipt.chronicle, {})
        if receipt.seq in seqs and seqs[receipt.seq] != receipt.entry_hash:
            twice.append(
                f"chronicle {receipt.chronicle}: seq {receipt.seq} acknowledged with two entry hashes"
            )
        seqs[receipt.seq] = receipt.entry_hash
        if receipt.key is not None:
            by_key.setdefault(receipt.key, set()).add((receipt.chronicle, receipt.seq))
    for places in by_key.values():
        if len(places) > 1:
            twice.append(
                f"one Idempotency-Key acknowledged as {len(places)} different entries: {sorted(places)}"
            )
    return acknowledged, twice


# Entries the server writes of itself, in the transaction of another change (the provably fair dice's
# seed commitments and reveals, SPEC F-1, F-5): no request is told their seq.
SERVER_KINDS = frozenset({"seed_commit", "seed_reveal"})
# And the chronicle's settings entry, logged by its creation (A-5: the standing difficulty the load's
# tables are created with), whose answer names no seq; the load never changes the settings later.
UNTOLD_KINDS = SERVER_KINDS | {"settings"}


def compare_log(
    chronicle: int, acknowledged: dict[int, str], entries: list[dict]
) -> tuple[list[str], list[str]]:
    """(lost, unacknowledged): acknowledged entries missing from the log or changed in it, and log
    entries no request was ever told about."""
    in_log = {entry["seq"]: entry for entry in entries}
    lost, unacknowledged = [], []
    for seq, digest in sorted(acknowledged.items()):
        if seq not in in_log:
            lost.append(f"chronicle {chronicle}: acknowledged entry {seq} ({digest[:12]}…) is not in the log")
        elif in_log[seq]["entry_hash"] != digest:
            lost.append(
                f"chronicle {chronicle}: entry {seq} is {in_log[seq]['entry_hash'][:12]}… in the log, "
                f"{digest[:12]}… when acknowledged"
            )
    for seq in sorted(set(in_log) - set(acknowledged)):
        if in_log[seq]["kind"] in UNTOLD_KINDS:
            continue
        unacknowledged.append(
            f"chronicle {chronicle}: entry {seq} ({in_log[seq]['kind']}) was never acknowledged "
            f"to any request"
        )
    return lost, unacknowledged


def check_store(url: str, slots: list[Slot], recorder: Recorder, directory: Path) -> dict[str, Any]:
    """Every check, every chronicle: see the module's docstring."""
    lost: list[str] = []
    unacknowledged: list[str] = []
    chain: list[str] = []
    resources: list[str] = []
    acknowledged, twice = acknowledged_entries(recorder.receipts)
    tables = [table for slot in slots for table in (slot.v20, slot.v5)]
    exports: list[tuple[Table, Path, str]] = []
    entry_count = 0
    with httpx.Client(base_url=url, timeout=60) as http:
        for table in tables:
            headers = {"Authorization": f"Bearer {table.storyteller}"}
            head = http.get(table.base, headers=headers).json()["log_head"]
            text = http.get(f"{table.base}/log/export", headers=headers).text
            entries = [json.loads(line) for line in text.splitlines() if line.strip()]
            entry_count += sum(
                1 for entry in entries if entry.get("kind") not in UNTOLD_KINDS
            )  # requests' entries
            missing, extra = compare_log(table.chronicle, acknowledged.get(table.chronicle, {}), entries)
            lost.extend(missing)
            unacknowledged.extend(extra)
            sheet_now = http.get(f"{table.base}/characters/{table.character}", headers=headers).json()[
                "sheet"
            ]
            resources.extend(check_resources(table, entries, sheet_now))
            path = directory / f"chronicle-{table.chronicle}.jsonl"
            path.write_text(text, encoding="utf-8")
            exports.append((table, path, f"{head['seq']}:{head['entry_hash']}" if head["seq"] else None))
    verdicts = [(table, *verify_with_cli(path, head)) for table, path, head in exports]
    clean = 0
    for table, code, lines in verdicts:
        if code == 0:
            clean += 1
        else:
            chain.extend(
                f"chronicle {table.chronicle}: rollbook log verify exit {code}: {line}" for line in lines
            )
    request_errors = list(recorder.problems)  # 5xx answers, requests never answered
    checks = {
        "acknowledged": sum(len(seqs) for seqs in acknowledged.values()),
        "entries": entry_count,
        "chronicles": len(tables),
        "chains_clean": clean,
        "characters": len(tables),
        "lost": lost,
        "unacknowledged": unacknowledged,
        "acknowledged_twice": twice,
        "chain_problems": chain,
        "resource_problems": resources,
        "request_errors": request_errors,
        "retries_disagree": list(recorder.disagreements),
    }
    checks["ok"] = not (
        lost or unacknowledged or twice or chain or resources or request_errors or recorder.disagreements
    )
    return checks


# --- command line ----------------------------------------------------------------------------


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--stores",
        type=lambda t: load.parse_list(t, load.STORES),
        default=list(load.STORES),
        help="sqlite,postgresql (default both)",
    )
    parser.add_argument(
        "--processes",
        type=lambda t: load.parse_list(t, kind=int),
        default=[1, 2],
        help="app processes (rollbook serve --workers), e.g. 1,2 (default), on each store",
    )
    parser.add_argument("--connections", type=int, default=16, help="concurrent players (default 16)")
    parser.add_argument(
        "--kill-after", type=float, default=3.0, help="seconds of load before each SIGKILL (default 3)"
    )
    parser.add_argument("--kills", type=int, default=2, help="how many times to kill and restart (default 2)")
    parser.add_argument(
        "--after", type=float, default=2.0, help="seconds of load after the last restart (default 2)"
    )
    parser.add_argument(
        "--retry-copies",
        type=int,
        default=4,
        help="each request cut off by a kill is retried this many times at once with its key; "
        "all must get the same answer (default 4; 1: one plain retry)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document on standard output")
    args = parser.parse_args(argv)
    if not 1 <= args.retry_copies <= 32:
        parser.error("--retry-copies must be 1–32")
    if not 1 <= args.connections <= 256:
        parser.error("--connections must be 1–256")
    if not 0.2 <= args.kill_after <= 300 or not 0 <= args.after <= 300:
        parser.error("--kill-after must be 0.2–300 s and --after 0–300 s")
    if not 1 <= args.kills <= 20:
        parser.error("--kills must be 1–20")
    if any(not 1 <= n <= 8 for n in args.processes):
        parser.error("--processes must be 1–8 each")
    return args


def print_report(report: dict, console) -> None:
    from rich.table import Table as RichTable

    m = report["machine"]
    console.print(
        f"[bold]rollbook crash[/] — {m['cores']} cores ({m['cpu']}), load average {m['load_average']}, "
        f"Python {m['python']}, SQLite {m['sqlite']}"
        + (f", PostgreSQL {m['postgresql']}" if m.get("postgresql") else "")
    )
    s = report["settings"]
    console.print(
        f"{s['connections']} players, SIGKILL after {s['kill_after']} s of load, {s['kills']} time(s), "
        f"each cut-off request retried {s['retry_copies']}× at once with its key, "
        f"{s['after']} s more after the last restart"
    )
    table = RichTable(title="Acknowledged is durable: SIGKILL under load, restart, check")
    for column in (
        "store",
        "procs",
        "answers",
        "cut off",
        "replayed",
        "acked",
        "in log",
        "lost",
        "not acked",
        "chains clean",
        "resources",
        "retries agree",
        "5xx/unanswered",
        "verdict",
    ):
        table.add_column(column, justify="left" if column in ("store", "verdict") else "right")
    for run in report["runs"]:
        c = run["checks"]
        table.add_row(
            run["store"],
            str(run["processes"]),
            str(run["answers"]),
            "+".join(str(n) for n in run["cut_off"]),
            str(run["replayed_after_restart"]),
            str(c["acknowledged"]),
            str(c["entries"]),
            str(len(c["lost"])),
            str(len(c["unacknowledged"])),
            f"{c['chains_clean']}/{c['chronicles']}",
            "ok" if not c["resource_problems"] else f"{len(c['resource_problems'])} wrong",
            "yes" if not c["retries_disagree"] else f"{len(c['retries_disagree'])} not",
            str(len(c["request_errors"])),
            "[green]ok[/]" if c["ok"] else "[red]FAILED[/]",
        )
    console.print(table)
    for run in report["runs"]:
        c = run["checks"]
        for name in (
            "lost",
            "unacknowledged",
            "acknowledged_twice",
            "chain_problems",
            "resource_problems",
            "request_errors",
            "retries_disagree",
        ):
            for problem in c[name][:30]:
                console.print(f"[red]{run['store']}/{run['processes']} {name}: {problem}[/]")
        if run["server_tracebacks"]:
            console.print(
                f"[red]{run['store']}/{run['processes']}: {run['server_tracebacks']} traceback(s) in the "
                f"server log[/]"
            )
    console.print("verdict: " + ("[green]nothing lost[/]" if report["ok"] else "[red]FAILED[/]"))


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    args = arguments(argv)
    load.stop_on_sigterm()
    console = Console(stderr=args.json)
    console.width = max(console.width, 150)

    def log(message):
        return console.print(message, style="dim")

    report: dict[str, Any] = {
        "tool": "bench/crash.py",
        "machine": load.machine(),
        "settings": {
            "connections": args.connections,
            "kill_after": args.kill_after,
            "kills": args.kills,
            "after": args.after,
            "retry_copies": args.retry_copies,
            "stores": args.stores,
            "processes": args.processes,
        },
        "runs": [],
    }
    if "postgresql" in args.stores:
        problem = load.postgres_problem()
        if problem:
            console.print(f"[red]rollbook crash: {problem}[/]")
            return 2
        report["machine"]["postgresql"] = load.postgres_version()
    with tempfile.TemporaryDirectory(prefix="rollbook-crash-") as temp:
        directory = Path(temp)
        for store_name, count, _threads in load.configurations(args.stores, args.processes):
            log(f"{store_name}, {count} app process(es): starting")
            started = time.monotonic()
            with load.open_store(store_name, directory) as store:
                server = Server(store, count, directory)
                try:
                    server.start()
                    slots, recorder, cut_off = asyncio.run(
                        crash_run(
                            server,
                            args.connections,
                            args.kill_after,
                            args.kills,
                            args.after,
                            args.retry_copies,
                            log,
                        )
                    )
                    checks = check_store(server.url, slots, recorder, directory)
                finally:
                    server.stop()
            report["runs"].append(
                {
                    "store": store_name,
                    "processes": count,
                    "server_command": server.shown_command(),
                    "answers": recorder.count(),
                    "cut_off": cut_off,
                    "replayed_after_restart": sum(receipt.replayed for receipt in recorder.receipts),
                    "statuses": {kind: dict(counter) for kind, counter in recorder.statuses.items()},
                    "transport_errors": dict(recorder.transport_errors),
                    "server_starts": server.starts,
                    "server_tracebacks": server.tracebacks(),
                    "seconds": round(time.monotonic() - started, 1),
                    "checks": checks,
                }
            )
    report["ok"] = all(run["checks"]["ok"] for run in report["runs"])
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report, console)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
