"""PostgreSQL's NOTIFY out of the roll's transaction (migration 0014, ``server.listen``): the log's
insert trigger no longer notifies (PostgreSQL serialises every committing transaction that notified
on one cluster-wide lock, held through its WAL flush); the process that committed notifies after
its commit, from its listener's thread, or at once when it has no hub (the CLI). What every process
must still see: another process's roll, the CLI's, a revocation (migration 0009's trigger, kept),
and a roll whose process died before it notified (the catch-up's). SQLite has no NOTIFY: a commit
there notifies nothing, and its feeds are woken as before (in the process, and by the catch-up)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from alembic import command
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from rollbook.app.app import create_app
from rollbook.server import auth, listen
from rollbook.server.db import Database
from rollbook.server.migrate import alembic_config, upgrade
from rollbook.server.models import Member
from rollbook.server.usecases import solo

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, fresh_pg_database
from .feed_helpers import EventReader, until

POLL_SECONDS = 5.0  # PostgreSQL's per-process catch-up (app.py): a feed woken sooner was woken by NOTIFY
TINY = Path(__file__).resolve().parents[1] / "solo" / "data" / "tiny.yaml"


def _libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _table(http: httpx.Client) -> tuple[str, dict, int, int]:
    """A chronicle's base path, its Storyteller's headers, a character, the chronicle's id."""
    created = http.post("/api/chronicles", json={"name": "Notify", "system": "v20"}).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    base = f"/api/chronicles/{created['chronicle']['id']}"
    character = http.post(
        f"{base}/characters", headers=headers, json={"name": "N", "sheet": V20_SHEET}
    ).json()
    return base, headers, character["id"], created["chronicle"]["id"]


def _head(http: httpx.Client, base: str, headers: dict) -> int:
    return http.get(f"{base}/log", headers=headers, params={"limit": 1}).json()["head"]["seq"]


def _roll(http: httpx.Client, base: str, headers: dict, character: int) -> int:
    answer = http.post(f"{base}/characters/{character}/rolls", headers=headers, json={"action": V20_TEST})
    assert answer.status_code == 201, answer.text
    return answer.json()["entry"]["seq"]


@pytest.fixture
def fresh_pg_url(pg_url) -> Iterator[str]:
    """A PostgreSQL database of its own (migrated backwards, or written by the CLI)."""
    with fresh_pg_database() as url:
        yield url


@pytest.mark.postgres
def test_a_roll_committed_by_one_process_reaches_a_feed_open_on_another(pg_url):
    """Two app processes on one database: the roll's commit notifies no one; the first process's
    listener thread notifies after it, and the second process's feed hears it (its catch-up is an
    hour apart: heard, not polled)."""
    first, second = create_app(pg_url), create_app(pg_url)
    second.state.hub.poll_interval = 3600.0
    hub, notifier = second.state.hub, first.state.hub.listener
    with (
        ThreadedServer(first) as one,
        ThreadedServer(second) as two,
        httpx.Client(base_url=one.url, timeout=30) as http,
    ):
        base, headers, character, chronicle = _table(http)
        params = {"after": _head(http, base, headers), "idle_timeout": 30}
        with EventReader(two.url, f"{base}/events", headers, params, cut=True) as feed:
            assert until(lambda: hub.listened == {chronicle} and hub.channels[chronicle].ready.is_set())
            heard, sent = hub.notifications, notifier.notified
            rolled_at = time.monotonic()
            seq = _roll(http, base, headers, character)
            assert until(lambda: seq in feed.seqs()), "the other process's feed never had the roll"
            arrived = feed.named("entry")[-1]["at"]
        assert arrived - rolled_at < POLL_SECONDS / 2
        assert hub.notifications > heard  # heard by NOTIFY
        assert notifier.notified > sent  # sent by the first process's listener thread


@pytest.mark.postgres
def test_a_roll_written_by_the_cli_reaches_a_live_feed(fresh_pg_url):
    """``rollbook solo`` writes to the PostgreSQL store from a process with no hub: it notifies once
    its commit is durable (``listen.notify_now``), and a served app's feed hears it at once."""
    env = {
        **os.environ,
        "ROLLBOOK_LANG": "en",
        "ROLLBOOK_DATABASE_URL": fresh_pg_url,
        "ROLLBOOK_SOLO_DICE": "10",
        "COLUMNS": "100",
    }

    def solo_cli(stdin: str) -> None:
        done = subprocess.run(
            [sys.executable, "-m", "rollbook", "solo", str(TINY)],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr

    solo_cli("")  # the story begun, then left at its first choice (the end of the input)
    db = Database(fresh_pg_url)
    try:
        with db.write() as session:  # a key for the solo player, to open their feed with
            player = solo.resumable(session, TINY.read_bytes())
            assert player is not None
            key = auth.issue(session, player, auth.KEY)["token"]
            chronicle = player.chronicle_id
    finally:
        db.dispose()
    app = create_app(fresh_pg_url)
    hub = app.state.hub
    hub.poll_interval = 3600.0
    headers = {"Authorization": f"Bearer {key}"}
    base = f"/api/chronicles/{chronicle}"
    with ThreadedServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        after = _head(http, base, headers)
        params = {"after": after, "idle_timeout": 60}
        with EventReader(server.url, f"{base}/events", headers, params, cut=True) as feed:
            assert until(lambda: hub.listened == {chronicle} and hub.channels[chronicle].ready.is_set())
            heard = hub.notifications
            solo_cli("1\n1\n")  # the lie, then its roll: the story ends
            assert until(lambda: bool(feed.seqs()), 30), "the CLI's entries never reached the feed"
            assert until(lambda: feed.seqs()[-1] == _head(http, base, headers))
        kinds = [event["data"]["kind"] for event in feed.named("entry")]
        assert "roll" in kinds, kinds  # the check rolled by the CLI
        assert hub.notifications > heard  # heard by NOTIFY, not read by a catch-up (an hour apart)


@pytest.mark.postgres
def test_a_roll_whose_process_died_before_it_notified_reaches_the_feed_by_the_catch_up(pg_url):
    """A process that dies between its commit and its NOTIFY (here: its ``Database.notify`` never
    sends) notifies no one, and its transaction did not either (a LISTEN connection hears nothing
    before a marker sent after it): the other process's feed reads the roll at its catch-up."""
    first, second = create_app(pg_url), create_app(pg_url)
    first.state.db.notify = lambda touched: None  # the process is gone before its listener notifies
    hub = second.state.hub
    hub.poll_interval = 0.5
    with (
        ThreadedServer(first) as one,
        ThreadedServer(second) as two,
        httpx.Client(base_url=one.url, timeout=30) as http,
        psycopg.connect(_libpq(pg_url), autocommit=True) as listening,
    ):
        base, headers, character, chronicle = _table(http)
        listening.execute(f"LISTEN {listen.channel(chronicle)}")
        params = {"after": _head(http, base, headers), "idle_timeout": 30}
        with EventReader(two.url, f"{base}/events", headers, params, cut=True) as feed:
            assert until(lambda: hub.listened == {chronicle} and hub.channels[chronicle].ready.is_set())
            heard, caught_up = hub.notifications, hub.catch_ups
            seq = _roll(http, base, headers, character)
            assert until(lambda: seq in feed.seqs(), 30), "the catch-up never read the roll"
        assert hub.notifications == heard  # nothing was heard: it was read
        assert hub.catch_ups > caught_up
        with psycopg.connect(_libpq(pg_url), autocommit=True) as marker:
            marker.execute("SELECT pg_notify(%s, 'marker')", [listen.channel(chronicle)])
        # notifications arrive in commit order: whatever the roll's transaction sent came before
        payloads = [n.payload for n in listening.notifies(timeout=10, stop_after=1)]
        assert payloads == ["marker"]


def _log_triggers_that_notify(engine) -> list[str]:
    with engine.connect() as connection:
        return list(
            connection.execute(
                text(
                    "SELECT t.tgname FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                    "WHERE t.tgrelid = 'log_entries'::regclass AND p.prosrc LIKE '%pg_notify%'"
                )
            ).scalars()
        )


def _function_source(engine, name: str) -> str | None:
    with engine.connect() as connection:
        return connection.execute(
            text("SELECT prosrc FROM pg_proc WHERE proname = :name"), {"name": name}
        ).scalar()


@pytest.mark.postgres
def test_migration_0014_drops_the_log_notify_and_its_downgrade_restores_it(fresh_pg_url):
    """After the upgrade no trigger of the log calls ``pg_notify`` (its function is gone); the
    revocation's trigger (0009) still does. The downgrade puts 0006's trigger back, and a database
    with entries upgrades again cleanly."""
    engine = create_engine(fresh_pg_url)
    try:
        upgrade(engine, "0013_presence")  # a database of the last release
        assert _log_triggers_that_notify(engine) == ["log_entries_notify"]
        upgrade(engine)
        assert _log_triggers_that_notify(engine) == []
        assert _function_source(engine, "rollbook_log_notify") is None
        revoked = _function_source(engine, "rollbook_token_revoked_notify")
        assert revoked is not None and "pg_notify('rollbook_log_' || members.chronicle_id" in revoked

        app = create_app(fresh_pg_url)  # an entry in the log, for the way down and up again
        with ThreadedServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
            base, headers, character, _chronicle = _table(http)
            _roll(http, base, headers, character)

        with engine.connect() as connection, connection.begin():
            command.downgrade(alembic_config(connection), "0013_presence")
        assert _log_triggers_that_notify(engine) == ["log_entries_notify"]
        source = _function_source(engine, "rollbook_log_notify")
        assert (
            source is not None
            and "pg_notify('rollbook_log_' || NEW.chronicle_id::text, NEW.seq::text)" in source
        )
        upgrade(engine)
        assert _log_triggers_that_notify(engine) == []
        assert _function_source(engine, "rollbook_log_notify") is None
    finally:
        engine.dispose()


def test_a_writer_without_a_hub_notifies_after_its_commit(database_url, backend):
    """``Database.notify``: on PostgreSQL a process with no hub (the CLI) notifies each chronicle's
    channel with its head seq once its commit is durable; SQLite has none, and a commit there runs
    its hooks as before."""
    db = Database(database_url)
    try:
        db.upgrade()
        with db.read() as session:
            chronicle = session.scalars(select(Member.chronicle_id).order_by(Member.id.desc())).first()
        told: list[set[int]] = []
        db.after_commit.append(told.append)
        if backend == "sqlite":
            assert db.notify is None
            db.committed({1})
            assert told == [{1}]
            return
        assert db.notify is not None
        with psycopg.connect(_libpq(database_url), autocommit=True) as listening:
            chronicle = chronicle or 1
            listening.execute(f"LISTEN {listen.channel(chronicle)}")
            db.committed({chronicle})
            heard = list(listening.notifies(timeout=10, stop_after=1))
        assert told == [{chronicle}]
        assert [n.channel for n in heard] == [listen.channel(chronicle)] and heard[0].payload.isdigit()
    finally:
        db.dispose()
