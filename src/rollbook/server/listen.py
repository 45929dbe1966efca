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

A lost connection (``psycopg.OperationalError``: the server restarted, the backend terminated, the
network cut) is made again after a second, and what was missed meanwhile is read once LISTEN is in
effect again. Any other error is a defect: it is logged with its traceback and surfaces
(``Hub.fail``: every open feed ends, a new one answers 500); it is not retried.
"""

from __future__ import annotations

import logging
import threading

logger = logging.getLogger("rollbook.server.events")

TICK_SECONDS = 0.2  # how soon the listener takes up a chronicle whose first feed opened here
RECONNECT_SECONDS = 1.0
REVOKED_PAYLOAD = "revoked"  # migration 0009's NOTIFY of a revoked token, on its chronicle's channel
BINDINGS = "rollbook_discord"  # a Discord channel was bound (``discord.store.bind_channel``): the poster's


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
        self._stop = threading.Event()
        self._feed_opened = threading.Event()  # wakes the thread when it listens to nothing

    def ensure(self) -> None:
        if self._stop.is_set():
            return
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, name="rollbook-listen", daemon=True)
            self._thread.start()

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def watch_changed(self) -> None:
        self._feed_opened.set()
        self.ensure()

    def _run(self) -> None:
        import psycopg

        hub = self.hub
        try:
            while not self._stop.is_set():
                try:
                    self.attempts += 1
                    with psycopg.connect(self.url, autocommit=True) as connection:
                        self.hear(connection)
                except psycopg.OperationalError as error:  # the connection was lost or refused: again
                    hub.listened = frozenset()  # the next connection listens to nothing yet
                    logger.warning("rollbook: LISTEN connection lost (%s); reconnecting", error)
                    self._stop.wait(RECONNECT_SECONDS)
        except Exception as error:  # a defect: logged, and it surfaces (no feed served, no retry)
            logger.exception("rollbook: the live feed's listener failed; live feeds are off until restart")
            hub.fail(error)
        finally:
            hub.listened = frozenset()

    def hear(self, connection) -> None:
        """LISTEN on the channels of the chronicles with a live feed open here, UNLISTEN the others."""
        hub = self.hub
        bindings = False  # whether this connection LISTENs on BINDINGS (while the hub has a follower)
        while not self._stop.is_set():
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
            if not watched and not bindings:
                self._feed_opened.clear()
                if not hub.watched:  # else a feed opened between the look and the clear
                    self._feed_opened.wait(1.0)
                continue
            for notification in connection.notifies(timeout=TICK_SECONDS):
                hub.notifications += 1
                if notification.channel == BINDINGS:
                    hub.bindings_changed()
                    continue
                chronicle = notification.channel.rpartition("_")[2]
                payload = notification.payload
                if chronicle.isdigit() and (payload == REVOKED_PAYLOAD or payload.isdigit()):
                    hub.heard(int(chronicle), None if payload == REVOKED_PAYLOAD else int(payload))

    def close(self) -> None:
        self._stop.set()
        self._feed_opened.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=3)
