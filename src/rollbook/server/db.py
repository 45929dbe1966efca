"""``Database``: one store's engine and its transactions. Nothing important lives in process memory:
every request runs in its own database transaction, and several app processes may share one
PostgreSQL database (or, taking turns at its lane file, one SQLite file).

- ``run_write(work)``: the one way a change reaches the store (``tx.run`` calls it, for the JSON
  API, the web pages and the CLI alike): ``work(session)`` in a write transaction, committed
  durably before it returns. On SQLite the writes that queue meanwhile share one commit
  (``writer.BatchWriter``, inside the ``lane.WriterLane``); on PostgreSQL each is its own
  transaction, whose use case locks the chronicle row, then the character row
  (``SELECT … FOR UPDATE``, always in that order: ``access``).
- ``read()``: a read transaction, one snapshot (WAL and a deferred BEGIN on SQLite, REPEATABLE
  READ on PostgreSQL).
- ``after_commit``: hooks told, once a commit is durable, which chronicles' logs it grew
  (``committed(touched)``; the live feed listens there); ``after_revoke``: which chronicles it
  revoked a member's token of (``session.info["revoked"]``: the hub ends those feeds at once);
  ``notify`` (PostgreSQL), last: the other processes told (NOTIFY) which chronicles' logs grew, at
  once on a pool connection (``listen.notify_now``: the CLI), or by the hub's listener thread.

Engines: ``engines``; the writer lane: ``lane``; the batch writer: ``writer``; migrations: ``migrate``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, TypeVar

from sqlalchemy import CursorResult, Engine, Result
from sqlalchemy.orm import Session, sessionmaker

from rollbook.server.engines import READ_ONLY, database_url, is_sqlite, lane_file, make_engine
from rollbook.server.lane import WriterLane
from rollbook.server.listen import notify_now
from rollbook.server.migrate import upgrade
from rollbook.server.writer import BatchWriter

T = TypeVar("T")


class Database:
    """One engine and its two kinds of transactions. Hooks run after a write commits."""

    def __init__(self, url: str | None = None, *, engine: Engine | None = None) -> None:
        self.url = database_url(url)
        self.engine = engine or make_engine(self.url)
        self.sqlite = is_sqlite(self.engine)
        self._writer = sessionmaker(self.engine, expire_on_commit=False)
        read_options = {READ_ONLY: True} if self.sqlite else {"isolation_level": "REPEATABLE READ"}
        self._reader = sessionmaker(self.engine.execution_options(**read_options), expire_on_commit=False)
        self.after_commit: list[Callable[[set[int]], None]] = []
        self.after_revoke: list[Callable[[set[int]], None]] = []
        # PostgreSQL: the other processes told which chronicles' logs a commit grew (their NOTIFY;
        # the log's trigger no longer notifies, migration 0014). A hub hands it to its listener.
        self.notify: Callable[[set[int]], None] | None = None
        if not self.sqlite:
            self.notify = lambda touched: notify_now(self.engine, touched)
        self.lane = WriterLane(lock_path=lane_file(self.engine)) if self.sqlite else None
        self.batches = BatchWriter(self) if self.sqlite else None

    def run_write(self, work: Callable[[Session], T]) -> T:
        """``work(session)`` in a write transaction, committed (durably) before it returns, then the
        ``after_commit`` hooks. On SQLite the writes that queue meanwhile share one commit, each in
        its savepoint (``BatchWriter``)."""
        if self.batches is not None:
            return self.batches.run(work)
        with self.write() as session:
            return work(session)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A write transaction (in the writer lane on SQLite): committed when the block ends,
        rolled back on any exception. No hooks: ``write`` and the batch writer call them."""
        with self.lane or nullcontext(), self._writer() as session:
            with session.begin():
                yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction of its own (``transaction``), then the ``after_commit`` hooks hear
        which chronicles' logs grew (``session.info["chronicles"]``, a set)."""
        with self.transaction() as session:
            yield session
            touched = set(session.info.get("chronicles", ()))
            revoked = set(session.info.get("revoked", ()))
        self.committed(touched, revoked)

    def committed(self, touched: set[int], revoked: set[int] | None = None) -> None:
        """Every write's last step, once its commit is durable: the ``after_revoke`` hooks hear which
        chronicles a member's token was revoked in (first: a feed ends before it is given what came
        with or after its revocation), then the ``after_commit`` hooks which chronicles' logs grew
        (none when empty), then ``notify`` (the other processes)."""
        if revoked:
            for hook in list(self.after_revoke):
                hook(revoked)
        if touched:
            for hook in list(self.after_commit):
                hook(touched)
            if self.notify is not None:
                self.notify(touched)

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._reader() as session:
            with session.begin():
                yield session

    @contextmanager
    def one_read(self) -> Iterator[Database]:
        """This database seen through one read transaction: every ``read()`` made through what this
        yields, inside the block, is that transaction (one snapshot, one ``BEGIN``), so a page drawn
        from several reads is drawn from one. Writes go through as ever."""
        with self.read() as session:
            yield OneRead(self, session)

    def upgrade(self) -> None:
        upgrade(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


class OneRead(Database):
    """``Database.one_read``'s view: the same engine, writer and hooks; ``read()`` is its one
    transaction."""

    def __init__(self, db: Database, session: Session) -> None:
        self.__dict__.update(db.__dict__)
        self._session = session

    @contextmanager
    def read(self) -> Iterator[Session]:
        yield self._session


def changed_rows(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE (without RETURNING) run by ``Session.execute`` changed. The
    session answers a ``CursorResult`` for one; its signature says ``Result``, the one type it can
    promise for every statement."""
    if not isinstance(result, CursorResult):
        raise TypeError(f"not the result of an UPDATE or DELETE: {type(result).__name__}")
    return result.rowcount
