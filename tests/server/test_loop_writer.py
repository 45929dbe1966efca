"""Writes from the event loop (``tx.run_async``, ``Database.run_write_async``), on SQLite and
PostgreSQL: on SQLite they run in the loop itself (``db.LoopWriter``: the writes that queue while a
batch commits share the next commit, each in its savepoint; the COMMIT and any wait for another
process's write lock in a worker thread); on PostgreSQL in a worker thread. The API's signed writes
take this path (``api._signed_write``)."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
import threading
import time

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.engine import make_url

from rollbook.server import tx
from rollbook.server.db import AsyncpgWriter, Database, LoopWriter, WriterLane, lane_file
from rollbook.server.models import IdempotencyRecord, Member
from rollbook.server.problems import ProblemError

from .conftest import V20_SHEET, V20_TEST, in_a_loop, insert_or_refuse


@pytest.fixture()
def scratch(database_url):
    """A Database and a table of its own, dropped afterwards."""
    db = Database(database_url)
    table = f"loop_{secrets.token_hex(4)}"
    with db.write() as session:
        session.execute(text(f"CREATE TABLE {table} (n INTEGER NOT NULL)"))
    try:
        yield db, table
    finally:
        with db.write() as session:
            session.execute(text(f"DROP TABLE IF EXISTS {table}"))
        db.dispose()


def test_queued_loop_writes_share_commits_and_a_refusal_keeps_the_others(scratch):
    db, table = scratch
    heard: list[set[int]] = []
    db.after_commit.append(lambda touched: heard.append(set(touched)))

    async def write(index: int) -> str:
        try:
            return f"ok {await tx.run_async(db, insert_or_refuse(table, index))}"
        except ProblemError as error:
            return error.code

    async def main() -> list[str]:
        return await asyncio.gather(*(write(i) for i in range(16)))

    outcomes = in_a_loop(main())
    kept = [i for i in range(16) if i % 3]
    assert outcomes == [f"ok {i}" if i % 3 else "refused" for i in range(16)]
    with db.read() as session:
        assert sorted(row[0] for row in session.execute(text(f"SELECT n FROM {table}"))) == kept
    assert set().union(*heard) == set(kept)
    if db.sqlite:
        assert db.loop_writer.writes == 16
        assert db.loop_writer.batches < 16  # the writes queued behind the first commit shared one


def test_loop_writers_and_thread_writers_take_turns(scratch):
    """A read-modify-write from the loop and from threads at once: none is lost (SQLite: the one
    writer lane; PostgreSQL: the row lock)."""
    db, table = scratch
    with db.write() as session:
        session.execute(text(f"INSERT INTO {table} (n) VALUES (0)"))
    lock = "" if db.sqlite else " FOR UPDATE"

    def increment(session) -> None:
        current = session.execute(text(f"SELECT n FROM {table}{lock}")).scalar_one()
        session.execute(text(f"UPDATE {table} SET n = :n"), {"n": current + 1})

    def threads_writing() -> None:
        for _ in range(10):
            tx.run(db, increment)

    async def loop_writing() -> None:
        await asyncio.gather(*(tx.run_async(db, increment) for _ in range(30)))

    threads = [threading.Thread(target=threads_writing) for _ in range(3)]
    for thread in threads:
        thread.start()
    in_a_loop(loop_writing())
    for thread in threads:
        thread.join(60)
    with db.read() as session:
        assert session.execute(text(f"SELECT n FROM {table}")).scalar_one() == 60


@pytest.mark.parametrize("where", ["thread", "loop"])
def test_a_commit_that_fails_keeps_nothing_and_reports_its_error(scratch, where):
    """From a thread (``tx.run``: ``GroupCommit`` on SQLite) and from the loop (``tx.run_async``)."""
    db, table = scratch
    failures = [RuntimeError("the disk is gone")]
    # PostgreSQL's loop writes go through asyncpg's engine (a test's loop has no pool: the unpooled one)
    engine = db.engine if where == "thread" or db.sqlite else db.loop_writer.unpooled.sync_engine

    @event.listens_for(engine, "commit")
    def _fail(_connection) -> None:
        if failures:
            raise failures.pop()

    def work(session):
        session.execute(text(f"INSERT INTO {table} (n) VALUES (1)"))
        return "done"

    def write():
        return tx.run(db, work) if where == "thread" else in_a_loop(tx.run_async(db, work))

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


@pytest.mark.parametrize("where", ["thread", "loop"])
def test_objects_a_batched_work_adds_without_flushing_are_kept(app, scratch, where):
    """A work may leave its ORM objects to be flushed by the transaction: in a batch each write's
    objects are flushed before its savepoint is released (and before the session forgets them)."""
    db, _table = scratch
    scope = f"test:{secrets.token_hex(6)}"

    def work_for(index: int):
        def work(session):
            session.add(IdempotencyRecord(scope=scope, key_hash=f"{index:064d}", fingerprint="f", status=201,
                                          body="{}", created_at="now", expires_at="9999"))
            return index
        return work

    if where == "loop":
        async def main() -> list[int]:
            return await asyncio.gather(*(tx.run_async(db, work_for(i)) for i in range(16)))

        assert in_a_loop(main()) == list(range(16))
    else:
        barrier = threading.Barrier(16)

        def write(index: int) -> None:
            barrier.wait()
            tx.run(db, work_for(index))

        threads = [threading.Thread(target=write, args=(i,)) for i in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    with db.read() as session:
        stored = session.scalars(select(IdempotencyRecord.key_hash).where(IdempotencyRecord.scope == scope)).all()
    assert sorted(stored) == [f"{i:064d}" for i in range(16)]
    if db.sqlite and where == "loop":
        assert db.loop_writer.batches < 16


@pytest.mark.parametrize("where", ["thread", "loop"])
def test_a_failed_flush_in_a_batch_keeps_the_others_by_running_them_again(app, scratch, where):
    """A work whose ORM flush fails (here a NOT NULL violation: a bug, not a race) gets its error;
    SQLAlchemy rolled the whole transaction back, so on SQLite the writes batched before it lost
    theirs and are run again (``db.BatchLost``, retried by ``tx``), and those after it run in the
    retry: every other write is kept, once."""
    db, table = scratch
    runs: dict[int, int] = {}
    failing = 7

    def write_work(index: int):
        def work(session):
            runs[index] = runs.get(index, 0) + 1
            session.execute(text(f"INSERT INTO {table} (n) VALUES (:n)"), {"n": index})
            if index == failing:
                session.add(Member(chronicle_id=None, name="ghost", role="player", created_at="now"))
                session.flush()
            return index
        return work

    async def loop_write(index: int) -> str:
        try:
            return f"ok {await tx.run_async(db, write_work(index))}"
        except IntegrityError:
            return "integrity error"

    def thread_write(index: int, outcomes: dict[int, str], barrier: threading.Barrier) -> None:
        barrier.wait()
        try:
            outcomes[index] = f"ok {tx.run(db, write_work(index))}"
        except IntegrityError:
            outcomes[index] = "integrity error"

    if where == "loop":
        async def main() -> list[str]:
            return await asyncio.gather(*(loop_write(i) for i in range(16)))

        outcomes = in_a_loop(main())
    else:
        found: dict[int, str] = {}
        barrier = threading.Barrier(16)
        threads = [threading.Thread(target=thread_write, args=(i, found, barrier)) for i in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        outcomes = [found.get(i) for i in range(16)]
    assert outcomes == ["integrity error" if i == failing else f"ok {i}" for i in range(16)]
    with db.read() as session:
        assert sorted(row[0] for row in session.execute(text(f"SELECT n FROM {table}"))) == [
            i for i in range(16) if i != failing]
        assert session.execute(select(Member).where(Member.name == "ghost")).first() is None
    if db.sqlite and where == "loop":
        # the sixteen queue before the loop writer's first batch: the failing write in its middle,
        # so the seven before it ran twice, the eight after it once (in the retry). The retries come
        # back after random pauses (tx._backoff), each possibly alone: it is the first batch that
        # served several writes
        assert db.loop_writer.writes > db.loop_writer.batches
        assert [i for i in range(16) if runs[i] == 2] == list(range(failing))


async def _write_while_another_holds(db, table: str, value: int, let_go) -> tuple[str, int]:
    """A loop write of ``value`` while another writer holds the way (``let_go`` ends that after
    0.3 s, the write still waiting): the write's answer, and how often the loop ticked meanwhile."""
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticking = asyncio.create_task(tick())
    writing = asyncio.create_task(tx.run_async(db, lambda s: s.execute(
        text(f"INSERT INTO {table} (n) VALUES ({value})")) and "written"))
    await asyncio.sleep(0.3)
    assert not writing.done()
    let_go()
    result = await asyncio.wait_for(writing, 30)
    ticking.cancel()
    return result, ticks


def test_another_process_holding_the_write_lock_is_waited_for_outside_the_loop(scratch):
    """SQLite: BEGIN IMMEDIATE is tried in the loop without waiting; while another process (here a
    second connection) holds the write lock, the write waits in a thread and the loop goes on."""
    db, table = scratch
    if not db.sqlite:
        pytest.skip("SQLite's file lock")
    other = sqlite3.connect(make_url(db.url).database, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute(f"INSERT INTO {table} (n) VALUES (7)")
    try:
        result, ticks = in_a_loop(_write_while_another_holds(db, table, 8, lambda: other.execute("COMMIT")))
    finally:
        other.close()
    assert result == "written"
    assert ticks >= 10  # the loop was never held while the lock was waited for
    with db.read() as session:
        assert sorted(row[0] for row in session.execute(text(f"SELECT n FROM {table}"))) == [7, 8]


def test_another_rollbook_process_writing_is_waited_for_at_the_lane_file_outside_the_loop(scratch):
    """SQLite: another process's writer holds the database's lane file (here a second lane on the same
    file, as another process has): the loop's write waits for it in a thread, the loop goes on, and
    the write is made as soon as the other lets go, without meeting SQLite's busy handler."""
    db, table = scratch
    if not db.sqlite:
        pytest.skip("the lane file is SQLite's")
    other_process = WriterLane(lock_path=lane_file(db.engine))
    assert other_process.take("the other process's loop", wait=False)
    busy_waits = []
    event.listen(db.engine, "handle_error", lambda context: busy_waits.append(context.original_exception))

    result, ticks = in_a_loop(_write_while_another_holds(db, table, 9, other_process.give))
    assert result == "written"
    assert ticks >= 10  # the loop was never held while the other process wrote
    assert busy_waits == []  # BEGIN IMMEDIATE never found the database locked
    with db.read() as session:
        assert [row[0] for row in session.execute(text(f"SELECT n FROM {table}"))] == [9]


def test_a_caller_that_goes_away_does_not_cancel_its_write_in_the_loop(scratch):
    """A cancelled caller does not take its write out: on SQLite it belongs to its batch, on
    PostgreSQL (``AsyncpgWriter``) its task is shielded; it commits, as a write in a worker thread
    did. Nothing is half-applied either way."""
    db, table = scratch

    async def main() -> None:
        started = asyncio.Event()

        def work(session):
            session.execute(text(f"INSERT INTO {table} (n) VALUES (5)"))
            return "kept"

        async def caller() -> None:
            started.set()
            await tx.run_async(db, work)

        task = asyncio.create_task(caller())
        await started.wait()
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the write goes on and commits
            with db.read() as session:
                if session.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 1:
                    return
            await asyncio.sleep(0.02)
        raise AssertionError("the write of a cancelled caller was not committed")

    in_a_loop(main())


def test_the_api_writes_in_the_event_loop_on_both_stores(app, make_table):
    """SQLite: through the loop writer; PostgreSQL: on asyncpg, in the server loop's own pool."""
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    db = app.state.db
    before = db.loop_writer.writes
    response = table.roll(table.st, character["id"], V20_TEST)
    assert response.status_code == 201, response.text
    assert db.loop_writer.writes == before + 1
    assert isinstance(db.loop_writer, LoopWriter if db.sqlite else AsyncpgWriter)
    if not db.sqlite:
        assert db.loop_writer._pools, "the server's loop writes through its own pool"


def test_a_batch_is_answered_before_the_next_batch_holds_the_loop(scratch):
    """SQLite: the callers of a committed batch resume before the writes queued meanwhile run (the
    next batch's statements hold the loop: its answers would otherwise wait for them too)."""
    db, _table = scratch
    if not db.sqlite:
        pytest.skip("the loop writer is SQLite's")
    order: list[str] = []

    async def first() -> None:
        await tx.run_async(db, lambda session: order.append("work 1"))
        order.append("answer 1")

    async def second() -> None:
        await asyncio.sleep(0)  # queued once the first batch runs: the next batch
        await tx.run_async(db, lambda session: order.append("work 2"))
        order.append("answer 2")

    async def main() -> None:
        await asyncio.gather(first(), second())

    in_a_loop(main())
    assert order == ["work 1", "answer 1", "work 2", "answer 2"]
    assert db.loop_writer.batches == 2


def test_a_loop_that_closes_while_a_batch_commits_sees_the_commit_through(scratch):
    """SQLite: the loop's tasks are cancelled as it closes; a COMMIT under way in the writer's thread
    is waited for (kept, the connection clean) and the lane given back, so the next writer goes on."""
    db, table = scratch
    if not db.sqlite:
        pytest.skip("the loop writer is SQLite's")
    db.lane.timeout = 5

    @event.listens_for(db.engine, "commit")
    def _slow(_connection) -> None:
        time.sleep(0.3)  # the COMMIT is under way, in the writer's thread, when the loop closes

    async def main() -> None:
        asyncio.get_running_loop().create_task(
            tx.run_async(db, lambda s: s.execute(text(f"INSERT INTO {table} (n) VALUES (1)"))))
        await asyncio.sleep(0.1)  # returns: asyncio.run cancels the write's tasks

    try:
        closing = threading.Thread(target=asyncio.run, args=(main(),))
        closing.start()
        closing.join(30)
    finally:
        event.remove(db.engine, "commit", _slow)
    with db.read() as session:
        assert session.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 1
    started = time.monotonic()
    tx.run(db, lambda s: s.execute(text(f"INSERT INTO {table} (n) VALUES (2)")))
    assert time.monotonic() - started < 2  # the lane was free
