"""A database connection that ends under a write (a PostgreSQL restart, a terminated backend, an
idle timeout; on SQLite, a closed connection), on both stores:

- before the COMMIT was sent, nothing of the write was kept: ``tx.run`` runs it again on a new
  connection (``tx.ConnectionLost``), and it is kept once;
- during the COMMIT, whether it took effect is unknown: it is not run again, its error is raised
  (a request with an Idempotency-Key, retried by its client, then gets the one answer);
- a connection that ends at every attempt (a database out of reach) is its error (500) after the
  retries, not a 409 ``busy``;
- a read (``GET``) that meets an ended connection is read once more (``reread.ReadAgain``), not a 500.

And PostgreSQL's pool pings a connection idle ``engines.PING_IDLE_AFTER`` before use (a connection the
server ended while it sat in the pool is replaced before the request sees it), not one used just
before (``engines._ping_when_idle``)."""

from __future__ import annotations

import secrets
import time

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Column, String, Table, bindparam, event, func, select
from sqlalchemy.exc import DBAPIError

from rollbook.app.app import create_app
from rollbook.dice import GivenFaces
from rollbook.server import engines, tx
from rollbook.server.db import Database
from rollbook.server.reread import ReadAgain

from .conftest import PG_ADMIN_URL, V20_SHEET, V20_TEST, in_a_loop, scratch_table
from .conftest import Table as ChronicleTable


def names_table(url: str):
    """A Database on ``url`` and a table of names of its own (``conftest.scratch_table``)."""
    return scratch_table(url, "reconnect", Column("name", String(50), nullable=False))


@pytest.fixture()
def scratch(database_url):
    with names_table(database_url) as made:
        yield made


def adding(table: Table):
    """``add(connection, name)``: one row."""
    insert = table.insert().values(name=bindparam("name"))
    return lambda connection, name: connection.execute(insert, {"name": name}).rowcount


def end_connection(connection, backend: str) -> None:
    """The server ends this SQLAlchemy connection's database connection (SQLite: it is closed)."""
    raw = connection.connection.dbapi_connection
    if backend == "postgresql":
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (raw.info.backend_pid,))
    else:
        raw.close()


def tagged(url: str) -> tuple[str, str]:
    """``url`` with an ``application_name`` of its own (PostgreSQL), and that name: the test ends
    its own connections only, never those of the session's shared app."""
    name = f"rollbook-reconnect-{secrets.token_hex(4)}"
    return f"{url}{'&' if '?' in url else '?'}application_name={name}", name


def end_every_connection_named(name: str) -> int:
    """PostgreSQL: every backend of that application name terminated (as a restart would): how many."""
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        return admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = %s",
            (name,),
        ).fetchone()[0]


def _names(db: Database, table: Table) -> list[str]:
    with db.read() as session:
        return list(session.connection().execute(select(table.c.name).order_by(table.c.id)).scalars())


def test_a_write_whose_connection_ended_before_its_commit_runs_again_and_is_kept_once(scratch, backend):
    db, table = scratch
    add, attempts = adding(table), []

    def work(session):
        attempts.append(1)
        connection = session.connection()
        add(connection, f"before {len(attempts)}")
        if len(attempts) == 1:
            end_connection(connection, backend)
        add(connection, f"after {len(attempts)}")
        return len(attempts)

    assert tx.run(db, work) == 2
    assert _names(db, table) == ["before 2", "after 2"]  # the first attempt's first row was not kept


def test_a_write_whose_connection_ended_during_its_commit_is_not_run_again(scratch, backend):
    db, table = scratch
    add, attempts, ended = adding(table), [], []

    def work(session):
        attempts.append(1)
        add(session.connection(), "once")

    def end_before_the_commit_is_sent(connection) -> None:  # SQLAlchemy's event: the COMMIT comes next
        if not ended:
            ended.append(1)
            end_connection(connection, backend)

    event.listen(db.engine, "commit", end_before_the_commit_is_sent)
    try:
        with pytest.raises(DBAPIError) as raised:
            tx.run(db, work)
    finally:
        event.remove(db.engine, "commit", end_before_the_commit_is_sent)
    assert raised.value.connection_invalidated
    assert len(attempts) == 1
    assert _names(db, table) == []  # this one never reached the server; either way, not twice


def test_a_connection_ending_at_every_attempt_is_its_error_after_the_retries_not_busy(
    scratch, backend, monkeypatch
):
    """As with a database that stays out of reach: the last attempt's error (500), not 409 ``busy``."""
    db, table = scratch
    monkeypatch.setattr(tx, "_backoff", lambda attempt: 0)
    attempts = []

    def work(session):
        attempts.append(1)
        connection = session.connection()
        end_connection(connection, backend)
        connection.execute(select(func.count()).select_from(table))

    with pytest.raises(DBAPIError) as raised:
        tx.run(db, work)
    assert raised.value.connection_invalidated and len(attempts) == tx.ATTEMPTS


def test_a_roll_whose_connection_ended_midway_is_made_once_and_spends_once(database_url, backend):
    """Through the API: the roll's connection ends after its dice were drawn (before the receipt is
    appended); the roll runs again, new dice, one entry, one point of Willpower spent."""
    ends = []

    class EndingOnce(GivenFaces):
        def draw(self, n: int, sides: int):
            faces = super().draw(n, sides)
            if not ends:
                ends.append(1)
                if backend == "postgresql":
                    end_every_connection_named(name)
                else:
                    app.state.db.engine.pool.dispose()  # SQLite: the connections the pool holds
                    for raw in _open_sqlite_connections:
                        raw.close()
            return faces

    _open_sqlite_connections: list = []
    source = EndingOnce([2, 3, 4, 5, 6] + [10, 9, 8, 7, 6])
    url, name = tagged(database_url) if backend == "postgresql" else (database_url, "")
    app = create_app(url, dice=lambda: source)
    if backend == "sqlite":
        event.listen(
            app.state.db.engine, "checkout", lambda raw, _record, _proxy: _open_sqlite_connections.append(raw)
        )
    with TestClient(app) as client:
        created = client.post("/api/chronicles", json={"name": "Cut", "system": "v20", "difficulty": 6})
        table = ChronicleTable(client, created.json())
        player = table.join()
        character = table.character(player, V20_SHEET)
        rolled = table.roll(player, character["id"], {**V20_TEST, "willpower": True})
        assert rolled.status_code == 201, rolled.text
        assert ends == [1]
        assert rolled.json()["entry"]["receipt"]["faces"] == [10, 9, 8, 7, 6]  # the second attempt's dice
        rolls = [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
        assert len(rolls) == 1
        assert table.sheet(player, character["id"])["sheet"]["willpower"]["current"] == 2
    app.state.db.dispose()


def test_a_read_whose_connection_had_ended_is_read_again(database_url, backend):
    """Through the API: the pooled connections end between two reads (a restart, less than
    ``PING_IDLE_AFTER`` after their last use: no ping finds it); the second read meets an ended
    connection, and is answered by reading again (``reread.ReadAgain``), not with a 500."""
    url, name = tagged(database_url) if backend == "postgresql" else (database_url, "")
    app = create_app(url)
    opened: list = []
    event.listen(app.state.db.engine, "checkout", lambda raw, _record, _proxy: opened.append(raw))
    with TestClient(app, raise_server_exceptions=False) as client:
        created = client.post("/api/chronicles", json={"name": "Reread", "system": "v20", "difficulty": 6})
        table = ChronicleTable(client, created.json())
        player = table.join()
        character = table.character(player, V20_SHEET)
        path = f"{table.base}/characters/{character['id']}"
        first = client.get(path, headers=player)
        assert first.status_code == 200, first.text
        if backend == "postgresql":
            assert end_every_connection_named(name) >= 1
        else:
            for raw in opened:
                raw.close()
        again = client.get(path, headers=player)
        assert again.status_code == 200, again.text
        assert again.json() == first.json()
        log = client.get(f"{table.base}/log", headers=table.st)  # the pool's connections are live again
        assert log.status_code == 200, log.text
    app.state.db.dispose()


def test_only_a_read_that_lost_its_connection_before_answering_is_run_again():
    """``ReadAgain`` runs a request again only when it is a GET or HEAD, the error is a lost
    connection, and nothing of the answer was sent."""
    lost = DBAPIError("SELECT 1", {}, Exception("ended"), connection_invalidated=True)
    other = DBAPIError("SELECT 1", {}, Exception("syntax"), connection_invalidated=False)

    def app_failing(error: Exception, *, start_first: bool = False):
        calls = []

        async def app(scope, receive, send):
            calls.append(await receive())
            if len(calls) == 1:
                if start_first:
                    await send({"type": "http.response.start", "status": 200, "headers": []})
                raise error
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})

        return app, calls

    def run(app, method: str):
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        in_a_loop(ReadAgain(app)({"type": "http", "method": method, "path": "/x"}, receive, send))
        return sent

    app, calls = app_failing(lost)
    assert [m.get("status") for m in run(app, "GET")][0] == 200 and len(calls) == 2
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        app, calls = app_failing(lost)
        with pytest.raises(DBAPIError):
            run(app, method)
        assert len(calls) == 1
    app, calls = app_failing(other)
    with pytest.raises(DBAPIError):
        run(app, "GET")
    assert len(calls) == 1
    app, calls = app_failing(lost, start_first=True)
    with pytest.raises(DBAPIError):
        run(app, "GET")
    assert len(calls) == 1


@pytest.mark.postgres
def test_postgresql_pings_a_connection_idle_long_enough_and_not_one_just_used(pg_url, monkeypatch):
    monkeypatch.setattr(engines, "PING_IDLE_AFTER", 0.3)
    url, name = tagged(pg_url)
    db = Database(url)
    try:
        pings = []
        real_ping = db.engine.dialect.do_ping
        monkeypatch.setattr(db.engine.dialect, "do_ping", lambda raw: (pings.append(1), real_ping(raw))[1])
        with db.read() as session:
            session.connection().execute(select(1))
        with db.read() as session:  # used just before: no ping
            session.connection().execute(select(1))
        assert pings == []

        # The server ends the pooled connection while it is idle (a restart, an idle timeout)
        assert end_every_connection_named(name) >= 1
        time.sleep(0.4)
        with db.read() as session:  # pinged, found ended, replaced: the read does not see it
            assert session.connection().execute(select(1)).scalar() == 1
        assert len(pings) >= 1
    finally:
        db.dispose()


@pytest.mark.postgres
def test_postgresql_a_lost_connection_replaces_the_pools_older_ones_so_the_retry_gets_a_live_one(pg_url):
    """A restart ends every pooled connection, not only the one a write met it on: the write's retry
    must not take another dead one (SQLAlchemy invalidates the pool's older connections)."""
    url, name = tagged(pg_url)
    with names_table(url) as (db, table):
        held = [db.engine.connect() for _ in range(4)]  # four pooled connections, all used just now
        for connection in held:
            connection.execute(select(1))
        for connection in held:
            connection.close()
        assert end_every_connection_named(name) >= 4
        add, attempts = adding(table), []

        def work(session):
            attempts.append(1)
            add(session.connection(), "kept")

        tx.run(db, work)  # within PING_IDLE_AFTER: no ping; the first attempt meets a dead connection
        assert len(attempts) == 2
        assert _names(db, table) == ["kept"]


def test_a_psycopg_error_on_an_ended_connection_is_a_disconnect_though_psycopg_has_not_marked_it():
    """The server ends a backend just as a statement is sent: psycopg raises "connection socket
    closed" (no SQLSTATE) before it marks the connection closed, so SQLAlchemy's dialect alone would
    not see a disconnect; the read would answer 503 instead of being read again."""
    assert engines.ended_connection(psycopg.OperationalError("connection socket closed"))
    assert engines.ended_connection(psycopg.errors.AdminShutdown("terminating connection"))
    assert engines.ended_connection(psycopg.errors.ConnectionFailure("connection failure"))
    assert not engines.ended_connection(psycopg.errors.SerializationFailure("could not serialize"))
    assert not engines.ended_connection(psycopg.errors.QueryCanceled("canceling statement"))
    assert not engines.ended_connection(psycopg.errors.UniqueViolation("duplicate key"))
    assert not engines.ended_connection(ValueError("not a database error"))


@pytest.mark.postgres
def test_postgresql_a_statement_failing_with_an_ended_connections_error_invalidates_it(pg_url, monkeypatch):
    """Through SQLAlchemy: an error that says the connection ended, raised while psycopg still calls
    the connection open, is a disconnect (``connection_invalidated``): ``tx.run`` and
    ``reread.ReadAgain`` run the work again on a new connection."""
    db = Database(pg_url)
    try:
        with db.engine.connect() as connection:
            raw = connection.connection.dbapi_connection
            cursor_class = raw.cursor_factory

            class ClosingSocket(cursor_class):  # type: ignore[misc,valid-type]
                def execute(self, *args, **kwargs):
                    raise psycopg.OperationalError("connection socket closed")

            monkeypatch.setattr(raw, "cursor_factory", ClosingSocket)
            with pytest.raises(DBAPIError) as raised:
                connection.execute(select(1))
            assert raised.value.connection_invalidated
            assert tx.lost_connection(raised.value)
    finally:
        db.dispose()
