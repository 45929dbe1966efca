"""What a host meets at the command line: a first roll that never asks (scripts/try's), one dice
numbering (from 1), read commands that never create a store, backups 0600, one line for every
failure (the traceback with --debug), the serve line once the port answers."""

from __future__ import annotations

import json
import shlex
import subprocess

import httpx
import pytest

from .conftest import REPO, free_port, rollbook_command, run_cli


def _try_roll_line() -> list[str]:
    """The roll scripts/try makes, as it makes it (its first ``rollbook roll`` line)."""
    for line in (REPO / "scripts" / "try").read_text(encoding="utf-8").splitlines():
        if line.startswith(".venv/bin/rollbook roll"):
            words = shlex.split(line.split("<")[0])
            return [*rollbook_command(), *words[1:]]
    raise AssertionError("scripts/try makes no roll")


def test_V5_8_scripts_try_rolls_and_advises_with_stdin_closed():
    done = subprocess.run(
        _try_roll_line(), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "Reroll which dice" not in done.stdout
    assert "Willpower reroll (V5-8)" in done.stdout and "Normal dice: 1 (" in done.stdout


def test_V5_8_roll_v5_never_asks_when_stdin_is_not_a_terminal():
    done = subprocess.run(
        [*rollbook_command(), "roll", "v5", "--pool", "6", "--hunger", "1", "--difficulty", "2"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Reroll which dice" not in done.stdout + done.stderr


def test_V5_8_odds_advice_numbers_dice_from_1_as_reroll_takes_them():
    done = run_cli(
        "odds", "v5", "--advise", "--normal", "8,2,10", "--hunger", "1,6,4", "--difficulty", "4", "--json"
    )
    assert done.returncode == 0, done.stderr
    best = json.loads(done.stdout)["best"]
    assert best["numbers"] == [index + 1 for index in best["dice"]] == [2]
    table = run_cli("odds", "v5", "--advise", "--normal", "8,2,10", "--hunger", "1,6,4", "--difficulty", "4")
    assert "Dice (number)" in table.stdout


@pytest.mark.parametrize(
    "command",
    [
        ("db", "verify"),
        ("db", "status"),
        ("db", "sweep"),
        ("db", "backup", "BACKUP"),
        ("log", "export", "1"),
    ],
)
def test_a_read_command_never_creates_a_mistyped_sqlite_store(tmp_path, command):
    mistyped = tmp_path / "rollbok.sqlite3"
    args = [str(tmp_path / "backup.db") if part == "BACKUP" else part for part in command]
    done = run_cli(*args, "--database-url", f"sqlite:///{mistyped}")
    assert done.returncode in (1, 2), done.stdout + done.stderr
    assert not mistyped.exists()
    said = (done.stdout + done.stderr).strip().splitlines()
    assert any("no database file at" in line for line in said), said
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 1


def test_an_unreachable_store_is_one_line_and_the_traceback_only_with_debug():
    url = f"postgresql+psycopg://nobody@127.0.0.1:{free_port()}/nothing"
    done = run_cli("db", "upgrade", "--database-url", url)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "the database cannot be reached" in lines[0], done.stderr
    assert "--database-url or ROLLBOOK_DATABASE_URL" in lines[0]
    debug = run_cli("--debug", "db", "upgrade", "--database-url", url)
    assert debug.returncode == 1 and "Traceback" in debug.stderr


def test_a_backup_is_written_0600(tmp_path):
    store = f"sqlite:///{tmp_path / 'table.sqlite3'}"
    assert run_cli("db", "upgrade", "--database-url", store).returncode == 0
    backup = tmp_path / "backup.sqlite3"
    done = run_cli("db", "backup", str(backup), "--database-url", store)
    assert done.returncode == 0, done.stderr
    assert backup.stat().st_mode & 0o777 == 0o600


def test_the_serve_line_comes_once_the_port_answers(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [
            *rollbook_command(),
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--database-url",
            f"sqlite:///{tmp_path / 'served.sqlite3'}",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert line.startswith(f"rollbook: serving on http://127.0.0.1:{port}"), line
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10)  # at once: no wait
        assert health.status_code == 200, health.text
        assert health.json()["failed"] == []
    finally:
        process.terminate()
        process.wait(timeout=30)
