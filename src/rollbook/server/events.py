"""What a live feed carries: a chronicle's new entries read once per process (``Batch``), each as
a member may see it (``Entry``), and why a feed ended (``End``); a feed's queue (``Feed``).

The live feed is four modules: this one; ``hub`` (the fan-out: per process one reader per
chronicle and a queue per feed, woken by this process's commits and PostgreSQL's NOTIFY);
``catchup`` (the per-process catch-up and the sessions' expiries); ``listen`` (PostgreSQL's
listener thread). ``sse`` makes a feed a response.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from rollbook.server.models import Caller
from rollbook.server.views import entry_view, may_read

BATCH = 200  # entries read at a time
ERROR = "error"  # why a feed ended when the hub itself failed
SUPERSEDED = "superseded"  # its member opened more feeds than a member may hold: their oldest ends


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
    """New entries of one chronicle, read once by the process and shared by its feeds: the views of
    the entries are made once for the feeds that see them alike (``view_key``), when the first of
    them takes them."""

    def __init__(self, rows: list, revealed: dict[int, int]) -> None:
        self.rows, self.revealed = rows, revealed
        self.last = rows[-1].seq
        self._hidden = [row for row in rows if row.visibility == "hidden"]
        self._views: dict[tuple, list[Entry]] = {}
        self.shared: dict[str, object] = {}  # what an adapter derives once for every feed (web.live)

    def view_key(self, member: Caller) -> tuple:
        """What of the member their views of these entries read (``views.entry_view``): the role,
        and which hidden entries they read in full (``views.may_read``: the Storyteller all, a player
        those revealed and those they are the private reader of: their own hidden ask, their
        character's hidden sheet)."""
        return (
            member.role,
            tuple(row.seq for row in self._hidden if may_read(row, member, self.revealed.get(row.seq))),
        )

    def entries(self, member: Caller) -> list[Entry]:
        key = self.view_key(member)
        made = self._views.get(key)
        if made is None:
            made = []
            for row in self.rows:
                view = entry_view(row, member, self.revealed)
                made.append(Entry(row.seq, view, dumps(view), self))
            self._views[key] = made
        return made


@dataclass(eq=False)
class Feed:
    """One open feed: its member, the digests of the tokens it was opened with, its queue (of
    ``Batch``, then maybe one ``End``)."""

    member: Caller
    hashes: tuple[str, ...]
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    expires_at: str | None = None
    start: int = 0  # its channel's last delivered seq when it joined: the queue has what follows
    ended: bool = False

    def end(self, reason: str) -> None:
        if not self.ended:
            self.ended = True
            self.queue.put_nowait(End(reason))
