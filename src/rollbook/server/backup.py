"""``rollbook db backup FILE`` / ``rollbook db restore FILE``: a consistent backup taken while the
server runs, restored into an empty store only, then every chronicle's chain checked.

- **SQLite**: the ``sqlite3`` module's online backup API, in one step (``pages=-1``: one read
  snapshot of the whole file; WAL lets the writers go on meanwhile). The backup is an SQLite file.
- **PostgreSQL**: ``pg_dump -Fc`` (one snapshot, the writers go on) and ``pg_restore`` in a single
  transaction; they must be on ``PATH`` (Debian: ``postgresql-client``), else ``BackupError``.

The operator's secret is not in a backup (it never is in the database): keep it apart (docs/deploy.md).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import make_url

from rollbook.server.copy import CopyError, counts, open_store, shown


class BackupError(CopyError):
    """The backup or restore cannot be made: one line saying why."""


@dataclass(frozen=True)
class ChainCheck:
    chronicle: int
    entries: int
    problems: tuple[str, ...]

    @property
    def clean(self) -> bool:
        return not self.problems


def _libpq_url(url: str) -> str:
    """The URL as libpq (pg_dump, pg_restore) reads it: without SQLAlchemy's ``+driver``."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _sqlite_path(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if parsed.database in (None, "", ":memory:"):
        raise BackupError("an in-memory database has nothing to back up or restore into")
    return Path(parsed.database).expanduser()


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed (PostgreSQL's client tools, Debian: postgresql-client); "
            f"it is needed to back up or restore a PostgreSQL database"
        )
    return found


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        raise BackupError(
            f"{Path(command[0]).name} failed: {lines[0] if lines else f'exit {done.returncode}'}"
        )


def backup(url: str, file: Path) -> None:
    """Write a consistent backup of the store at ``url`` to ``file`` (replaced only once complete)."""
    store = open_store(url, must_exist=True, migrate=False)  # a backup changes nothing
    resolved = store.url
    store.dispose()
    partial = file.with_name(file.name + ".partial")
    try:
        # 0600 from its first byte: a backup holds every chronicle (and the sealed seeds)
        partial.unlink(missing_ok=True)
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        path = _sqlite_path(resolved)
        if path is not None:
            with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(partial)) as copy:
                source.backup(copy)  # pages=-1: the whole database from one read snapshot
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        else:
            _run(
                [
                    _tool("pg_dump"),
                    "--format=custom",
                    "--no-owner",
                    "--file",
                    str(partial),
                    "--dbname",
                    _libpq_url(resolved),
                ]
            )
        os.chmod(partial, 0o600)  # pg_dump may have made the file again
        partial.replace(file)
    except OSError as error:
        raise BackupError(f"cannot write {file}: {error.strerror}") from None
    finally:
        partial.unlink(missing_ok=True)


def restore(file: Path, url: str) -> list[ChainCheck]:
    """Restore the backup ``file`` into the store at ``url``, which must hold no rows; then migrate
    it to the head (a backup of an older version) and check every chronicle's chain (returned, one
    per chronicle)."""
    if not file.is_file():
        raise BackupError(f"no backup file at {file}")
    store = open_store(url, migrate=False)  # a new database has no tables yet: empty
    try:
        with store.engine.connect() as connection:
            present = {name: n for name, n in counts(connection).items() if n}
    finally:
        store.dispose()
    if present:
        listed = ", ".join(f"{n} in {name}" for name, n in present.items())
        raise BackupError(f"{shown(store.url)} is not empty (rows: {listed}): restore into an empty database")
    path = _sqlite_path(store.url)
    if path is not None:
        try:
            with closing(sqlite3.connect(f"file:{file}?immutable=1", uri=True)) as source:
                if source.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                    raise BackupError(f"{file} is not a sound SQLite database")
                _same_schema(source, file)
                with closing(sqlite3.connect(path)) as target:
                    source.backup(target)
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{file} is not an SQLite backup: {error}") from None
    else:
        # --clean: the migrated schema (no rows) is replaced by the dump's, in one transaction
        _run(
            [
                _tool("pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                "--single-transaction",
                "--exit-on-error",
                "--dbname",
                _libpq_url(store.url),
                str(file),
            ]
        )
    return verify_chains(url)


def _sqlite_schema(connection: sqlite3.Connection) -> set[tuple[str, str, str]]:
    """Every table, index, trigger and view of an SQLite file (type, name, SQL); SQLite's own left out."""
    rows = connection.execute(
        "SELECT type, name, COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    )
    return {(str(kind), str(name), " ".join(str(sql).split())) for kind, name, sql in rows}


def _same_schema(source: sqlite3.Connection, file: Path) -> None:
    """A backup restores only the schema rollbook makes: the one its migrations give at the backup's
    revision, object for object. Anything else (a planted trigger that lets a removed member's key
    keep working, a view, a table) refuses the whole backup: a restore copies the file as it is."""
    import tempfile

    from rollbook.server.db import Database
    from rollbook.server.migrate import upgrade

    try:
        revision = source.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError:
        revision = None
    if revision is None:
        raise BackupError(f"{file} is not a rollbook backup (no schema revision)")
    with tempfile.TemporaryDirectory() as folder:
        reference = Path(folder) / "reference.sqlite3"
        made = Database(f"sqlite:///{reference}")
        try:
            upgrade(made.engine, str(revision[0]))
        finally:
            made.dispose()
        with closing(sqlite3.connect(reference)) as connection:
            expected = _sqlite_schema(connection)
    found = _sqlite_schema(source)
    if found != expected:
        differs = sorted({f"{kind} {name}" for kind, name, _sql in found ^ expected})
        raise BackupError(
            f"{file} holds a schema rollbook does not make ({', '.join(differs)}): not restored"
        )


def verify_chains(url: str, *, migrate: bool = True) -> list[ChainCheck]:
    """Every chronicle's log checked as ``rollbook log verify`` checks an export: the hash chain, the
    receipts recomputed, the grants (A-2), the fair dice under the revealed seeds. ``migrate``: the
    store is migrated to the head first (after a restore), else read as it is (``rollbook db verify``)."""
    from rollbook.fair import check_log, describe
    from rollbook.play import verify_receipt
    from rollbook.server.access import STORYTELLER
    from rollbook.server.baselines import verify_ledger
    from rollbook.server.chain import read_jsonl, verify_entries
    from rollbook.server.models import Chronicle, Member
    from rollbook.server.usecases.log import export_lines

    store = open_store(url, migrate=migrate)
    checks = []
    try:
        with store.read() as session:
            for chronicle in session.scalars(select(Chronicle.id).order_by(Chronicle.id)).all():
                reader = Member(id=0, chronicle_id=chronicle, name="", role=STORYTELLER, created_at="")
                entries = list(read_jsonl(export_lines(session, reader)))
                problems, tally = verify_entries(entries, verify_receipt, verify_ledger())
                problems.extend(describe(problem) for problem in check_log(e for _, e in entries).problems)
                checks.append(ChainCheck(chronicle, tally["entries"], tuple(problems)))
    finally:
        store.dispose()
    return checks
