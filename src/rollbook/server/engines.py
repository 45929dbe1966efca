"""Engines: the database URL, one pooled SQLAlchemy engine per store, and what each store's
connections are set up with.

- **SQLite** (the embedded default): the driver's own transaction handling is switched off and a
  write transaction starts with ``BEGIN IMMEDIATE`` (a ``begin`` event), so a writer holds the
  database's write lock from its first statement: two spends of the last point cannot interleave.
  A read-only transaction (the ``rollbook_read`` execution option, ``Database.read()``) uses a plain
  deferred ``BEGIN``; WAL mode lets it run beside the writer. Commits are durable
  (``synchronous=FULL``: the WAL is fsynced before a commit returns). No commit checkpoints the WAL
  (``wal_autocheckpoint=0``): by SQLite's default the commit that takes the WAL past 1,000 pages
  copies them back into the database and fsyncs it before it returns, with the batch's writers
  waiting on it; the engine's ``Checkpointer`` thread makes a passive checkpoint instead, in its own
  time, about once a second while commits come.
- **PostgreSQL** (psycopg): a pooled connection is pinged before use only when it sat idle
  ``PING_IDLE_AFTER`` seconds (``_ping_when_idle``); an error that says the connection ended is
  a disconnect even when psycopg has not yet marked the connection closed (``ended_connection``).

The JSON columns (sheets, receipts, …) are written and read through pydantic-core, as
``chain.plain`` does: the same JSON for every value ``json.dumps`` takes (non-ASCII kept as UTF-8).
The stored text is not what is hashed: the chain hashes its own canonical form (``chain.canonical``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
import weakref
from pathlib import Path

import psycopg
from pydantic_core import from_json, to_json
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import InvalidatePoolError

from rollbook import settings

# At most 40 connections per process, all kept: an overflow connection would be closed on return and
# opened again by the next request (on PostgreSQL a new backend each time). The sync endpoints run in
# app.WORKER_THREADS threads (4), so a process holds about that many at once; the cap leaves room
# for `--threads` up to 40.
POOL_SIZE = 40
# PostgreSQL: a pooled connection idle this long is pinged before use (a restart or an idle timeout
# may have ended it); one used more recently is not (as HikariCP's 500 ms "alive bypass window").
PING_IDLE_AFTER = 0.5
IDLE_SINCE = "rollbook_idle_since"
BUSY_TIMEOUT_MS = 60_000  # SQLite: how long a writer waits for another process's write lock
# SQLite: the checkpointer's pace. A passive checkpoint copies what no reader still needs and never
# waits for a lock; once a second keeps the WAL at about a second of commits (a few hundred pages at
# a hundred rolls a second), as SQLite's 1,000-page autocheckpoint did, but off every commit's path.
CHECKPOINT_EVERY = 1.0
CHECKPOINTER_IDLE = 30.0  # seconds without a commit after which its thread ends (a commit starts it again)
READ_ONLY = "rollbook_read"  # the execution option of read transactions (SQLite: a deferred BEGIN)


def database_url(explicit: str | None = None) -> str:
    """The URL to use: the argument, then ``ROLLBOOK_DATABASE_URL``, then ``./rollbook.sqlite3``.

    ``postgres://`` and ``postgresql://`` URLs are given the psycopg 3 driver.
    """
    url = explicit or settings.current().database_url
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(engine_or_url: Engine | str) -> bool:
    url = engine_or_url.url if isinstance(engine_or_url, Engine) else make_url(engine_or_url)
    return url.get_backend_name() == "sqlite"


def _json_text(value) -> str:
    return to_json(value).decode()


JSON_CODEC = {"json_serializer": _json_text, "json_deserializer": from_json}


def make_engine(url: str | None = None) -> Engine:
    url = database_url(url)
    if is_sqlite(url):
        return _sqlite_engine(url)
    return _postgresql_engine(url)


def _postgresql_engine(url: str) -> Engine:
    engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=0, pool_timeout=60, **JSON_CODEC)
    _ping_when_idle(engine)

    @event.listens_for(engine, "handle_error")
    def _disconnect_when_ended(context) -> None:
        if not context.is_disconnect and ended_connection(context.original_exception):
            context.is_disconnect = True  # SQLAlchemy then invalidates it and the pool's older ones

    return engine


# SQLSTATEs that say the server ended the connection: class 08 (connection exception), and 57P01-03
# (an administrator's or a crash's shutdown, a server not yet accepting connections).
ENDED_SQLSTATES = ("08", "57P01", "57P02", "57P03")


def ended_connection(error: BaseException) -> bool:
    """Whether a psycopg error says its connection ended.

    SQLAlchemy's psycopg dialect asks the connection (``closed``/``broken``), which psycopg may not
    have marked yet when the socket was found closed under a statement ("connection socket closed",
    "sending query failed: terminating connection …"): the read or write would then not be run
    again, and the pool would try a ROLLBACK on the dead connection. A psycopg ``OperationalError``
    with no SQLSTATE was raised by the client on its connection (the server sends a SQLSTATE with
    every error it reports); one with an ended connection's SQLSTATE was reported by the server.
    """
    if not isinstance(error, psycopg.OperationalError):
        return False
    sqlstate = error.sqlstate
    return sqlstate is None or sqlstate.startswith(ENDED_SQLSTATES)


def _ping_when_idle(engine: Engine) -> None:
    """A pooled connection is pinged before use only when it has been idle at least
    ``PING_IDLE_AFTER`` seconds: SQLAlchemy's ``pool_pre_ping`` pings at every checkout, one round
    trip more per transaction under load. A connection that died meanwhile fails its transaction's
    first statement: a write is then run again (``tx.ConnectionLost``), a read once more
    (``reread.ReadAgain``); the pool replaces the connection and the ones made before it."""
    dialect = engine.dialect

    @event.listens_for(engine, "connect")
    def _on_connect(_dbapi_connection, record) -> None:
        record.info[IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection, record) -> None:
        if record is not None:
            record.info[IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection, record, _proxy) -> None:
        if time.monotonic() - record.info.get(IDLE_SINCE, 0.0) < PING_IDLE_AFTER:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            if dialect.is_disconnect(error, dbapi_connection, None):
                # a restart ends every connection: the pool replaces this one and those made before it
                raise InvalidatePoolError() from error
            raise


def _sqlite_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"timeout": 60, "check_same_thread": False},
        pool_size=POOL_SIZE,
        max_overflow=0,
        **JSON_CODEC,
    )

    checkpointer = Checkpointer(parsed.database) if parsed.database and _on_disk(parsed.database) else None

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # pysqlite must not emit its own BEGIN: we do (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit is fsynced before it returns
        if checkpointer is not None:
            cursor.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's thread does it
        cursor.close()

    if checkpointer is not None:
        _CHECKPOINTERS[engine] = checkpointer

        @event.listens_for(engine, "commit")
        def _on_commit(_connection) -> None:
            checkpointer.committed()

        @event.listens_for(engine, "engine_disposed")
        def _on_dispose(_engine) -> None:
            checkpointer.stop()

    @event.listens_for(engine, "begin")
    def _on_begin(connection) -> None:
        if connection.get_execution_options().get(READ_ONLY):
            connection.exec_driver_sql("BEGIN")
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # take the write lock now, not at the first write

    return engine


_CHECKPOINTERS: weakref.WeakKeyDictionary[Engine, Checkpointer] = weakref.WeakKeyDictionary()


def checkpointer_of(engine: Engine) -> Checkpointer | None:
    """The checkpointer of a SQLite file's engine (None: PostgreSQL, or SQLite in memory)."""
    return _CHECKPOINTERS.get(engine)


def _on_disk(database: str | None) -> bool:
    return bool(database) and database != ":memory:" and not str(database).startswith("file:")


class Checkpointer:
    """SQLite's WAL checkpoints for one database file, in a thread of their own: every
    ``CHECKPOINT_EVERY`` seconds while commits come, a passive checkpoint (``PRAGMA
    wal_checkpoint(PASSIVE)``) on its own connection. It never blocks a reader or a writer; what a
    reader still needs is copied by a later one. The thread starts at a commit and ends after
    ``CHECKPOINTER_IDLE`` seconds without one, or when the engine is disposed."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._guard = threading.Lock()
        self._commits = 0
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self.checkpoints = 0  # passive checkpoints made (tests read it)
        self.last: tuple[int, int, int] | None = (
            None  # the last one's (busy, WAL frames, frames checkpointed)
        )

    @property
    def running(self) -> bool:
        return self._thread is not None

    def committed(self) -> None:
        """A commit (about to be) made on the engine: a checkpoint is due within the interval."""
        with self._guard:
            self._commits += 1
            if self._thread is None:
                self._stopping.clear()
                self._thread = threading.Thread(target=self._run, name="rollbook-checkpoint", daemon=True)
                self._thread.start()

    def checkpoint(self, connection: sqlite3.Connection) -> tuple[int, int, int]:
        row = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        self.last = (int(row[0]), int(row[1]), int(row[2]))
        self.checkpoints += 1
        return self.last

    def _run(self) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            quiet_since = time.monotonic()
            while not self._stopping.wait(CHECKPOINT_EVERY):
                with self._guard:
                    commits, self._commits = self._commits, 0
                    if not commits and time.monotonic() - quiet_since > CHECKPOINTER_IDLE:
                        self._thread = None
                        return
                if commits:
                    quiet_since = time.monotonic()
                    try:
                        self.checkpoint(connection)
                    except sqlite3.Error:  # the file went away (a test's), or a lock: the next one tries
                        pass
        finally:
            connection.close()

    def stop(self) -> None:
        """The engine is disposed: the thread ends (waited for); a later commit starts it again."""
        with self._guard:
            thread, self._thread = self._thread, None
            self._stopping.set()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)


def lane_file(engine: Engine) -> Path | None:
    """The file whose ``flock`` the writers of every process on this SQLite database take turns at
    (``lane.WriterLane``): ``<database>.lane`` beside it; None for an in-memory database."""
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().with_name(Path(database).name + ".lane")


def sqlite_busy(orig: BaseException | None) -> bool:
    """A driver error that is SQLite's SQLITE_BUSY or SQLITE_LOCKED (another writer holds the lock)."""
    return isinstance(orig, sqlite3.OperationalError) and (getattr(orig, "sqlite_errorcode", 0) & 0xFF) in (
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
    )
