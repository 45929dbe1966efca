"""bench/stalls.py (``tables.py --why``): what overlapped each slow roll is named by the longest
recorded stall, and the instrumented server runs the same app and records what it did."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def stalls():
    pytest.importorskip("aiohttp")
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    import stalls

    return stalls


def record(**parts) -> dict:
    empty = {"gc": [], "lags": [], "commits": [], "pg_waits": [], "requests": []}
    return {**empty, **parts}


def test_a_slow_roll_is_put_down_to_the_stall_that_covered_most_of_it(stalls):
    made = record(
        gc=[{"start": 1.0, "end": 1.3, "generation": 2, "collected": 5, "cpu": 0.25}],
        commits=[{"start": 10.0, "end": 10.2, "checkpoint_frames": 900}],
        lags=[{"start": 1.0, "end": 1.3, "stacks": {}}],  # the loop waits while the collector runs
    )
    why = stalls.explain(made, [(0.95, 1.4), (5.0, 5.2), (10.0, 10.25)])
    assert why["slow_rolls"] == 3
    assert why["main_cause"] == {
        "gc, generation 2": pytest.approx(1 / 3, abs=0.001),
        stalls.NONE: pytest.approx(1 / 3, abs=0.001),
        "SQLite: WAL checkpoint in a commit": pytest.approx(1 / 3, abs=0.001),
    }
    assert why["gc2_cpu_ms_max"] == 250.0 and why["checkpoints"] == 1


def test_the_loop_late_under_a_young_collection_is_the_collection(stalls):
    """A generation-1 collection set off in a worker thread holds the GIL: the loop waits in its C
    code (its stack says only ``runners:run``); the collector is the cause, not the loop."""
    made = record(
        gc=[{"start": 2.0, "end": 2.26, "generation": 1, "collected": 24_000, "cpu": 0.26}],
        lags=[{"start": 2.0, "end": 2.262, "stacks": {"runners:run": 40}}],
    )
    why = stalls.explain(made, [(1.98, 2.3)])
    assert why["main_cause"] == {"gc, generation 0/1": 1.0}


def test_with_the_autocheckpoint_off_a_commit_is_not_said_to_checkpoint(stalls):
    made = record(commits=[{"start": 10.0, "end": 10.2, "checkpoint_frames": 900}], wal_autocheckpoint=0)
    why = stalls.explain(made, [(10.0, 10.25)])
    assert "SQLite: WAL checkpoint in a commit" not in why["main_cause"]
    assert why["main_cause"] == {"SQLite: slow commit beside the checkpointer's checkpoint": 1.0}
    assert why["checkpoints"] == 0


def test_a_short_stall_under_a_long_roll_is_not_its_cause(stalls):
    made = record(gc=[{"start": 1.0, "end": 1.01, "generation": 0, "collected": 0, "cpu": 0.01}])
    why = stalls.explain(made, [(0.5, 1.5)])
    assert why["main_cause"] == {stalls.NONE: 1.0}


def test_a_statement_is_named_by_its_verb_and_first_table(stalls):
    assert stalls.statement_kind("SELECT members.id FROM members JOIN member_tokens ON …") == "SELECT members"
    assert stalls.statement_kind("UPDATE fair_seeds SET nonce=(fair_seeds.nonce + 1)") == "UPDATE fair_seeds"
    assert stalls.statement_kind("insert into log_entries (seq) values (1)") == "INSERT log_entries"
    assert stalls.statement_kind("BEGIN IMMEDIATE") == "BEGIN"


def test_statements_per_roll_count_the_window_only(stalls):
    roll = {"method": "POST", "path": "/api/chronicles/1/characters/2/rolls"}
    made = record(
        requests=[
            {**roll, "start": 1.0, "end": 1.1},
            {**roll, "start": 11.0, "end": 11.1},
            {**roll, "start": 12.0, "end": 12.1},
        ],
        statements=[
            (1.0, 0.001, 0.001, "INSERT log_entries"),  # the set-up's roll: before the window
            (11.0, 0.001, 0.001, "INSERT log_entries"),
            (11.05, 0.001, 0.001, "SELECT scenes"),
            (12.0, 0.001, 0.001, "INSERT log_entries"),
        ],
    )
    why = stalls.explain(made, [], window=(10.0, 13.0))
    assert why["statements_per_roll"] == {"INSERT log_entries": 1.0, "SELECT scenes": 0.5}
    assert stalls.explain(made, [])["statements_per_roll"] == {}


def test_the_tables_first_rolls_start_together_only_when_asked(stalls):
    """An exponential first wait makes the tables' rolls a Poisson process from the start (the same
    rate in the first gap as after it); a uniform one puts every table's first roll in the first gap."""
    import random

    import tables

    rng = random.Random(7)
    exponential = [tables.first_wait(rng, 5.0, "exponential") for _ in range(20_000)]
    uniform = [tables.first_wait(rng, 5.0, "uniform") for _ in range(20_000)]
    assert sum(exponential) / len(exponential) == pytest.approx(5.0, rel=0.05)
    assert sum(1 for wait in exponential if wait < 5.0) / len(exponential) == pytest.approx(0.632, abs=0.02)
    assert max(uniform) < 5.0


def test_tables_why_records_the_instrumented_server(tmp_path):
    pytest.importorskip("aiohttp")
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "tables.py"),
            "--stores",
            "sqlite",
            "--processes",
            "1",
            "--tables",
            "4",
            "--no-search",
            "--duration",
            "3",
            "--idle",
            "1",
            "--drain",
            "3",
            "--gap",
            "0.5",
            "--why",
            str(tmp_path / "why"),
            "--threads",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    step = json.loads(done.stdout)["runs"][0]["steps"][0]
    assert step["rolls"] > 0 and step["missing"] == 0 and not step["errors"]
    # the machine's speed beside the step's CPU: a fixed work timed before and after it
    assert all(ms > 0 for ms in step["reference_ms"]) and len(step["reference_ms"]) == 2
    assert step["roll_cpu_in_references"] == pytest.approx(
        step["server_cpu_ms_per_roll"] / (sum(step["reference_ms"]) / 2), rel=0.01
    )
    assert set(step["why"]) >= {"slow_rolls", "main_cause", "gc_collections", "commit_ms_p50"}
    written = json.loads(Path(step["why"]["record"]).read_text(encoding="utf-8"))
    assert written["wal_autocheckpoint"] == 0  # the app's own SQLite connections, as served
    assert written["gc_frozen"] > 0  # served like `rollbook serve`: start-up's objects frozen
    rolls = [r for r in written["requests"] if r["path"].endswith("/rolls")]
    assert len(rolls) >= step["rolls"] and written["commits"] and written["gc"]
    # every statement's wall time and its thread's CPU meanwhile (the waits: the database, the GIL)
    assert len(written["statements"]) >= 8 * step["rolls"]
    assert all(wall >= 0 and cpu >= 0 for _, wall, cpu, _kind in written["statements"])
    assert step["why"]["statement_off_cpu_ms_p50"] is not None
    # the statements of the rolls' window by kind, per roll: each roll appends one entry (a roll
    # begun just before the window's end may append just after it)
    assert step["why"]["statements_per_roll"]["INSERT log_entries"] == pytest.approx(1.0, abs=0.3)
    # served with the threads asked for, and settled as `rollbook serve` settles its collector
    assert step["threads"] == 2 and written["threads"] == 2
    assert written["gc_thresholds"][2] > 10  # full collections wait for more than CPython's 10
    # the census taken after the window, its feeds open: the objects a full collection walks
    census = step["census"]
    assert len(census["generations"]) == 3 and census["frozen"] > 0
    assert census["per_feed"] == round(census["tracked"] / step["feeds_open"]) > 0
    counts = [n for _, n in census["types"]]
    assert len(counts) > 10 and counts == sorted(counts, reverse=True)  # the most numerous first
    assert census["rollbook_types"]["rollbook.server.events.Feed"] == step["feeds_open"]  # all still open
