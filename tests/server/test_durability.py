"""A real `rollbook serve` stopped and started again loses nothing; tampering behind the triggers'
back is caught by `rollbook log verify`; `rollbook db` migrates."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from rollbook.server.db import Database
from rollbook.server.migrate import head_revision

from .conftest import V20_SHEET, V20_TEST, free_port, rollbook_command, run_cli


def cli(*args: str):
    from rollbook.cli import _load_commands, app

    _load_commands()
    return CliRunner().invoke(app, list(args))


class Served:
    """`rollbook serve` as a subprocess on a temp SQLite file."""

    def __init__(self, database: Path, cwd: Path) -> None:
        self.database, self.cwd = database, cwd
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Served:
        env = {**os.environ, "ROLLBOOK_DATABASE_URL": f"sqlite:///{self.database}"}
        self.process = subprocess.Popen(
            [*rollbook_command(), "serve", "--port", str(self.port), "--log-level", "warning"],
            cwd=self.cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        deadline = time.monotonic() + 60  # a shared, loaded machine may take a while to import and migrate
        while True:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                if self.process.poll() is None:  # still running: stop it, or reading its output never ends
                    self.process.kill()
                output = self.process.stdout.read() if self.process.stdout else ""
                raise RuntimeError(f"rollbook serve did not start: {output}")
            time.sleep(0.1)

    def __exit__(self, *exc) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def test_stopping_and_starting_the_server_loses_nothing(tmp_path):
    database = tmp_path / "chronicle.sqlite3"
    with Served(database, tmp_path) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/api/chronicles", json={"name": "Durable", "system": "v20"}).json()
        headers = {"Authorization": f"Bearer {created['token']}"}
        base = f"/api/chronicles/{created['chronicle']['id']}"
        character = http.post(
            f"{base}/characters", headers=headers, json={"name": "L", "sheet": V20_SHEET}
        ).json()
        rolled = http.post(
            f"{base}/characters/{character['id']}/rolls",
            headers={**headers, "Idempotency-Key": "k1"},
            json={"action": {**V20_TEST, "willpower": True}},
        )
        assert rolled.status_code == 201
        before = http.get(f"{base}/log", headers=headers).json()
    assert database.exists()
    with Served(database, tmp_path) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.get(f"{base}/log", headers=headers).json() == before
        sheet = http.get(f"{base}/characters/{character['id']}", headers=headers).json()
        assert sheet["sheet"]["willpower"]["current"] == 2
        # The idempotency record survived too: the retry after the restart replays, spends nothing.
        replay = http.post(
            f"{base}/characters/{character['id']}/rolls",
            headers={**headers, "Idempotency-Key": "k1"},
            json={"action": {**V20_TEST, "willpower": True}},
        )
        assert replay.json() == rolled.json()
        after = http.post(
            f"{base}/characters/{character['id']}/rolls", headers=headers, json={"action": V20_TEST}
        )
        # entry 1: the seed's commitment (F-1); the seed, sealed before the restart, still opens after it
        assert after.json()["entry"]["seq"] == 3
        assert after.json()["entry"]["prev_hash"] == before["entries"][-1]["entry_hash"]
        assert after.json()["entry"]["receipt"]["fair"]["nonce"] == 2
        export = http.get(f"{base}/log/export", headers=headers).text
    exported = tmp_path / "log.jsonl"
    exported.write_text(export, encoding="utf-8")
    done = run_cli("log", "verify", str(exported))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        done.stdout == "" and "3 entries" in done.stderr and "fair dice: 0 verified, 2 pending" in done.stderr
    )


def _tamper(app, statements: list[str], params: dict) -> None:
    """Run statements with the log's triggers out of the way, all in one transaction (so no other
    test ever sees the log unguarded)."""
    database: Database = app.state.db
    with database.engine.begin() as connection:
        if database.sqlite:
            triggers = [
                row[0]
                for row in connection.execute(
                    text("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'log_entries'")
                )
            ]
            connection.execute(text("DROP TRIGGER log_entries_no_update"))
            connection.execute(text("DROP TRIGGER log_entries_no_delete"))
        else:
            connection.execute(text("ALTER TABLE log_entries DISABLE TRIGGER log_entries_no_update_delete"))
        for statement in statements:
            connection.execute(text(statement), params)
        if database.sqlite:
            for sql in triggers:
                connection.execute(text(sql))
        else:
            connection.execute(text("ALTER TABLE log_entries ENABLE TRIGGER log_entries_no_update_delete"))


def _verify_export(table, tmp_path) -> tuple[int, list[str]]:
    exported = tmp_path / "export.jsonl"
    exported.write_text(table.export(), encoding="utf-8")
    result = cli("log", "verify", str(exported), "--quiet")
    return result.exit_code, result.stdout.splitlines()


def _three_rolls(make_table):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    for _ in range(3):
        assert table.roll(table.st, character["id"], V20_TEST).status_code == 201
    return table


def test_an_entry_edited_behind_the_triggers_back_is_caught(app, make_table, tmp_path, backend):
    table = _three_rolls(make_table)
    assert _verify_export(table, tmp_path) == (0, [])
    edit = (
        (
            "UPDATE log_entries SET receipt = json_set(receipt, '$.result.successes', 42) "
            "WHERE chronicle_id = :c AND seq = 2"
        )
        if backend == "sqlite"
        else (
            "UPDATE log_entries SET receipt = jsonb_set(receipt, '{result,successes}', '42') "
            "WHERE chronicle_id = :c AND seq = 2"
        )
    )
    _tamper(app, [edit], {"c": table.id})
    code, lines = _verify_export(table, tmp_path)
    assert code == 1
    assert "entry 2: hash mismatch" in lines
    assert "entry 2: result differs from its faces (result_mismatch:successes)" in lines
    # The triggers are back: a plain UPDATE is refused again.
    with pytest.raises(Exception, match="append-only"):
        with app.state.db.engine.begin() as connection:
            connection.execute(
                text("UPDATE log_entries SET seq = seq WHERE chronicle_id = :c"), {"c": table.id}
            )


def test_an_entry_deleted_behind_the_triggers_back_is_caught(app, make_table, tmp_path):
    table = _three_rolls(make_table)
    _tamper(app, ["DELETE FROM log_entries WHERE chronicle_id = :c AND seq = 2"], {"c": table.id})
    code, lines = _verify_export(table, tmp_path)
    assert code == 1
    assert lines[:2] == [
        "entry 3: entry 2 missing before it",
        "entry 3: prev_hash does not match the entry before it",
    ]
    # entry 2 was the first roll (entry 1: the seed's commitment, F-1): its nonce is missing (F-3)
    assert len(lines) == 3 and lines[2].startswith("entry 4: Seed ") and "nonce 1 never appears" in lines[2]


def test_an_edited_export_file_is_caught(make_table, tmp_path):
    table = _three_rolls(make_table)
    lines = table.export().splitlines()
    entry = json.loads(lines[1])  # the first roll (entry 1: the seed's commitment, F-1)
    entry["receipt"]["faces"][0] = 10 if entry["receipt"]["faces"][0] != 10 else 1
    lines[1] = json.dumps(entry)
    (tmp_path / "edited.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = cli("log", "verify", str(tmp_path / "edited.jsonl"), "--quiet")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "entry 2: hash mismatch"
    assert all(line.startswith("entry 2: ") for line in result.stdout.splitlines())
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(table.export().splitlines()[:2]) + "\n", encoding="utf-8")
    head = client_head(table)
    assert cli("log", "verify", str(cut), "--quiet").exit_code == 0  # a cut tail needs the head to be seen
    result = cli("log", "verify", str(cut), "--quiet", "--head", head)
    assert result.exit_code == 1 and "does not end with the expected head" in result.stdout


def client_head(table) -> str:
    head = table.client.get(table.base, headers=table.st).json()["log_head"]
    return f"{head['seq']}:{head['entry_hash']}"


def test_log_export_reads_the_database_directly(app, make_table, tmp_path, database_url):
    table = _three_rolls(make_table)
    out = tmp_path / "direct.jsonl"
    result = cli("log", "export", str(table.id), "--database-url", database_url, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == table.export()


def test_db_upgrade_and_status(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    status = cli("db", "status", "--database-url", url)
    assert status.exit_code == 1 and "current: none" in status.stdout
    upgraded = run_cli("db", "upgrade", "--database-url", url)
    assert upgraded.returncode == 0, upgraded.stderr
    status = cli("db", "status", "--database-url", url)
    assert status.exit_code == 0 and f"current: {head_revision()}" in status.stdout  # every migration applied
