"""The live feed, one implementation for the JSON API and the web pages. The database is the only
source of entries: a feed wakes up, reads the entries after the last seq it sent, sends them, and
waits again.

- ``entry_feed(hub, db, member, after)``: the one generator, yielding ``(seq, entry)`` (the entry
  as ``views.entry_view`` shows it to this member) for every entry after ``after``, then for each
  new one as it is committed; it ends after ``idle_timeout`` quiet seconds, if one is given.
- ``json_events(feed)``: the API's adapter (``event: entry``, ``id: seq``, the entry as JSON);
  the web's adapter renders each entry as a card's HTML (``rollbook.web.live``).
- ``event_stream(events)``: the ``text/event-stream`` response (``sse-starlette``: a keep-alive
  comment every 15 s, the client's reconnection delay first, disconnects handled).

- In every process, a commit that appended to a chronicle's log wakes that chronicle's feeds
  (``Database.after_commit``).
- On PostgreSQL, a trigger ``pg_notify('rollbook_log', '<chronicle>:<seq>')`` fires for every
  insert, whichever process made it; one listener per process (``LISTEN rollbook_log`` on an
  asyncpg connection of its own, in the server's event loop; reconnected a second after it is
  lost) wakes the feeds of that chronicle. So every app process sees every roll.
- Everywhere, a feed also polls by seq on a timer (0.5 s on SQLite, 5 s on PostgreSQL), so a lost
  notification only delays an entry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import asyncpg
from sse_starlette import EventSourceResponse, JSONServerSentEvent, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from rollbook.server.models import Member
from rollbook.server.usecases import log as log_cases

logger = logging.getLogger("rollbook.server.events")

CHANNEL = "rollbook_log"  # the log's trigger notifies it (migrations)
RETRY_MS = 1000  # the browser's reconnection delay
KEEP_ALIVE_SECONDS = 15
BATCH = 200


@dataclass(eq=False)
class Subscription:
    chronicle_id: int
    loop: asyncio.AbstractEventLoop
    event: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        finally:
            self.event.clear()
        return True


class Hub:
    """Feeds subscribed per chronicle in this process; thread-safe wake-ups."""

    def __init__(self, *, listen_url: str | None = None, poll_interval: float = 0.5) -> None:
        self.listen_url = listen_url  # a libpq URL when the database is PostgreSQL
        self.poll_interval = poll_interval
        self._subscriptions: dict[int, set[Subscription]] = {}
        self._lock = threading.Lock()
        self._listener: asyncio.Task | None = None
        self._stopped = False
        self.notifications = 0  # how many NOTIFYs this process heard (tests read it)
        self.listening = 0  # how many times LISTEN was set up (tests read it: a reconnection counts)

    def subscribe(self, chronicle_id: int) -> Subscription:
        subscription = Subscription(chronicle_id, asyncio.get_running_loop())
        with self._lock:
            self._subscriptions.setdefault(chronicle_id, set()).add(subscription)
        self.start_listener()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            subscribers = self._subscriptions.get(subscription.chronicle_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscriptions[subscription.chronicle_id]

    def wake(self, chronicle_ids) -> None:
        with self._lock:
            targets = [s for cid in chronicle_ids for s in self._subscriptions.get(cid, ())]
        for subscription in targets:
            try:
                subscription.loop.call_soon_threadsafe(subscription.event.set)
            except RuntimeError:  # its loop is closed: the feed is gone
                self.unsubscribe(subscription)

    # --- PostgreSQL LISTEN/NOTIFY ---------------------------------------------------------

    def start_listener(self) -> None:
        """On PostgreSQL, ``LISTEN rollbook_log`` in the running event loop (the server's, from its
        lifespan; a feed's, if that one has ended), on an asyncpg connection of its own: each
        notification is heard in the loop, with no thread to wake and hand the GIL to for every
        roll (bench/README.md, "Eleventh pass")."""
        if self.listen_url is None or self._stopped:
            return
        current = self._listener
        if current is not None and not current.done() and not current.get_loop().is_closed():
            return  # listening, in this loop or in one that still runs (the server's)
        self._listener = asyncio.get_running_loop().create_task(self._listen(), name="rollbook-listen")

    async def _listen(self) -> None:
        while True:
            connection = None
            try:
                connection = await asyncpg.connect(self.listen_url)
                ended = asyncio.Event()
                connection.add_termination_listener(lambda _connection: ended.set())
                await connection.add_listener(CHANNEL, self._heard)
                self.listening += 1
                await ended.wait()
                logger.warning("rollbook: LISTEN connection lost; reconnecting")
            except Exception as error:  # noqa: BLE001 - a lost or refused connection: feeds keep polling; reconnect
                logger.warning("rollbook: LISTEN connection lost (%s); reconnecting", error)
            finally:
                if connection is not None and not connection.is_closed():
                    connection.terminate()
            await asyncio.sleep(1.0)

    def _heard(self, _connection, _pid: int, _channel: str, payload: str) -> None:
        self.notifications += 1
        chronicle, _, _seq = payload.partition(":")
        if chronicle.isdigit():
            self.wake([int(chronicle)])

    async def close(self) -> None:
        """Stop listening (the server's lifespan, at its end)."""
        self._stopped = True
        listener = self._listener
        if listener is not None and not listener.done() and listener.get_loop() is asyncio.get_running_loop():
            listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await listener


# --- the feed and its adapters -------------------------------------------------------------------

def _entries_after(db, member: Member, after: int) -> list[dict]:
    with db.read() as session:
        return log_cases.entries_after(session, member, after, BATCH)


async def entry_feed(hub: Hub, db, member: Member, after: int, *,
                     idle_timeout: float | None = None) -> AsyncIterator[tuple[int, dict]]:
    """``(seq, entry)`` for each entry after ``after``, as this member may see it, then each new
    one as it is committed (woken by ``hub``, polled every ``hub.poll_interval`` seconds)."""
    subscription = hub.subscribe(member.chronicle_id)
    loop = asyncio.get_running_loop()
    last = after
    quiet_since = loop.time()
    try:
        while True:
            entries = await run_in_threadpool(_entries_after, db, member, last)
            for entry in entries:
                yield entry["seq"], entry
                last = entry["seq"]
            if entries:
                quiet_since = loop.time()
                continue
            wait = hub.poll_interval
            if idle_timeout is not None:
                left = idle_timeout - (loop.time() - quiet_since)
                if left <= 0:
                    return
                wait = min(wait, left)
            await subscription.wait(wait)
    finally:
        hub.unsubscribe(subscription)


async def json_events(feed: AsyncIterator[tuple[int, dict]]) -> AsyncIterator[ServerSentEvent]:
    """The API's events: ``id: <seq>``, ``event: entry``, ``data: <the entry as JSON>``."""
    async for seq, entry in feed:
        yield JSONServerSentEvent(entry, event="entry", id=str(seq), sep="\n")


async def _with_retry(events: AsyncIterator[ServerSentEvent]) -> AsyncIterator[ServerSentEvent]:
    yield ServerSentEvent(retry=RETRY_MS, sep="\n")
    async for event in events:
        yield event


def event_stream(events: AsyncIterator[ServerSentEvent]) -> EventSourceResponse:
    """``text/event-stream``: the reconnection delay, then ``events``; a keep-alive comment every 15 s."""
    return EventSourceResponse(_with_retry(events), sep="\n", ping=KEEP_ALIVE_SECONDS,
                               headers={"Cache-Control": "no-cache"})
