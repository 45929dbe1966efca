"""PostgreSQL's live feed across app processes: a process hears the log's NOTIFY of the chronicles it
has a live feed open for, and no other (``server.listen``, migration 0006's channel per chronicle),
and a roll committed before its LISTEN took effect still reaches the feed at once. The listener
retries a lost connection only: a defect is logged and surfaces. SQLite has no
listener (its chronicles are woken in the process, and by the per-process catch-up every 0.5 s)."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace

import httpx
import pytest
from alembic import command
from sqlalchemy import create_engine, text

from rollbook.app.app import close_app, create_app
from rollbook.server import listen
from rollbook.server.migrate import alembic_config, upgrade

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, _admin, fresh_pg_database
from .feed_helpers import EventReader, ReadInThread, until

POLL_SECONDS = 5.0  # PostgreSQL's per-process catch-up (app.py): a feed woken sooner was woken by NOTIFY


def _table(url: str) -> tuple[str, dict, int, int]:
    """A chronicle, its Storyteller's headers and a character; its log's last seq is ``_last``."""
    with httpx.Client(base_url=url, timeout=30) as http:
        created = http.post("/api/chronicles", json={"name": "Listen", "system": "v20"}).json()
        headers = {"Authorization": f"Bearer {created['token']}"}
        base = f"/api/chronicles/{created['chronicle']['id']}"
        character = http.post(
            f"{base}/characters", headers=headers, json={"name": "L", "sheet": V20_SHEET}
        ).json()
    return base, headers, character["id"], created["chronicle"]["id"]


def _last(url: str, base: str, headers: dict) -> int:
    with httpx.Client(base_url=url, timeout=30) as http:
        entries = http.get(f"{base}/log", headers=headers, params={"limit": 500}).json()["entries"]
    return max((entry["seq"] for entry in entries), default=0)


def _roll(url: str, base: str, headers: dict, character_id: int) -> int:
    with httpx.Client(base_url=url, timeout=30) as http:
        answer = http.post(
            f"{base}/characters/{character_id}/rolls", headers=headers, json={"action": V20_TEST}
        )
    assert answer.status_code == 201, answer.text
    return answer.json()["entry"]["seq"]


class _Feed(ReadInThread):
    """A live feed read in a thread until its first roll: each entry with the time it arrived (the
    chronicle's first roll is preceded by its server seed's commitment, SPEC F-1)."""

    open_within = 10.0

    def __init__(self, url: str, base: str, headers: dict, *, after: int, idle_timeout: float = 8) -> None:
        self.received: list[dict] = []
        self.opened = threading.Event()
        params = {"after": after, "idle_timeout": idle_timeout}
        self._thread = threading.Thread(target=self._read, args=(url, base, headers, params))

    def _read(self, url: str, base: str, headers: dict, params: dict) -> None:
        with (
            httpx.Client(base_url=url, timeout=30) as http,
            http.stream("GET", f"{base}/events", headers=headers, params=params) as stream,
        ):
            self.opened.set()
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    self.received.append({"at": time.monotonic(), **json.loads(line[6:])})
                    if self.received[-1]["kind"] == "roll":
                        return


def test_a_process_hears_the_chronicles_it_has_a_live_feed_open_for_and_no_other(pg_url):
    first, second = create_app(pg_url), create_app(pg_url)
    hub = second.state.hub
    with ThreadedServer(first) as one, ThreadedServer(second) as two:
        base, headers, character, watched = _table(one.url)
        other = _table(one.url)
        # PostgreSQL delivers a listener the NOTIFYs of different commits in commit order: once the
        # last roll below is heard, any NOTIFY of the rolls before it would have been heard already
        sent = first.state.hub.listener.notified
        _roll(one.url, base, headers, character)
        _roll(one.url, *other[:3])
        assert hub.listened == frozenset()
        # the first process notifies after its commits, from its listener's thread: before LISTEN here
        assert until(lambda: first.state.hub.listener.notified > sent)

        with _Feed(two.url, base, headers, after=_last(one.url, base, headers)) as feed:
            assert until(lambda: hub.listened == {watched})
            _roll(one.url, *other[:3])  # a chronicle nobody watches from here
            rolled_at = time.monotonic()
            seq = _roll(one.url, base, headers, character)
        assert feed.received[-1]["seq"] == seq
        assert feed.received[-1]["at"] - rolled_at < POLL_SECONDS / 2  # NOTIFY woke it
        assert hub.notifications == 1  # that roll's alone: nobody watched the others from the second process

        assert until(lambda: not hub.listened)  # its last feed closed: UNLISTEN
        heard = hub.notifications
        _roll(one.url, base, headers, character)  # not sent to the second process, then or later
        other_base, other_headers, other_character, other_id = other
        with _Feed(
            two.url, other_base, other_headers, after=_last(one.url, other_base, other_headers)
        ) as feed:
            assert until(lambda: hub.listened == {other_id})
            seq = _roll(one.url, other_base, other_headers, other_character)
        assert feed.received[-1]["seq"] == seq
        assert hub.notifications == heard + 1  # that roll's alone (commit order): not the unlistened one


def test_a_roll_committed_before_listen_took_effect_reaches_the_feed_at_once(pg_url, monkeypatch):
    """The feed reads the log, a roll is committed elsewhere, then LISTEN takes effect: the listener
    wakes the feed, which reads the roll, well before its poll."""
    may_listen = threading.Event()
    hear = listen.Listener.hear

    def hear_when_allowed(self, connection):
        if self.hub is second.state.hub:  # the first process's listener notifies its roll meanwhile
            may_listen.wait(30)
        return hear(self, connection)

    monkeypatch.setattr(listen.Listener, "hear", hear_when_allowed)
    first, second = create_app(pg_url), create_app(pg_url)
    with ThreadedServer(first) as one, ThreadedServer(second) as two:
        base, headers, character, chronicle = _table(one.url)
        with _Feed(two.url, base, headers, after=_last(one.url, base, headers)) as feed:
            assert until(lambda: chronicle in second.state.hub.watched)  # the feed is open and waits
            sent = first.state.hub.listener.notified
            seq = _roll(one.url, base, headers, character)
            assert until(lambda: first.state.hub.listener.notified > sent)  # notified before LISTEN
            assert not second.state.hub.listened and not feed.received
            allowed_at = time.monotonic()
            may_listen.set()
        assert second.state.hub.notifications == 0  # the roll was not heard: it was read
        assert feed.received[-1]["seq"] == seq
        assert feed.received[-1]["at"] - allowed_at < POLL_SECONDS / 2


def test_a_listener_whose_connection_ended_listens_again_and_its_feeds_read_what_it_missed(pg_url):
    """The listener's connection is ended (a restart, a network cut); a roll is committed before it
    is made again: once LISTEN is in effect again, the feed reads that roll, well before its poll."""
    first, second = create_app(pg_url), create_app(pg_url)
    hub = second.state.hub
    with ThreadedServer(first) as one, ThreadedServer(second) as two:
        base, headers, character, watched = _table(one.url)
        with _Feed(two.url, base, headers, after=_last(one.url, base, headers)) as feed:
            assert until(lambda: hub.listened == {watched})
            connections = hub.listener.attempts
            _admin(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE query = 'LISTEN {listen.channel(watched)}'"
            )
            assert until(lambda: not hub.listened)
            rolled_at = time.monotonic()
            seq = _roll(one.url, base, headers, character)
            # LISTEN in effect again on a new connection (looked at while the feed is open: once it has
            # read the roll it closes, and the listener at once stops listening to a chronicle nobody watches)
            assert until(lambda: hub.listened == {watched} or bool(feed.received)), "no LISTEN again"
        assert hub.listener.attempts == connections + 1
        assert hub.notifications == 0  # not heard: read once LISTEN was in effect again
        assert feed.received[-1]["seq"] == seq
        assert feed.received[-1]["at"] - rolled_at < POLL_SECONDS / 2


@pytest.fixture
def fresh_pg_url(pg_url) -> Iterator[str]:
    """A PostgreSQL database of its own (the migration is run backwards on it)."""
    with fresh_pg_database() as url:
        yield url


def test_migration_0006_moves_the_notify_to_a_channel_per_chronicle_and_back(fresh_pg_url):
    engine = create_engine(fresh_pg_url)
    source = text("SELECT prosrc FROM pg_proc WHERE proname = 'rollbook_log_notify'")

    def notify_source() -> str:
        with engine.connect() as connection:
            return connection.execute(source).scalar_one()

    try:  # up to the last revision with the trigger (0014 drops it: test_notify_after_commit)
        upgrade(engine, "0013_presence")
        assert "'rollbook_log_' || NEW.chronicle_id" in notify_source()
        with engine.connect() as connection, connection.begin():
            command.downgrade(alembic_config(connection), "0005_character_removed")
        assert "pg_notify('rollbook_log', NEW.chronicle_id" in notify_source()
        upgrade(engine, "0013_presence")
        assert "'rollbook_log_' || NEW.chronicle_id" in notify_source()
    finally:
        engine.dispose()


def test_listener_defect_is_logged_and_surfaces_not_retried_every_second(pg_url, monkeypatch, caplog):
    """A programming error in the listener was caught like a lost connection and retried every
    second, forever, feeds silently polling. Now only a lost connection is retried: a defect is
    logged with its traceback, the process's open feeds end, a new feed answers 500, and the
    listener does not try again."""

    def broken(self, connection):
        until(lambda: bool(self.hub.watched))  # a feed is open: then the defect
        raise TypeError("a defect in the listener")

    monkeypatch.setattr(listen.Listener, "hear", broken)
    app = create_app(pg_url)
    hub = app.state.hub
    with ThreadedServer(app) as server:
        base, headers, _character, _chronicle = _table(server.url)
        with (
            httpx.Client(base_url=server.url, timeout=30) as http,
            http.stream("GET", f"{base}/events", headers=headers, params={"idle_timeout": 20}) as stream,
        ):
            lines = list(stream.iter_lines())  # the feed ends when the listener fails
        assert "event: end" in lines and 'data: {"reason":"error"}' in lines
        assert hub.failure is not None and isinstance(hub.failure, TypeError)
        assert until(lambda: not hub.listener.alive)
        assert hub.listener.attempts == 1  # not retried
        failed = [r for r in caplog.records if r.name == "rollbook.server.events" and r.exc_info]
        assert failed and failed[0].exc_info[0] is TypeError
        with httpx.Client(base_url=server.url, timeout=30) as http:
            assert http.get(f"{base}/events", headers=headers).status_code == 500


def test_a_database_error_in_the_listener_is_logged_and_surfaces_not_retried(pg_url, monkeypatch, caplog):
    """A database error that is not a lost connection (here a LISTEN PostgreSQL refuses: a
    malformed channel name, ``psycopg.ProgrammingError``) is a defect like any other: logged with
    its traceback, the feeds end, the listener does not reconnect and try it again every second."""
    import psycopg

    monkeypatch.setattr(listen, "channel", lambda chronicle_id: f"not a channel {chronicle_id}")
    app = create_app(pg_url)
    hub = app.state.hub
    with ThreadedServer(app) as server:
        base, headers, _character, _chronicle = _table(server.url)
        with EventReader(server.url, f"{base}/events", headers, {"idle_timeout": 20}) as feed:
            assert feed.ended.wait(20)
        assert [event["data"] for event in feed.named("end")] == [{"reason": "error"}]
        assert isinstance(hub.failure, psycopg.ProgrammingError)
        assert not isinstance(hub.failure, psycopg.OperationalError)
        assert until(lambda: not hub.listener.alive)
        assert hub.listener.attempts == 1  # not retried
        failed = [r for r in caplog.records if r.name == "rollbook.server.events" and r.exc_info]
        assert failed and issubclass(failed[0].exc_info[0], psycopg.ProgrammingError)
        assert not [r for r in caplog.records if "reconnecting" in r.getMessage()]


def test_a_lost_listener_connection_is_retried(pg_url, monkeypatch):
    """The other side of the same rule: a connection error (here, refused once) is retried."""
    import psycopg

    connect, refused = psycopg.connect, []

    def refuse_once(*args, **kwargs):
        if not refused and threading.current_thread().name.startswith("rollbook-listen"):
            refused.append(True)
            raise psycopg.OperationalError("connection refused (the test's)")
        return connect(*args, **kwargs)

    monkeypatch.setattr(psycopg, "connect", refuse_once)
    app = create_app(pg_url)
    hub = app.state.hub
    with ThreadedServer(app) as server:
        base, headers, character, watched = _table(server.url)
        with _Feed(server.url, base, headers, after=_last(server.url, base, headers)) as feed:
            assert until(lambda: hub.listened == {watched})
            seq = _roll(server.url, base, headers, character)
        assert feed.received[-1]["seq"] == seq
    assert refused and hub.listener.attempts >= 2 and hub.failure is None


def test_one_commit_is_read_once_whatever_its_notifies_and_a_stale_notify_reads_nothing(pg_url):
    """The hub woke on every NOTIFY, so a commit of two entries (a chronicle's
    first roll and its server seed's commitment, SPEC F-1) could read the log twice. Wakes are
    coalesced by the NOTIFY's seq: one that names a seq the process already read makes no read, and
    the NOTIFY a process sends for its own commit (one per chronicle, its head) wakes nothing in it.
    Here: the first roll (two entries), a stale NOTIFY (a seq long read), a second roll: two reads
    of the log, one per roll."""
    app = create_app(pg_url)
    hub = app.state.hub
    engine = create_engine(pg_url)
    with ThreadedServer(app) as server:
        base, headers, character, chronicle = _table(server.url)
        params = {"after": _last(server.url, base, headers), "idle_timeout": 30}
        try:
            with EventReader(server.url, f"{base}/events", headers, params, cut=True) as feed:
                assert until(lambda: hub.listened == {chronicle} and hub.channels[chronicle].ready.is_set())
                reads, heard, coalesced = hub.reads, hub.notifications, hub.coalesced
                first = _roll(server.url, base, headers, character)
                assert until(lambda: first in feed.seqs())
                assert feed.seqs() == [first - 1, first]  # the seed's commitment, then the roll: one commit
                assert until(lambda: hub.notifications == heard + 1)  # its own, after the commit
                with engine.connect() as connection:
                    connection.execute(
                        text("SELECT pg_notify(:channel, :seq)"),
                        {"channel": listen.channel(chronicle), "seq": str(first - 1)},
                    )
                    connection.commit()
                assert until(lambda: hub.coalesced >= coalesced + 1)  # heard, and no read made of it
                second = _roll(server.url, base, headers, character)
                assert until(lambda: second in feed.seqs())
                assert until(lambda: hub.notifications == heard + 3)
                assert hub.reads == reads + 2  # one per commit
        finally:
            engine.dispose()


def _listeners() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread.name.startswith("rollbook-listen")}


def test_a_closed_app_leaves_no_listener_reconnecting_to_its_dropped_database(pg_url, caplog):
    """A feed opened on an app whose lifespan never ran (a test's ``TestClient`` used without
    ``with``) starts its listener; nothing stopped it, and once the test's database was dropped it
    reconnected every second, logging, to the end of the run. ``close_app`` (the lifespan's end,
    and the session fixtures' teardown) ends it and waits for it, before the database is dropped:
    no listener thread of the app is alive once it returns, and dropping the database then says
    nothing."""
    before = _listeners()  # other apps' (the session's), if any
    with fresh_pg_database() as url:
        app = create_app(url)
        hub = app.state.hub
        hub.listener.watch_changed()  # what a feed's opening does
        assert until(lambda: hub.listener.alive and hub.listener.attempts >= 1)
        close_app(app)
        assert not hub.listener.alive and not _listeners() - before  # at once: close_app waited for it
        close_app(app)  # twice is harmless (the lifespan's end, then the fixture's)
    assert hub.listener.attempts == 1 and not _listeners() - before
    assert not [r for r in caplog.records if "LISTEN connection lost" in r.getMessage()]


def test_a_listener_told_to_stop_says_nothing_of_its_lost_connection(pg_url, caplog):
    """A listener whose connection is lost after it was told to stop (its app closed, then its
    database dropped before the thread had ended) ends without a warning: the loss is expected."""
    import psycopg
    from sqlalchemy.engine import make_url

    class ClosedThenLost(listen.Listener):
        def hear(self, connection) -> None:
            self.stopping.set()  # the app closes while the thread is in here
            raise psycopg.OperationalError("terminating connection due to administrator command")

    url = make_url(pg_url).set(drivername="postgresql").render_as_string(hide_password=False)
    lost = ClosedThenLost(SimpleNamespace(listened=frozenset(), fail=None, failure=None), url)
    lost.ensure()
    assert until(lambda: lost.attempts == 1 and not lost.alive)
    said = [
        r.getMessage()
        for r in caplog.records
        if r.name == "rollbook.server.events" and r.levelno >= logging.WARNING
    ]
    assert not said, said
