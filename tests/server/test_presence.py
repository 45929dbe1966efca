"""Presence (issue 34, "Presence and notifications") on SQLite and PostgreSQL: each server process
writes its own rows (``server.presence``); a member is online while any process's row is fresh, so two
processes' feeds merge, one closing leaves the other's, and a process that died ages out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from rollbook.server import tx
from rollbook.server.models import Member, Presence
from rollbook.server.usecases import presence

pytestmark = pytest.mark.usefixtures("backend")


def test_presence_merges_processes_and_ages_out(make_table, client):
    table = make_table("v20")
    table.join("Bruno")
    db = client.app.state.db
    with db.read() as session:
        members = {m.name: m for m in session.scalars(select(Member).where(Member.chronicle_id == table.id))}
        for m in members.values():
            session.expunge(m)
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
    stale = (datetime.now(UTC) - presence.FRESH - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    tx.run(db, lambda s: s.execute(update(Presence).where(Presence.process == "web-1").values(seen_at=stale)))
    assert online() == set()
    # another chronicle's presence is not this one's
    other = make_table("v5")
    with db.read() as session:
        someone = session.scalars(select(Member).where(Member.chronicle_id == other.id)).first()
    tx.run(db, lambda s: presence.mark(s, "web-3", [(other.id, someone.id)]))
    assert online() == set()
