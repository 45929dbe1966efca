"""A live feed learns that its token stopped opening the chronicle without reading its token at
every wake. A wake reads the chronicle's new entries and, in the same snapshot, the digests of the
tokens revoked lately (one look-up in the revocations' index, whatever the number of feeds): with
no revocation, no feed's token is read. A revocation ends the feed from the process that commits
it (its hook), from another process (its word: the catch-up, or the next wake's snapshot), and a
session's expiry from its time, known when the feed joined (the clock, no read).

The hub under test reads through a ``Database`` of its own on the same store: every statement on
its engine is the hub's (recorded with ``before_cursor_execute``), and it stands for another
process (no listener; the app's hooks call the app's hub, not this one)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, select

from rollbook import settings as rollbook_settings
from rollbook.server import auth
from rollbook.server.db import Database
from rollbook.server.events import Batch, End, Feed
from rollbook.server.hub import Hub
from rollbook.server.models import Member
from rollbook.server.usecases import feeds as feed_reads

from .conftest import V20_SHEET, V20_TEST, bearer, in_a_loop

pytestmark = pytest.mark.usefixtures("backend")

WAIT = 30.0  # seconds: a generous bound on each wait (every wait is on a condition)
PLAYERS = 4


@contextmanager
def statements_of(db: Database) -> Iterator[list[tuple[str, str]]]:
    """Every statement run on ``db``'s engine meanwhile: (its SQL, its parameters as text)."""
    seen: list[tuple[str, str]] = []

    def record(conn, cursor, statement, parameters, context, executemany) -> None:
        seen.append((statement, str(parameters)))

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(db.engine, "before_cursor_execute", record)


@contextmanager
def own_reader(database_url: str) -> Iterator[Database]:
    db = Database(database_url)
    try:
        yield db
    finally:
        db.dispose()


def members_of(client, chronicle_id: int) -> dict[str, Member]:
    with client.app.state.db.read() as session:
        found = {
            member.name: member
            for member in session.scalars(select(Member).where(Member.chronicle_id == chronicle_id))
        }
        for member in found.values():
            session.expunge(member)
    return found


def token_of(headers: dict) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


async def next_item(feed: Feed) -> Batch | End:
    return await asyncio.wait_for(feed.queue.get(), WAIT)


@dataclass
class Seat:
    """A player of a fresh table: the headers the feed is opened with, and their key's."""

    table: object
    member: Member
    feed_headers: dict
    key: dict
    character: int


def seated(make_table, client, how: str) -> Seat:
    table = make_table("v20")
    key = table.join("Bruno")
    character = table.character(table.st, V20_SHEET)["id"]
    feed_headers = key
    if how == "sign-out":
        opened = client.post("/api/session", headers=key)
        assert opened.status_code == 201, opened.text
        feed_headers = bearer(opened.json()["token"])
    return Seat(table, members_of(client, table.id)["Bruno"], feed_headers, key, character)


def revoke(client, seat: Seat, how: str) -> None:
    table = seat.table
    if how == "sign-out":
        answer = client.delete("/api/session", headers=seat.feed_headers)
    elif how == "key rotation":
        answer = client.post(f"{table.base}/members/me/key", headers=seat.key)
    else:
        answer = client.delete(f"{table.base}/members/{seat.member.id}", headers=table.st)
    assert answer.status_code in (200, 201), answer.text


REASONS = {"sign-out": feed_reads.REVOKED, "key rotation": feed_reads.REVOKED, "removal": feed_reads.REMOVED}


def test_a_wake_without_a_revocation_reads_no_feeds_token(make_table, client, database_url):
    """Five feeds open (the Storyteller's, four players'), a roll wakes the hub: every feed is
    given it, and no statement of the wake carries a feed's token or reads its member."""
    table = make_table("v20")
    keys = {f"Player {index}": table.join(f"Player {index}") for index in range(PLAYERS)}
    character = table.character(table.st, V20_SHEET)["id"]
    members = members_of(client, table.id)
    heads = {**keys, **{name: table.st for name, m in members.items() if m.role == "storyteller"}}
    assert len(heads) == PLAYERS + 1
    digests = {auth.digest(token_of(headers)) for headers in heads.values()}

    async def play(db: Database) -> tuple[list, list[tuple[str, str]], int]:
        hub = Hub(db, poll_interval=3600.0)  # no catch-up during the test: only the wake reads
        try:
            feeds = [await hub.join(members[name], [token_of(headers)]) for name, headers in heads.items()]
            assert not any(feed.ended for feed in feeds)
            with statements_of(db) as seen:
                rolled = await asyncio.to_thread(table.roll, table.st, character, V20_TEST)
                assert rolled.status_code == 201, rolled.text
                hub.wake([table.id])  # this process's commit's wake
                items = [await next_item(feed) for feed in feeds]
            for feed in feeds:
                hub.leave(feed)
            return items, seen, rolled.json()["entry"]["seq"]
        finally:
            hub.close()

    with own_reader(database_url) as db:
        items, seen, seq = in_a_loop(play(db))
    assert all(isinstance(item, Batch) and item.last == seq for item in items), items
    assert seen, "the wake read nothing"
    carrying = [statement for statement, parameters in seen if any(d in parameters for d in digests)]
    assert not carrying, f"the wake read the feeds' tokens: {carrying}"
    assert not [statement for statement, _ in seen if "members" in statement.replace("member_tokens", "")]


@pytest.mark.parametrize("how", sorted(REASONS))
def test_another_processs_revocation_ends_the_feed_by_its_catch_up(make_table, client, database_url, how):
    """Nothing is rolled: the revocation (committed by the app: another process for this hub) is
    found by this hub's catch-up (``revoked_since``), which ends the feed with its reason."""
    seat = seated(make_table, client, how)

    async def play(db: Database) -> list:
        hub = Hub(db, poll_interval=0.2)
        try:
            feed = await hub.join(seat.member, [token_of(seat.feed_headers)])
            assert not feed.ended
            await asyncio.to_thread(revoke, client, seat, how)
            items = [await next_item(feed)]
            hub.leave(feed)
            return items
        finally:
            hub.close()

    with own_reader(database_url) as db:
        items = in_a_loop(play(db))
    assert items == [End(REASONS[how])]


@pytest.mark.parametrize("how", sorted(REASONS))
def test_another_processs_revocation_ends_the_feed_before_the_next_entry(
    make_table, client, database_url, how
):
    """The revocation is committed by the app (another process for this hub, whose catch-up is an
    hour apart), then a roll; the hub's next wake reads the roll with the revocation in the same
    snapshot: the feed ends with its reason and is never given the roll."""
    seat = seated(make_table, client, how)
    table = seat.table

    async def play(db: Database) -> tuple[list, int]:
        hub = Hub(db, poll_interval=3600.0)
        try:
            feed = await hub.join(seat.member, [token_of(seat.feed_headers)])
            assert not feed.ended
            await asyncio.to_thread(revoke, client, seat, how)
            rolled = await asyncio.to_thread(table.roll, table.st, seat.character, V20_TEST)
            assert rolled.status_code == 201, rolled.text
            hub.wake([table.id])
            items = [await next_item(feed)]
            hub.leave(feed)
            return items, rolled.json()["entry"]["seq"]
        finally:
            hub.close()

    with own_reader(database_url) as db:
        items, seq = in_a_loop(play(db))
    assert items == [End(REASONS[how])], f"the roll {seq} reached the revoked feed: {items}"


def test_a_sessions_expiry_ends_its_feed_from_the_clock_without_a_read(make_table, client, database_url):
    """A session of 1.5 s: its feed ends with ``expired`` just after that time, on the hub's
    timer, and the hub reads nothing meanwhile (its expiry was read when the feed joined)."""
    table = make_table("v20")
    key = table.join("Bruno")
    before = rollbook_settings.install(rollbook_settings.Settings(session_hours=1.5 / 3600))
    try:
        opened = client.post("/api/session", headers=key)
    finally:
        rollbook_settings.install(before)
    assert opened.status_code == 201, opened.text
    expires_at = opened.json()["expires_at"]
    member = members_of(client, table.id)["Bruno"]

    async def play(db: Database) -> tuple[list, list, str]:
        hub = Hub(db, poll_interval=3600.0)
        try:
            feed = await hub.join(member, [opened.json()["token"]])
            assert not feed.ended and feed.expires_at == expires_at
            with statements_of(db) as seen:
                items = [await next_item(feed)]
                ended_at = auth.stamp(datetime.now(UTC))
            hub.leave(feed)
            return items, seen, ended_at
        finally:
            hub.close()

    with own_reader(database_url) as db:
        items, seen, ended_at = in_a_loop(play(db))
    assert items == [End(feed_reads.EXPIRED)]
    assert ended_at >= expires_at, "the feed ended before its session's time"
    assert seen == [], f"the expiry read: {seen}"
