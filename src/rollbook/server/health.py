"""What ``/api/health`` checks, each ``{"ok": bool, ...}``: ``store`` (a read and a tiny write, so a
store that answers reads but cannot write, a full disk or a read-only file, fails it), ``disk`` (the
free space beside the SQLite file; PostgreSQL's disk is the database server's, met by the write),
``secret`` (the operator's secret opens the server seeds in use, SPEC F-1)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sqlalchemy import text

from rollbook.server.db import Database
from rollbook.server.failures import classify, first_line
from rollbook.server.migrate import current_revision
from rollbook.server.secret_check import secret_verdict

LEAST_FREE_BYTES = 16 * 1024 * 1024  # below this beside the SQLite file, ``disk`` fails


def store_check(db: Database) -> dict[str, Any]:
    try:
        revision = current_revision(db.engine)
        with db.transaction() as session:  # a write that changes nothing, committed
            session.execute(text("UPDATE alembic_version SET version_num = version_num"))
    except Exception as error:
        _status, code = classify(error)
        return {"ok": False, "code": code, "error": first_line(error)}
    return {"ok": True, "revision": revision}


def disk_check(db: Database) -> dict[str, Any]:
    database = db.engine.url.database
    if not db.sqlite:
        return {
            "ok": True,
            "checked": False,
            "reason": "the PostgreSQL server's disk (the store check writes)",
        }
    if not database or database == ":memory:" or database.startswith("file:"):
        return {"ok": True, "checked": False, "reason": "an in-memory database"}
    try:
        free = shutil.disk_usage(Path(database).expanduser().resolve().parent).free
    except OSError as error:
        return {"ok": False, "code": "disk_unreadable", "error": first_line(error)}
    if free < LEAST_FREE_BYTES:
        return {"ok": False, "code": "storage_full", "free_bytes": free}
    return {"ok": True, "checked": True, "free_bytes": free}


def secret_check(db: Database) -> dict[str, Any]:
    try:
        verdict = secret_verdict(db)
    except Exception as error:  # the store itself failed: the store check says so
        return {"ok": True, "checked": False, "error": first_line(error)}
    found: dict[str, Any] = {"ok": not verdict.fails, "tried": verdict.tried, "opened": verdict.opened}
    if verdict.fails:
        found["code"] = "secret_does_not_open"
        found["detail"] = verdict.summary()
    return found


def checks(db: Database) -> dict[str, dict[str, Any]]:
    return {"store": store_check(db), "disk": disk_check(db), "secret": secret_check(db)}
