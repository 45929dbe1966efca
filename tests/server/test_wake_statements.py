"""A wake of the hub reads a chronicle's new entries and the digests of the tokens revoked lately
in one statement (``usecases.feeds.new_entries_for``): one snapshot by construction, and one
round trip on PostgreSQL where two statements were (a second statement only when an entry is
hidden: which of them were revealed). A token revoked lately comes with the entries of that
statement, and ends its feed instead of giving it the roll.

The hub under test reads through a ``Database`` of its own on the same store: every statement on
its engine is the hub's (recorded with ``before_cursor_execute``; SQLite's ``BEGIN``, a statement
there, is left out), and it stands for another process (no listener, its catch-up an hour apart:
the app's hooks call the app's hub, not this one)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import event, select

from rollbook.server.db import Database
from rollbook.server.events import Batch, End, Feed
from rollbook.server.hub import Hub
from rollbook.server.models import Member
from rollbook.server.usecases import feeds as feed_reads

from .conftest import V20_SHEET, V20_TEST, in_a_loop

pytestmark = pytest.mark.usefixtures("backend")

WAIT = 30.0  # seconds: a generous bound on each wait (every wait is on a condition)


@contextmanager
def hub_reader(database_url: str) -> Iterator[tuple[Database, list[str]]]:
    """A ``Database`` of the hub's own, and every statement run on it meanwhile but ``BEGIN``."""
    db = Database(database_url)
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:
        if not statement.lstrip().upper().startswith("BEGIN"):
            seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield db, seen
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
        db.dispose()


def member_named(client, chronicle_id: int, name: str) -> Member:
    with client.app.state.db.read() as session:
        member = session.scalars(
            select(Member).where(Member.chronicle_id == chronicle_id, Member.name == name)
        ).one()
        session.expunge(member)
    return member


async def next_item(feed: Feed) -> Batch | End:
    return await asyncio.wait_for(feed.queue.get(), WAIT)


def wake_once(
    db: Database, seen: list[str], member: Member, token: str, commit
) -> tuple[Batch | End, list[str]]:
    """A feed of ``member`` open on a hub of its own; ``commit()`` (in a thread) commits through the
    app; the hub is woken as by its commit's hook; the feed's next item, and the wake's statements."""

    async def play() -> tuple[Batch | End, list[str]]:
        hub = Hub(db, poll_interval=3600.0)  # no catch-up during the test: only the wake reads
        try:
            feed = await hub.join(member, [token])
            assert not feed.ended
            await asyncio.to_thread(commit)
            del seen[:]
            hub.wake([member.chronicle_id])
            item = await next_item(feed)
            statements = list(seen)
            hub.leave(feed)
            return item, statements
        finally:
            hub.close()

    return in_a_loop(play())


def test_a_wake_is_one_statement(make_table, client, database_url):
    """A roll wakes the hub: the feed is given it, read by one statement (the entries and the
    tokens revoked lately together)."""
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)["id"]
    with client.app.state.db.read() as session:
        st = session.scalars(
            select(Member).where(Member.chronicle_id == table.id, Member.role == "storyteller")
        ).one()
        session.expunge(st)
    rolled: list[int] = []

    def roll() -> None:
        answer = table.roll(table.st, character, V20_TEST)
        assert answer.status_code == 201, answer.text
        rolled.append(answer.json()["entry"]["seq"])

    with hub_reader(database_url) as (db, seen):
        item, statements = wake_once(db, seen, st, table.st["Authorization"].removeprefix("Bearer "), roll)
    assert isinstance(item, Batch) and item.last == rolled[0], item  # (a first roll: its seed's entry too)
    assert len(statements) == 1, f"a wake sent {len(statements)} statements: {statements}"
    assert "log_entries" in statements[0] and "member_tokens" in statements[0]


def test_a_token_revoked_lately_comes_with_the_entries_and_ends_its_feed(make_table, client, database_url):
    """Bruno's key is rotated by the app (another process for this hub: no hook, no catch-up) and a
    roll follows: the wake's one statement reads the roll with Bruno's digest among those revoked
    lately; his feed is ended (its tokens read again: none opens the chronicle), not given the roll."""
    table = make_table("v20")
    key = table.join("Bruno")
    character = table.character(table.st, V20_SHEET)["id"]
    bruno = member_named(client, table.id, "Bruno")

    def rotate_then_roll() -> None:
        rotated = client.post(f"{table.base}/members/me/key", headers=key)
        assert rotated.status_code == 201, rotated.text
        answer = table.roll(table.st, character, V20_TEST)
        assert answer.status_code == 201, answer.text

    with hub_reader(database_url) as (db, seen):
        item, statements = wake_once(
            db, seen, bruno, key["Authorization"].removeprefix("Bearer "), rotate_then_roll
        )
    assert item == End(feed_reads.REVOKED), item
    reads = [statement for statement in statements if "log_entries" in statement]
    assert len(reads) == 1, reads
    assert "member_tokens" in reads[0], "the revoked digests were not read with the entries"
