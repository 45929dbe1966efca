"""Presence per server process (issue 34, "Presence and notifications"): the hub's feeds say who is
at the table here; this writes it where every process reads it (``usecases.presence``), so presence
stays honest with several processes (``rollbook serve --workers N``, PostgreSQL or SQLite).

A member's first feed opened in this process writes their row; a heartbeat refreshes this process's
rows every ``HEARTBEAT`` seconds while it serves any feed; their last feed closing here deletes it.
The writes go through ``tx.run`` in a worker thread, one at a time in order, and a failed write is logged and left to the next heartbeat (presence is a courtesy: a feed
never waits for it or fails with it).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket

from rollbook.server import tx
from rollbook.server.models import Member
from rollbook.server.usecases import presence as presence_cases

logger = logging.getLogger("rollbook.server.presence")

HEARTBEAT = 10.0  # seconds; a row is fresh for three of them (usecases.presence.FRESH)


class Presence:
    """Who has a feed open in this process, by (chronicle, member), and the rows that say so."""

    def __init__(self, hub) -> None:
        self.hub = hub
        self.process = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.counts: dict[tuple[int, int], int] = {}
        self._writes: asyncio.Lock | None = None
        self._beat: asyncio.Task | None = None
        self.writes = 0  # tests read it

    def arrive(self, member: Member) -> None:
        key = (member.chronicle_id, member.id)
        count = self.counts.get(key, 0)
        self.counts[key] = count + 1
        if count == 0:
            self._spawn(self._write(presence_cases.mark, [key]))
        if self._beat is None or self._beat.done():
            self._beat = asyncio.get_running_loop().create_task(self._heartbeat())

    def depart(self, member: Member) -> None:
        key = (member.chronicle_id, member.id)
        count = self.counts.get(key, 0) - 1
        if count > 0:
            self.counts[key] = count
            return
        self.counts.pop(key, None)
        self._spawn(self._write(presence_cases.unmark, [key]))

    def _spawn(self, work) -> None:
        try:
            asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop any more (the server is stopping): the row ages out
            work.close()

    async def _write(self, change, keys: list[tuple[int, int]]) -> None:
        db = self.hub.db
        if db is None or not keys:
            return
        if self._writes is None:
            self._writes = asyncio.Lock()
        async with self._writes:  # in order: a departure never lands before its arrival
            try:
                await asyncio.to_thread(tx.run, db, lambda session: change(session, self.process, keys))
                self.writes += 1
            except Exception:
                logger.exception("rollbook: writing who is at the table failed (the next heartbeat tries again)")

    async def _heartbeat(self) -> None:
        while self.counts:
            await asyncio.sleep(HEARTBEAT)
            await self._write(presence_cases.mark, sorted(self.counts))
