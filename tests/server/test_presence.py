"""Presence on SQLite and PostgreSQL: each server process
writes its own rows (``server.presence``); a member is online while any process's row is fresh, so two
processes' feeds merge, one closing leaves the other's, and a process that died ages out."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import event, select, update

from rollbook.server import presence as process_presence
from rollbook.server import tx
from rollbook.server.models import Member, Presence
from rollbook.server.usecases import presence

from .conftest import in_a_loop

pytestmark = pytest.mark.usefixtures("backend")


def _members(db, chronicle_id: int) -> dict[str, Member]:
    with db.read() as session:
        members = {
            m.name: m for m in session.scalars(select(Member).where(Member.chronicle_id == chronicle_id))
        }
        for m in members.values():
            session.expunge(m)
    return members


def _stale() -> str:
    return (datetime.now(UTC) - presence.FRESH - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_presence_merges_processes_and_ages_out(make_table, client):
    table = make_table("v20")
    table.join("Bruno")
    db = client.app.state.db
    members = _members(db, table.id)
    st, bruno = members[next(n for n, m in members.items() if m.role == "storyteller")], members["Bruno"]
    c = table.id

    def online() -> set[int]:
        with db.read() as session:
            return presence.online(session, st)

    assert online() == set()
    tx.run(db, lambda s: presence.mark(s, "web-1", [(c, st.id)]))
    tx.run(db, lambda s: presence.mark(s, "web-2", [(c, bruno.id)]))
    assert online() == {st.id, bruno.id}
    tx.run(db, lambda s: presence.mark(s, "web-1", [(c, bruno.id)]))  # Bruno's second tab, on another process
    tx.run(db, lambda s: presence.unmark(s, "web-2", [(c, bruno.id)]))
    assert online() == {st.id, bruno.id}
    tx.run(db, lambda s: presence.mark(s, "web-1", [(c, bruno.id)]))  # a heartbeat: still one row
    with db.read() as session:
        assert len(session.scalars(select(Presence).where(Presence.chronicle_id == c)).all()) == 2
    # web-1 dies without a word: its rows stop being refreshed and age out
    stale = _stale()
    tx.run(db, lambda s: s.execute(update(Presence).where(Presence.process == "web-1").values(seen_at=stale)))
    assert online() == set()
    # another chronicle's presence is not this one's
    other = make_table("v5")
    with db.read() as session:
        someone = session.scalars(select(Member).where(Member.chronicle_id == other.id)).first()
    tx.run(db, lambda s: presence.mark(s, "web-3", [(other.id, someone.id)]))
    assert online() == set()


def test_heartbeat_is_one_statement_per_process(make_table, client):
    """A process's heartbeat refreshes all of its rows in one statement, however
    many members it serves; another process's rows are not its to refresh (they age out)."""
    db = client.app.state.db
    tables = [make_table("v20") for _ in range(3)]
    keys = []
    for table in tables:
        for name in ("Ana", "Bruno", "Carla"):
            table.join(name)
        keys += [(table.id, m.id) for m in _members(db, table.id).values()]
    assert len(keys) == 12
    tx.run(db, lambda s: presence.mark(s, "beat-1", keys))
    tx.run(db, lambda s: presence.mark(s, "beat-2", keys[:1]))
    stale = _stale()
    tx.run(
        db,
        lambda s: s.execute(
            update(Presence).where(Presence.process.in_(["beat-1", "beat-2"])).values(seen_at=stale)
        ),
    )
    storyteller = next(iter(_members(db, tables[0].id).values()))
    with db.read() as session:
        assert presence.online(session, storyteller) == set()
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        refreshed = tx.run(db, lambda s: presence.refresh(s, "beat-1"))
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert refreshed == 12
    assert len([s for s in statements if s.lstrip().upper().startswith("UPDATE")]) == 1
    assert all(not s.lstrip().upper().startswith(("SELECT", "INSERT", "DELETE")) for s in statements)
    with db.read() as session:
        assert presence.online(session, storyteller) == {m for c, m in keys if c == tables[0].id}
        fresh = session.scalars(select(Presence.seen_at).where(Presence.process == "beat-2")).one()
    assert fresh == stale


def test_feeds_opening_together_are_written_together(make_table, client, monkeypatch):
    """The hub's presence writes what many feeds' openings and closings changed in
    one transaction, in order; the heartbeat is one more; a failed write's changes are kept and
    written by the next write."""
    db = client.app.state.db
    tables = [make_table("v20") for _ in range(4)]
    members = []
    for table in tables:
        for name in ("Ana", "Bruno"):
            table.join(name)
        members += list(_members(db, table.id).values())
    monkeypatch.setattr(process_presence, "HEARTBEAT", 3600.0)  # no heartbeat in the first part
    here = process_presence.Presence(SimpleNamespace(db=db))

    def online() -> set[int]:
        with db.read() as session:
            return set().union(*(presence.online(session, m) for m in members))

    async def eventually(condition, what: str, timeout: float = 10.0) -> None:
        """A bounded wait in the loop (the writer is a task of this loop): ``condition()`` true, or a
        failure naming ``what``."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not condition():
            if asyncio.get_running_loop().time() >= deadline:
                raise AssertionError(f"still waiting after {timeout} s for {what}")
            await asyncio.sleep(0.01)

    everyone = {m.id for m in members}

    async def play() -> None:
        for member in members:  # twelve feeds open at once, and a second tab of one of them
            here.arrive(member)
        here.arrive(members[0])
        # ``writes`` counts a write once its commit is done (online() may see the commit a moment before)
        await eventually(lambda: here.writes >= 1, "the arrivals to be written")
        assert here.writes == 1 and here.changes == {} and online() == everyone
        here.depart(members[0])  # the second tab closes: still online, nothing to write
        for member in members[1:]:
            here.depart(member)
            here.arrive(member)  # a reload: gone and back, the latest change wins
        here.depart(members[1])
        await eventually(lambda: here.writes >= 2, "the departure to be written")
        assert here.writes == 2 and here.changes == {} and online() == everyone - {members[1].id}
        with db.read() as session:  # one row per member here: the reloads left no second row
            assert len(session.scalars(select(Presence).where(Presence.process == here.process)).all()) == 11
        # a failed write: its change is kept and written by the next write
        real_run, failed = tx.run, []

        def failing(*args, **kwargs):
            if not failed:
                failed.append(True)
                raise RuntimeError("the database is away")
            return real_run(*args, **kwargs)

        monkeypatch.setattr(process_presence.tx, "run", failing)
        kept = {(members[2].chronicle_id, members[2].id): False}
        here.depart(members[2])
        await eventually(lambda: failed and here.changes == kept, "the failed write's change to be kept")
        assert here.writes == 2
        assert members[2].id in online()
        here.depart(members[3])
        await eventually(lambda: here.writes >= 3, "the next write")
        assert here.changes == {} and here.writes == 3
        assert not {members[2].id, members[3].id} & online()  # it took both
        for member in members:
            here.depart(member)
        await eventually(lambda: here.writes >= 4, "every departure to be written")
        assert here.changes == {} and online() == set()
        here.stop()
        # another process, with a heartbeat: its rows are made fresh again, one transaction a beat
        monkeypatch.setattr(process_presence, "HEARTBEAT", 0.05)
        there = process_presence.Presence(SimpleNamespace(db=db))
        for member in members:
            there.arrive(member)
        await eventually(lambda: there.writes >= 1, "the other process's arrivals to be written")
        assert online() == everyone
        written = there.writes
        stale = _stale()
        tx.run(
            db,
            lambda s: s.execute(
                update(Presence).where(Presence.process == there.process).values(seen_at=stale)
            ),
        )
        await eventually(
            lambda: there.writes >= written + 2, "two heartbeats"
        )  # one after the rows went stale
        with db.read() as session:
            seen = session.scalars(select(Presence.seen_at).where(Presence.process == there.process)).all()
        assert len(seen) == len(members) and min(seen) > stale
        assert online() == everyone
        for member in members:
            there.depart(member)
        await eventually(lambda: online() == set(), "the other process's departures to be written")
        there.stop()

    in_a_loop(play())
