"""bench/load.py and bench/crash.py stay runnable: short runs on SQLite (crash also on PostgreSQL),
their output's shape, and crash.py's checks, which must be able to fail."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run_script(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCH / name), *args], capture_output=True, text=True, timeout=180
    )


def load_module(name: str):
    """bench/load.py or bench/crash.py as the modules ``load`` and ``crash`` (crash.py imports load)."""
    pytest.importorskip("aiohttp")
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


@pytest.fixture(scope="module")
def load_report() -> dict:
    pytest.importorskip("aiohttp")
    done = run_script(
        "load.py",
        "--stores",
        "sqlite",
        "--processes",
        "1",
        "--duration",
        "0.9",
        "--rounds",
        "1",
        "--connections",
        "2",
        "--json",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_load_measures_the_bare_endpoint_and_the_durable_roll_in_one_run(load_report):
    assert load_report["machine"]["cores"] >= 1 and load_report["settings"]["connections"] == 2
    [run] = load_report["runs"]
    assert (run["store"], run["processes"]) == ("sqlite", 1)
    for phase in ("bare", "roll", "play"):
        figures = run["phases"][phase]
        assert figures["requests"] > 0 and figures["throughput"] > 0, phase
        assert 0 < figures["p50_ms"] <= figures["p95_ms"] <= figures["p99_ms"] <= figures["max_ms"], phase
        assert figures["server_cpu_ms_per_request"] > 0, phase
    assert set(run["phases"]["bare"]["statuses"]) == {"200"}
    assert set(run["phases"]["roll"]["statuses"]) == {"201"}
    # the play mix makes real rolls: nothing needs the Storyteller's grant (SPEC A-1), nothing is refused
    assert not [label for label in run["phases"]["play"]["statuses"] if label.startswith(("403", "5"))], run[
        "phases"
    ]["play"]["statuses"]
    bare, roll = run["phases"]["bare"]["throughput"], run["phases"]["roll"]["throughput"]
    assert run["ratio_roll_to_bare"] == pytest.approx(roll / bare, abs=0.001)
    assert set(run["phases"]["play"]["operations"]) == {
        "v20_roll_willpower",
        "v20_restore",
        "v5_roll",
        "v5_reroll",
        "v5_restore",
    }
    assert run["server_errors"] == 0 and run["server_tracebacks"] == 0 and run["problems"] == []


def test_load_says_whether_goals_are_met(load_report):
    load = load_module("load")
    assert load.goals(0.5, 49.9) == {"ratio": True, "p99": True}
    assert load.goals(0.499, 50.0) == {"ratio": False, "p99": False}
    assert load.goals(None, None) == {"ratio": False, "p99": False}  # a run without a bare figure
    [run] = load_report["runs"]
    assert run["goals"] == load.goals(run["ratio_roll_to_bare"], run["phases"]["roll"]["p99_ms"])


def test_load_prints_the_rich_tables(load_report):
    from rich.console import Console

    load = load_module("load")
    console = Console(record=True, width=200)
    load.print_report(load_report, console)
    text = console.export_text()
    assert "Bare endpoint against the durable roll" in text and "roll/bare" in text
    assert f"{load_report['runs'][0]['ratio_roll_to_bare']:.2f}" in text
    assert "roll/bare ≥ 0.5, roll p99 < 50 ms" in text and ("ratio met" in text or "ratio not met" in text)
    assert "v5_reroll" in text and "2 cores" in text or f"{load_report['machine']['cores']} cores" in text


def test_load_refuses_bad_options():
    done = run_script("load.py", "--stores", "mysql")
    assert done.returncode == 2 and "mysql" in done.stderr


# Each cut-off request retried 4 times at once with its key: one answer for all, on both stores (the
# key is claimed before the work).
@pytest.mark.parametrize(
    "store, copies", [("sqlite", "4"), pytest.param("postgresql", "4", marks=pytest.mark.postgres)]
)
def test_crash_kill_9_under_load_loses_nothing(store, copies):
    pytest.importorskip("aiohttp")
    if store == "postgresql":
        problem = load_module("load").postgres_problem()
        if problem:
            pytest.skip(problem)
    done = run_script(
        "crash.py",
        "--stores",
        store,
        "--processes",
        "1",
        "--connections",
        "1",
        "--kill-after",
        "1",
        "--kills",
        "1",
        "--after",
        "0.5",
        "--retry-copies",
        copies,
        "--json",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    [run] = report["runs"]
    checks = run["checks"]
    assert report["ok"] and checks["ok"]
    assert run["server_starts"] == 2 and len(run["cut_off"]) == 1
    assert checks["acknowledged"] == checks["entries"] > 0
    assert checks["chains_clean"] == checks["chronicles"] == 2
    for name in (
        "lost",
        "unacknowledged",
        "acknowledged_twice",
        "chain_problems",
        "resource_problems",
        "request_errors",
        "retries_disagree",
    ):
        assert checks[name] == [], name


# --- crash.py's checks can fail ----------------------------------------------------------------


def table(crash, start_willpower: int = 5):
    load = sys.modules["load"]
    return load.Table("v20", 7, "st", "pl", 3, {"willpower": {"permanent": 5, "current": start_willpower}})


def entry(seq: int, character: int, *effects: tuple[str, int, int], kind: str = "roll") -> dict:
    return {
        "seq": seq,
        "kind": kind,
        "character": character,
        "entry_hash": f"{seq:064x}",
        "effects": [{"resource": r, "before": b, "after": a} for r, b, a in effects],
    }


def test_crash_check_resources_balances_start_plus_effects():
    crash = load_module("crash")
    spent = [
        entry(1, 3, ("willpower", 5, 4)),
        entry(2, 9, ("willpower", 1, 0)),
        entry(3, 3, ("willpower", 4, 5), kind="adjust"),
        entry(4, 3, ("willpower", 5, 4)),
    ]
    assert crash.check_resources(table(crash), spent, {"willpower": {"permanent": 5, "current": 4}}) == []
    # The sheet spent a point the log does not show.
    [problem] = crash.check_resources(table(crash), spent, {"willpower": {"permanent": 5, "current": 3}})
    assert problem == "character 3: willpower is 3, start + the log's effects give 4"
    # An effect that does not start where the previous one ended.
    gap = [entry(1, 3, ("willpower", 5, 4)), entry(2, 3, ("willpower", 3, 2))]
    problems = crash.check_resources(table(crash), gap, {"willpower": {"permanent": 5, "current": 3}})
    assert problems == ["character 3: entry 2 says willpower went from 3, but the log before it leaves 4"]
    # V5: a dotted resource read from the sheet as it is.
    assert crash.resource_value({"willpower": {"max": 4, "superficial": 1}}, "willpower.superficial") == 1
    with pytest.raises(KeyError):
        crash.resource_value({"willpower": {"max": 4}}, "willpower.superficial")


def test_crash_compare_log_finds_lost_changed_and_unacknowledged_entries():
    crash = load_module("crash")
    log = [entry(1, 3), entry(2, 3), entry(4, 3)]
    acknowledged = {1: f"{1:064x}", 2: "f" * 64, 3: f"{3:064x}"}
    lost, unacknowledged = crash.compare_log(7, acknowledged, log)
    assert lost == [
        "chronicle 7: entry 2 is 000000000000… in the log, ffffffffffff… when acknowledged",
        "chronicle 7: acknowledged entry 3 (000000000000…) is not in the log",
    ]
    assert unacknowledged == ["chronicle 7: entry 4 (roll) was never acknowledged to any request"]
    assert crash.compare_log(7, {1: f"{1:064x}"}, [entry(1, 3)]) == ([], [])


def test_crash_one_key_acknowledged_as_two_entries_is_caught():
    crash = load_module("crash")
    load = sys.modules["load"]
    receipts = [
        load.Receipt(7, 1, "a" * 64, "v5_roll", "key-1", False),
        load.Receipt(7, 1, "a" * 64, "v5_roll", "key-1", True),  # a replay: the same entry, fine
        load.Receipt(7, 2, "b" * 64, "v5_roll", "key-1", False),
    ]  # the same key executed twice
    acknowledged, twice = crash.acknowledged_entries(receipts)
    assert acknowledged == {7: {1: "a" * 64, 2: "b" * 64}}
    assert twice == ["one Idempotency-Key acknowledged as 2 different entries: [(7, 1), (7, 2)]"]


def test_crash_runs_rollbook_log_verify_which_catches_an_edited_export(tmp_path):
    crash = load_module("crash")
    from rollbook.server.chain import GENESIS_HASH, hash_of

    entry_ = {
        "chronicle": 1,
        "seq": 1,
        "prev_hash": GENESIS_HASH,
        "created_at": "2026-01-01T00:00:00Z",
        "kind": "adjust",
        "actor": {"member": 1},
        "visibility": "public",
        "receipt": {"change": {}},
    }
    entry_["entry_hash"] = hash_of(entry_)
    export = tmp_path / "log.jsonl"
    export.write_text(json.dumps(entry_) + "\n", encoding="utf-8")
    assert crash.verify_with_cli(export, f"1:{entry_['entry_hash']}") == (0, [])
    export.write_text(json.dumps({**entry_, "kind": "roll"}) + "\n", encoding="utf-8")
    code, lines = crash.verify_with_cli(export, None)  # what the kind now claims is checked too
    assert code == 1 and lines[0] == "entry 1: hash mismatch"
    code, lines = crash.verify_with_cli(export, "2:" + "0" * 64)
    assert code == 1 and "entry 2: the log does not end with the expected head" in lines


def test_load_runs_a_one_process_server_per_thread_count(tmp_path):
    load = load_module("load")
    assert load.configurations(["sqlite", "postgresql"], [1, 2], [4, 40]) == [
        ("sqlite", 1, 4),
        ("sqlite", 1, 40),
        ("sqlite", 2, None),
        ("postgresql", 1, 4),
        ("postgresql", 1, 40),
        ("postgresql", 2, None),
    ]
    assert load.configurations(["sqlite"], [1]) == [("sqlite", 1, None)]
    store = load.Store("sqlite", f"sqlite:///{tmp_path / 'x.sqlite3'}", str(tmp_path / "x.sqlite3"))
    server = load.Server(store, 1, tmp_path, threads=4)
    assert server.command()[-2:] == ["--threads", "4"]
    assert "--threads" not in load.Server(store, 1, tmp_path).command()


def test_load_profile_summary_counts_shares_of_samples(tmp_path):
    load = load_module("load")
    stacks = tmp_path / "server.txt"
    stacks.write_text(
        "<module> (rollbook/__main__.py);run (rollbook/app/serving.py);roll (rollbook/server/usecases/rolls.py);"
        "execute (sqlite3.py) 6\n"
        "<module> (rollbook/__main__.py);run (rollbook/app/serving.py);roll (rollbook/server/usecases/rolls.py);"
        "canonical (rollbook/server/chain.py) 3\n"
        "<module> (rollbook/__main__.py);run (rollbook/app/serving.py);send (h11/_connection.py) 1\n"
        "not a stack line\n",
        encoding="utf-8",
    )
    summary = load.profile_summary([str(stacks)])
    assert summary["samples"] == 10
    assert summary["rollbook_inclusive"] == [
        {"function": "roll (rollbook/server/usecases/rolls.py)", "share": 0.9},
        {"function": "canonical (rollbook/server/chain.py)", "share": 0.3},
    ]
    assert summary["own_time"][0] == {"function": "execute (sqlite3.py)", "share": 0.6}
    assert load.profile_summary([]) == {"samples": 0, "rollbook_inclusive": [], "own_time": []}


def test_load_profile_records_where_the_roll_goes(tmp_path):
    """``--profile``: py-spy on the server during the roll's slices, its files in the directory, and the
    use case among the functions the samples were in."""
    pytest.importorskip("aiohttp")
    load = load_module("load")
    if load.find_py_spy() is None:
        pytest.fail("py-spy is a bench extra: pip install -e '.[bench]'")
    done = run_script(
        "load.py",
        "--stores",
        "sqlite",
        "--processes",
        "1",
        "--duration",
        "1.5",
        "--rounds",
        "1",
        "--connections",
        "4",
        "--profile",
        str(tmp_path / "profiles"),
        "--json",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    [run] = json.loads(done.stdout)["runs"]
    profile = run["profile"]
    assert profile["errors"] == [] and profile["files"] and profile["samples"] > 0
    assert all(
        Path(path).parent == tmp_path / "profiles" and "-roll-" in Path(path).name
        for path in profile["files"]
    )
    functions = [entry["function"] for entry in profile["rollbook_inclusive"]]
    assert "roll (rollbook/server/usecases/rolls.py)" in functions, functions
    assert not any("rollbook/cli/" in function for function in functions)


def test_load_profile_without_py_spy_is_a_one_line_refusal(monkeypatch, capsys, tmp_path):
    load = load_module("load")
    monkeypatch.setattr(load, "find_py_spy", lambda: None)
    with pytest.raises(SystemExit) as stopped:
        load.arguments(["--profile", str(tmp_path)])
    assert stopped.value.code == 2 and "--profile needs py-spy" in capsys.readouterr().err
    assert load.arguments([]).py_spy is None


def test_load_profiler_keeps_samples_drops_idle_processes_and_reports_a_missing_file(tmp_path):
    """A process that ran no Python during the slice (uvicorn's supervisor) leaves an empty file: not
    an error, not kept; a py-spy that wrote nothing at all is an error naming the file."""
    load = load_module("load")
    fake = tmp_path / "py-spy"
    fake.write_text(
        "#!/bin/sh\n"
        "pid=$3; out=$(eval echo \\${$#})\n"  # record --pid PID ... --output PATH
        'case $pid in 1) echo "main (rollbook/x.py) 3" > "$out";; 2) : > "$out";; *) echo "cannot attach" >&2;; esac\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    profiler = load.Profiler(str(fake), tmp_path / "out")
    running = profiler.start([1, 2, 3], "sqlite-1p-roll-1", 1.0)
    for process, _ in running:  # done before the slice's end (a SIGINT could stop the shell before it wrote)
        process.wait(timeout=30)
    profiler.stop(running)
    assert profiler.files == [str(tmp_path / "out" / "sqlite-1p-roll-1-pid1.txt")]
    assert not (tmp_path / "out" / "sqlite-1p-roll-1-pid2.txt").exists()
    assert profiler.errors == ["py-spy wrote no sqlite-1p-roll-1-pid3.txt: cannot attach"]
