"""The live feed, one implementation for the JSON API and the web pages: per process, one
subscription per chronicle and a queue per feed (encode/broadcaster's fan-out).

- ``Hub``: a chronicle's new entries are read once per process per wake (the log after the last
  seq this process delivered for it, ``usecases.feeds.new_entries``) and the one read is put in
  the queue of every feed of that chronicle open here; each feed derives its member's view from it
  (``Batch.entries``: a hidden entry redacted for a player, as ``views.entry_view``). A feed that
  waits costs nothing but its keep-alive: no timer, no read of its own.
- Each feed (``server.sse.entry_feed``) reads its own backlog once, at connection (what it missed
  before its channel's last delivered seq), then takes its entries from its queue, then ``End``
  when the member's token is revoked (sign-out, key rotation, removal) or expires.

What wakes a chronicle in a process:

- a commit of this process that appended to its log (``Database.after_commit`` calls ``wake``);
- on PostgreSQL, the log's insert trigger notifies on the chronicle's channel
  (``pg_notify('rollbook_log_<chronicle>', '<seq>')``, migration 0006), whichever process made it;
  a token revoked notifies ``revoked`` on the same channel (migration 0009). One listener thread per
  process, on its own connection, LISTENs on the channels of the chronicles it has a live feed open
  for, and only while it has one. Once a channel's ``LISTEN`` has taken effect the chronicle is read
  again: what was committed before it is read, what is committed after it is heard;
- the per-process catch-up (every ``poll_interval``: 0.5 s on SQLite, 5 s on PostgreSQL), one read
  for all the chronicles with a feed open here: their heads (an index look-up each) and the tokens
  revoked since the last one. It is how another process's writes reach a SQLite process, and how a
  NOTIFY lost with the listener's connection is recovered; its cost grows with the chronicles
  watched, never with the feeds.

A token revoked ends the feeds opened with it: the hub reads the state of the tokens of that
chronicle's feeds (one read) and puts ``End`` in the queues of those whose token no longer opens
the chronicle. A session's expiry ends its feeds on one per-process timer.

The listener retries a lost connection (``psycopg.OperationalError``) after a second; any other
error is a defect: it is logged, every open feed ends and a new one is refused (500) until restart.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import logging
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from rollbook.server import auth
from rollbook.server.listen import Listener, channel  # noqa: F401 - channel: the name tests and docs use
from rollbook.server.models import Member
from rollbook.server.presence import Presence
from rollbook.server.usecases import feeds as feed_reads
from rollbook.server.views import entry_view

logger = logging.getLogger("rollbook.server.events")

BATCH = 200
REVOCATION_MARGIN = timedelta(seconds=10)  # a revocation committed late is still seen by the catch-up
EXPIRY_SLACK = 0.05  # the expiry timer fires just after the token's time, never just before
READER_THREADS = 2  # the hub's reads: a chronicle's new entries, tokens, the catch-up (two overlap a round trip)
ERROR = "error"  # why a feed ended when the hub itself failed


def dumps(view: dict) -> str:
    return json.dumps(view, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@dataclass(frozen=True)
class Entry:
    """One log entry as a member may see it: ``json`` is ``view`` serialised (shared by the feeds of
    one role: do not change ``view``)."""

    seq: int
    view: dict
    json: str
    batch: Batch | None = None  # the process's read it came in (None: the feed's own backlog read)


@dataclass(frozen=True)
class End:
    """The last thing a feed yields: why it ended (``usecases.feeds``: removed, revoked, expired)."""

    reason: str


class Batch:
    """New entries of one chronicle, read once by the process and shared by its feeds: each role's
    views are made once, when the first feed of that role takes them."""

    def __init__(self, rows: list, revealed: dict[int, int]) -> None:
        self.rows, self.revealed = rows, revealed
        self.last = rows[-1].seq
        self._views: dict[str, list[Entry]] = {}
        self.shared: dict[str, object] = {}  # what an adapter derives once for every feed (web.live)

    def entries(self, member: Member) -> list[Entry]:
        made = self._views.get(member.role)
        if made is None:
            made = []
            for row in self.rows:
                view = entry_view(row, member, self.revealed)
                made.append(Entry(row.seq, view, dumps(view), self))
            self._views[member.role] = made
        return made


@dataclass(eq=False)
class Feed:
    """One open feed: its member, the digests of the tokens it was opened with, its queue."""

    member: Member
    hashes: tuple[str, ...]
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    expires_at: str | None = None
    start: int = 0  # its channel's last delivered seq when it joined: the queue has what follows
    ended: bool = False

    def end(self, reason: str) -> None:
        if not self.ended:
            self.ended = True
            self.queue.put_nowait(End(reason))


@dataclass(eq=False)
class Channel:
    """One chronicle's subscription in this process: its feeds, the last seq read, one reader."""

    chronicle_id: int
    feeds: set[Feed] = field(default_factory=set)
    delivered: int = 0
    wanted: int = 0  # the highest seq a wake said was committed (a NOTIFY's, the catch-up's)
    unread: bool = False  # a wake that did not say its seq (this process's commit): read
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    check_tokens: bool = False
    task: asyncio.Task | None = None


def _now() -> str:
    return auth.stamp(datetime.now(UTC))


class Hub:
    """The live feeds of this process, by chronicle. Its state lives in the server's event loop;
    ``wake`` and ``revoked`` may be called from any thread."""

    def __init__(self, db=None, *, listen_url: str | None = None, poll_interval: float = 0.5) -> None:
        self.db = db
        self.poll_interval = poll_interval  # the per-process catch-up
        self.channels: dict[int, Channel] = {}
        self.by_token: dict[str, set[Feed]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._keeper: asyncio.Task | None = None
        self._keeper_wake: asyncio.Event | None = None
        self._expiries: list[tuple[float, int, Feed]] = []
        self._order = itertools.count()
        self.listener = Listener(self, listen_url) if listen_url else None
        self._readers: ThreadPoolExecutor | None = None
        self.watched: frozenset[int] = frozenset()  # chronicles with a feed open here (any thread reads it)
        self.listened: frozenset[int] = frozenset()  # the chronicles whose channel LISTEN is in effect on
        self.notifications = 0  # how many NOTIFYs this process heard (tests read it)
        self.reads = 0          # log reads made for the channels (one per chronicle per wake)
        self.backlog_reads = 0  # log reads a feed made for itself, at connection (what it missed)
        self.catch_ups = 0      # per-process catch-up reads
        self.coalesced = 0      # wakes for a seq already read, that made no read
        self.failure: BaseException | None = None  # a defect the listener met: no feed is served
        self.presence = Presence(self)  # who has a feed open here, written for every process (issue 34)

    # --- wake-ups, from any thread ------------------------------------------------------------

    def wake(self, chronicle_ids: Iterable[int]) -> None:
        """This process committed new entries to these chronicles' logs (``Database.after_commit``):
        read them. A chronicle whose channel this process LISTENs on is left to its NOTIFY, which
        comes all the same: one wake, one read per commit."""
        listened = self.listened
        self._schedule([cid for cid in chronicle_ids if cid not in listened], self._wake_now)

    def revoked(self, chronicle_ids: Iterable[int]) -> None:
        """A token of a member of these chronicles was revoked: check the tokens of their feeds."""
        self._schedule(chronicle_ids, self._revoked_now)

    def heard(self, chronicle_id: int, seq: int | None) -> None:
        """The listener heard this chronicle's channel (``server.listen``): entry ``seq`` was
        committed, or (``None``) a token was revoked: check the tokens of its feeds, then read."""
        if seq is None:
            self._schedule([chronicle_id], self._revoked_now)
        else:
            self._schedule([chronicle_id], lambda targets: self._wake_now(targets, seq))

    def listening(self, chronicle_ids: Iterable[int]) -> None:
        """LISTEN took effect on these chronicles' channels (``server.listen``): what was committed or
        revoked before it was not heard, so one catch-up read covers them all (their heads, the
        tokens revoked lately), not a read per chronicle."""
        self._schedule(chronicle_ids, self._listening_now)

    def _listening_now(self, chronicle_ids: list[int]) -> None:
        since = auth.stamp(datetime.now(UTC) - REVOCATION_MARGIN)
        task = asyncio.get_running_loop().create_task(self._catch_up(since, only=chronicle_ids))
        task.add_done_callback(self._log_failure)

    @staticmethod
    def _log_failure(task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            logger.error("rollbook: the live feeds' catch-up read failed", exc_info=task.exception())

    def _schedule(self, chronicle_ids: Iterable[int], action) -> None:
        watched = self.watched
        targets = [cid for cid in chronicle_ids if cid in watched]
        loop = self._loop
        if not targets or loop is None:
            return
        try:
            loop.call_soon_threadsafe(action, targets)
        except RuntimeError:  # the loop is closed: its feeds are gone
            pass

    def _wake_now(self, chronicle_ids: list[int], seq: int | None = None) -> None:
        """Read these chronicles' new entries: up to ``seq`` (a NOTIFY's, the catch-up's head), or
        whatever was committed (``None``: this process's commit, whose seqs the hook does not say).
        A wake for a seq already read makes no read: one commit of two entries (a chronicle's
        first roll and its seed's commitment, F-1) notifies twice, and is read once."""
        for chronicle_id in chronicle_ids:
            found = self.channels.get(chronicle_id)
            if found is None:
                continue
            if seq is None:
                found.unread = True
            elif seq > max(found.delivered, found.wanted):
                found.wanted = seq
            else:
                self.coalesced += 1
                continue
            found.wake.set()

    def _revoked_now(self, chronicle_ids: list[int]) -> None:
        for chronicle_id in chronicle_ids:
            found = self.channels.get(chronicle_id)
            if found is not None:
                found.check_tokens = True
                found.wake.set()

    # --- feeds joining and leaving (in the loop) -----------------------------------------------

    async def join(self, member: Member, tokens: Iterable[str | None]) -> Feed:
        """A new feed of ``member``'s chronicle, its queue subscribed now; ``tokens``: the token(s)
        the request presented (the one that opened ``member`` among them)."""
        if self.failure is not None:
            raise RuntimeError("the live feed's listener failed") from self.failure
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        hashes = tuple(dict.fromkeys(auth.digest(token) for token in tokens if token))
        feed = Feed(member, hashes)
        chronicle_id = member.chronicle_id
        found = self.channels.get(chronicle_id)
        if found is None:
            found = self.channels[chronicle_id] = Channel(chronicle_id)
            self._watch()
            found.task = asyncio.get_running_loop().create_task(self._read_for(found))
        found.feeds.add(feed)
        for hashed in hashes:
            self.by_token.setdefault(hashed, set()).add(feed)
        self._ensure_keeper()
        try:
            states = await self._off_loop(self._token_states, hashes)
            await found.ready.wait()
        except BaseException:
            self.leave(feed)
            raise
        feed.start = found.delivered
        reason, feed.expires_at = self._verdict(feed, states)
        if reason is not None:
            feed.end(reason)
        elif feed.expires_at is not None:
            self._expire_at(feed)
        return feed

    def leave(self, feed: Feed) -> None:
        chronicle_id = feed.member.chronicle_id
        found = self.channels.get(chronicle_id)
        if found is not None:
            found.feeds.discard(feed)
            if not found.feeds:
                del self.channels[chronicle_id]
                found.wake.set()  # its reader sees it has no feed left and stops
                self._watch()
        for hashed in feed.hashes:
            holders = self.by_token.get(hashed)
            if holders is not None:
                holders.discard(feed)
                if not holders:
                    del self.by_token[hashed]

    def _watch(self) -> None:
        self.watched = frozenset(self.channels)
        if self.listener is not None and self.failure is None:
            self.listener.watch_changed()

    # --- one chronicle's reader ----------------------------------------------------------------

    def _read(self, work, *args):
        with self.db.read() as session:
            return work(session, *args)

    async def _off_loop(self, work, *args):
        """``work(*args)`` on the hub's own reader threads: the feeds' reads never wait behind the
        requests in the server's thread pool (a roll holds a thread until its commit)."""
        if self._readers is None:
            self._readers = ThreadPoolExecutor(READER_THREADS, thread_name_prefix="rollbook-feed")
        return await asyncio.get_running_loop().run_in_executor(self._readers, lambda: work(*args))

    def _read_one(self, work, *args):
        """``work`` on the Core connection of a read transaction (plain statements, no ORM)."""
        with self.db.read() as session:
            return work(session.connection(), *args)

    def _token_states(self, hashes) -> dict:
        return self._read_one(feed_reads.token_states, list(hashes))

    async def _read_for(self, found: Channel) -> None:
        """The chronicle's one reader in this process: on each wake, the entries after the last seq
        delivered, read once and put in every feed's queue."""
        try:
            found.delivered = await self._off_loop(self._read_one, feed_reads.head, found.chronicle_id)
            found.ready.set()
            while True:
                await found.wake.wait()
                found.wake.clear()
                if not found.feeds:
                    return
                if found.check_tokens:
                    found.check_tokens = False
                    await self._check_tokens(found)
                    found.unread = True  # a revocation's wake reads too (what came with it)
                if not found.unread and found.wanted <= found.delivered:
                    continue  # every seq it was woken for was read already (e.g. the commit's second NOTIFY)
                found.unread = False
                while found.feeds:
                    rows, revealed = await self._off_loop(self._read_one, feed_reads.new_entries, found.chronicle_id,
                                                       found.delivered, BATCH)
                    self.reads += 1
                    if not rows:
                        break
                    batch = Batch(rows, revealed)
                    found.delivered = batch.last
                    for feed in list(found.feeds):
                        if not feed.ended:
                            feed.queue.put_nowait(batch)
                    if len(rows) < BATCH:
                        break
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("rollbook: reading chronicle %s's new entries for its live feeds failed",
                             found.chronicle_id)
            for feed in list(found.feeds):
                feed.end(ERROR)
            found.ready.set()

    async def _check_tokens(self, found: Channel) -> None:
        feeds = [feed for feed in found.feeds if not feed.ended]
        hashes = {hashed for feed in feeds for hashed in feed.hashes}
        states = await self._off_loop(self._token_states, hashes)
        for feed in feeds:
            reason, _ = self._verdict(feed, states)
            if reason is not None:
                feed.end(reason)

    @staticmethod
    def _verdict(feed: Feed, states: dict) -> tuple[str | None, str | None]:
        """Why the feed's tokens no longer open its member's chronicle (None: one still does), and
        when the one that does expires."""
        if not feed.hashes:  # opened without a token to follow (in-process callers): it never ends so
            return None, None
        moment = _now()
        mine = [states[h] for h in feed.hashes if h in states and states[h].member_id == feed.member.id]
        live = [state for state in mine if state.ended(moment) is None]
        if live:
            expiries = [state.expires_at for state in live]
            return None, None if None in expiries else max(expiries)
        reasons = {state.ended(moment) for state in mine}
        for reason in (feed_reads.REMOVED, feed_reads.REVOKED, feed_reads.EXPIRED):
            if reason in reasons:
                return reason, None
        return feed_reads.REVOKED, None

    # --- the per-process keeper: catch-up and expiries ------------------------------------------

    def _ensure_keeper(self) -> None:
        if self._keeper is None or self._keeper.done():
            self._keeper_wake = asyncio.Event()
            self._keeper = asyncio.get_running_loop().create_task(self._keep())

    def _expire_at(self, feed: Feed) -> None:
        moment = datetime.strptime(feed.expires_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        left = (moment - datetime.now(UTC)).total_seconds()
        heapq.heappush(self._expiries, (time.monotonic() + max(0.0, left) + EXPIRY_SLACK, next(self._order), feed))
        if self._keeper_wake is not None:
            self._keeper_wake.set()

    async def _keep(self) -> None:
        """While a feed is open here: the catch-up every ``poll_interval``, the expiries on time."""
        since = auth.stamp(datetime.now(UTC) - REVOCATION_MARGIN)
        next_catch_up = time.monotonic() + self.poll_interval
        while self.channels:
            now = time.monotonic()
            while self._expiries and self._expiries[0][0] <= now:
                _, _, feed = heapq.heappop(self._expiries)
                if feed.member.chronicle_id in self.channels and not feed.ended:
                    self._revoked_now([feed.member.chronicle_id])  # its token's state says why
            if now >= next_catch_up:
                moment = auth.stamp(datetime.now(UTC) - REVOCATION_MARGIN)
                try:
                    await self._catch_up(since)
                    since = moment
                except Exception:
                    logger.exception("rollbook: the live feeds' catch-up read failed")
                next_catch_up = time.monotonic() + self.poll_interval
            until = next_catch_up
            if self._expiries:
                until = min(until, self._expiries[0][0])
            self._keeper_wake.clear()
            try:
                await asyncio.wait_for(self._keeper_wake.wait(), max(0.0, until - time.monotonic()))
            except TimeoutError:
                pass

    async def _catch_up(self, since: str, only: Iterable[int] | None = None) -> None:
        watched = sorted(self.channels if only is None else set(only) & set(self.channels))
        if not watched:
            return

        def read(session):
            return feed_reads.heads(session, watched), feed_reads.revoked_since(session, since)

        heads, revoked = await self._off_loop(self._read_one, read)
        self.catch_ups += 1
        for chronicle_id, last in heads.items():
            found = self.channels.get(chronicle_id)
            if found is not None and found.ready.is_set() and last > found.delivered:
                self._wake_now([chronicle_id], last)
        touched = {feed.member.chronicle_id for hashed in revoked for feed in self.by_token.get(hashed, ())
                   if not feed.ended}
        if touched:
            self._revoked_now(sorted(touched))

    def fail(self, error: BaseException) -> None:
        """A defect (the listener's): every open feed ends, and no new one is served."""
        self.failure = error
        loop = self._loop
        if loop is None:
            return

        def end_all() -> None:
            for found in list(self.channels.values()):
                for feed in list(found.feeds):
                    feed.end(ERROR)

        try:
            loop.call_soon_threadsafe(end_all)
        except RuntimeError:
            pass

    # --- PostgreSQL's listener (``server.listen``) ----------------------------------------------

    def start_listener(self) -> None:
        if self.listener is not None and self.failure is None:
            self.listener.ensure()

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()
        if self._readers is not None:
            self._readers.shutdown(wait=False, cancel_futures=True)
            self._readers = None
