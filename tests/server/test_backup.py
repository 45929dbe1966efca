"""``rollbook db backup`` / ``rollbook db restore``, on SQLite and PostgreSQL: a backup
taken while 8 clients roll against a real server, restored into an empty store, every chain verified
and every roll acknowledged before the backup began present, as acknowledged; a non-empty target
refused; no pg_dump on PATH: a clear line and exit 2."""

from __future__ import annotations

import os
import secrets
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from rollbook.app.app import create_app
from rollbook.server.copy import open_store
from rollbook.server.models import LogEntry

from .conftest import V5_SHEET, V5_TEST, ThreadedServer, bearer, fresh_pg_database, run_cli

CLIENTS = 8


@contextmanager
def empty_store_like(url: str, tmp_path):
    if url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / f'restored-{secrets.token_hex(3)}.sqlite3'}"
    else:
        with fresh_pg_database() as fresh:
            yield fresh


def wait_for(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.01)


def log_of(url: str, chronicle: int) -> dict[int, str]:
    store = open_store(url)
    try:
        with store.read() as session:
            rows = session.execute(
                select(LogEntry.seq, LogEntry.entry_hash).where(LogEntry.chronicle_id == chronicle)
            ).all()
            return dict(rows)
    finally:
        store.dispose()


def test_backup_while_8_clients_roll_restores_every_acknowledged_roll(fresh_url, tmp_path):
    """On a store of its own: the session's store holds other tests' chronicles, some tampered
    on purpose (tests/server/test_durability.py), which a restore rightly refuses to call verified."""
    database_url = fresh_url
    backup = tmp_path / "rollbook.backup"
    acknowledged: list[tuple[float, int, str]] = []  # (when the answer came, seq, entry_hash)
    errors: list[str] = []
    stop = threading.Event()
    with (
        ThreadedServer(create_app(database_url)) as server,
        httpx.Client(base_url=server.url, timeout=30) as http,
    ):
        created = http.post("/api/chronicles", json={"name": "Backed up", "system": "v5"}).json()
        chronicle = created["chronicle"]["id"]
        base = f"/api/chronicles/{chronicle}"
        players = []
        for n in range(CLIENTS):
            token = http.post(
                "/api/join", json={"invitation": created["invitation"], "name": f"P{n}"}
            ).json()["token"]
            character = http.post(
                f"{base}/characters",
                headers=bearer(token),
                json={"name": f"C{n}", "sheet": {**V5_SHEET, "name": f"C{n}"}},
            ).json()
            players.append((bearer(token), character["id"]))

        def rolls(headers: dict, character: int) -> None:
            with httpx.Client(base_url=server.url, timeout=60) as own:
                while not stop.is_set():
                    answer = own.post(
                        f"{base}/characters/{character}/rolls", headers=headers, json={"action": V5_TEST}
                    )
                    if answer.status_code != 201:
                        errors.append(answer.text)
                        return
                    entry = answer.json()["entry"]
                    acknowledged.append((time.monotonic(), entry["seq"], entry["entry_hash"]))

        threads = [threading.Thread(target=rolls, args=player) for player in players]
        for thread in threads:
            thread.start()
        try:
            wait_for(lambda: len(acknowledged) >= 2 * CLIENTS or errors, "the first rolls")
            started = time.monotonic()
            taken = run_cli("db", "backup", str(backup), "--database-url", database_url)
            assert taken.returncode == 0, taken.stdout + taken.stderr
            finished = time.monotonic()
            # the clients went on rolling: the backup took no lock that stopped them
            wait_for(
                lambda: sum(1 for at, _, _ in acknowledged if at > finished) >= CLIENTS or errors,
                "rolls after the backup",
            )
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=60)
    assert not errors, errors[:3]
    before = {seq: digest for at, seq, digest in acknowledged if at < started}
    assert len(before) >= 2 * CLIENTS
    with empty_store_like(database_url, tmp_path) as target:
        restored = run_cli("db", "restore", str(backup), "--database-url", target, timeout=300)
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "every chain verifies" in restored.stdout
        assert f"chronicle {chronicle}: " in restored.stdout
        log = log_of(target, chronicle)
        assert {seq: log.get(seq) for seq in before} == before  # every acknowledged roll, as acknowledged
        # the backup is one moment: a prefix of the log, no hole
        assert sorted(log) == list(range(1, len(log) + 1))
        checked = run_cli("db", "verify", "--database-url", target)
        assert checked.returncode == 0 and f"chronicle {chronicle}: " in checked.stdout, checked.stdout
        # a second restore into it is refused: it is not empty
        again = run_cli("db", "restore", str(backup), "--database-url", target)
        assert again.returncode == 2 and "not empty" in again.stderr
        assert again.stderr.strip().count("\n") == 0


def test_no_backup_tool_is_a_clear_line_and_exit_2(database_url, tmp_path):
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite's backup needs no tool")
    lonely = tmp_path / "bin"
    lonely.mkdir()
    (lonely / "python").symlink_to(sys.executable)  # PATH holds no pg_dump
    env = {**os.environ, "PATH": str(lonely)}
    answer = run_cli("db", "backup", str(tmp_path / "x.dump"), "--database-url", database_url, env=env)
    assert answer.returncode == 2
    assert "pg_dump is not installed" in answer.stderr and answer.stderr.strip().count("\n") == 0
    assert not Path(tmp_path / "x.dump").exists()


def test_a_file_that_is_not_a_backup_is_refused(tmp_path):
    junk = tmp_path / "junk.backup"
    junk.write_text("not a database", encoding="utf-8")
    answer = run_cli("db", "restore", str(junk), "--database-url", f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    assert answer.returncode == 2 and "Traceback" not in answer.stderr
    assert answer.stderr.strip().count("\n") == 0


def test_a_backup_with_a_planted_trigger_is_refused(tmp_path):
    """A doctored SQLite backup (a trigger rollbook does not make: here one that would keep a removed
    member's key working) is refused whole, and the target stays empty; the same backup as rollbook
    made it restores."""
    import sqlite3

    source = tmp_path / "source.sqlite3"
    made = create_app(f"sqlite:///{source}")
    made.state.db.dispose()
    backup = tmp_path / "backup.sqlite3"
    run_cli("db", "backup", str(backup), "--database-url", f"sqlite:///{source}")
    clean = tmp_path / "clean.sqlite3"
    assert run_cli("db", "restore", str(backup), "--database-url", f"sqlite:///{clean}").returncode == 0
    with sqlite3.connect(backup) as doctored:
        doctored.execute(
            "CREATE TRIGGER keep_keys BEFORE UPDATE ON member_tokens BEGIN SELECT RAISE(IGNORE); END"
        )
    target = tmp_path / "target.sqlite3"
    refused = run_cli("db", "restore", str(backup), "--database-url", f"sqlite:///{target}")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert "trigger keep_keys" in refused.stderr and "Traceback" not in refused.stderr
    with sqlite3.connect(target) as restored:
        names = [row[0] for row in restored.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
    assert "keep_keys" not in names
