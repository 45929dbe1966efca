"""The SQLite writer lane (``lane.WriterLane``): one writer at a time in the process, first come first
served, released whatever happens inside; and the write path through it on SQLite and PostgreSQL
(PostgreSQL has no lane: its writers meet at the row locks)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import secrets
import threading
import time

import pytest
from sqlalchemy import create_engine, text

from rollbook.server import lane as lane_module
from rollbook.server import tx
from rollbook.server.db import Database
from rollbook.server.engines import lane_file
from rollbook.server.lane import LaneTimeout, WriterLane
from rollbook.server.problems import ProblemError

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, insert_or_refuse


def test_writers_are_served_in_arrival_order():
    lane = WriterLane()
    order: list[int] = []
    lane.__enter__()
    threads = []
    for index in range(6):

        def writer(index=index) -> None:
            with lane:
                order.append(index)

        thread = threading.Thread(target=writer)
        thread.start()
        threads.append(thread)
        while lane.waiting < index + 1:  # the next one arrives after this one queued
            time.sleep(0.001)
    lane.__exit__(None, None, None)
    for thread in threads:
        thread.join(5)
    assert order == list(range(6))
    assert lane.waiting == 0


def test_an_error_inside_gives_the_turn_up_and_reentry_does_not_wait():
    lane = WriterLane(timeout=1)
    with pytest.raises(RuntimeError):
        with lane:
            with lane:  # the same thread again: no wait
                raise RuntimeError("refused")
    done = threading.Event()

    def other() -> None:
        with lane:
            done.set()

    thread = threading.Thread(target=other)
    thread.start()
    assert done.wait(2)
    thread.join(2)


class Holder:
    """A thread holding ``lane`` (entered ``depth`` times) until ``let_go()``."""

    def __init__(self, lane: WriterLane, depth: int = 1) -> None:
        self.held, self.release = threading.Event(), threading.Event()

        def hold() -> None:
            with contextlib.ExitStack() as stack:
                for _ in range(depth):
                    stack.enter_context(lane)
                self.held.set()
                self.release.wait(10)

        self.thread = threading.Thread(target=hold)
        self.thread.start()
        assert self.held.wait(5)

    def let_go(self) -> None:
        self.release.set()
        self.thread.join(5)


def test_lanes_on_one_lock_file_take_turns_as_processes_do(tmp_path):
    """Two lanes on one ``<database>.lane`` file, each with its own open file (as two processes): while
    a writer of one holds its turn (entered twice: the file lock is taken once), a writer of the other
    waits, and is woken when the first gives its turn up (the kernel's hand-over, no polling)."""
    path = tmp_path / "shared.sqlite3.lane"
    first, second = WriterLane(lock_path=path), WriterLane(lock_path=path)
    holder = Holder(first, depth=2)
    order: list[str] = []

    def other_process_writer() -> None:
        with second:
            order.append("second")

    thread = threading.Thread(target=other_process_writer)
    thread.start()
    thread.join(0.1)
    assert order == []  # waiting at the file
    order.append("first")
    holder.let_go()
    thread.join(5)
    assert order == ["first", "second"]
    with first:  # free again
        pass


def test_a_wait_for_another_process_past_the_timeout_is_lane_timeout_and_leaves_the_turn_free(tmp_path):
    """A process that hangs holding the lane file: the other's writer gives up after its timeout
    (``LaneTimeout``, which ``tx.run`` answers 409 ``busy``), and its own process's turn is free."""
    path = tmp_path / "hung.sqlite3.lane"
    hung, waiting = WriterLane(lock_path=path), WriterLane(timeout=0.05, lock_path=path)
    holder = Holder(hung)
    started = time.monotonic()
    with pytest.raises(LaneTimeout):
        with waiting:
            pass  # pragma: no cover
    assert 0.05 <= time.monotonic() - started < 2
    assert waiting.waiting == 0
    holder.let_go()
    waiting.timeout = 5  # the timed-out writer's helper, woken by the release, lets the file go at once
    with waiting:
        pass


def test_an_error_of_the_file_lock_is_raised_as_it_is_not_as_a_timeout(tmp_path, monkeypatch):
    """Only a wait that lasted ``timeout`` is a ``LaneTimeout`` (a lost race, retried): an error of the
    lock itself (here ``flock`` failing with EIO) reaches the writer at once, as it is (a 500)."""
    path = tmp_path / "broken.sqlite3.lane"
    holder = Holder(WriterLane(lock_path=path))
    broken = WriterLane(timeout=30, lock_path=path)
    real_flock = lane_module.fcntl.flock

    def flock(fd, operation):
        if operation == fcntl.LOCK_EX:  # the blocking wait
            raise OSError(errno.EIO, "the disk is gone")
        return real_flock(fd, operation)

    monkeypatch.setattr(lane_module.fcntl, "flock", flock)
    started = time.monotonic()
    with pytest.raises(OSError, match="the disk is gone"):
        with broken:
            pass  # pragma: no cover
    assert time.monotonic() - started < 5
    monkeypatch.undo()
    holder.let_go()
    with broken:  # its turn was given back
        pass


def test_a_database_file_has_its_lane_file_beside_it(tmp_path):
    sqlite_db = Database(f"sqlite:///{tmp_path / 'chronicles.sqlite3'}")
    try:
        assert lane_file(sqlite_db.engine) == tmp_path / "chronicles.sqlite3.lane"
        with sqlite_db.write():
            assert (tmp_path / "chronicles.sqlite3.lane").exists()
    finally:
        sqlite_db.dispose()
    assert lane_file(create_engine("sqlite://")) is None  # in memory: one process only, no file


def test_a_wait_past_the_timeout_leaves_the_queue():
    lane = WriterLane(timeout=0.05)
    held = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with lane:
            held.set()
            release.wait(5)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(2)
    with pytest.raises(LaneTimeout):
        with lane:
            pass  # pragma: no cover
    assert lane.waiting == 0
    release.set()
    thread.join(2)
    with lane:  # free again
        pass


def test_a_lane_timeout_is_a_lost_race_and_ends_as_409_busy(database_url, monkeypatch):
    db = Database(database_url)
    try:
        monkeypatch.setattr(tx, "_backoff", lambda attempt: 0)
        calls = []

        def work(session):
            calls.append(1)
            raise LaneTimeout(0)

        with pytest.raises(ProblemError) as refused:
            tx.run(db, work, attempts=3)
        assert refused.value.status == 409 and refused.value.code == "busy"
        assert len(calls) == 3
    finally:
        db.dispose()


def test_write_transactions_from_many_threads_commit_each_once_and_errors_roll_back(database_url):
    db = Database(database_url)
    table = f"lane_{threading.get_ident() % 100000}_{int(time.time() * 1000) % 100000}"
    try:
        assert (db.lane is not None) == db.sqlite
        with db.write() as session:
            session.execute(text(f"CREATE TABLE {table} (n INTEGER NOT NULL)"))
        errors: list[BaseException] = []

        def writer(index: int) -> None:
            try:
                for round_ in range(5):

                    def work(session, round_=round_):
                        total = session.execute(text(f"SELECT count(*) FROM {table}")).scalar()
                        session.execute(text(f"INSERT INTO {table} (n) VALUES (:n)"), {"n": total})
                        if (index + round_) % 4 == 0:  # a refusal: rolled back, the lane given up
                            raise ProblemError(409, "refused")

                    try:
                        tx.run(db, work)
                    except ProblemError as error:
                        assert error.code == "refused"
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not errors, errors
        with db.read() as session:
            rows = [row[0] for row in session.execute(text(f"SELECT n FROM {table} ORDER BY n"))]
        refused = sum(1 for i in range(12) for r in range(5) if (i + r) % 4 == 0)
        if db.sqlite:  # one writer at a time: each saw every row before it
            assert rows == list(range(12 * 5 - refused))
        else:
            assert len(rows) == 12 * 5 - refused
        if db.lane is not None:
            assert db.lane.waiting == 0
    finally:
        with db.write() as session:
            session.execute(text(f"DROP TABLE IF EXISTS {table}"))
        db.dispose()


def test_concurrent_rolls_on_many_chronicles_all_commit_with_their_chains(app, make_table):
    import httpx

    from rollbook.play import verify_receipt
    from rollbook.server.chain import read_jsonl, verify_entries

    tables = [make_table("v20") for _ in range(6)]
    players = [(table, table.join()) for table in tables]
    characters = [(table, player, table.character(player, V20_SHEET)) for table, player in players]
    barrier = threading.Barrier(len(characters))
    statuses: list[int] = []

    def go(table, player, character) -> None:
        with httpx.Client(base_url=server.url, timeout=120) as http:
            barrier.wait()
            for _ in range(4):
                response = http.post(
                    f"{table.base}/characters/{character['id']}/rolls",
                    headers=player,
                    json={"action": V20_TEST},
                )
                statuses.append(response.status_code)

    with ThreadedServer(app) as server:
        threads = [threading.Thread(target=go, args=item) for item in characters]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    assert statuses == [201] * len(characters) * 4
    for table in tables:
        entries = list(read_jsonl(table.export().splitlines()))
        problems, _counts = verify_entries(entries, verify_receipt)
        assert problems == [] and sum(1 for _line, entry in entries if entry.get("kind") == "roll") == 4


def test_queued_writes_share_commits_and_a_refusal_keeps_the_others(database_url):
    """On SQLite the writes queued while one commits run as one batch (one fsync), each in its
    savepoint: a refused one leaves nothing, the others are kept, the feeds hear only of them."""
    db = Database(database_url)
    table = f"batch_{secrets.token_hex(4)}"
    heard: list[set[int]] = []
    db.after_commit.append(lambda touched: heard.append(set(touched)))
    try:
        with db.write() as session:
            session.execute(text(f"CREATE TABLE {table} (n INTEGER NOT NULL)"))
        barrier = threading.Barrier(16)
        outcomes: list[str] = []

        def writer(index: int) -> None:
            barrier.wait()
            try:
                outcomes.append(f"ok {tx.run(db, insert_or_refuse(table, index))}")
            except ProblemError as error:
                outcomes.append(error.code)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        kept = sorted(i for i in range(16) if i % 3)
        assert sorted(outcomes) == sorted([f"ok {i}" for i in kept] + ["refused"] * (16 - len(kept)))
        with db.read() as session:
            assert sorted(row[0] for row in session.execute(text(f"SELECT n FROM {table}"))) == kept
        assert set().union(*heard) == set(kept)
        if db.batches is not None:
            assert (
                db.batches.writes >= 16 and db.batches.batches < db.batches.writes
            )  # some commits were shared
    finally:
        with db.write() as session:
            session.execute(text(f"DROP TABLE IF EXISTS {table}"))
        db.dispose()
