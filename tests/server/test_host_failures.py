"""A store failure is answered, not dropped: 503 ``database_unavailable`` or 507 ``storage_full``
(a problem saying to try again), on a keep-alive connection that stays open, one log line per failed
request and one traceback per cause; ``/api/health`` says which check failed; the server recovers
by itself once the store does. The fault is injected at the store's boundary (every statement the
engine sends raises), on SQLite and PostgreSQL."""

from __future__ import annotations

import http.client
import json
import logging
import sqlite3

import httpx
import psycopg
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from rollbook.server import failures
from rollbook.server.app import create_app

from .conftest import V20_SHEET, V20_TEST, ThreadedServer
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
