"""SQLite's WAL is checkpointed by the engine's checkpointer thread, never by a commit
(``engines.Checkpointer``, ``wal_autocheckpoint=0``): a commit that crossed SQLite's 1,000 pages used
to copy them back into the database and fsync it before returning, with every writer of its batch
waiting (bench/README.md, "Stalls"). PostgreSQL has no such thread."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text

from rollbook.server import engines

PAGE = 4096


def _write_pages(engine, pages: int) -> None:
    """About ``pages`` pages of the WAL, in commits of a hundred pages."""
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, body BLOB)")
    for _ in range(pages // 100):
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO scratch (body) VALUES (:body)"), [{"body": b"x" * (PAGE - 200)}] * 100
            )


def _wait_for(condition, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def sqlite_engine(tmp_path):
    made = engines.make_engine(f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    yield made, tmp_path / "wal.sqlite3-wal"
    made.dispose()


def test_no_commit_checkpoints_the_wal(sqlite_engine, monkeypatch):
    monkeypatch.setattr(engines, "CHECKPOINT_EVERY", 3600.0)  # the checkpointer waits: only commits could
    engine, wal = sqlite_engine
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    _write_pages(engine, 3000)
    # with SQLite's autocheckpoint the commit past 1,000 pages would have copied them back, and the
    # WAL would have started again from its beginning: it would hold about 1,000 pages, not 3,000
    assert wal.stat().st_size > 2500 * PAGE


def test_the_checkpointer_copies_the_wal_back_in_its_own_time(sqlite_engine, monkeypatch):
    monkeypatch.setattr(engines, "CHECKPOINT_EVERY", 0.05)
    engine, wal = sqlite_engine
    database = wal.with_name(wal.name.removesuffix("-wal"))
    checkpointer = engines.checkpointer_of(engine)
    assert checkpointer is not None
    _write_pages(engine, 1500)
    # only a checkpoint writes the database file itself, and no commit makes one
    assert _wait_for(lambda: database.stat().st_size > 1400 * PAGE)
    # the file grows while the checkpoint copies; the checkpoint is counted once its PRAGMA returns
    assert _wait_for(lambda: checkpointer.checkpoints > 0)
    assert checkpointer.last is not None and checkpointer.last[0] == 0
    assert checkpointer.running


def test_the_checkpointer_stops_with_its_engine_and_starts_again_at_the_next_commit(
    sqlite_engine, monkeypatch
):
    monkeypatch.setattr(engines, "CHECKPOINT_EVERY", 0.05)
    engine, _ = sqlite_engine
    checkpointer = engines.checkpointer_of(engine)
    _write_pages(engine, 100)
    assert checkpointer.running
    engine.dispose()
    assert not checkpointer.running
    made = checkpointer.checkpoints
    _write_pages(engine, 100)  # the pool opens connections again; a commit wakes the checkpointer
    assert checkpointer.running
    assert _wait_for(lambda: checkpointer.checkpoints > made)


def test_a_quiet_checkpointer_ends_its_thread(sqlite_engine, monkeypatch):
    monkeypatch.setattr(engines, "CHECKPOINT_EVERY", 0.02)
    monkeypatch.setattr(engines, "CHECKPOINTER_IDLE", 0.1)
    engine, _ = sqlite_engine
    checkpointer = engines.checkpointer_of(engine)
    _write_pages(engine, 100)
    assert _wait_for(lambda: not checkpointer.running)
    _write_pages(engine, 100)
    assert checkpointer.running


def test_checkpoints_are_sqlite_files_only(database_url, tmp_path):
    engine = engines.make_engine(database_url)
    try:
        if database_url.startswith("sqlite"):
            assert engines.checkpointer_of(engine) is not None
        else:
            assert engines.checkpointer_of(engine) is None  # PostgreSQL checkpoints on its own
            with engine.begin() as connection:
                assert connection.exec_driver_sql("SELECT 1").scalar() == 1
    finally:
        engine.dispose()
