"""PostgreSQL's side of the live feed: one listener thread per app process, on its own connection.

It LISTENs on the channels (``rollbook_log_<chronicle>``) of the chronicles the process has a live
feed open for (``hub.Hub.watched``), and only while it has one; it UNLISTENs a chronicle whose
last feed closed. The log's insert trigger notifies ``<seq>`` there (migration 0006), a revoked
token ``revoked`` (migration 0009); each notification wakes that chronicle in the hub (one read of
its new entries for all its feeds), or makes it check its feeds' tokens. Once a channel's LISTEN
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
from urllib.parse import urlsplit

logger = logging.getLogger("rollbook.server.events")

RECONNECT_SECONDS = 1.0
CONNECT_SECONDS = (
    5  # libpq's connect_timeout: a connection that hangs is retried, and close is never held long
)
CLOSE_SECONDS = 10.0  # how long close waits for the thread (a statement, or a connection attempt, at most)
REVOKED_PAYLOAD = "revoked"  # migration 0009's NOTIFY of a revoked token, on its chronicle's channel
BINDINGS = "rollbook_discord"  # a Discord channel was bound (``discord.store.bind_channel``): the poster's


def thread_name(url: str) -> str:
    """The listener thread's name: ``rollbook-listen <database>`` (a test tells whose listener is
    still running as it drops a database; logs and thread dumps say which store it follows)."""
    database = urlsplit(url).path.lstrip("/") if "://" in url else ""
    return f"rollbook-listen {database}" if database else "rollbook-listen"


def channel(chronicle_id: int) -> str:
    """The log's NOTIFY channel of a chronicle (migration 0006's trigger)."""
    return f"rollbook_log_{int(chronicle_id)}"


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
        with selectors.DefaultSelector() as waiting:
            waiting.register(connection.fileno(), selectors.EVENT_READ)
            waiting.register(woken, selectors.EVENT_READ)
            self._hear(connection, stop, woken, waiting)

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
            # what arrived already (with a statement's answer, or since the last look), not waiting
            for notification in connection.notifies(timeout=0):
                self._deliver(notification)
            if stop.is_set():
                return
            ready = waiting.select()  # no timeout: idle, the thread sleeps
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
