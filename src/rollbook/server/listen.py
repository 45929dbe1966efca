"""PostgreSQL's side of the live feed: one listener thread per app process, on its own connection.

It LISTENs on the channels (``rollbook_log_<chronicle>``) of the chronicles the process has a live
feed open for (``hub.Hub.watched``), and only while it has one; it UNLISTENs a chronicle whose
last feed closed. A process that committed entries notifies their chronicle's head seq there
(``notify``, below), a revoked token's trigger ``revoked`` (migration 0009); each notification
wakes that chronicle in the hub (one read of its new entries for all its feeds), or makes it check
its feeds' tokens. The notifications this connection sent itself are counted and wake nothing:
the hub was woken by the commit already (``Hub.wake``).

The same thread NOTIFYs for its process's commits (migration 0014: the log's trigger no longer
does). PostgreSQL serialises the commits of every transaction that notified, cluster-wide, on one
lock held through the commit's WAL flush; in the roll's transaction that lock was the roll's longest
wait under load (bench/README.md, "Notify after the commit"). Now ``Database.notify`` hands the
chronicles a commit grew to ``Listener.notify`` (a set and, when it was empty, a byte on the
wake-up socket: nothing waits), and the thread sends one statement for every commit made since its
last (``NOTIFY_SQL``: each chronicle's head seq, read as it notifies), at most one every
``NOTIFY_EVERY`` (the first commit after a quiet spell at once), in a transaction of its own
that writes no row and does not wait for its commit record's flush (``synchronous_commit`` off: a
notification is never durable anyway). A process without a running listener (no hub: the CLI, a
script; a hub whose app is closed or whose listener failed) notifies at once after its commit, on
one of its pool's connections (``notify_now``). A process that dies between its commit and its
NOTIFY leaves the other processes' feeds to their catch-up (``catchup``: every 5 s on PostgreSQL,
the heads of the chronicles watched): nothing is missed, it comes later. Once a channel's LISTEN
has taken effect the hub catches up on it (``Hub.listening``: one read for every chronicle taken up
together, their heads and the tokens revoked lately): what was committed before is read, what is
committed after is heard. While the hub has a follower (the Discord poster, ``Hub.follow``) it also
LISTENs on ``rollbook_discord``, which ``discord.store.bind_channel`` notifies: a channel bound in
any process is followed at once (``Hub.bindings_changed``), not at the next catch-up.

Idle, the thread sleeps in one ``select`` on the connection's socket and a wake-up socket of its
own, without a timeout: it wakes for a notification, a feed opened or closed here
(``watch_changed``), the connection's end or ``close``, and for nothing else (an idle
feed costs nothing but its keep-alive; it used to poll every 0.2 s, and psycopg's own wait every
0.1 s, whatever was open).

A lost connection (``psycopg.OperationalError``: the server restarted, the backend terminated, the
network cut) is made again after a second, and what was missed meanwhile is read once LISTEN is in
effect again. Any other error is a defect: it is logged with its traceback and surfaces
(``Hub.fail``: every open feed ends, a new one answers 500); it is not retried.

``close`` (the app closes: ``Hub.close``) stops the thread and waits for it; a connection lost once
it was told to stop (its database dropped right after, say) ends it without a word. A closed
listener starts again when the hub next needs it (the app served again, a feed opened): each run
has its own stop signal, so a late run never undoes the close of an earlier one.
"""

from __future__ import annotations

import logging
import selectors
import socket
import threading
import time
from collections.abc import Iterable
from urllib.parse import urlsplit

logger = logging.getLogger("rollbook.server.events")

RECONNECT_SECONDS = 1.0
CONNECT_SECONDS = (
    5  # libpq's connect_timeout: a connection that hangs is retried, and close is never held long
)
CLOSE_SECONDS = 10.0  # how long close waits for the thread (a statement, or a connection attempt, at most)
# At most one NOTIFY statement of this process's commits per interval: the first commit after a
# quiet interval is notified at once, the commits that follow it within the interval together at its
# end. Each NOTIFY is a transaction of PostgreSQL's (under its cluster-wide NOTIFY lock), a round
# trip through the driver, a wake of this thread and of every listening backend, and comes back to
# this connection (it LISTENs too): at 60-70 rolls a second it was one per roll. The other
# processes hear a commit up to this much later; this process's own feeds are woken by the commit.
NOTIFY_EVERY = 0.05
REVOKED_PAYLOAD = "revoked"  # migration 0009's NOTIFY of a revoked token, on its chronicle's channel
BINDINGS = "rollbook_discord"  # a Discord channel was bound (``discord.store.bind_channel``): the poster's

# What a process's commits notify: each chronicle's channel, its head seq as payload (read as it
# notifies, after the commits: one NOTIFY for all the entries committed since the last, and a
# process that has read that seq already makes no read of it, ``Hub.read_now``). One statement, in
# a transaction of its own; %s / :chronicles, the chronicles' ids (an array of integers).
NOTIFY_SQL = (
    "SELECT pg_notify('rollbook_log_' || c::text, "
    "(SELECT coalesce(max(seq), 0) FROM log_entries WHERE chronicle_id = c)::text) "
    "FROM unnest({ids}) AS c"
)


def thread_name(url: str) -> str:
    """The listener thread's name: ``rollbook-listen <database>`` (a test tells whose listener is
    still running as it drops a database; logs and thread dumps say which store it follows)."""
    database = urlsplit(url).path.lstrip("/") if "://" in url else ""
    return f"rollbook-listen {database}" if database else "rollbook-listen"


def channel(chronicle_id: int) -> str:
    """The log's NOTIFY channel of a chronicle (migration 0006's name)."""
    return f"rollbook_log_{int(chronicle_id)}"


def notify_now(engine, chronicle_ids: Iterable[int]) -> None:
    """Notify the other processes that these chronicles' logs grew, now, on a connection of
    ``engine``'s pool (``Database.notify`` of a process without a running listener: the CLI). The
    commit is durable already: a NOTIFY that fails is logged, not raised (the other processes'
    catch-up reads the entries all the same)."""
    from sqlalchemy import text

    ids = sorted({int(chronicle_id) for chronicle_id in chronicle_ids})
    if not ids:
        return
    try:
        with engine.connect() as connection:
            connection.execute(text("SET LOCAL synchronous_commit = off"))
            connection.execute(
                text(NOTIFY_SQL.format(ids="CAST(:chronicles AS integer[])")), {"chronicles": ids}
            )
            connection.commit()
    except Exception:
        logger.warning(
            "rollbook: NOTIFY of chronicles %s failed; their feeds elsewhere catch up", ids, exc_info=True
        )


class Listener:
    """The listener thread of one hub (``hub.Hub``): started when a first feed opens."""

    def __init__(self, hub, url: str) -> None:
        self.hub, self.url = hub, url  # a libpq URL
        self.attempts = 0  # connections made or tried (tests read it)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()  # the current run's: set by close
        self._wake: socket.socket | None = None  # the current run's: a byte wakes its select
        self.turns = 0  # times the thread woke and looked at what to LISTEN to (tests read it)
        self._local = threading.local()  # each run's thread: its own stop signal (``stopping``)
        self._committed: set[int] = set()  # chronicles this process's commits grew, not notified yet
        self.notified = 0  # NOTIFY statements the thread sent for this process's commits (tests read it)
        self._due = (
            0.0  # when the next NOTIFY may be sent (``time.monotonic``): ``NOTIFY_EVERY`` after the last
        )
        self._own: int | None = None  # the backend of the current connection: what it notified itself

    def ensure(self) -> None:
        """The thread runs (started again after a ``close``: the app is served again, a feed opened)."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive() and not self._stop.is_set():
                return
            # A defect ends the live feeds for good (``Hub.fail``, set by the failing run before it
            # ends): a caller that saw no failure just before must not start another run now.
            if self.hub.failure is not None:
                return
            self._stop = stop = threading.Event()  # a run of its own: an older run's close stays closed
            woken, self._wake = socket.socketpair()  # its own too: an older run never takes its wake-ups
            for end in (woken, self._wake):
                end.setblocking(False)
            self._thread = threading.Thread(
                target=self._run, args=(stop, woken), name=thread_name(self.url), daemon=True
            )
            self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def watch_changed(self) -> None:
        self._poke()
        self.ensure()

    def notify(self, chronicle_ids: Iterable[int]) -> bool:
        """From a committing thread (``Database.notify``): the thread notifies for these chronicles
        with the next commits', in its own transaction. False when no run is under way (never
        started, closed, failed): the caller notifies itself (``notify_now``)."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive() or self._stop.is_set():
                return False
            first = not self._committed
            self._committed.update(chronicle_ids)
        if first:  # otherwise a wake-up is on its way already, for all of them
            self._poke()
        return True

    def _send(self, connection) -> None:
        """NOTIFY for the commits handed over since the last time (``notify``), one statement."""
        with self._lock:
            ids, self._committed = sorted(self._committed), set()
        if not ids:
            return
        try:
            connection.execute(NOTIFY_SQL.format(ids="%s::integer[]"), [ids])
        except BaseException:
            with self._lock:  # not sent: the next connection sends them (the catch-up reads them anyway)
                self._committed.update(ids)
            raise
        self.notified += 1
        self._due = time.monotonic() + NOTIFY_EVERY

    def _pending(self) -> float | None:
        """How long until the commits handed over may be notified (0: now), None when there is none."""
        with self._lock:
            if not self._committed:
                return None
        return max(0.0, self._due - time.monotonic())

    def _poke(self) -> None:
        wake = self._wake
        if wake is None:
            return
        try:
            wake.send(b"!")
        except BlockingIOError:  # its buffer is full of wake-ups not read yet: the thread wakes already
            pass
        except OSError:  # that run ended and closed it: a newer run (``ensure``) looks at everything first
            pass

    def _run(self, stop: threading.Event, woken: socket.socket) -> None:
        import psycopg

        hub = self.hub
        self._local.stop, self._local.woken = stop, woken
        try:
            while not stop.is_set():
                try:
                    self.attempts += 1
                    with psycopg.connect(
                        self.url, autocommit=True, connect_timeout=CONNECT_SECONDS
                    ) as connection:
                        self.hear(connection)
                except psycopg.OperationalError as error:  # the connection was lost or refused: again
                    if stop.is_set():  # closed meanwhile (its database may be gone already): nothing to say
                        return
                    hub.listened = frozenset()  # the next connection listens to nothing yet
                    logger.warning("rollbook: LISTEN connection lost (%s); reconnecting", error)
                    stop.wait(RECONNECT_SECONDS)
        except Exception as error:  # a defect: logged, and it surfaces (no feed served, no retry)
            if stop.is_set():
                return
            logger.exception("rollbook: the live feed's listener failed; live feeds are off until restart")
            hub.fail(error)
        finally:
            if self._stop is stop:  # a newer run's channels are its own
                hub.listened = frozenset()
            with self._lock:
                if self._stop is stop and self._wake is not None:
                    self._wake.close()
                    self._wake = None
            woken.close()

    @property
    def stopping(self) -> threading.Event:
        """The stop signal of the run whose thread asks (a run outliving its close never reads a
        newer run's)."""
        return getattr(self._local, "stop", self._stop)

    def hear(self, connection) -> None:
        """LISTEN on the channels of the chronicles with a live feed open here, UNLISTEN the others,
        until this run is stopped."""
        stop = self.stopping
        woken = self._local.woken
        # a selector, not select(): a process serving thousands of feeds may give a connection made
        # again (after a lost one) a descriptor past select's 1024
        # its NOTIFYs' transactions write no row: their commit record need not be flushed (under the
        # cluster's NOTIFY lock) before the next one may commit
        connection.execute("SET synchronous_commit = off")
        self._own = connection.info.backend_pid  # the notifications this connection sent itself
        with selectors.DefaultSelector() as waiting:
            waiting.register(connection.fileno(), selectors.EVENT_READ)
            waiting.register(woken, selectors.EVENT_READ)
            self._hear(connection, stop, woken, waiting)
            self._send(connection)  # handed over before the stop: sent (after it, ``notify`` refuses)

    def _hear(
        self, connection, stop: threading.Event, woken: socket.socket, waiting: selectors.BaseSelector
    ) -> None:
        hub = self.hub
        bindings = False  # whether this connection LISTENs on BINDINGS (while the hub has a follower)
        while not stop.is_set():
            self.turns += 1
            if (hub.follower is not None) != bindings:
                bindings = not bindings
                connection.execute(f"{'LISTEN' if bindings else 'UNLISTEN'} {BINDINGS}")
                if bindings:  # a binding made before it took effect was not heard
                    hub.bindings_changed()
            watched = hub.watched
            for chronicle_id in hub.listened - watched:
                connection.execute(f"UNLISTEN {channel(chronicle_id)}")
            taken_up = watched - hub.listened
            for chronicle_id in taken_up:
                connection.execute(f"LISTEN {channel(chronicle_id)}")
            hub.listened = watched
            if taken_up:
                # What was committed (or revoked) before LISTEN took effect was not heard: catch up.
                hub.listening(taken_up)
            if self._pending() == 0.0:
                self._send(connection)
            # what arrived already (with a statement's answer, or since the last look), not waiting
            for notification in connection.notifies(timeout=0):
                self._deliver(notification)
            if stop.is_set():
                return
            # idle, the thread sleeps (no timeout); commits handed over wait for their NOTIFY's turn
            ready = waiting.select(self._pending())
            if any(key.fileobj is woken for key, _ in ready):
                # emptied before ``hub.watched`` is looked at again: a later change pokes anew
                try:
                    while woken.recv(4096):
                        pass
                except BlockingIOError:
                    pass

    def _deliver(self, notification) -> None:
        hub = self.hub
        hub.notifications += 1
        if notification.pid == self._own:
            return  # this process's commit, which woke its hub already (``Hub.wake``)
        if notification.channel == BINDINGS:
            hub.bindings_changed()
            return
        chronicle = notification.channel.rpartition("_")[2]
        payload = notification.payload
        if chronicle.isdigit() and (payload == REVOKED_PAYLOAD or payload.isdigit()):
            hub.heard(int(chronicle), None if payload == REVOKED_PAYLOAD else int(payload))

    def close(self) -> None:
        """Stop the thread and wait for it (``CLOSE_SECONDS`` at most; it ends by itself after that,
        quietly). ``ensure`` starts a new one."""
        with self._lock:
            self._stop.set()
            thread = self._thread
        self._poke()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=CLOSE_SECONDS)
