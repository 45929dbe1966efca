"""PostgreSQL: a process's listener thread sends at most one NOTIFY of its commits every
``listen.NOTIFY_EVERY``: the first commit after a quiet spell is notified at once, the commits that
follow it within the interval together, in one statement, once it has passed (SQLite has no NOTIFY).

The interval is made long here (``PACE``) so that what is measured is the thread's pacing, never the
machine's speed: the bounds asserted are a lower bound (nothing is sent before its turn) and a
generous upper one (a first commit does not wait for a turn)."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from sqlalchemy.engine import make_url

from rollbook.server import listen
from rollbook.server.db import Database
from rollbook.server.hub import Hub

from .conftest import in_a_loop
from .feed_helpers import until

PACE = 3.0  # seconds: NOTIFY_EVERY during the test
WAIT = 30.0  # seconds: a generous bound on each wait (every wait is on a condition)
CHRONICLES = (910_001, 910_002, 910_003, 910_004)  # channels no other test notifies


def _libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.mark.postgres
def test_commits_are_notified_at_most_once_per_interval(pg_url, monkeypatch):
    monkeypatch.setattr(listen, "NOTIFY_EVERY", PACE)
    db = Database(pg_url)
    db.upgrade()  # the NOTIFY reads each chronicle's head in the log
    heard: dict[int, float] = {}
    listening = threading.Event()

    def hear() -> None:  # another process's listener: when each channel's NOTIFY arrives
        with psycopg.connect(_libpq(pg_url), autocommit=True) as connection:
            for chronicle_id in CHRONICLES:
                connection.execute(f"LISTEN {listen.channel(chronicle_id)}")
            listening.set()
            for notification in connection.notifies(timeout=WAIT, stop_after=len(CHRONICLES)):
                heard.setdefault(int(notification.channel.rpartition("_")[2]), time.monotonic())

    listener_of_another = threading.Thread(target=hear, daemon=True)
    listener_of_another.start()
    assert listening.wait(WAIT)

    async def play() -> tuple[float, float, int]:
        hub = Hub(db, listen_url=_libpq(pg_url))
        hub.start_listener()
        notifier = hub.listener
        assert notifier is not None
        try:
            first, *rest = CHRONICLES
            handed = time.monotonic()
            assert notifier.notify([first]), "the listener thread was not running"
            assert until(lambda: first in heard, WAIT), "the first commit was not notified"
            handed_rest = time.monotonic()
            for chronicle_id in rest:  # committed within the interval: notified together, at its end
                assert notifier.notify([chronicle_id])
            assert until(lambda: all(c in heard for c in rest), WAIT), "the later commits were not notified"
            # the thread counts a NOTIFY after the statement returns: another listener may hear it first
            until(lambda: notifier.notified >= 2, WAIT)
            return handed, handed_rest, notifier.notified
        finally:
            hub.close()

    try:
        handed, handed_rest, sent = in_a_loop(play())
    finally:
        listener_of_another.join(WAIT)
        db.dispose()
    first, *rest = CHRONICLES
    assert heard[first] - handed < PACE, "a first commit after a quiet spell waited for a turn"
    assert all(heard[c] - handed >= PACE for c in rest), "a commit was notified before its turn"
    assert heard[first] < handed_rest <= min(heard[c] for c in rest)
    assert sent == 2, f"{sent} NOTIFY statements for a commit and, within the interval, three more"
