"""The live feeds' per-process keeper (``hub.Hub.keeper``): the catch-up and the sessions' expiries.

- The catch-up, every ``Hub.poll_interval`` (0.5 s on SQLite, 5 s on PostgreSQL) while a feed is
  open here: one read for all the chronicles watched (their heads, an index look-up each, and the
  tokens revoked since the last one). It is how another process's writes reach a SQLite process,
  and how a NOTIFY lost with the listener's connection is recovered; its cost grows with the
  chronicles watched, never with the feeds. A chronicle whose head is past what the process read is
  woken for that seq; a revoked token's feeds check their tokens.
- Once LISTEN takes effect on chronicles (``Hub.listening``), one catch-up for those together:
  what was committed or revoked before it was not heard.
- A session's expiry, known when its feed joined: the feed ends just after it (one timer for the
  process; ``Hub.expired``: the clock, no read).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from rollbook.server import auth
from rollbook.server.events import Feed
from rollbook.server.usecases import feeds as feed_reads

logger = logging.getLogger("rollbook.server.events")

REVOCATION_MARGIN = timedelta(seconds=10)  # a revocation committed late is still seen (catch-up, wake)
EXPIRY_SLACK = 0.05  # the expiry timer fires just after the token's time, never just before


def revocations_since() -> str:
    """Where a look for the tokens revoked lately starts (``usecases.feeds.revoked_since``): the
    catch-up's, and each wake's (``hub.Hub``), ``REVOCATION_MARGIN`` back, so that a revocation
    committed late (its time stamped in its transaction) is still seen."""
    return auth.stamp(datetime.now(UTC) - REVOCATION_MARGIN)


class Keeper:
    """One hub's catch-up and expiry timer: one task in the server's loop while a feed is open."""

    def __init__(self, hub) -> None:
        self.hub = hub
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._expiries: list[tuple[float, int, Feed]] = []
        self._order = itertools.count()

    def ensure(self) -> None:
        """In the loop: the keeper runs (it stops by itself once no feed is open)."""
        if self._task is None or self._task.done():
            self._wake = wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._keep(wake))

    def expire_at(self, feed: Feed, expires_at: str) -> None:
        """In the loop: ``feed`` ends just after its session's expiry (``expires_at``)."""
        moment = datetime.strptime(expires_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
        left = (moment - datetime.now(UTC)).total_seconds()
        heapq.heappush(
            self._expiries, (time.monotonic() + max(0.0, left) + EXPIRY_SLACK, next(self._order), feed)
        )
        if self._wake is not None:
            self._wake.set()

    def stop(self) -> None:
        """In the loop: the hub closes (its follower gone, its feeds ending): the keeper stops."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None  # the next ``ensure`` starts a new one, even before this one has seen its cancel

    def refresh(self) -> None:
        """In the loop: one catch-up now (the follower's chronicles read again: a channel was bound)."""
        task = asyncio.get_running_loop().create_task(self.catch_up(revocations_since()))
        task.add_done_callback(self._log_failure)

    def listening(self, chronicle_ids: list[int]) -> None:
        """In the loop: LISTEN took effect on these chronicles' channels: one catch-up for them."""
        task = asyncio.get_running_loop().create_task(self.catch_up(revocations_since(), only=chronicle_ids))
        task.add_done_callback(self._log_failure)
        if set(chronicle_ids) & (self.hub.followed - set(self.hub.channels)):
            self.refresh()  # the follower's chronicles too: their heads, read once LISTEN is in effect

    @staticmethod
    def _log_failure(task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            logger.error("rollbook: the live feeds' catch-up read failed", exc_info=task.exception())

    async def _keep(self, wake: asyncio.Event) -> None:
        """While a feed is open here: the catch-up every ``poll_interval``, the expiries on time;
        ``wake`` (``ensure``'s) wakes it early."""
        hub = self.hub
        since = revocations_since()
        next_catch_up = time.monotonic() + hub.poll_interval
        while hub.channels or hub.follower is not None:
            now = time.monotonic()
            while self._expiries and self._expiries[0][0] <= now:
                _, _, feed = heapq.heappop(self._expiries)
                hub.expired(feed)  # its time, known since it joined: no read
            if now >= next_catch_up:
                moment = revocations_since()
                try:
                    await self.catch_up(since)
                    since = moment
                except Exception:
                    logger.exception("rollbook: the live feeds' catch-up read failed")
                next_catch_up = time.monotonic() + hub.poll_interval
            until = next_catch_up
            if self._expiries:
                until = min(until, self._expiries[0][0])
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), max(0.0, until - time.monotonic()))

    async def catch_up(self, since: str, only: Iterable[int] | None = None) -> None:
        """One read: the heads of the chronicles watched (or ``only`` those) and the tokens revoked
        since ``since``; wakes the chronicles with entries past what was read, checks the tokens of
        the revoked ones' feeds."""
        hub = self.hub
        follower = hub.follower if only is None else None
        watched = set(hub.channels if only is None else set(only) & set(hub.channels))
        if not watched and follower is None:
            return

        def read(connection):
            bound = None if follower is None else frozenset(follower.bound(connection))
            chronicles = sorted(watched | (bound or frozenset()))
            revoked = feed_reads.revoked_since(connection, since) if watched else set()  # no feed: no token
            return bound, feed_reads.heads(connection, chronicles), revoked

        bound, heads, revoked = await hub.read(read)
        hub.catch_ups += 1
        if bound is not None and hub.follower is follower:
            hub.set_followed(bound)
        for chronicle_id, last in heads.items():
            found = hub.channels.get(chronicle_id)
            if found is not None and found.ready.is_set() and last > found.delivered:
                hub.read_now([chronicle_id], last)
        if bound:
            for chronicle_id in bound:  # once per seq: an idle bound chronicle wakes no one
                hub.tell([chronicle_id], heads.get(chronicle_id, 0))
        touched = {
            feed.member.chronicle_id
            for hashed in revoked
            for feed in hub.by_token.get(hashed, ())
            if not feed.ended
        }
        if touched:
            hub.check_now(sorted(touched))
