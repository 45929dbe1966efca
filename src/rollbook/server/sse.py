"""The live feed as a response: ``entry_feed`` (the one generator of a member's feed, over the
process's ``hub.Hub``) and its adapters: ``json_events`` (the API's) and ``event_stream`` (the
``text/event-stream`` response, ``sse-starlette``: the client's reconnection delay first, a
keep-alive comment every 15 s, disconnects handled). The web's adapter renders each entry as its
card (``rollbook.web.live``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable

from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from rollbook.entries import Logged
from rollbook.server.events import BATCH, End, Entry, dumps
from rollbook.server.hub import Hub
from rollbook.server.models import Caller
from rollbook.server.usecases import log as log_cases

RETRY_MS = 1000  # the browser's reconnection delay
KEEP_ALIVE_SECONDS = 15


def _entries_after(db, member: Caller, after: int) -> list[dict]:
    with db.read() as session:
        return log_cases.entries_after(session, member, after, BATCH)


def entry_feed(
    hub: Hub,
    db,
    member: Caller,
    after: int,
    *,
    tokens: Iterable[str | None] = (),
    idle_timeout: float | None = None,
) -> AsyncIterator[Entry | End]:
    """``Entry`` for each entry after ``after``, as this member may see it, then each new one as it
    is committed (from the feed's queue in ``hub``); ``End`` last if the member's token stops
    opening the chronicle (nothing more once the hub has ended the feed: what was queued before its
    end is dropped). It returns after ``idle_timeout`` quiet seconds, if one is given.
    Called before the response starts: a hub whose listener failed refuses here (a 500)."""
    if hub.failure is not None:
        raise RuntimeError("the live feed's listener failed; restart the server") from hub.failure
    hub.admit()  # 429 beyond the process's bound, before the response starts
    if hub.db is None:
        hub.db = db
    return _feed(hub, db, member, after, tuple(tokens), idle_timeout)


async def _feed(hub: Hub, db, member: Caller, after: int, tokens: tuple, idle_timeout: float | None):
    feed = await hub.join(member, tokens)
    hub.presence.arrive(member)  # online while a feed is open
    last = after
    try:
        while last < feed.start and not feed.ended:  # what it missed: its own read, once, at connection
            entries = await run_in_threadpool(_entries_after, db, member, last)
            hub.backlog_reads += 1
            for entry in entries:
                if feed.ended:  # revoked while it was read or sent (a yield lets the hub run)
                    break
                last = Logged.of(entry).seq
                yield Entry(last, entry, dumps(entry))
            if len(entries) < BATCH:
                break
        while True:
            if idle_timeout is None:
                item = await feed.queue.get()
            else:
                try:
                    item = await asyncio.wait_for(feed.queue.get(), idle_timeout)
                except TimeoutError:
                    return
            if isinstance(item, End):
                yield item
                return
            for entry in item.entries(member):
                if feed.ended:  # its ``End`` is queued: go to it, give nothing more
                    break
                if entry.seq > last:
                    last = entry.seq
                    yield entry
    finally:
        hub.leave(feed)
        hub.presence.depart(member)


async def json_events(feed: AsyncIterator[Entry | End]) -> AsyncIterator[ServerSentEvent]:
    """The API's events: ``id: <seq>``, ``event: entry``, ``data: <the entry as JSON>``; when the
    member's token stops opening the chronicle, ``event: end``, ``data: {"reason": …}``."""
    async for item in feed:
        if isinstance(item, End):
            yield ServerSentEvent(dumps({"reason": item.reason}), event="end", sep="\n")
        else:
            yield ServerSentEvent(item.json, event="entry", id=str(item.seq), sep="\n")


async def _with_retry(events: AsyncIterator[ServerSentEvent]) -> AsyncIterator[ServerSentEvent]:
    yield ServerSentEvent(retry=RETRY_MS, sep="\n")
    async for event in events:
        yield event


def event_stream(events: AsyncIterator[ServerSentEvent]) -> EventSourceResponse:
    """``text/event-stream``: the reconnection delay, then ``events``; a keep-alive comment every 15 s."""
    return EventSourceResponse(
        _with_retry(events), sep="\n", ping=KEEP_ALIVE_SECONDS, headers={"Cache-Control": "no-cache"}
    )
