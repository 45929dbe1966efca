"""Presence per server process: the hub's feeds say who is
at the table here; this writes it where every process reads it (``usecases.presence``), so presence
stays honest with several processes (``rollbook serve --workers N``, PostgreSQL or SQLite).

A member's first feed opened in this process marks their row; their last feed closing here unmarks
it; a heartbeat every ``HEARTBEAT`` seconds refreshes all of this process's rows in one statement
while it serves any feed. What a feed's opening or closing changes is written by one writer task,
in order (a departure never lands before its arrival): the changes made while a write runs are
written together by the next one, in one transaction, so a thousand feeds opening at once cost a few
writes, not a thousand. A failed write is logged and its changes are kept for the
next write or heartbeat (presence is a courtesy: a feed never waits for it or fails with it).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket

from rollbook.server import tx
from rollbook.server.models import Caller
from rollbook.server.usecases import presence as presence_cases

logger = logging.getLogger("rollbook.server.presence")

HEARTBEAT = 10.0  # seconds; a row is fresh for three of them (usecases.presence.FRESH)


class Presence:
    """Who has a feed open in this process, by (chronicle, member), and the rows that say so."""

    def __init__(self, hub) -> None:
        self.hub = hub
        self.process = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.counts: dict[tuple[int, int], int] = {}
        self.changes: dict[tuple[int, int], bool] = {}  # not written yet: present (marked) or gone
        self._refresh = False  # the heartbeat is due
        self._writer: asyncio.Task | None = None
        self._beat: asyncio.Task | None = None
        self.writes = 0  # transactions written (tests read it)

    def arrive(self, member: Caller) -> None:
        key = (member.chronicle_id, member.id)
        count = self.counts.get(key, 0)
        self.counts[key] = count + 1
        if count == 0:
            self._change(key, True)
        if self._beat is None or self._beat.done():
            self._beat = asyncio.get_running_loop().create_task(self._heartbeat())

    def depart(self, member: Caller) -> None:
        key = (member.chronicle_id, member.id)
        count = self.counts.get(key, 0) - 1
        if count > 0:
            self.counts[key] = count
            return
        self.counts.pop(key, None)
        self._change(key, False)

    def _change(self, key: tuple[int, int], present: bool) -> None:
        self.changes[key] = present  # the latest says what the row must be
        self._write_soon()

    def _write_soon(self) -> None:
        if self._writer is not None and not self._writer.done():
            return  # the running writer takes it up next
        try:
            self._writer = asyncio.get_running_loop().create_task(self._write())
        except RuntimeError:  # no loop any more (the server is stopping): the rows age out
            pass

    async def _write(self) -> None:
        db = self.hub.db
        while db is not None and (self.changes or self._refresh):
            changes, refresh = self.changes, self._refresh
            self.changes, self._refresh = {}, False
            try:
                await asyncio.to_thread(
                    tx.run,
                    db,
                    lambda session, changes=changes, refresh=refresh: self._apply(session, changes, refresh),
                )
                self.writes += 1
            except Exception:
                logger.exception(
                    "rollbook: writing who is at the table failed (the next heartbeat tries again)"
                )
                for key, present in changes.items():
                    self.changes.setdefault(key, present)  # unless a newer change came meanwhile
                return

    def _apply(self, session, changes: dict[tuple[int, int], bool], refresh: bool) -> None:
        presence_cases.unmark(session, self.process, [key for key, present in changes.items() if not present])
        presence_cases.mark(session, self.process, [key for key, present in changes.items() if present])
        if refresh:
            presence_cases.refresh(session, self.process)

    def stop(self) -> None:
        """In the loop: the hub closes (``Hub.close``): no heartbeat any more (the next feed starts it
        again). A write under way finishes; rows left marked age out (``usecases.presence.FRESH``)."""
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None

    async def _heartbeat(self) -> None:
        while self.counts:
            await asyncio.sleep(HEARTBEAT)
            self._refresh = True
            self._write_soon()
