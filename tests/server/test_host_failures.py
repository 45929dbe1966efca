"""A store failure is answered, not dropped: 503 ``database_unavailable`` or 507 ``storage_full``
(a problem saying to try again), on a keep-alive connection that stays open, one log line per failed
request and one traceback per cause; ``/api/health`` says which check failed; the server recovers
by itself once the store does. The fault is injected at the store's boundary (every statement the
engine sends raises), on SQLite and PostgreSQL."""

from __future__ import annotations

import http.client
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import httpx
import psycopg
import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from rollbook.app.app import create_app
from rollbook.server import failures

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, free_port, wait_until
from .conftest import Table as ChronicleTable


class Fault:
    """While ``error`` is set, every statement the engine sends raises it (as the driver would)."""

    def __init__(self, engine) -> None:
        self.error: BaseException | None = None
        event.listen(engine, "before_cursor_execute", self._maybe_raise)

    def _maybe_raise(self, _connection, _cursor, statement, parameters, _context, _many) -> None:
        if self.error is not None:
            raise OperationalError(statement, parameters, self.error)


def _disk_full(backend: str) -> BaseException:
    if backend == "sqlite":
        return sqlite3.OperationalError("database or disk is full")
    return psycopg.errors.DiskFull('could not extend file "base/1/2": No space left on device')


def _down(backend: str) -> BaseException:
    if backend == "sqlite":
        return sqlite3.OperationalError("disk I/O error")
    return psycopg.OperationalError("server closed the connection unexpectedly")


class Captured(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_store_failures_are_problems_on_a_kept_connection(fresh_url, backend, monkeypatch):
    monkeypatch.setattr(failures, "tracebacks", failures._TracebackWindow())
    app = create_app(fresh_url)
    fault = Fault(app.state.db.engine)
    captured = Captured()
    watched = [logging.getLogger("rollbook.server"), logging.getLogger("uvicorn.error")]
    with ThreadedServer(app) as server:
        for logger in watched:
            logger.addHandler(captured)
        try:
            with httpx.Client(base_url=server.url) as client:
                created = client.post("/api/chronicles", json={"name": "Outage", "system": "v20"})
                table = ChronicleTable(client, created.json())
                player = table.join()
                character = table.character(player, V20_SHEET)
            roll_path = f"{table.base}/characters/{character['id']}/rolls"
            roll_body = json.dumps({"action": V20_TEST})
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

            def ask(method: str, path: str, body: str | None = None) -> tuple[int, dict]:
                headers = {**player, "Content-Type": "application/json"} if body else dict(player)
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, json.loads(response.read() or b"{}")

            status, _ = ask("POST", roll_path, roll_body)
            assert status in (200, 201)
            socket_before = connection.sock
            for cause, expected in (
                (_down(backend), (503, "database_unavailable")),
                (_disk_full(backend), (507, "storage_full")),
            ):
                fault.error = cause
                for _ in range(5):
                    for method, path, body in (
                        ("POST", roll_path, roll_body),
                        ("GET", f"{table.base}/log", None),
                    ):
                        status, problem = ask(method, path, body)
                        assert (status, problem["code"]) == expected, problem
                        assert "try again" in problem["detail"]
                status, health = ask("GET", "/api/health")
                assert status == 503 and "store" in health["failed"], health
                assert health["checks"]["store"]["code"] == expected[1]
            assert connection.sock is socket_before  # the same keep-alive connection throughout
            failed_lines = [r for r in captured.records if "failed:" in r.getMessage()]
            assert len(failed_lines) == 20  # one line per failed request
            assert len([r for r in captured.records if r.exc_info]) == 2  # one traceback per cause
            assert not [r for r in captured.records if r.name == "uvicorn.error"]
            fault.error = None  # the store is back: so is the server, by itself
            status, _ = ask("POST", roll_path, roll_body)
            assert status in (200, 201)
            status, health = ask("GET", "/api/health")
            assert status == 200 and health["failed"] == [], health
            connection.close()
        finally:
            for logger in watched:
                logger.removeHandler(captured)


PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))


class ThrowawayCluster:
    """A PostgreSQL cluster of the test's own in a temporary directory (initdb, pg_ctl), on a free
    port: the test stops and starts it. As root, its commands run as the ``postgres`` user."""

    def __init__(self) -> None:
        self.bin = PG_BIN[-1].parent
        self.dir = Path(tempfile.mkdtemp(prefix="rollbook-pg-"))
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.dir, "postgres")
        self.data = self.dir / "data"
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            [*self.as_user, str(self.bin / tool), *args], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self) -> str:
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as c:
            c.execute("CREATE DATABASE rollbook")
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/rollbook"

    def remove(self) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.mark.postgres
@pytest.mark.skipif(not PG_BIN, reason="no PostgreSQL server binaries under /usr/lib/postgresql")
def test_postgresql_stopped_mid_test_is_answered_503_then_recovered(monkeypatch):
    monkeypatch.setattr(failures, "tracebacks", failures._TracebackWindow())
    cluster = ThrowawayCluster()
    captured = Captured()
    watched = logging.getLogger("rollbook")
    try:
        cluster.start()
        app = create_app(cluster.url())
        with ThreadedServer(app) as server:
            with httpx.Client(base_url=server.url) as client:
                created = client.post("/api/chronicles", json={"name": "Stopped", "system": "v20"})
                table = ChronicleTable(client, created.json())
                player = table.join()
                character = table.character(player, V20_SHEET)
            roll_path = f"{table.base}/characters/{character['id']}/rolls"
            roll_body = json.dumps({"action": V20_TEST})
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

            def ask(method: str, path: str, body: str | None = None) -> tuple[int, dict]:
                headers = {**player, "Content-Type": "application/json"} if body else dict(player)
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, json.loads(response.read() or b"{}")

            assert ask("POST", roll_path, roll_body)[0] == 201
            socket_before = connection.sock
            watched.addHandler(captured)
            cluster.stop()
            for _ in range(5):
                for method, path, body in (
                    ("POST", roll_path, roll_body),
                    ("GET", f"{table.base}/log", None),
                ):
                    status, problem = ask(method, path, body)
                    assert (status, problem.get("code")) == (503, "database_unavailable"), problem
            status, health = ask("GET", "/api/health")
            assert status == 503 and health["failed"] == ["store"], health
            assert connection.sock is socket_before
            cluster.start()
            wait_until(lambda: ask("GET", "/api/health")[0] == 200, 30, what="the server to recover")
            assert ask("POST", roll_path, roll_body)[0] == 201
            assert connection.sock is socket_before
            watched.removeHandler(captured)
            failed_lines = [r for r in captured.records if "failed: database_unavailable" in r.getMessage()]
            assert len(failed_lines) == 10
            assert (
                len([r for r in captured.records if r.exc_info]) <= 3
            )  # a traceback per cause, not per request
            assert len(captured.records) < 60, [r.getMessage() for r in captured.records]
            connection.close()
    finally:
        watched.removeHandler(captured)
        cluster.remove()
