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
- On PostgreSQL, a trigger notifies every insert on its chronicle's channel
  (``pg_notify('rollbook_log_<chronicle>', '<seq>')``, migration 0006), whichever process made it;
  one listener thread per process, on its own connection, LISTENs on the channels of the
  chronicles it has a live feed open for and wakes those feeds. So a roll wakes the processes
  someone watches its chronicle from, and only them (hearing one cost an app process 77–115 µs of
  CPU: with one channel for all, every roll cost that in every process, bench/README.md, "Twelfth
  pass"). Once a channel's ``LISTEN`` has taken effect the listener wakes that chronicle's feeds,
  which read the log again: what was committed before it is read, what is committed after it is
  heard.
- Everywhere, a feed also polls by seq on a timer (0.5 s on SQLite, 5 s on PostgreSQL), so a lost
  notification only delays an entry.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from sse_starlette import EventSourceResponse, JSONServerSentEvent, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from rollbook.server.models import Member
from rollbook.server.usecases import log as log_cases

logger = logging.getLogger("rollbook.server.events")

RETRY_MS = 1000  # the browser's reconnection delay
KEEP_ALIVE_SECONDS = 15
BATCH = 200
LISTEN_TICK_SECONDS = 0.2  # how soon the listener takes up a chronicle whose first feed opened here


def channel(chronicle_id: int) -> str:
    """The log's NOTIFY channel of a chronicle (migration 0006's trigger)."""
    return f"rollbook_log_{int(chronicle_id)}"


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
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        self._feed_opened = threading.Event()  # wakes the listener when it listens to nothing
        self.listened: frozenset[int] = frozenset()  # the chronicles whose channel LISTEN is in effect on
        self.notifications = 0  # how many NOTIFYs this process heard (tests read it)

    def subscribe(self, chronicle_id: int) -> Subscription:
        subscription = Subscription(chronicle_id, asyncio.get_running_loop())
        with self._lock:
            self._subscriptions.setdefault(chronicle_id, set()).add(subscription)
        self._feed_opened.set()
        self._ensure_listener()
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

    def _ensure_listener(self) -> None:
        if self.listen_url is None or self._stop.is_set():
            return
        with self._lock:
            if self._listener is not None and self._listener.is_alive():
                return
            self._listener = threading.Thread(target=self._listen, name="rollbook-listen", daemon=True)
            self._listener.start()

    def start_listener(self) -> None:
        self._ensure_listener()

    def _listen(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.listen_url, autocommit=True) as connection:
                    self._hear(connection)
            except Exception as error:  # noqa: BLE001 - a lost connection: feeds keep polling; reconnect
                self.listened = frozenset()  # the next connection listens to nothing yet
                logger.warning("rollbook: LISTEN connection lost (%s); reconnecting", error)
                self._stop.wait(1.0)
        self.listened = frozenset()

    def _watched(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._subscriptions)

    def _hear(self, connection) -> None:
        """LISTEN on the channels of the chronicles with a live feed open here, UNLISTEN the others."""
        while not self._stop.is_set():
            watched = self._watched()
            for chronicle_id in self.listened - watched:
                connection.execute(f"UNLISTEN {channel(chronicle_id)}")
            taken_up = watched - self.listened
            for chronicle_id in taken_up:
                connection.execute(f"LISTEN {channel(chronicle_id)}")
            self.listened = watched
            if taken_up:
                # What was committed before LISTEN took effect was not heard: those feeds read again.
                self.wake(taken_up)
            if not watched:
                self._feed_opened.clear()
                if not self._watched():  # else a feed opened between the look and the clear
                    self._feed_opened.wait(1.0)
                continue
            for notification in connection.notifies(timeout=LISTEN_TICK_SECONDS):
                self.notifications += 1
                chronicle = notification.channel.rpartition("_")[2]
                if chronicle.isdigit():
                    self.wake([int(chronicle)])

    def close(self) -> None:
        self._stop.set()
        self._feed_opened.set()
        listener = self._listener
        if listener is not None:
            listener.join(timeout=3)


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
