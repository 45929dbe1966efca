"""SQLite's one batch writer: the write transactions that queue while one commits run together in
one ``BEGIN IMMEDIATE`` … ``COMMIT`` (one fsync), each in its own savepoint.

SQLite commits one transaction at a time, and a durable commit costs an fsync: served one by one,
the writes would wait on each other's fsyncs. Shared, a batch of writes costs one.

- A write's work that raises is rolled back to its savepoint (nothing of it kept) and its caller
  gets the exception; the others of the batch go on. (A work whose failure ended the whole
  transaction stops the batch: the others get ``BatchLost``, which ``tx.run`` retries.)
- Every caller returns only after the batch's COMMIT returned: an acknowledged write is durable
  (``synchronous=FULL``). If BEGIN or COMMIT fails, nothing of the batch is kept and every caller
  whose work had succeeded gets that error, as it would have alone (SQLite's BUSY from another
  process is retried by ``tx.run``; anything else is an error).
- One thread at a time leads: it takes the queue (oldest first, up to ``limit``), runs the batch
  inside the process's ``WriterLane``, and hands the lead to the oldest waiter when its own write
  is done. Works run one after the other, as with one writer: each sees the writes before it.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session


class BatchLost(Exception):
    """Another write of this write's batch failed in a way that ended their shared transaction:
    nothing of this write was kept, and ``tx.run`` runs it again, as after a lost race."""


class _Write:
    __slots__ = ("work", "result", "error", "done", "wake")

    def __init__(self, work: Callable[[Session], Any]) -> None:
        self.work = work
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = False
        self.wake = threading.Event()


class BatchWriter:
    """See the module's docstring. ``run(work)`` returns ``work(session)``'s result once committed."""

    def __init__(self, db, *, limit: int = 64) -> None:
        """``db``: the ``db.Database`` whose transactions, lane and hooks it uses."""
        self.db = db
        self.limit = limit
        self._guard = threading.Lock()
        self._queue: deque[_Write] = deque()
        self._leading = False
        self._local = threading.local()
        self.batches = 0  # for tests and the bench: how many commits served how many writes
        self.writes = 0

    def run(self, work: Callable[[Session], Any]) -> Any:
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
        revoked: set[int] = set()
        try:
            with self.db.transaction() as session:
                _run_works(session, batch)
                touched = set(session.info.get("chronicles", ()))
                revoked = set(session.info.get("revoked", ()))
        except BaseException as error:
            _fail_all(batch, error)
            touched, revoked = set(), set()
        self.batches += 1
        self.writes += len(batch)
        try:
            self.db.committed(touched, revoked)
        finally:
            for item in batch:
                item.done = True
                item.wake.set()


def _run_works(session: Session, batch: list[_Write]) -> None:
    """The works of a batch in the session's open write transaction, one after the other, each in
    its own savepoint (``Session.begin_nested``): a work that raises is rolled back to it and its
    caller gets the error; the others go on. If a work's failure ended the whole transaction, the
    batch stops there with ``BatchLost`` for every write not yet failed (``_fail_all``)."""
    if len(batch) == 1:
        # Alone in its batch: its own transaction, no savepoint (the same outcome: a work that
        # raises keeps nothing, its caller gets the error).
        batch[0].result = batch[0].work(session)
        return
    for item in batch:
        before = set(session.info.get("chronicles", ()))
        revoked_before = set(session.info.get("revoked", ()))
        try:
            with session.begin_nested():
                item.result = item.work(session)
        except BaseException as error:
            item.error = error
            session.info["chronicles"], session.info["revoked"] = before, revoked_before
            transaction = session.get_transaction()  # None once no transaction is open
            if transaction is None or not transaction.is_active:
                raise BatchLost() from error
        finally:
            session.expunge_all()  # each write starts with no ORM objects, as alone


def _fail_all(batch: list[_Write], error: BaseException) -> None:
    """BEGIN or COMMIT failed (or the work of a batch of one): nothing of the batch was kept, and
    every caller whose work had succeeded gets the error, as it would have alone."""
    for item in batch:
        if item.error is None:
            item.result = None
            item.error = error
