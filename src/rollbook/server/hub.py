"""The live feed's fan-out, one implementation for the JSON API and the web pages: per process,
one subscription per chronicle and a queue per feed (encode/broadcaster's fan-out).

- ``Hub``: a chronicle's new entries are read once per process per wake (the log after the last
  seq this process delivered for it, ``usecases.feeds.new_entries``) and the one read is put in
  the queue of every feed of that chronicle open here; each feed derives its member's view from it
  (``events.Batch.entries``: a hidden entry redacted for a player, as ``views.entry_view``). A feed
  that waits costs nothing but its keep-alive: no timer, no read of its own.
- Each feed (``server.sse.entry_feed``) reads its own backlog once, at connection (what it missed
  before its channel's last delivered seq), then takes its entries from its queue, then ``End``
  when the member's token is revoked (sign-out, key rotation, removal) or expires.
- A feed's tokens are read when it joins (the joining feeds together, ``_joined_tokens``), and
  again only when a revocation is heard: a wake reads no feed's token.

What wakes a chronicle in a process:

- a commit of this process that appended to its log (``Database.after_commit`` calls ``wake``), at
  once, whether or not the process LISTENs on its channel;
- on PostgreSQL, another process's commit: each process notifies the channels of the chronicles
  its commits grew (``pg_notify('rollbook_log_<chronicle>', '<head seq>')``), after the commit,
  from its listener's thread (``Database.notify`` is ``notify_committed``: ``listen``), or at once
  when it has no listener running (the CLI: ``listen.notify_now``); a token revoked notifies
  ``revoked`` on the same channel (migration 0009's trigger). One listener thread per
  process (``listen``), on its own connection, LISTENs on the channels of the chronicles it has a
  live feed open for, and only while it has one. Once a channel's ``LISTEN`` has taken effect the
  chronicle is read again: what was committed before it is read, what is committed after it is heard;
- the per-process catch-up (``catchup.Keeper``), one read for all the chronicles with a feed open
  here: what a process that died between its commit and its NOTIFY never notified comes this way.

A wake that names a seq (a NOTIFY's, the catch-up's head) that the process has read already makes
no read: a NOTIFY of a head this process read on its own commit's wake reads nothing.

A token revoked ends the feeds opened with it: the hub reads the state of the tokens of that
chronicle's feeds (one read) and puts ``End`` in the queues of those whose token no longer opens
the chronicle. A revocation committed in this process does so at once (``Database.after_revoke``
calls ``revoked``); another process's is heard by NOTIFY (PostgreSQL) or read by the catch-up
(SQLite). Whatever the wake's delay, a feed is never given an entry committed with or after its
revocation: the entries are read with the digests of the tokens revoked lately, in the same
snapshot (``usecases.feeds.new_entries_for``: one look-up in the revocations' index, whatever the
number of feeds); a feed holding one of them has its tokens read again before it is given
anything, and is ended instead when none opens the chronicle. A session's expiry is known when its
feed joins: the feed ends on one per-process timer (``catchup``), and a batch read after that
moment is not given to it (the clock, not a read).

The listener retries a lost connection (``psycopg.OperationalError``) after a second; any other
error is a defect: it is logged, every open feed ends and a new one is refused (500) until restart.

``close`` (``app.close_app``: the lifespan's end, a test's teardown) stops everything the hub runs:
the catch-up, the presence heartbeat, the listener's thread (waited for), the reader threads; it
forgets the loop. It is not final: an app may be served again (a lifespan run anew, as uvicorn
serving the same app object twice does), so the next start (``start_listener``) or feed (``join``)
binds the loop it runs in and starts what it needs again, as a new hub would. What close_app is for
is that nothing of the hub runs once it returns (its database may then be dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from rollbook.server import auth
from rollbook.server.catchup import Keeper, revocations_since
from rollbook.server.events import BATCH, ERROR, SUPERSEDED, Batch, Feed
from rollbook.server.listen import Listener, notify_now
from rollbook.server.models import Caller
from rollbook.server.presence import Presence
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import feeds as feed_reads

logger = logging.getLogger("rollbook.server.events")

READER_THREADS = (
    2  # the hub's reads: a chronicle's new entries, tokens, the catch-up (two overlap a round trip)
)


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
    ``wake``, ``heard`` and ``listening`` may be called from any thread."""

    def __init__(self, db=None, *, listen_url: str | None = None, poll_interval: float = 0.5) -> None:
        self.db = db
        self.poll_interval = poll_interval  # the per-process catch-up
        self.channels: dict[int, Channel] = {}
        self.by_token: dict[str, set[Feed]] = {}
        # the bounds of the live feeds (``settings.feeds_per_member``, ``feeds_per_process``; create_app
        # sets them): each feed is a connection, and a process out of file descriptors serves no one
        self.feeds_per_member = 16
        self.feeds_per_process = 2000
        self.open_feeds = 0
        self.by_member: dict[tuple[int, int], list[Feed]] = {}  # (chronicle, member) -> feeds, oldest first
        self._loop: asyncio.AbstractEventLoop | None = None
        self.keeper = Keeper(self)
        self.listener = Listener(self, listen_url) if listen_url else None
        if self.listener is not None and db is not None:
            db.notify = self.notify_committed  # this process's commits notified by the listener's thread
        self._readers: ThreadPoolExecutor | None = None
        self.watched: frozenset[int] = frozenset()  # chronicles with a feed open here (any thread reads it)
        self.listened: frozenset[int] = frozenset()  # the chronicles whose channel LISTEN is in effect on
        self.notifications = 0  # how many NOTIFYs this process heard (tests read it)
        self.reads = 0  # log reads made for the channels (one per chronicle per wake)
        self.backlog_reads = 0  # log reads a feed made for itself, at connection (what it missed)
        self.catch_ups = 0  # per-process catch-up reads
        self.coalesced = 0  # wakes for a seq already read, that made no read
        self.failure: BaseException | None = None  # a defect the listener met: no feed is served
        self.presence = Presence(self)  # who has a feed open here, written for every process
        # The Discord channel poster (``discord.poster``), woken like a feed for the chronicles bound
        # to a channel (``followed``): ``follower.wake(chronicle_ids)``, thread-safe, never blocking;
        # ``follower.bound(connection)``, the chronicles bound now, read in the catch-up's transaction.
        self.follower = None
        self.followed: frozenset[int] = frozenset()
        self._told: dict[int, int] = {}  # chronicle -> the highest seq the follower was woken for
        self._told_lock = threading.Lock()
        # The joining feeds' tokens, read together (``_joined_tokens``): the digests asked for since
        # the last read began, the future of the read that will answer them, and its one reader.
        self._asked: set[str] = set()
        self._answer: asyncio.Future | None = None
        self._token_reader: asyncio.Task | None = None
        self.token_reads = 0  # reads of joining feeds' tokens (tests read it)

    # --- wake-ups, from any thread ------------------------------------------------------------

    def wake(self, chronicle_ids: Iterable[int]) -> None:
        """This process committed new entries to these chronicles' logs (``Database.after_commit``):
        read them. The NOTIFY this process sends for them (``notify_committed``) wakes nothing here
        (``listen.Listener``): one wake, one read per commit."""
        mine = list(chronicle_ids)
        self.tell(mine, None)
        self._schedule(mine, self.read_now)

    def notify_committed(self, chronicle_ids: set[int]) -> None:
        """PostgreSQL's ``Database.notify`` in a process with a hub: the other processes are told
        which chronicles' logs grew by the listener's thread, off the committing thread and outside
        its transaction (``listen``); at once, here, when no listener runs (the app closed, or
        never served: a test's client)."""
        if self.listener is None or not self.listener.notify(chronicle_ids):
            notify_now(self.db.engine, chronicle_ids)

    def revoked(self, chronicle_ids: Iterable[int]) -> None:
        """A token of a member of these chronicles was revoked (by this process's commit:
        ``Database.after_revoke``; called before its ``wake``): check the tokens of their feeds."""
        self._schedule(chronicle_ids, self.check_now)

    def heard(self, chronicle_id: int, seq: int | None) -> None:
        """The listener heard this chronicle's channel (``server.listen``): entry ``seq`` was
        committed, or (``None``) a token was revoked: check the tokens of its feeds, then read."""
        if seq is None:
            self._schedule([chronicle_id], self.check_now)
        else:
            self.tell([chronicle_id], seq)
            self._schedule([chronicle_id], lambda targets: self.read_now(targets, seq))

    def bindings_changed(self) -> None:
        """A channel was bound (PostgreSQL's ``rollbook_discord`` NOTIFY, ``server.listen``): the
        follower's chronicles are read again now, not at the next catch-up."""
        loop = self._loop
        if self.follower is not None and loop is not None:
            try:
                loop.call_soon_threadsafe(self.keeper.refresh)
            except RuntimeError:  # the loop is closed
                pass

    def tell(self, chronicle_ids: Iterable[int], seq: int | None) -> None:
        """Wake the follower for the chronicles it follows among these: entry ``seq`` was committed
        (once per seq, whatever the wakes that name it), or (``None``) entries were."""
        follower, followed = self.follower, self.followed
        if follower is None:
            return
        targets = set()
        with self._told_lock:
            for chronicle_id in chronicle_ids:
                if chronicle_id not in followed:
                    continue
                if seq is not None:
                    if seq <= self._told.get(chronicle_id, 0):
                        continue
                    self._told[chronicle_id] = seq
                targets.add(chronicle_id)
        if targets:
            follower.wake(targets)

    def listening(self, chronicle_ids: Iterable[int]) -> None:
        """LISTEN took effect on these chronicles' channels (``server.listen``): what was committed or
        revoked before it was not heard, so one catch-up read covers them all (their heads, the
        tokens revoked lately), not a read per chronicle."""
        self._schedule(chronicle_ids, self.keeper.listening)

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

    # --- wake-ups, in the loop -------------------------------------------------------------------

    def read_now(self, chronicle_ids: list[int], seq: int | None = None) -> None:
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

    def check_now(self, chronicle_ids: list[int]) -> None:
        """Check the tokens of these chronicles' feeds (a revocation was heard), then read."""
        for chronicle_id in chronicle_ids:
            found = self.channels.get(chronicle_id)
            if found is not None:
                found.check_tokens = True
                found.wake.set()

    # --- feeds joining and leaving (in the loop) -----------------------------------------------

    async def join(self, member: Caller, tokens: Iterable[str | None]) -> Feed:
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
        self.open_feeds += 1
        held = self.by_member.setdefault((chronicle_id, member.id), [])
        held.append(feed)
        while len(held) > self.feeds_per_member:  # the member's oldest feed ends: it holds too many
            oldest = held.pop(0)
            oldest.end(SUPERSEDED)
        for hashed in hashes:
            self.by_token.setdefault(hashed, set()).add(feed)
        self.keeper.ensure()
        try:
            states = await self._joined_tokens(hashes)
            await found.ready.wait()
        except BaseException:
            self.leave(feed)
            raise
        feed.start = found.delivered
        reason, feed.expires_at = self._verdict(feed, states, _now())
        if reason is not None:
            feed.end(reason)
        elif feed.expires_at is not None:
            self.keeper.expire_at(feed, feed.expires_at)
        return feed

    async def _joined_tokens(self, hashes: tuple[str, ...]) -> dict:
        """The states of a joining feed's tokens. Feeds that join while a read of tokens is under way
        are read together by the next one, one statement for all of them: a thousand feeds opening
        at once (a server restarted, its readers reconnecting) make a few reads, not a thousand
        transactions queued on the hub's two reader threads (on PostgreSQL that queue,
        three round trips a feed, was still draining seconds after the feeds had opened)."""
        if not hashes:
            return {}
        loop = asyncio.get_running_loop()
        if self._answer is None or self._answer.get_loop() is not loop:
            self._answer = loop.create_future()
        answer = self._answer
        self._asked.update(hashes)
        reader = self._token_reader
        if reader is None or reader.done() or reader.get_loop() is not loop:
            self._token_reader = loop.create_task(self._read_joined_tokens())
        states = await asyncio.shield(answer)  # a feed cancelled while it waits cancels no one else's
        return {hashed: states[hashed] for hashed in hashes if hashed in states}

    async def _read_joined_tokens(self) -> None:
        while self._answer is not None and self._asked:
            answer, asked = self._answer, sorted(self._asked)
            self._answer, self._asked = None, set()
            try:
                states = await self.read(feed_reads.token_states, asked)
            except asyncio.CancelledError:
                answer.cancel()
                raise
            except Exception as error:
                answer.set_exception(error)
                continue
            self.token_reads += 1
            answer.set_result(states)

    def admit(self) -> None:
        """Refuse a new feed when the process holds ``feeds_per_process`` (429 ``too_many_feeds``):
        each is a connection, and a process out of file descriptors serves no one."""
        if self.open_feeds >= self.feeds_per_process:
            raise ProblemError(429, "too_many_feeds", most=self.feeds_per_process)

    def leave(self, feed: Feed) -> None:
        chronicle_id = feed.member.chronicle_id
        held = self.by_member.get((chronicle_id, feed.member.id))
        if held is not None and feed in held:
            held.remove(feed)
        if held is not None and not held:
            del self.by_member[(chronicle_id, feed.member.id)]
        found = self.channels.get(chronicle_id)
        if found is not None and feed in found.feeds:
            self.open_feeds -= 1
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

    def follow(self, follower) -> None:
        """In the loop: ``follower`` (the Discord poster) is woken for the chronicles bound to a
        channel, found by the catch-up (``catchup.Keeper``), heard like a feed's on PostgreSQL."""
        self.follower = follower
        if self.listener is not None and self.failure is None:
            self.listener.watch_changed()  # LISTEN on the bindings' channel (``server.listen``)
        self.keeper.ensure()
        self.keeper.refresh()

    def set_followed(self, chronicle_ids: frozenset[int]) -> None:
        """In the loop: the chronicles bound to a channel now (the catch-up read them)."""
        if chronicle_ids != self.followed:
            self.followed = chronicle_ids
            self._watch()

    def _watch(self) -> None:
        self.watched = frozenset(self.channels) | self.followed
        if self.listener is not None and self.failure is None:
            self.listener.watch_changed()

    # --- reads, on the hub's own threads --------------------------------------------------------

    async def read(self, work, *args):
        """``work(connection, *args)`` in a read transaction (plain statements, no ORM), on the hub's
        own reader threads: the feeds' reads never wait behind the requests in the server's thread
        pool (a roll holds a thread until its commit)."""
        if self._readers is None:
            self._readers = ThreadPoolExecutor(READER_THREADS, thread_name_prefix="rollbook-feed")

        def run():
            with self.db.read() as session:
                return work(session.connection(), *args)

        return await asyncio.get_running_loop().run_in_executor(self._readers, run)

    # --- one chronicle's reader ----------------------------------------------------------------

    async def _read_for(self, found: Channel) -> None:
        """The chronicle's one reader in this process: on each wake, the entries after the last seq
        delivered, read once and put in every feed's queue."""
        try:
            found.delivered = await self.read(feed_reads.head, found.chronicle_id)
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
                    rows, revealed, revoked = await self.read(
                        feed_reads.new_entries_for,
                        found.chronicle_id,
                        found.delivered,
                        BATCH,
                        revocations_since(),
                    )
                    self.reads += 1
                    if not rows:
                        break
                    batch = Batch(rows, revealed)
                    found.delivered = batch.last
                    await self._deliver(found, batch, revoked)
                    if len(rows) < BATCH:
                        break
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception(
                "rollbook: reading chronicle %s's new entries for its live feeds failed", found.chronicle_id
            )
            for feed in list(found.feeds):
                feed.end(ERROR)
            found.ready.set()

    async def _deliver(self, found: Channel, batch: Batch, revoked: set[str]) -> None:
        """``batch`` into the queue of every feed of ``found`` that still opens the chronicle. The
        batch was read with the tokens revoked lately (``revoked``, the same snapshot): a feed
        holding one of them has its tokens read now (a later snapshot: the revocation is in it)
        and is ended if none opens the chronicle. A feed whose session expired (its time, known
        since it joined, against the clock) is ended instead of given the batch."""
        feeds = [feed for feed in found.feeds if not feed.ended]
        if revoked:  # a token revoked lately (none, most of the time): its feeds' tokens read again
            await self._check([feed for feed in feeds if not revoked.isdisjoint(feed.hashes)])
        moment = _now()
        for feed in feeds:
            if feed.ended:  # ended while its tokens were read
                continue
            if feed.expires_at is not None and feed.expires_at <= moment:
                feed.end(feed_reads.EXPIRED)
            else:
                feed.queue.put_nowait(batch)

    async def _check_tokens(self, found: Channel) -> None:
        await self._check([feed for feed in found.feeds if not feed.ended])

    async def _check(self, feeds: list[Feed]) -> None:
        """Read these feeds' tokens (one read) and end those none of whose tokens opens the chronicle."""
        if not feeds:
            return
        states = await self.read(
            feed_reads.token_states, sorted({hashed for feed in feeds for hashed in feed.hashes})
        )
        moment = _now()
        for feed in feeds:
            reason, _ = self._verdict(feed, states, moment)
            if reason is not None:
                feed.end(reason)

    def expired(self, feed: Feed) -> None:
        """In the loop (the keeper's timer): ``feed``'s session's time (known since it joined) is
        up by the clock: it ends, with no read; not yet (the clock behind the timer): later."""
        if feed.ended or feed.expires_at is None or feed.member.chronicle_id not in self.channels:
            return
        if feed.expires_at <= _now():
            feed.end(feed_reads.EXPIRED)
        else:
            self.keeper.expire_at(feed, feed.expires_at)

    @staticmethod
    def _verdict(feed: Feed, states: dict, moment: str) -> tuple[str | None, str | None]:
        """Why the feed's tokens no longer open its member's chronicle at ``moment`` (None: one
        still does), and when the one that does expires."""
        if not feed.hashes:  # opened without a token to follow (in-process callers): it never ends so
            return None, None
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

    # --- failure and closing ------------------------------------------------------------------

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

        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(end_all)

    def start_listener(self) -> None:
        """In the app's lifespan (in the loop): the loop the hub schedules on, the listener's thread
        (started again if the app was closed before: served anew)."""
        self._loop = asyncio.get_running_loop()
        if self.listener is not None and self.failure is None:
            self.listener.ensure()

    def close(self) -> None:
        """The app closes (``app.close_app``), from its loop or from another thread: no follower,
        the keeper and the presence heartbeat stopped, the listener's thread ended (waited for), the
        readers shut down, the loop forgotten (the next start or feed binds its own). Idempotent."""
        self.follower = None
        loop, self._loop = self._loop, None

        def stop_tasks() -> None:
            self.keeper.stop()
            self.presence.stop()
            if self._token_reader is not None:
                self._token_reader.cancel()

        if loop is not None:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                stop_tasks()
            else:
                try:
                    loop.call_soon_threadsafe(stop_tasks)
                except RuntimeError:  # the loop is closed, and its tasks with it
                    pass
        if self.listener is not None:
            self.listener.close()
        if self._readers is not None:
            self._readers.shutdown(wait=False, cancel_futures=True)
            self._readers = None
