"""tx.run retries the races the database reports by SQLSTATE, constraint name or SQLite's error code,
never by an error's text; any other integrity error is a bug: 500 and a log line (both stores)."""

from __future__ import annotations

import logging
import sqlite3
from types import SimpleNamespace

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from rollbook.server import auth, tx

from .helpers import problem


class PgError(Exception):
    def __init__(self, message: str, sqlstate: str | None, constraint: str | None = None) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate
        self.diag = SimpleNamespace(constraint_name=constraint)


def _sqlite_error(kind, message: str, code: int):
    error = kind(message)
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(
    "error, expected",
    [
        (
            IntegrityError("INSERT", {}, PgError("duplicate key", "23505", "uq_log_entries_chronicle_seq")),
            True,
        ),
        (
            IntegrityError("INSERT", {}, PgError("duplicate key", "23505", "uq_idempotency_keys_scope_key")),
            True,
        ),
        (
            IntegrityError("INSERT", {}, PgError("duplicate key", "23505", "uq_chronicles_invitation_hash")),
            False,
        ),
        (
            IntegrityError("INSERT", {}, PgError("unique violation on uq_log_entries_chronicle_seq", None)),
            False,
        ),
        (IntegrityError("INSERT", {}, PgError("null value", "23502", "uq_log_entries_chronicle_seq")), False),
        (
            IntegrityError(
                "INSERT", {}, _sqlite_error(sqlite3.IntegrityError, "UNIQUE constraint failed: x", 2067)
            ),
            False,
        ),
        (OperationalError("SELECT", {}, PgError("could not serialize", "40001")), True),
        (OperationalError("SELECT", {}, PgError("deadlock detected", "40P01")), True),
        (OperationalError("SELECT", {}, PgError("lock not available", "55P03")), True),
        (OperationalError("SELECT", {}, PgError("connection lost", "08006")), False),
        (
            OperationalError(
                "BEGIN",
                {},
                _sqlite_error(sqlite3.OperationalError, "database is locked", sqlite3.SQLITE_BUSY),
            ),
            True,
        ),
        (
            OperationalError(
                "BEGIN",
                {},
                _sqlite_error(
                    sqlite3.OperationalError, "database table is locked", sqlite3.SQLITE_LOCKED_SHAREDCACHE
                ),
            ),
            True,
        ),
        (
            OperationalError(
                "BEGIN",
                {},
                _sqlite_error(sqlite3.OperationalError, "database is locked", sqlite3.SQLITE_IOERR),
            ),
            False,
        ),
        (ValueError("unique database is locked"), False),
        (tx.StaleSheet(1), True),
    ],
    ids=lambda value: (
        getattr(value, "__class__", type(value)).__name__ if not isinstance(value, bool) else str(value)
    ),
)
def test_what_is_retried(error, expected):
    assert tx.retryable(error) is expected


def test_a_real_integrity_bug_is_a_500_with_a_log_line(app, monkeypatch, caplog):
    """Two chronicles given one invitation code (a bug forced here): the unique constraint refuses the
    second; it is neither retried nor reported as busy."""
    from fastapi.testclient import TestClient

    client = TestClient(app, raise_server_exceptions=False)
    monkeypatch.setattr(auth, "new_invitation", lambda: "the-same-code-every-time")
    body = {"name": "Bug", "system": "v20"}
    first = client.post("/api/chronicles", json=body)
    with caplog.at_level(logging.ERROR, logger="rollbook.server"):
        second = client.post("/api/chronicles", json=body)
    if first.status_code == 201:
        problem(second, 500, "internal_error")
        assert any("integrity error" in record.getMessage() for record in caplog.records)
        assert any(record.exc_info for record in caplog.records)  # the app's line, with the traceback
    else:  # an earlier test made a chronicle with this code in the shared database
        problem(first, 500, "internal_error")
