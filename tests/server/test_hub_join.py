"""Feeds opening together (a server restarted, its readers reconnecting) have their tokens
read together. Each join read its own tokens, a transaction of its own queued on the hub's two
reader threads: on PostgreSQL, three round trips a feed, a queue still draining seconds after a
thousand feeds had opened. Now the feeds that join while a read of tokens is under way are read by
the next one, in one statement: forty feeds joining at once are one read, and each is judged on its
own token (a revoked one ends, the others stay open)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from rollbook.server.hub import Hub
from rollbook.server.models import Member

from .conftest import in_a_loop

pytestmark = pytest.mark.usefixtures("backend")

PLAYERS = 40


def test_feeds_joining_together_read_their_tokens_once_each_judged_on_its_own(make_table, client):
    table = make_table("v20")
    keys = [table.join(f"Player {index}") for index in range(PLAYERS)]
    revoked = keys[0]
    rotated = client.post(f"{table.base}/members/me/key", headers=revoked)  # its old key stops opening it
    assert rotated.status_code == 201, rotated.text
    db = client.app.state.db
    with db.read() as session:
        members = {
            member.name: member
            for member in session.scalars(select(Member).where(Member.chronicle_id == table.id))
        }
        for member in members.values():
            session.expunge(member)

    async def join_all() -> tuple[list, int]:
        hub = Hub(db, poll_interval=3600.0)
        try:
            feeds = await asyncio.gather(
                *(
                    hub.join(members[f"Player {index}"], [key["Authorization"].removeprefix("Bearer ")])
                    for index, key in enumerate(keys)
                )
            )
            ended = [feed.ended for feed in feeds]
            for feed in feeds:
                hub.leave(feed)
            return ended, hub.token_reads
        finally:
            hub.close()

    ended, reads = in_a_loop(join_all())
    assert reads == 1  # one read for the forty joins, not forty
    assert ended[0] and not any(ended[1:])
