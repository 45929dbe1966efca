"""Engines, transactions and migrations.

Nothing important lives in process memory: every request runs in its own database transaction,
and several app processes may share one PostgreSQL database.

- **SQLite** (the embedded default): the driver's own transaction handling is switched off and
  every write transaction starts with ``BEGIN IMMEDIATE`` (a SQLAlchemy ``begin`` event), so a
  writer holds the database's write lock from its first statement: two spends of the last point
  cannot interleave. Read-only transactions (``Database.read()``) use a plain deferred ``BEGIN``;
  WAL mode lets them run beside the writer. Commits are durable (``synchronous=FULL``: the WAL is
  fsynced before a commit returns). The writers of one process queue in order in a
  ``WriterLane`` before they begin, so they do not wait on the file lock in SQLite's busy
  handler (which sleeps and serves no one in order); other processes on the same file still meet
  at the file lock, as before. Thread writers that queue share a commit (``GroupCommit``); the
  event loop's writers (the API's signed writes) run their statements in the loop and only the
  COMMIT in a worker thread (``LoopWriter``).
- **PostgreSQL**: write transactions lock the chronicle row and then the character row with
  ``SELECT ... FOR UPDATE`` (always in that order), see ``access``. The pages, the CLI and the
  signed reads use psycopg (in worker threads); the API's signed writes run in the event loop on
  asyncpg (``AsyncpgWriter``): the same statements, tables and transactions, another driver.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
import threading
import time
import weakref
from collections import deque
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Hashable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from typing import TYPE_CHECKING, TypeVar

from pydantic_core import from_json, to_json
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import InvalidatePoolError, OperationalError
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

from rollbook import settings
from rollbook.server.direct import ONE_STATEMENT, Statement

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

T = TypeVar("T")

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
ALEMBIC_INI = Path(__file__).parent / "alembic.ini"
# At most 40 connections per process, as before (10 kept + 30 overflow), now all kept: under load an
# overflow connection was closed on return and opened again by the next request (on PostgreSQL a new
# backend each time: 360 connections in one 10 s bench/load.py run, ~1 ms of app CPU per roll,
# bench/README.md). The sync endpoints run in app.WORKER_THREADS threads (4), so a process holds
# about that many at once; the cap leaves room for `--threads` up to 40.
POOL_SIZE = 40
# PostgreSQL: how many of one process's signed writes (AsyncpgWriter) are in the database at once; the
# others wait their turn in the loop. Before, the worker threads (app.WORKER_THREADS, 4) bounded them
# the same way. 4, 8, 16, 32 and 40 gave the same rolls a second under bench/load.py, within the
# machine's noise (bench/README.md, "Eleventh pass"); 8 keeps `--workers 4` well under PostgreSQL's
# default max_connections (100), psycopg's connections beside them.
LOOP_WRITE_CONNECTIONS = 8
# PostgreSQL: a pooled connection idle this long is pinged before use (a restart or an idle timeout
# may have ended it); one used more recently is not (as HikariCP's 500 ms "alive bypass window").
PING_IDLE_AFTER = 0.5
_IDLE_SINCE = "rollbook_idle_since"
BUSY_TIMEOUT_MS = 60_000  # SQLite: how long a writer waits for another process's write lock
_MIGRATION_LOCK_ID = 0x726F6C6C  # "roll": PostgreSQL advisory lock held while migrating


def database_url(explicit: str | None = None) -> str:
    """The URL to use: the argument, then ``ROLLBOOK_DATABASE_URL``, then ``./rollbook.sqlite3``.

    ``postgres://`` and ``postgresql://`` URLs are given the psycopg 3 driver.
    """
    url = explicit or settings.current().database_url
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix):]
    return url


def is_sqlite(engine_or_url: Engine | str) -> bool:
    url = engine_or_url.url if isinstance(engine_or_url, Engine) else make_url(engine_or_url)
    return url.get_backend_name() == "sqlite"


def _json_text(value) -> str:
    return to_json(value).decode()


# The JSON columns (sheets, receipts, …) are written and read through pydantic-core, as ``chain.plain``
# does: the same JSON for every value json.dumps takes (non-ASCII kept as UTF-8), several times faster.
# The stored text is not what is hashed: the chain hashes its own canonical form (chain.canonical).
_JSON_CODEC = {"json_serializer": _json_text, "json_deserializer": from_json}


def make_engine(url: str | None = None) -> Engine:
    url = database_url(url)
    if is_sqlite(url):
        return _sqlite_engine(url)
    return _postgresql_engine(url)


def _postgresql_engine(url: str) -> Engine:
    """PostgreSQL's engine (psycopg: the pages, the CLI, the signed reads in worker threads), pooled,
    with the idle ping (``_ping_when_idle``)."""
    engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=0, pool_timeout=60, **_JSON_CODEC)
    _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """A pooled connection is pinged before use only when it has been idle at least
    ``PING_IDLE_AFTER`` seconds. SQLAlchemy's ``pool_pre_ping`` pings at every checkout: one round
    trip of the eleven a roll made (bench/README.md, "Seventh pass"). A connection that died
    meanwhile fails its transaction's first statement: a write is then run again
    (``tx.ConnectionLost``), the pool replaces the connection and the ones made before it."""
    dialect = engine.dialect

    @event.listens_for(engine, "connect")
    def _on_connect(_dbapi_connection, record) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection, record) -> None:
        if record is not None:
            record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection, record, _proxy) -> None:
        if time.monotonic() - record.info.get(_IDLE_SINCE, 0.0) < PING_IDLE_AFTER:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            if dialect.is_disconnect(error, dbapi_connection, None):
                # a restart ends every connection: the pool replaces this one and those made before it
                raise InvalidatePoolError() from error
            raise


def lane_file(engine: Engine) -> Path | None:
    """The file whose ``flock`` the writers of every process on this SQLite database take turns at
    (``WriterLane``): ``<database>.lane`` beside it; None for an in-memory database."""
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().with_name(Path(database).name + ".lane")


def _sqlite_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False}, pool_size=POOL_SIZE,
                           max_overflow=0, **_JSON_CODEC)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # pysqlite must not emit its own BEGIN: we do (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit is fsynced before it returns
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection) -> None:
        if connection.get_execution_options().get("rollbook_read"):
            connection.exec_driver_sql("BEGIN")
        elif connection.get_execution_options().get("rollbook_nowait"):
            # LoopWriter, in the event loop: never wait there for another process's write lock
            raw = connection.connection.dbapi_connection
            raw.execute("PRAGMA busy_timeout=0")
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
            finally:
                raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # take the write lock now, not at the first write

    return engine


class LaneTimeout(Exception):
    """A writer waited longer than ``WriterLane.timeout`` for its turn (``tx.run`` answers 409 busy)."""


_LEAVING = object()  # a WriterLane's owner while its last holder gives it up


class WriterLane:
    """One SQLite writer at a time in this process, served first come, first served, and, with a
    ``lock_path``, one at a time among the processes that share the database file.

    ``with lane:`` waits for the turn (a hand-over: the writer that leaves wakes the oldest waiter,
    nobody polls or sleeps) and gives it up on leaving, whatever happened inside. A thread that
    already holds the lane enters again without waiting (a nested write meets SQLite's own lock,
    as without the lane). A wait longer than ``timeout`` seconds raises ``LaneTimeout``.

    Across processes (``rollbook serve --workers N`` on one SQLite file): the writer that holds this
    process's turn also holds an exclusive ``flock`` on ``lock_path`` (``<database>.lane``) until it
    gives the turn up, so the processes' writers never meet at SQLite's own write lock, whose busy
    handler sleeps up to 100 ms between tries (a p99 of 1.3 s with two processes, bench/README.md
    "Seventh pass"): the kernel wakes the next one when the lock is released (``_FileLock``); a
    wait longer than ``timeout`` raises ``LaneTimeout`` too. A process that dies releases it.
    """

    def __init__(self, timeout: float = 60.0, *, lock_path: Path | None = None) -> None:
        self.timeout = timeout
        self._guard = threading.Lock()
        self._waiters: deque[threading.Lock] = deque()
        self._owner: Hashable | None = None
        self._depth = 0
        self._file = _FileLock(lock_path) if lock_path is not None else None

    def __enter__(self) -> WriterLane:
        self.take(threading.get_ident())
        return self

    def __exit__(self, *_exc) -> None:
        self.give()

    def take(self, owner: Hashable, *, wait: bool = True) -> bool:
        """Take the turn for ``owner``: a thread's ident (``with lane:``), or a holder that is not
        one thread (``LoopWriter``: one event loop, whose commit runs in a worker thread).
        ``wait=False`` takes it only if it is free now (or already ``owner``'s) and says whether it did."""
        depth = self._take_turn(owner, wait=wait)
        if depth != 1 or self._file is None:
            return depth > 0
        try:
            taken = self._file.acquire(wait=wait, timeout=self.timeout)
        except BaseException:
            self._leave()
            raise
        if not taken:  # another process writes: the turn goes back, nothing waited for
            self._leave()
        return taken

    def _take_turn(self, owner: Hashable, *, wait: bool) -> int:
        """This process's turn: the depth it is now held at by ``owner``, 0 if not taken."""
        with self._guard:
            if self._owner == owner:
                self._depth += 1
                return self._depth
            if self._owner is None:
                self._owner, self._depth = owner, 1
                return 1
            if not wait:
                return 0
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        if not turn.acquire(timeout=self.timeout):
            with self._guard:
                if turn in self._waiters:  # still waiting: leave the queue
                    self._waiters.remove(turn)
                    raise LaneTimeout(self.timeout)
            # handed over between the timeout and the guard: the turn is ours after all
        with self._guard:
            self._owner, self._depth = owner, 1
        return 1

    def give(self) -> None:
        """Give up one ``take``; the last releases the file lock and hands the turn to the oldest waiter."""
        with self._guard:
            self._depth -= 1
            if self._depth:
                return
            self._owner = _LEAVING  # until handed over below: not re-entered, not taken
        try:
            if self._file is not None:
                self._file.release()
        finally:
            self._leave()

    def _leave(self) -> None:
        """The turn, held at depth 1 or 0 by the caller, goes to the oldest waiter (or is free)."""
        with self._guard:
            self._depth = 0
            self._owner = None
            if self._waiters:
                self._owner = -1  # reserved for the waiter woken below until it records itself
                self._waiters.popleft().release()

    @property
    def waiting(self) -> int:
        return len(self._waiters)


class _FileLock:
    """An exclusive ``flock`` on one file (the kernel ties the lock to an open file: two lanes in one
    process exclude each other as two processes do).

    A wait is the kernel's (a blocked ``flock``, woken when the holder releases: fairer and quicker
    than trying again after pauses, which measured a p99 of 139–161 ms against 81–95 ms with two
    processes), on a descriptor of its own in a helper thread, so that it can be given up after the
    lane's timeout: a writer must not wait forever on a process that hangs with the lock. A wait
    given up leaves its helper blocked; when it gets the lock it lets it go at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = self._open()
        self._held: int | None = None
        weakref.finalize(self, os.close, self._fd)

    def _open(self) -> int:
        return os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)

    def acquire(self, *, wait: bool, timeout: float) -> bool:
        """Whether the lock is now held; ``wait`` up to ``timeout`` seconds (then ``LaneTimeout``)."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._held = self._fd
            return True
        except BlockingIOError:
            if not wait:
                return False
        fd = self._open()
        granted = threading.Event()
        guard = threading.Lock()
        given_up = False

        def block() -> None:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with guard:
                if given_up:
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    os.close(fd)
                    return
                granted.set()

        threading.Thread(target=block, name="rollbook-lane-wait", daemon=True).start()
        granted.wait(timeout)
        with guard:
            if not granted.is_set():
                given_up = True
                raise LaneTimeout(timeout)
        self._held = fd
        return True

    def release(self) -> None:
        fd, self._held = self._held, None
        if fd is None:  # pragma: no cover - a release without the lock: nothing to let go
            return
        fcntl.flock(fd, fcntl.LOCK_UN)
        if fd != self._fd:
            os.close(fd)


class _Write:
    __slots__ = ("work", "result", "error", "done", "wake")

    def __init__(self, work) -> None:
        self.work = work
        self.result = None
        self.error: BaseException | None = None
        self.done = False
        self.wake = threading.Event()


class GroupCommit:
    """SQLite's durable commits, shared: the write transactions that queue while one commits run
    together in one ``BEGIN IMMEDIATE`` … ``COMMIT`` (one fsync), each in its own SAVEPOINT.

    - A write's work that raises is rolled back to its savepoint (nothing of it kept) and its
      caller gets the exception; the others of the batch go on. (A work whose failure ended the
      whole transaction, a failed ORM flush, stops the batch: the others get ``BatchLost``, which
      ``tx.run`` retries; ``_run_works``.)
    - Every caller returns only after the batch's COMMIT returned: an acknowledged write is
      durable (``synchronous=FULL``). If BEGIN or COMMIT fails, nothing of the batch is kept and
      every caller whose work had succeeded gets that error, as it would have alone (SQLite's
      BUSY from another process is retried by ``tx.run``; anything else is an error).
    - One thread at a time leads: it takes the queue (oldest first, up to ``limit``), runs the
      batch, and hands the lead to the oldest waiter when its own write is done. Works run one
      after the other, as with one writer: each sees the writes before it.
    """

    def __init__(self, db: Database, *, limit: int = 64) -> None:
        self.db = db
        self.limit = limit
        self._guard = threading.Lock()
        self._queue: deque[_Write] = deque()
        self._leading = False
        self._local = threading.local()
        self.batches = 0  # for tests and the bench: how many commits served how many writes
        self.writes = 0

    def run(self, work):
        if getattr(self._local, "leading", False):  # a write inside a batch's work: on its own
            with self.db.write() as session:
                return work(session)
        item = _Write(work)
        with self._guard:
            self._queue.append(item)
            lead = not self._leading
            if lead:
                self._leading = True
        if not lead:
            item.wake.wait()
        if not item.done:  # the lead is ours
            self._lead(item)
        if item.error is not None:
            raise item.error
        return item.result

    def _lead(self, mine: _Write) -> None:
        self._local.leading = True
        try:
            while not mine.done:
                with self._guard:
                    batch = [self._queue.popleft() for _ in range(min(self.limit, len(self._queue)))]
                self._run_batch(batch)
        finally:
            self._local.leading = False
            with self._guard:
                if self._queue:
                    self._queue[0].wake.set()  # the oldest waiter leads the next batch
                else:
                    self._leading = False

    def _run_batch(self, batch: list[_Write]) -> None:
        touched: set[int] = set()
        try:
            with self.db.lane or _NO_LANE, self.db._writer() as session:
                with session.begin():
                    _run_works(session, batch)
                touched = set(session.info.get("chronicles", ()))
        except BaseException as error:  # noqa: BLE001 - the work (alone), BEGIN or COMMIT failed: nothing was kept
            _fail_all(batch, error)
            touched = set()
        self.batches += 1
        self.writes += len(batch)
        try:
            self.db.committed(touched)
        finally:
            for item in batch:
                item.done = True
                item.wake.set()


class BatchLost(Exception):
    """Another write of this write's batch failed in a way that ended their shared transaction (a
    failed ORM flush rolls the whole transaction back): nothing of this write was kept, and
    ``tx.run`` runs it again, as after a lost race."""


# A batch's savepoints, sent as they are (SQLite only: GroupCommit and LoopWriter). Through
# ``Session.begin_nested`` each write of a batch cost ~0.1 ms of CPU (bench/README.md, "Sixth pass").
_SAVEPOINT = Statement(text("SAVEPOINT rollbook_write"))
_RELEASE = Statement(text("RELEASE rollbook_write"))
_ROLLBACK_TO = Statement(text("ROLLBACK TO rollbook_write"))


def _run_works(session: Session, batch: list) -> None:
    """The works of a batch in the session's open write transaction, one after the other.

    Each runs in its own SAVEPOINT: a work that raises is rolled back to it (nothing of it kept) and
    its caller gets the error; the others go on. The savepoints are the driver's, not the Session's:
    if a work's failure ended the whole transaction (SQLAlchemy rolls it back when a flush fails),
    the batch stops there with ``BatchLost`` for every write not yet failed (``_fail_all``)."""
    if len(batch) == 1:
        # Alone in its batch: its own transaction, no savepoint (the same outcome: a work that
        # raises keeps nothing, its caller gets the error; two statements fewer).
        batch[0].result = batch[0].work(session)
        return
    connection = session.connection()
    for item in batch:
        before = set(session.info.get("chronicles", ()))
        _SAVEPOINT.rowcount(connection, {})
        try:
            item.result = item.work(session)
            session.flush()  # what it left to the transaction, flushed in its savepoint
        except BaseException as error:  # noqa: BLE001 - handed to its caller
            item.error = error
            session.info["chronicles"] = before
            if not _still_in_transaction(session, connection):
                raise BatchLost() from error
            _ROLLBACK_TO.rowcount(connection, {})
        finally:
            session.expunge_all()  # each write starts with no ORM objects, as alone
        _RELEASE.rowcount(connection, {})


def _still_in_transaction(session: Session, connection: Connection) -> bool:
    """Whether the batch's transaction is still open after a work failed (and its savepoint with it)."""
    transaction = session.get_transaction()
    return (transaction is not None and transaction.is_active and not connection.invalidated
            and connection.in_transaction() and connection.connection.dbapi_connection.in_transaction)


def _fail_all(batch: list, error: BaseException) -> None:
    """BEGIN or COMMIT failed (or the work of a batch of one): nothing of the batch was kept, and
    every caller whose work had succeeded gets the error, as it would have alone."""
    for item in batch:
        if item.error is None:
            item.result = None
            item.error = error


class _Queued:
    __slots__ = ("work", "result", "error", "future")

    def __init__(self, work, future: asyncio.Future) -> None:
        self.work = work
        self.result = None
        self.error: BaseException | None = None
        self.future = future


class _LoopQueue:
    """A ``LoopWriter``'s state in one event loop; also its owner name in the ``WriterLane``."""

    __slots__ = ("pending", "task", "thread", "__weakref__")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.pending: list[_Queued] = []
        self.task: asyncio.Task | None = None
        # The loop's own worker thread for its waits (a COMMIT, the lane, another process's lock):
        # never queued behind the thread pool's requests, which may be waiting for the lane it holds.
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rollbook-commit")
        weakref.finalize(loop, self.thread.shutdown, wait=False)

    async def wait_for(self, func: Callable[..., T], *args) -> T:
        """``func(*args)`` in the loop's worker thread. A cancellation meanwhile (the loop closing)
        does not stop the wait: a COMMIT under way, or a lane taken, is seen to its end (the batch
        then finishes as usual), never left half done behind the loop's back."""
        call = self.thread.submit(func, *args)
        try:
            return await asyncio.shield(asyncio.wrap_future(call))
        except asyncio.CancelledError:
            if call.cancel():  # not started: nothing to see to its end
                raise
            futures.wait([call])  # started: blocks the closing loop until it ends
            return call.result()


class LoopWriter:
    """SQLite's writes from async endpoints, run in the event loop's own thread; only the waits
    (the COMMIT's fsync, and another process's write lock) go to a worker thread.

    SQLite's statements are calls into a library in this process, microseconds each once the write
    lock is held; a thread-pool hop costs ~0.3–0.5 ms of CPU on a 2-vCPU machine (bench/README.md).
    So, per event loop: the writes that queue while a batch commits run together as the next
    batch, one after the other in the loop, each in its savepoint (``GroupCommit``'s rules: a work
    that raises keeps nothing and its caller gets the error; every caller returns only after the
    batch's COMMIT returned; if BEGIN or COMMIT fails nothing is kept and every caller gets that
    error). The process's ``WriterLane`` is held from BEGIN to COMMIT, so thread writers (the
    pages, the CLI) and the writers of other loops keep their turn. BEGIN IMMEDIATE is tried in the
    loop without waiting; when another process holds the write lock it is waited for in a thread.
    A work must not open a write of its own (``Database.write``, ``tx.run``): it would wait, in the
    loop, for the lane its own batch holds.
    """

    def __init__(self, db: Database, *, limit: int = 64) -> None:
        self.db = db
        self.limit = limit
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopQueue] = weakref.WeakKeyDictionary()
        self.batches = 0  # for tests and the bench: how many commits served how many writes
        self.writes = 0

    @asynccontextmanager
    async def serving(self):
        """Nothing to keep for a loop's lifetime: a loop's queue is made at its first write."""
        yield

    async def run(self, work):
        loop = asyncio.get_running_loop()
        queue = self._queues.get(loop)
        if queue is None:
            queue = self._queues[loop] = _LoopQueue(loop)
        item = _Queued(work, loop.create_future())
        queue.pending.append(item)
        if queue.task is None:
            queue.task = loop.create_task(self._drain(queue))
        # A caller that goes away cancels only its wait: its write stays in its batch (done() is checked
        # before the result is set).
        await item.future
        if item.error is not None:
            raise item.error
        return item.result

    async def _drain(self, queue: _LoopQueue) -> None:
        try:
            while queue.pending:
                batch = queue.pending[:self.limit]
                del queue.pending[:self.limit]
                try:
                    await self._run_batch(queue, batch)
                except BaseException as error:  # noqa: BLE001 - cancelled with its loop: no caller waits forever
                    _fail_all(batch, error)
                    raise
                finally:
                    for item in batch:
                        if not item.future.done():
                            item.future.set_result(None)
                await asyncio.sleep(0)  # the batch's callers answer before the next batch holds the loop
        finally:
            queue.task = None

    async def _run_batch(self, queue: _LoopQueue, batch: list[_Queued]) -> None:
        lane = self.db.lane
        touched: set[int] = set()
        try:
            if not lane.take(queue, wait=False):
                await queue.wait_for(lane.take, queue)
        except Exception as error:  # noqa: BLE001 - LaneTimeout: a lost race, tx retries it
            _fail_all(batch, error)
            return
        try:
            session = await self._begin(queue)
            try:
                transaction = session.get_transaction()
                try:
                    _run_works(session, batch)
                    await queue.wait_for(transaction.commit)
                except BaseException:
                    session.rollback()  # whatever failed, BEGIN included: the connection goes back clean
                    raise
                touched = set(session.info.get("chronicles", ()))
            finally:
                session.close()
        except Exception as error:  # noqa: BLE001 - BEGIN, COMMIT or the work (alone) failed: nothing was kept
            _fail_all(batch, error)
            touched = set()
        finally:
            lane.give()
        self.batches += 1
        self.writes += len(batch)
        self.db.committed(touched)

    async def _begin(self, queue: _LoopQueue) -> Session:
        """A session in its write transaction: BEGIN IMMEDIATE in the loop if the write lock is free,
        else (another process writes) waited for in a worker thread."""
        session = self.db._writer()
        try:
            session.begin()
            session.connection(execution_options={"rollbook_nowait": True})
            return session
        except OperationalError as error:
            session.close()
            if not sqlite_busy(error.orig):
                raise
        session = self.db._writer()
        try:
            session.begin()
            await queue.wait_for(session.connection)
        except BaseException:
            session.close()
            raise
        return session


class AsyncpgWriter:
    """PostgreSQL's writes from async endpoints (the API's signed writes), run in the event loop on
    asyncpg through SQLAlchemy's asyncio extension: the work stays a plain function of a ``Session``
    (``AsyncSession.run_sync`` runs it in a greenlet), and each of its statements is awaited in the
    loop instead of blocking a worker thread. A roll's ten round trips no longer hand the GIL back
    and forth between a worker thread and the loop: under load, roll/bare 0.21 → 0.26 and the roll's
    CPU over a bare request's −17% (bench/README.md, "Eleventh pass"; one roll alone costs the same).
    The pages and the CLI keep psycopg.

    asyncpg's connections belong to the loop that opened them. The server's loop gets a pool of its
    own for its lifetime (``serving()``, entered by the app's lifespan; PostgreSQL's idle ping as the
    psycopg pool's); a loop without one (a test's ``TestClient`` used without ``with``, a script)
    opens a connection per write and closes it after. Each write is one transaction, as
    ``Database.write``'s: committed before its caller resumes, then the ``after_commit`` hooks. A
    caller that goes away cancels only its wait: the write runs to its end, as it did in a worker
    thread (nothing is half-applied either way)."""

    DRIVER = "postgresql+asyncpg"

    def __init__(self, db: Database) -> None:
        # Imported by a PostgreSQL Database only: the CLI and SQLite's processes start without asyncpg
        # and SQLAlchemy's asyncio extension (~0.15–0.25 s of imports).
        import asyncpg
        from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

        self._asyncpg_connect, self._create_engine, self._session = asyncpg.connect, create_async_engine, AsyncSession
        self.db = db
        self._pools: dict[asyncio.AbstractEventLoop, AsyncEngine] = {}
        self._turns: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
        self.unpooled = self._engine_of(poolclass=NullPool)
        self.writes = 0  # for tests: how many writes committed here
        self._running: set[asyncio.Task] = set()  # the loop keeps only a weak reference to a task

    @asynccontextmanager
    async def serving(self):
        """A pool for the running loop while the context lasts (the server's lifespan)."""
        loop = asyncio.get_running_loop()
        engine = self._pools[loop] = self._engine_of(pool_size=LOOP_WRITE_CONNECTIONS, max_overflow=0)
        # The writes take their turns first come, first served (asyncio's Semaphore queues a newcomer
        # behind the waiters). Waiting in the pool instead lets a newcomer take a connection just given
        # back before the waiter woken for it runs: at 32 connections on 4–16 the slowest 1% of rolls
        # took 1.8–2.8× the median, 1.1–2.0× with the turns (bench/README.md, "Eleventh pass").
        self._turns[loop] = asyncio.Semaphore(LOOP_WRITE_CONNECTIONS)
        _ping_when_idle(engine.sync_engine)
        try:
            yield engine
        finally:
            del self._pools[loop], self._turns[loop]
            await engine.dispose()

    def _engine_of(self, **pool) -> AsyncEngine:
        # asyncpg is given the URL as libpq's form (postgresql://…?application_name=…&sslmode=…), which
        # it reads as psycopg does; SQLAlchemy's asyncpg dialect would pass each query option to
        # asyncpg.connect() as a keyword, and refuse libpq's names.
        dsn = make_url(self.db.url).set(drivername="postgresql").render_as_string(hide_password=False)

        async def connect():
            return await self._asyncpg_connect(dsn)

        return self._create_engine(self.DRIVER + "://", async_creator=connect, **pool, **_JSON_CODEC)

    async def run(self, work):
        task = asyncio.get_running_loop().create_task(self._write(work))
        self._running.add(task)
        task.add_done_callback(self._finished)
        return await asyncio.shield(task)

    def _finished(self, task: asyncio.Task) -> None:
        self._running.discard(task)
        if not task.cancelled():
            task.exception()  # a caller that went away no longer reads it: marked as retrieved

    async def _write(self, work):
        loop = asyncio.get_running_loop()
        engine = self._pools.get(loop)
        if engine is None:  # a loop without a pool of its own: a connection for this write
            return await self._write_on(self.unpooled, work)
        async with self._turns[loop]:
            return await self._write_on(engine, work)

    async def _write_on(self, engine: AsyncEngine, work):
        async with self._session(engine, expire_on_commit=False) as session:
            async with session.begin():
                result = await session.run_sync(work)
            touched = set(session.sync_session.info.get("chronicles", ()))
        self.writes += 1
        self.db.committed(touched)
        return result


def sqlite_busy(orig: BaseException | None) -> bool:
    """A driver error that is SQLite's SQLITE_BUSY or SQLITE_LOCKED (another writer holds the lock)."""
    return isinstance(orig, sqlite3.OperationalError) and (
        getattr(orig, "sqlite_errorcode", 0) & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class Database:
    """One engine and its two kinds of transactions. Hooks run after a write commits."""

    def __init__(self, url: str | None = None, *, engine: Engine | None = None) -> None:
        self.url = database_url(url)
        self.engine = engine or make_engine(self.url)
        self.sqlite = is_sqlite(self.engine)
        self._writer = sessionmaker(self.engine, expire_on_commit=False)
        # Reads see one snapshot: WAL + a deferred BEGIN on SQLite, REPEATABLE READ on PostgreSQL.
        read_options = {"rollbook_read": True} if self.sqlite else {"isolation_level": "REPEATABLE READ"}
        self._reader = sessionmaker(self.engine.execution_options(**read_options), expire_on_commit=False)
        # One statement is its own snapshot: it needs no BEGIN … ROLLBACK around it (SQLite runs a
        # statement outside BEGIN as its own read, PostgreSQL in autocommit). ``direct.Statement`` sends
        # it alone on such a connection (``ONE_STATEMENT``); SQLAlchemy's own execute would still begin.
        self._one_read = self.engine.execution_options(
            **(read_options if self.sqlite else {"isolation_level": "AUTOCOMMIT"}), **{ONE_STATEMENT: True})
        self.after_commit: list[Callable[[set[int]], None]] = []
        self.lane = WriterLane(lock_path=lane_file(self.engine)) if self.sqlite else None
        self.group = GroupCommit(self) if self.sqlite else None
        # The API's signed writes, in the event loop: SQLite's statements are calls into a library,
        # PostgreSQL's are awaited on asyncpg.
        self.loop_writer: LoopWriter | AsyncpgWriter = LoopWriter(self) if self.sqlite else AsyncpgWriter(self)

    def serving(self):
        """What the server's event loop keeps while it runs (the app's lifespan, ``async with``): on
        PostgreSQL, the loop writer's pool of asyncpg connections."""
        return self.loop_writer.serving()

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction: committed on success, rolled back on any exception.

        ``session.info["chronicles"]`` (a set) names the chronicles whose log grew; the
        ``after_commit`` hooks (the live feed) hear about them once the commit is durable.
        """
        with self.lane or _NO_LANE, self._writer() as session:
            with session.begin():
                yield session
            touched = set(session.info.get("chronicles", ()))
        self.committed(touched)

    def committed(self, touched: set[int]) -> None:
        """Every writer's last step, once its commit is durable: the ``after_commit`` hooks hear which
        chronicles' logs grew (none when ``touched`` is empty)."""
        if touched:
            for hook in list(self.after_commit):
                hook(touched)

    def run_write(self, work: Callable[[Session], T]) -> T:
        """``work(session)`` in a write transaction, committed (durably) before it returns. On SQLite
        the writes that queue meanwhile share one commit (``GroupCommit``), each in its savepoint."""
        if self.group is not None:
            return self.group.run(work)
        with self.write() as session:
            return work(session)

    async def run_write_async(self, work: Callable[[Session], T]) -> T:
        """``run_write`` for a caller in the event loop, in the loop: ``LoopWriter`` on SQLite,
        ``AsyncpgWriter`` on PostgreSQL."""
        return await self.loop_writer.run(work)

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._reader() as session:
            with session.begin():
                yield session

    @contextmanager
    def read_connection(self) -> Iterator[Connection]:
        """One read statement on a Core connection, without a Session (the token check of every
        request): a statement is its own snapshot, sent without BEGIN (on PostgreSQL in autocommit,
        one round trip) when it is a ``direct.Statement``."""
        with self._one_read.connect() as connection:
            yield connection

    def upgrade(self) -> None:
        upgrade(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


class _NoLane:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_exc) -> None:
        return None


_NO_LANE = _NoLane()


def alembic_config(connection=None):
    from alembic.config import Config

    config = Config(str(ALEMBIC_INI)) if ALEMBIC_INI.exists() else Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the Alembic migrations (on start and by ``rollbook db upgrade``).

    On PostgreSQL an advisory lock makes app processes starting together migrate one at a time.
    """
    from alembic import command

    with engine.connect() as connection:
        if not is_sqlite(engine):
            connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": _MIGRATION_LOCK_ID})
            connection.commit()
        try:
            with connection.begin():
                command.upgrade(alembic_config(connection), revision)
        finally:
            if is_sqlite(engine):  # a migration may switch them off to rebuild a table (0003_security)
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            if not is_sqlite(engine):
                connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": _MIGRATION_LOCK_ID})
                connection.commit()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()
