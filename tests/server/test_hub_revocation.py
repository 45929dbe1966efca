"""Whichever process revokes a token, and however late that process's word of it
comes, an entry committed after the revocation never reaches the revoked feed. The hub here stands
for another process: it has no listener and its catch-up is an hour apart, so nothing tells it of
the revocation; its read of the chronicle's new entries is held until the revocation and a roll
after it are committed. The read's own snapshot must end the feed instead of giving it the roll."""

from __future__ import annotations

import asyncio
import threading

import pytest
from sqlalchemy import select

from rollbook.server.events import Batch, End
from rollbook.server.hub import Hub
from rollbook.server.models import Member
from rollbook.server.usecases import feeds as feed_reads

from .conftest import V20_SHEET, V20_TEST, in_a_loop

pytestmark = pytest.mark.usefixtures("backend")

WAIT = 30.0  # seconds: a generous bound on each wait (every wait is on a condition)


def test_an_entry_read_after_the_revocation_never_reaches_the_feed(make_table, client, monkeypatch):
    table = make_table("v20")
    player = table.join("Bruno")
    character = table.character(table.st, V20_SHEET)
    db = client.app.state.db
    with db.read() as session:
        member = session.scalars(
            select(Member).where(Member.chronicle_id == table.id, Member.name == "Bruno")
        ).one()
        session.expunge(member)
    token = player["Authorization"].removeprefix("Bearer ")

    real_new_entries = feed_reads.new_entries_for
    held, entered, release = [], threading.Event(), threading.Event()

    def held_read(connection, chronicle_id, *args):
        if (
            chronicle_id == table.id and not held
        ):  # the first read of this chronicle waits, before its snapshot
            held.append(True)
            entered.set()
            assert release.wait(WAIT), "the test never let the read go"
        return real_new_entries(connection, chronicle_id, *args)

    monkeypatch.setattr(feed_reads, "new_entries_for", held_read)

    def revoke_then_roll() -> int:
        rotated = client.post(f"{table.base}/members/me/key", headers=player)
        assert rotated.status_code == 201, rotated.text
        rolled = table.roll(table.st, character["id"], V20_TEST)
        assert rolled.status_code == 201, rolled.text
        return rolled.json()["entry"]["seq"]

    async def play() -> tuple[list, int]:
        hub = Hub(db, poll_interval=3600.0)  # another process: no listener, no catch-up during the test
        try:
            feed = await hub.join(member, [token])
            hub.wake([table.id])  # a wake whose read is under way when the revocation commits
            assert await asyncio.to_thread(entered.wait, WAIT), "the hub did not read"
            late = await asyncio.to_thread(revoke_then_roll)
            release.set()
            items: list = []
            while not items or not isinstance(items[-1], End):
                try:
                    items.append(await asyncio.wait_for(feed.queue.get(), WAIT))
                except TimeoutError:
                    break
            hub.leave(feed)
            return items, late
        finally:
            release.set()
            hub.close()

    items, late = in_a_loop(play())
    given = [row.seq for item in items if isinstance(item, Batch) for row in item.rows]
    assert late not in given, "the roll committed after the revocation was given to the revoked feed"
    assert items and items[-1] == End(feed_reads.REVOKED), f"the feed was not ended: {items}"
