"""SQLite's one batch writer (``writer.BatchWriter``) and PostgreSQL's transactions, behind the one
way in (``tx.run``): a commit that fails keeps nothing; a batch keeps each write's ORM objects; a
write whose flush fails gets its error and every other write of its batch is kept, once. Batches
sharing a commit, and a refused write keeping the others, are in ``test_writer_lane``."""

from __future__ import annotations

import secrets
import threading

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.exc import IntegrityError

from rollbook.server import tx
from rollbook.server.db import Database
from rollbook.server.models import IdempotencyRecord, Member


@pytest.fixture()
def scratch(database_url):
    """A Database and a table of its own, dropped afterwards."""
    db = Database(database_url)
    table = f"batch_{secrets.token_hex(4)}"
    with db.write() as session:
        session.execute(text(f"CREATE TABLE {table} (n INTEGER NOT NULL)"))
    try:
        yield db, table
    finally:
        with db.write() as session:
            session.execute(text(f"DROP TABLE IF EXISTS {table}"))
        db.dispose()


def together(count: int, write) -> None:
    """``write(index)`` from ``count`` threads released at once (on SQLite they queue into batches)."""
    barrier = threading.Barrier(count)

    def run(index: int) -> None:
        barrier.wait()
        write(index)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)


def test_a_commit_that_fails_keeps_nothing_and_reports_its_error(scratch):
    db, table = scratch
    failures = [RuntimeError("the disk is gone")]
    engine = db.engine

    @event.listens_for(engine, "commit")
    def _fail(_connection) -> None:
        if failures:
            raise failures.pop()

    def work(session):
        session.execute(text(f"INSERT INTO {table} (n) VALUES (1)"))
        return "done"

    def write():
        return tx.run(db, work)

    try:
        with pytest.raises(RuntimeError, match="disk is gone"):
            write()
        with db.read() as session:
            assert session.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0
        assert write() == "done"  # the next write goes through
        with db.read() as session:
            assert session.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 1
    finally:
        event.remove(engine, "commit", _fail)


def test_objects_a_batched_work_adds_without_flushing_are_kept(app, scratch):
    """A work may leave its ORM objects to be flushed by the transaction: in a batch each write's
    objects are flushed before its savepoint is released (and before the session forgets them)."""
    db, _table = scratch
    scope = f"test:{secrets.token_hex(6)}"

    def write(index: int) -> None:
        def work(session):
            session.add(
                IdempotencyRecord(
                    scope=scope,
                    key_hash=f"{index:064d}",
                    fingerprint="f",
                    status=201,
                    body="{}",
                    created_at="now",
                    expires_at="9999",
                )
            )
            return index

        assert tx.run(db, work) == index

    together(16, write)
    with db.read() as session:
        stored = session.scalars(
            select(IdempotencyRecord.key_hash).where(IdempotencyRecord.scope == scope)
        ).all()
    assert sorted(stored) == [f"{i:064d}" for i in range(16)]


def test_a_failed_flush_in_a_batch_keeps_the_others(app, scratch):
    """A work whose ORM flush fails (here a NOT NULL violation: a bug, not a race) gets its error;
    on SQLite its savepoint is rolled back and the batch goes on (or, had the failure ended the
    transaction, the others would run again: ``writer.BatchLost``, retried by ``tx``): every other
    write is kept, once."""
    db, table = scratch
    failing = 7
    outcomes: dict[int, str] = {}

    def write(index: int) -> None:
        def work(session):
            session.execute(text(f"INSERT INTO {table} (n) VALUES (:n)"), {"n": index})
            if index == failing:
                session.add(Member(chronicle_id=None, name="ghost", role="player", created_at="now"))
                session.flush()
            return index

        try:
            outcomes[index] = f"ok {tx.run(db, work)}"
        except IntegrityError:
            outcomes[index] = "integrity error"

    together(16, write)
    assert [outcomes.get(i) for i in range(16)] == [
        "integrity error" if i == failing else f"ok {i}" for i in range(16)
    ]
    with db.read() as session:
        assert sorted(row[0] for row in session.execute(text(f"SELECT n FROM {table}"))) == [
            i for i in range(16) if i != failing
        ]
        assert session.execute(select(Member).where(Member.name == "ghost")).first() is None
