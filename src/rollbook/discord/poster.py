"""The channel poster: every public entry of a chronicle, wherever it was made (the web
table, the API, the CLI, another app process), posted to each Discord channel bound to it, through
the channel's webhook, after its commit, in seq order, never blocking nor failing the roll.

One ``Poster`` per app process, started in the app's lifespan when ``DISCORD_APPLICATION_ID`` is set
(a channel is bound only through the application's interactions). It rides the live feeds' wake
(``server.hub.Hub.follow``): the hub wakes its thread, like a feed's reader, for the chronicles
bound to a channel (``bound``, read in the hub's per-process catch-up), and an idle bound channel
costs nothing of its own. Its thread wakes

- at once when a commit of this process grew the log of a chronicle bound to a channel (the hub's
  ``Database.after_commit`` hook only sets an event: the roll never waits for Discord);
- on PostgreSQL, when another process's commit to such a chronicle is heard (its log's NOTIFY, on
  the hub's listener, once per seq); on SQLite, when the hub's catch-up (every 0.5 s, one read for
  the process) finds its head past what the poster was told. A channel bound in another process is
  found by that catch-up (on PostgreSQL at once: ``bind_channel`` notifies ``rollbook_discord``).

Each channel with entries past its cursor (``last_posted``) is drained by one of a few workers:
its entries after the cursor read (``usecases.feeds.new_entries``, the live feed's read), each seen
as a member of the table who is nobody in particular would see it (``views.entry_view``: a hidden
entry comes redacted and is never posted, nor is any private data of it), an entry an interaction
already showed in that channel skipped (``store.answered``), the others rendered
(``embeds.entry_embeds`` in the chronicle's language) and posted one by one with ``?wait=true``;
the cursor advances (``store.advance``) only once Discord has the message. The channel's webhook is
made the first time it is needed (``DiscordRest.create_channel_webhook``: the bot needs Manage
Webhooks in that channel), and made again when Discord no longer knows it.

A post is one attempt (``budget=0``): a 429 holds that channel for its ``retry_after`` (a global one
holds them all, in the client), a 5xx or an unreachable Discord holds it with a doubling backoff
(1 s … 60 s), and the channel's next entries wait behind the one that failed, so order is kept; the
other channels go on meanwhile. An entry Discord refuses outright (400, 413: its body) is logged and
passed over: retrying it would hold the channel for ever.

Exactly one process posts a channel at a time: on PostgreSQL a worker holds the advisory lock
``(LOCK_NAMESPACE, channel row id)`` on a connection of its own while it drains the channel, and
reads the cursor only once it holds it; on SQLite the one poster of a database file is the process
holding the ``flock`` of ``<database>.discord`` (the others take over when it exits). A post whose
cursor write is then lost (the process dies between the two) is posted again: at least once, never
out of order.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Row, select, text
from sqlalchemy.orm import Session

from rollbook.discord import components, store
from rollbook.discord.embeds import LIMITS, entry_embeds, size
from rollbook.discord.rest import DiscordNotConfigured, DiscordRefused, DiscordRest, DiscordUnavailable
from rollbook.entries import AskReceipt, Logged
from rollbook.server import tx
from rollbook.server.access import PLAYER
from rollbook.server.models import DiscordChannel, LogEntry, Member
from rollbook.server.usecases import feeds
from rollbook.server.views import entry_view

logger = logging.getLogger("rollbook.discord")

POLL_SQLITE = 1.0
POLL_POSTGRESQL = 2.0
WORKERS = 4  # channels drained at once: a slow webhook never holds the others back
BATCH = 50  # entries read at a time for one channel
BACKOFF_FIRST = 1.0  # a channel whose post failed waits this long, doubling up to BACKOFF_LAST
BACKOFF_LAST = 60.0
WEBHOOK_NAME = "rollbook"
LOCK_NAMESPACE = 0x64697363  # "disc": pg_try_advisory_lock(LOCK_NAMESPACE, channel row id)
CLOSE_SECONDS = 5.0  # how long closing waits for the posts in flight
SKIPPED = (400, 413)  # Discord refuses this body: post the next entry, never this one
STALE_WEBHOOK = (401, 404)  # the webhook was deleted (10015) or its token is no longer good: make another


def public_reader() -> Member:
    """A member of the table who is nobody in particular: a player, no one's private reader. What
    they read of an entry (``views.entry_view``) is what a channel may show."""
    return Member(id=None, role=PLAYER)


def messages(embeds: list[dict]) -> list[dict]:
    """The embeds of one entry as messages within Discord's limits of a message (``embeds.LIMITS``:
    10 embeds, 6,000 characters in all), in order; mentions never ping anyone."""
    bodies: list[list[dict]] = []
    current: list[dict] = []
    total = 0
    for embed in embeds:
        length = size(embed)
        if current and (len(current) == LIMITS["embeds"] or total + length > LIMITS["total"]):
            bodies.append(current)
            current, total = [], 0
        current.append(embed)
        total += length
    if current:
        bodies.append(current)
    return [{"embeds": chunk, "allowed_mentions": {"parse": []}} for chunk in bodies]


def asked_body(body: dict, language: str, ask_id: int, tellers: list[str]) -> dict:
    """A-1: an ask's message with the Storyteller's buttons (Grant, Grant changed, Refuse: anyone
    else's press is refused), the Storyteller's linked users mentioned (only they are pinged)."""
    return {
        **body,
        "content": " ".join(f"<@{user}>" for user in tellers),
        "components": [components.ask_row(language, ask_id)],
        "allowed_mentions": {"parse": [], "users": tellers},
    }


class Poster:
    """The process's channel poster (the module's docstring): ``start``, ``wake`` (the
    ``after_commit`` hook), ``close``."""

    def __init__(
        self,
        db,
        rest: Callable[[], DiscordRest],
        *,
        hub=None,
        poll_interval: float | None = None,
        workers: int = WORKERS,
    ) -> None:
        self.db, self._rest, self.hub = db, rest, hub  # no hub: the poster looks every poll_interval
        self.poll_interval = poll_interval or (POLL_SQLITE if db.sqlite else POLL_POSTGRESQL)
        self.workers = workers
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._futures: set[Future] = set()
        self._running: set[int] = set()  # channel rows being drained here
        self._held: dict[int, float] = {}  # channel row -> time.monotonic() before which it waits
        self._failures: dict[int, int] = {}  # channel row -> its failed posts in a row
        self._bound: frozenset[int] = frozenset()  # the chronicles bound to a channel, as last read
        self._touched: set[int] = set()  # chronicles this process's commits grew since the last look
        self._file_lock: int | None = None  # SQLite: the descriptor holding <database>.discord's flock
        self.posted = 0  # messages Discord accepted (tests and logs read these)
        self.failed = 0  # drains that ended on a failure (Discord unavailable, a defect)
        self.looks = 0

    # --- life --------------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="rollbook-discord-post")
        self._thread = threading.Thread(target=self._run, name="rollbook-discord-poster", daemon=True)
        self._thread.start()
        if self.hub is not None:  # in the app's lifespan, in the server's loop
            self.hub.follow(self)

    def bound(self, connection) -> frozenset[int]:
        """The chronicles bound to a channel now (the hub reads it in its catch-up's transaction)."""
        self._bound = frozenset(connection.execute(select(DiscordChannel.chronicle_id).distinct()).scalars())
        return self._bound

    def wake(self, touched: set[int]) -> None:
        """``Database.after_commit``: the chronicles whose logs a commit of this process grew. Only
        notes them (the committing request never waits, never fails here)."""
        if touched & self._bound:
            with self._lock:
                self._touched |= touched
            self._wake.set()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=CLOSE_SECONDS)
        if self._pool is not None:
            wait(list(self._futures), timeout=CLOSE_SECONDS)
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self._file_lock is not None:
            os.close(self._file_lock)  # the flock goes with it: another process may post now
            self._file_lock = None

    # --- the poster's thread -------------------------------------------------------------------------

    def _run(self) -> None:
        next_poll = 0.0
        while not self._stop.is_set():
            self._wake.clear()  # before reading what woke it: a wake after this is never lost
            now = time.monotonic()
            with self._lock:
                touched, self._touched = self._touched, set()
                due = [row for row, until in self._held.items() if until <= now and row not in self._running]
                for row in due:  # its wait is over: the look below hands it out again
                    del self._held[row]
            try:
                if now >= next_poll or due:  # with a hub, the first look only (and a held channel's)
                    next_poll = now + self.poll_interval if self.hub is None else float("inf")
                    self._look(None)
                elif touched:
                    self._look(touched)
            except Exception:
                logger.exception("rollbook: the Discord poster's look at the bound channels failed")
            with self._lock:
                soonest = min(self._held.values(), default=next_poll)
            until = min(next_poll, soonest)
            self._wake.wait(None if until == float("inf") else max(0.0, until - time.monotonic()))

    def _may_post(self) -> bool:
        """SQLite: whether this process is its database's poster (it holds ``<database>.discord``'s
        flock, taken when free). PostgreSQL: always; each channel is claimed as it is drained."""
        if not self.db.sqlite or self._file_lock is not None:
            return True
        path = _lock_file(self.db)
        if path is None:  # an in-memory database: no other process shares it
            return True
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            return False
        self._file_lock = descriptor
        return True

    def _look(self, chronicles: set[int] | None) -> None:
        """Read the cursors of the bound channels (of ``chronicles``, or all) and their chronicles'
        heads; hand each channel with entries past its cursor to a worker."""
        self.looks += 1
        query = select(DiscordChannel.id, DiscordChannel.chronicle_id, DiscordChannel.last_posted)
        if chronicles is not None:
            query = query.where(DiscordChannel.chronicle_id.in_(sorted(chronicles)))
        with self.db.read() as session:
            channels = session.execute(query).all()
            heads = feeds.heads(session, sorted({row.chronicle_id for row in channels}))
        if chronicles is None:
            self._bound = frozenset(row.chronicle_id for row in channels)
        if (
            not any(heads.get(row.chronicle_id, 0) > row.last_posted for row in channels)
            or not self._may_post()
        ):
            return
        now = time.monotonic()
        for row in channels:
            if heads.get(row.chronicle_id, 0) <= row.last_posted:
                continue
            with self._lock:
                if row.id in self._running or self._held.get(row.id, 0.0) > now or self._stop.is_set():
                    continue
                self._running.add(row.id)
            assert self._pool is not None  # made by ``start``, before the thread that looks
            future = self._pool.submit(self._drain, row.id, row.chronicle_id)
            self._futures.add(future)
            future.add_done_callback(self._futures.discard)

    # --- one channel ---------------------------------------------------------------------------------

    def _drain(self, row_id: int, chronicle_id: int) -> None:
        hold: float | None = 0.0
        try:
            with self._claim(row_id) as mine:
                if mine:
                    hold = self._post_all(row_id, chronicle_id)
                else:  # another process drains it now: look again later, not at once
                    hold = self.poll_interval
        except DiscordUnavailable as error:
            hold = self._failed(row_id, error.retry_after)
            logger.warning(
                "rollbook: Discord channel row %s: %s; trying again in %.1f s", row_id, error, hold
            )
        except DiscordNotConfigured as error:
            hold = BACKOFF_LAST
            logger.warning("rollbook: Discord channel row %s cannot be posted to: %s", row_id, error)
        except DiscordRefused as error:  # e.g. 403: the bot may not manage the channel's webhooks
            hold = self._failed(row_id, None)
            logger.warning(
                "rollbook: Discord channel row %s: %s; trying again in %.1f s", row_id, error, hold
            )
        except Exception:
            hold = self._failed(row_id, None)
            logger.exception("rollbook: posting to Discord channel row %s failed", row_id)
        finally:
            with self._lock:
                self._running.discard(row_id)
                if hold:
                    self._held[row_id] = time.monotonic() + hold
                else:
                    self._held.pop(row_id, None)
                    self._failures.pop(row_id, None)
                    self._touched.add(chronicle_id)  # entries may have come meanwhile
            self._wake.set()

    def _failed(self, row_id: int, retry_after: float | None) -> float:
        with self._lock:
            self.failed += 1
            failures = self._failures[row_id] = self._failures.get(row_id, 0) + 1
        backoff = min(BACKOFF_LAST, BACKOFF_FIRST * 2 ** (failures - 1))
        return retry_after if retry_after is not None else backoff

    @contextmanager
    def _claim(self, row_id: int) -> Iterator[bool]:
        """Whether this worker may drain the channel now (the module's docstring)."""
        if self.db.sqlite:
            yield True
            return
        with self.db.engine.connect() as connection:
            params = {"space": LOCK_NAMESPACE, "row": row_id}
            mine = connection.execute(text("SELECT pg_try_advisory_lock(:space, :row)"), params).scalar()
            connection.commit()
            if not mine:
                yield False
                return
            try:
                yield True
            finally:
                try:
                    connection.execute(text("SELECT pg_advisory_unlock(:space, :row)"), params)
                    connection.commit()
                except Exception:
                    connection.invalidate()

    def _post_all(self, row_id: int, chronicle_id: int) -> float | None:
        """Post the channel's entries past its cursor, in order; returns how long to hold it (None:
        it is done)."""
        rest = self._rest()
        reader = public_reader()
        while not self._stop.is_set():
            with self.db.read() as session:
                channel = next(
                    (found for found in store.channels_of(session, chronicle_id) if found.id == row_id), None
                )
                if channel is None:  # unbound, or bound to another chronicle since: the next look says
                    return None
                rows, _ = feeds.new_entries(session.connection(), chronicle_id, channel.last_posted, BATCH)
                if not rows:
                    return None
                shown = store.answered(session, row_id, channel.last_posted, rows[-1].seq)
                revealed = revealed_entries(session, chronicle_id, rows)
                url = store.webhook_url(session, row_id)
                # what every web viewer's card is drawn from: the chronicle and its characters' names
                table = feeds.table_context(session, chronicle_id, [])
                # an ask is posted for the Storyteller, mentioned, with its buttons
                tellers = (
                    store.users_of(
                        session,
                        channel.guild_id,
                        [channel.channel_id],
                        store.storytellers(session, chronicle_id),
                    )
                    if any(row.kind == "ask" for row in rows)
                    else []
                )
            names = {character.id: character.name for character in table.characters}
            language, system = table.chronicle["language"], table.chronicle["system"]
            handled = advanced = channel.last_posted
            for row in rows:
                if self._stop.is_set():
                    break
                view = entry_view(row, reader)
                if view.get("redacted") or row.seq in shown:
                    handled = row.seq  # never posted: passed over with the next post's cursor
                    continue
                try:
                    logged = Logged.of(view)
                    embeds = entry_embeds(view, language, characters=names, system=system)
                    if row.seq in revealed:  # the roll it reveals, now read in full, under it
                        embeds += entry_embeds(revealed[row.seq], language, characters=names, system=system)
                    bodies = messages(embeds)
                    asked = logged.read() if logged.kind == "ask" else None
                    if isinstance(asked, AskReceipt):
                        bodies[0] = asked_body(bodies[0], language, asked.ask, tellers)
                    calls = components.beast_rows(language, view)  # seed 001, V5-10: the Storyteller's calls
                    if calls:
                        bodies[-1] = {**bodies[-1], "components": calls}
                except Exception:
                    logger.exception(
                        "rollbook: entry %s of chronicle %s could not be rendered for Discord: passed over",
                        row.seq,
                        chronicle_id,
                    )
                    handled = row.seq
                    continue
                if url is None:
                    url = self._new_webhook(rest, channel)
                try:
                    for body in bodies:
                        rest.execute_webhook(url, body, budget=0)
                        with self._lock:
                            self.posted += 1
                except DiscordRefused as refused:
                    if refused.status in STALE_WEBHOOK:
                        logger.warning(
                            "rollbook: Discord channel %s: its webhook is gone (%s); making another",
                            channel.channel_id,
                            refused.detail,
                        )
                        if handled > advanced:
                            self._advance(row_id, handled)
                        self._new_webhook(rest, channel)
                        return 0.0
                    if refused.status not in SKIPPED:
                        raise DiscordUnavailable(
                            str(refused), route=refused.route, status=refused.status
                        ) from None
                    logger.error(
                        "rollbook: Discord refused entry %s of chronicle %s for channel %s (%s): passed over",
                        row.seq,
                        chronicle_id,
                        channel.channel_id,
                        refused.detail,
                    )
                handled = advanced = row.seq
                if not self._advance(row_id, handled):
                    return self.poll_interval  # someone else moved the cursor: read it again later
            if handled > advanced and not self._advance(row_id, handled):
                return self.poll_interval
            if len(rows) < BATCH:
                return None
        return None

    def _advance(self, row_id: int, seq: int) -> bool:
        return tx.run(self.db, lambda session: store.advance(session, row_id, seq))

    def _new_webhook(self, rest: DiscordRest, channel: store.Channel) -> str:
        url = rest.create_channel_webhook(channel.channel_id, WEBHOOK_NAME, budget=0)
        tx.run(self.db, lambda session: store.set_webhook(session, channel.id, url))
        return url


def revealed_entries(session: Session, chronicle_id: int, rows: Sequence[Row[Any]]) -> dict[int, dict]:
    """The seq of each ``reveal`` among ``rows`` -> the entry it reveals, as a member of the table reads
    it now (in full: ``views.entry_view`` with its reveal), as the web's live feed redraws it."""
    reveals = {row.refers_to: row.seq for row in rows if row.kind == "reveal" and row.refers_to is not None}
    if not reveals:
        return {}
    found = session.scalars(
        select(LogEntry).where(LogEntry.chronicle_id == chronicle_id, LogEntry.seq.in_(sorted(reveals)))
    )
    reader = public_reader()
    return {reveals[entry.seq]: entry_view(entry, reader, {entry.seq: reveals[entry.seq]}) for entry in found}


def _lock_file(db) -> Path | None:
    """``<database>.discord`` beside a SQLite database file (None for an in-memory one)."""
    database = db.engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database).expanduser().with_name(Path(database).name + ".discord")
