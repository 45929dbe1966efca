"""``db.AsyncpgWriter``: PostgreSQL's writes from the event loop (the API's signed writes) run on
asyncpg and must keep what the psycopg writes keep: the races ``tx`` retries are recognised from
the same SQLSTATE and constraint names, a connection that ended before the COMMIT makes the write
run again (once kept), the server loop's pool is closed with the server, and the URL's libpq
options reach asyncpg as they reach psycopg. The same checks run on SQLite's loop writer where the
store has the behaviour (a unique violation). A cancelled caller's write: test_loop_writer."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Column, Integer, String, bindparam, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from rollbook.dice import GivenFaces
from rollbook.server import tx
from rollbook.server.app import create_app
from rollbook.server.db import LOOP_WRITE_CONNECTIONS, PING_IDLE_AFTER, AsyncpgWriter, LoopWriter
from rollbook.server.direct import Statement

from .conftest import PG_ADMIN_URL, V20_SHEET, V20_TEST, Table, in_a_loop, scratch_table
from .test_reconnect import end_every_connection_named, tagged


@pytest.fixture()
def scratch(database_url):
    with scratch_table(database_url, "asyncpg", Column("name", String(50), unique=True, nullable=False),
                       Column("n", Integer, nullable=False, default=0)) as made:
        yield made


def _a_player_and_character(client) -> tuple[Table, dict, dict]:
    created = client.post("/api/chronicles", json={"name": "Asyncpg", "system": "v20", "difficulty": 6})
    table = Table(client, created.json())
    player = table.join()
    return table, player, table.character(player, V20_SHEET)


def _names(db, table) -> list[str]:
    with db.read() as session:
        return list(session.connection().execute(select(table.c.name).order_by(table.c.id)).scalars())


def test_each_store_has_its_loop_writer(scratch, backend):
    db, _table = scratch
    assert isinstance(db.loop_writer, LoopWriter if backend == "sqlite" else AsyncpgWriter)


def test_one_direct_statement_runs_on_either_driver_of_one_store(scratch):
    """``direct.Statement`` compiles once per driver: psycopg's and asyncpg's PostgreSQL dialects take
    their parameters differently (``%(name)s`` and ``$1``)."""
    db, table = scratch
    tx.run(db, lambda session: session.execute(table.insert().values(name="both", n=3)))
    by_name = Statement(select(table.c.name, table.c.n).where(table.c.name == bindparam("name")))

    def read(session):
        return by_name.first(session.connection(), {"name": "both"})

    assert tx.run(db, read) == ("both", 3)  # psycopg (pysqlite) first: its form is compiled and kept
    assert in_a_loop(tx.run_async(db, read)) == ("both", 3)
    assert tx.run(db, read) == ("both", 3)


@pytest.mark.parametrize("where", ["thread", "loop"])
def test_a_unique_violation_names_its_constraint_and_is_a_race_only_on_the_races_constraints(
        scratch, backend, where, monkeypatch):
    db, table = scratch
    tx.run(db, lambda session: session.execute(table.insert().values(name="twice")))

    def write(work):
        return tx.run(db, work) if where == "thread" else in_a_loop(tx.run_async(db, work))

    with pytest.raises(IntegrityError) as raised:
        write(lambda session: session.execute(table.insert().values(name="twice")))
    assert not tx.retryable(raised.value)  # a constraint that settles no race is a bug, raised
    if backend == "sqlite":
        return  # SQLite names no constraint (and has no races to settle: one writer at a time)
    assert tx._sqlstate(raised.value) == tx.UNIQUE_VIOLATION
    assert tx._constraint(raised.value) == f"{table.name}_name_key"

    # the same violation on a constraint that settles a race: the loser runs again and finds the winner
    monkeypatch.setattr(tx, "RACE_CONSTRAINTS", tx.RACE_CONSTRAINTS | {f"{table.name}_name_key"})
    attempts = []

    def insert_or_take_the_winners(session):
        attempts.append(1)
        if len(attempts) == 1:
            session.execute(table.insert().values(name="twice"))
        return session.execute(select(table.c.name)).scalars().all()

    assert write(insert_or_take_the_winners) == ["twice"] and len(attempts) == 2
    assert _names(db, table) == ["twice"]


def test_a_lock_not_available_in_a_loop_write_is_a_lost_race(scratch, backend):
    """SQLSTATE 55P03 read from asyncpg's error, as from psycopg's (SQLAlchemy raises it as a plain
    ``DBAPIError`` for asyncpg, an ``OperationalError`` for psycopg: ``tx`` reads the SQLSTATE)."""
    db, table = scratch
    if backend == "sqlite":
        pytest.skip("PostgreSQL's row locks (SQLite's loop writer never waits on a lock in the loop)")
    tx.run(db, lambda session: session.execute(table.insert().values(name="held")))
    with db.engine.connect() as holder:
        holder.begin()
        holder.execute(table.update().values(n=table.c.n + 10))

        def bump(session):
            session.execute(text("SET LOCAL lock_timeout = '50ms'"))
            session.execute(table.update().values(n=table.c.n + 1))

        with pytest.raises(DBAPIError) as raised:
            in_a_loop(db.run_write_async(bump))
        holder.rollback()
    assert tx._sqlstate(raised.value) == "55P03" and tx.retryable(raised.value)


def test_a_loop_write_whose_connection_ended_before_its_commit_runs_again_and_is_kept_once(scratch, backend):
    db, table = scratch
    if backend == "sqlite":
        pytest.skip("a server that ends connections: PostgreSQL's (test_reconnect ends SQLite's)")
    attempts = []

    def work(session):
        attempts.append(1)
        session.execute(table.insert().values(name=f"before {len(attempts)}"))
        if len(attempts) == 1:
            pid = session.connection().connection.driver_connection.get_server_pid()  # asyncpg's connection
            with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        session.execute(table.insert().values(name=f"after {len(attempts)}"))
        return len(attempts)

    assert in_a_loop(tx.run_async(db, work)) == 2
    assert _names(db, table) == ["before 2", "after 2"]


def test_the_server_loop_keeps_one_pool_and_closes_it_when_the_server_stops(database_url, backend):
    """PostgreSQL: the server's rolls share the loop's pool of asyncpg connections (the URL's
    ``application_name`` reaches asyncpg as libpq's option), and none is left open after the
    server stops."""
    if backend == "sqlite":
        pytest.skip("asyncpg's pool is PostgreSQL's")
    url, name = tagged(database_url)
    app = create_app(url)
    writer = app.state.db.loop_writer

    def asyncpg_backends() -> int:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            return admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                                 "AND backend_type = 'client backend'", (name,)).fetchone()[0]

    try:
        with TestClient(app) as client:
            table, player, character = _a_player_and_character(client)
            before = writer.writes
            for _ in range(3):
                assert table.roll(player, character["id"], V20_TEST).status_code == 201
            assert writer.writes == before + 3
            (pool,) = writer._pools.values()
            assert pool.sync_engine.pool.checkedin() >= 1  # the rolls' connection went back to the pool
            assert asyncpg_backends() >= 1
        assert writer._pools == {}
        app.state.db.dispose()  # psycopg's pool too
        assert asyncpg_backends() == 0
    finally:
        end_every_connection_named(name)


def test_a_refusal_inside_a_loop_write_is_its_problem_and_keeps_nothing(client, make_table, backend):
    """A roll of an unknown character is refused inside the write's transaction (after the token and
    the chronicle's lock): the same 404 problem on both stores, and the log is as it was."""
    table = make_table("v20")
    before = table.log()["entries"]
    response = table.roll(table.st, 987_654_321, V20_TEST)
    assert response.status_code == 404, response.text
    assert response.json()["code"] == "character_not_found"
    assert table.log()["entries"] == before


def test_errors_of_the_loop_writer_are_sqlalchemys(scratch, backend):
    """What ``tx`` and the app's error handler catch: SQLAlchemy's ``DBAPIError`` family, with the
    driver's error as ``orig`` (asyncpg's under SQLAlchemy's adapter on PostgreSQL)."""
    db, table = scratch
    with pytest.raises(DBAPIError) as raised:
        in_a_loop(db.run_write_async(lambda session: session.execute(text(f"SELECT nope FROM {table.name}"))))
    assert raised.value.orig is not None
    if backend == "postgresql":
        assert tx._sqlstate(raised.value) == "42703"  # undefined column


def test_a_loops_writes_hold_at_most_its_pools_connections_and_the_others_wait(scratch, backend):
    """PostgreSQL: 20 writes at once in a serving loop hold at most ``LOOP_WRITE_CONNECTIONS``
    connections; the others wait for one in the loop, and every write is made."""
    db, table = scratch
    if backend == "sqlite":
        pytest.skip("asyncpg's pool is PostgreSQL's")
    held: list[int] = []

    async def main() -> None:
        async with db.serving():
            (pool,) = db.loop_writer._pools.values()

            def work(session):
                session.execute(text("SELECT pg_sleep(0.02)"))
                held.append(pool.sync_engine.pool.checkedout())
                session.execute(table.insert().values(name=f"w{len(held)}"))

            await asyncio.gather(*(tx.run_async(db, work) for _ in range(20)))

    in_a_loop(main())
    assert len(_names(db, table)) == 20
    assert max(held) == LOOP_WRITE_CONNECTIONS  # as many as it may, never more


@pytest.mark.parametrize("idle, lost", [(0.0, 1), (PING_IDLE_AFTER + 0.2, 0)])
def test_a_roll_after_postgresql_ended_the_pools_connections_is_made_once(database_url, backend, idle, lost,
                                                                           monkeypatch):
    """A restart ends the loop pool's connections between two rolls. Used again at once, the dead
    connection fails the write's first statement (one lost race: ``tx.ConnectionLost``) and the
    write runs again on a new one; idle past ``PING_IDLE_AFTER``, the checkout's ping finds it dead
    first (no lost race). Either way: 201, the dice drawn once, one entry."""
    if backend == "sqlite":
        pytest.skip("a server that ends connections: PostgreSQL's")
    url, name = tagged(database_url)
    source = GivenFaces([6] * 15)
    app = create_app(url, dice=lambda: source)
    races: list[Exception] = []
    lost_race = tx._lost_race
    monkeypatch.setattr(tx, "_lost_race", lambda error, *rest: (races.append(error), lost_race(error, *rest)))
    try:
        with TestClient(app) as client:
            table, player, character = _a_player_and_character(client)
            assert table.roll(player, character["id"], V20_TEST).status_code == 201
            assert end_every_connection_named(name) >= 1
            time.sleep(idle)
            drawn = source._position
            rolled = table.roll(player, character["id"], V20_TEST)
            assert rolled.status_code == 201, rolled.text
            assert source._position - drawn == 5  # V20_TEST: five dice, drawn by the attempt that was kept
            assert [type(error) for error in races] == [tx.ConnectionLost] * lost
            rolls = [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
            assert len(rolls) == 2
    finally:
        app.state.db.dispose()
        end_every_connection_named(name)


def test_a_sqlite_database_loads_neither_asyncpg_nor_sqlalchemys_asyncio(tmp_path):
    """The CLI and SQLite's servers start without them (their imports are a PostgreSQL Database's)."""
    code = ("import sys\nfrom rollbook.server.db import Database\n"
            f"Database('sqlite:///{tmp_path / 'rooms.sqlite3'}').dispose()\n"
            "print(sorted(m for m in ('asyncpg', 'sqlalchemy.ext.asyncio') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]"
