"""``direct.Statement``: the hot statements run on the DB-API cursor give what SQLAlchemy's
``Connection.execute`` gives, in the same transaction, and their errors are SQLAlchemy's (so the
retries of ``tx`` see the same lost races), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import Column, Integer, String, Table, bindparam, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from rollbook.server import tx
from rollbook.server.direct import Statement
from rollbook.server.models import Json

from .conftest import scratch_table


@pytest.fixture()
def scratch(database_url):
    """A Database and a table of its own (an id, a unique name, a JSON column), dropped afterwards."""
    with scratch_table(database_url, "direct", Column("name", String(50), unique=True, nullable=False),
                       Column("doc", Json), Column("n", Integer, nullable=False, default=0)) as made:
        yield made


def _insert(table: Table) -> Statement:
    return Statement(table.insert().values(name=bindparam("name"), doc=bindparam("doc"), n=bindparam("n"))
                     .returning(table.c.id))


def test_rows_are_those_sqlalchemy_reads_json_included(scratch):
    db, table = scratch
    doc = {"traits": {"dexterity": 3}, "tags": ["é", "ñ"], "none": None, "ratio": 0.5}
    with db.write() as session:
        new_id = _insert(table).first(session.connection(), {"name": "Lucita", "doc": doc, "n": 2}).id
    query = select(table).where(table.c.name == bindparam("name"))
    with db.read() as session:
        ours = Statement(query).first(session.connection(), {"name": "Lucita"})
        theirs = session.connection().execute(query, {"name": "Lucita"}).first()
        none = Statement(query).first(session.connection(), {"name": "nobody"})
        every = Statement(select(table.c.id, table.c.doc).order_by(table.c.id)).all(session.connection(), {})
    assert ours == tuple(theirs) and ours.id == new_id and ours.doc == doc and isinstance(ours.doc, dict)
    assert ours._fields == ("id", "name", "doc", "n")
    assert none is None
    assert [(row.id, row.doc) for row in every] == [(new_id, doc)]


def test_an_update_counts_its_rows_and_a_rollback_takes_everything_back(scratch):
    db, table = scratch
    with db.write() as session:
        _insert(table).first(session.connection(), {"name": "a", "doc": [], "n": 0})
    bump = Statement(table.update().where(table.c.name == bindparam("who")).values(n=table.c.n + 1))

    class Undo(Exception):
        pass

    with pytest.raises(Undo):
        with db.write() as session:
            connection = session.connection()
            assert bump.rowcount(connection, {"who": "a"}) == 1
            assert bump.rowcount(connection, {"who": "nobody"}) == 0
            _insert(table).first(connection, {"name": "b", "doc": None, "n": 0})
            assert connection.execute(select(table.c.n).where(table.c.name == "a")).scalar() == 1  # same transaction
            raise Undo
    with db.read() as session:
        assert session.connection().execute(select(table.c.name, table.c.n)).all() == [("a", 0)]


def test_a_statement_on_a_fresh_connection_begins_its_transaction(scratch):
    db, table = scratch
    with db.engine.connect() as connection:
        assert not connection.in_transaction()
        Statement(select(table.c.id)).all(connection, {})
        assert connection.in_transaction()


def test_on_a_read_connection_a_statement_is_sent_alone_as_its_own_snapshot(scratch, backend):
    """``Database.read_connection`` (the token check): no BEGIN, no transaction left open; the row
    is the one committed, and a write committed meanwhile is seen by the next statement."""
    db, table = scratch
    with db.engine.begin() as connection:
        _insert(table).first(connection, {"name": "first", "doc": None, "n": 1})
    statement = Statement(select(table.c.name, table.c.n).where(table.c.name == bindparam("name")))
    with db.read_connection() as connection:
        assert statement.first(connection, {"name": "first"}) == ("first", 1)
        assert not connection.in_transaction()
        raw = connection.connection.dbapi_connection
        assert not (raw.in_transaction if backend == "sqlite" else raw.info.transaction_status)
        with db.engine.begin() as writer:
            writer.execute(table.update().values(n=2))
        assert statement.first(connection, {"name": "first"}) == ("first", 2)


def test_a_unique_violation_is_sqlalchemys_integrity_error_and_a_race_only_on_its_constraints(scratch, backend):
    db, table = scratch
    insert = _insert(table)
    with db.write() as session:
        insert.first(session.connection(), {"name": "twice", "doc": None, "n": 0})
    with pytest.raises(IntegrityError) as raised:
        with db.write() as session:
            insert.first(session.connection(), {"name": "twice", "doc": None, "n": 0})
    error = raised.value
    assert error.orig is not None and "INSERT INTO" in error.statement
    if backend == "postgresql":
        assert error.orig.sqlstate == "23505"
        assert error.orig.diag.constraint_name == f"{table.name}_name_key"
    assert not tx.retryable(error)  # a constraint that settles no race is a bug, raised
    with db.read() as session:
        assert session.connection().execute(select(table.c.name)).scalars().all() == ["twice"]


def test_a_lock_the_store_refuses_is_a_lost_race_tx_retries(scratch, backend):
    """Another transaction holds what the statement needs: the error ``tx.retryable`` knows (SQLite:
    SQLITE_BUSY, with no busy wait; PostgreSQL: 55P03, lock not available)."""
    db, table = scratch
    with db.write() as session:
        _insert(table).first(session.connection(), {"name": "held", "doc": None, "n": 0})
    bump = Statement(table.update().where(table.c.name == bindparam("who")).values(n=table.c.n + 1))
    holder = db.engine.connect()
    # SQLite: a deferred BEGIN (the read option), so that the UPDATE is what asks for the write lock
    waiter = db.engine.connect().execution_options(**({"rollbook_read": True} if backend == "sqlite" else {}))
    try:
        holder.begin()
        holder.execute(table.update().values(n=table.c.n + 10))  # holds the write lock (SQLite) / the row (PostgreSQL)
        if backend == "sqlite":
            waiter.connection.dbapi_connection.execute("PRAGMA busy_timeout=0")
            waiter.begin()
        else:
            waiter.begin()
            waiter.execute(text("SET LOCAL lock_timeout = '50ms'"))
        with pytest.raises(OperationalError) as raised:
            bump.rowcount(waiter, {"who": "held"})
        assert raised.value.statement.startswith("UPDATE") and tx.retryable(raised.value)
    finally:
        waiter.rollback()
        waiter.close()
        holder.rollback()
        holder.close()


def test_a_connection_the_server_closed_is_invalidated_and_the_pool_replaces_it(scratch, backend):
    """PostgreSQL: the backend terminated (a restart, an idle timeout); SQLite: the connection closed.
    The statement's error says the connection was invalidated, as SQLAlchemy's would (and the
    transaction's rollback does not replace it with an error of its own); the next transaction gets
    a working connection."""
    import psycopg

    from .conftest import PG_ADMIN_URL

    db, table = scratch
    with pytest.raises(DBAPIError) as raised:
        with db.write() as session:
            connection = session.connection()
            if backend == "postgresql":
                pid = connection.connection.dbapi_connection.info.backend_pid
                with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
                    admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            else:
                connection.connection.dbapi_connection.close()
            _insert(table).first(connection, {"name": "lost", "doc": None, "n": 0})
    # the statement's own error, marked: not a second one from rolling back on a dead connection
    assert raised.value.statement.startswith("INSERT") and raised.value.connection_invalidated
    with db.write() as session:
        _insert(table).first(session.connection(), {"name": "kept", "doc": None, "n": 0})
    with db.read() as session:
        assert session.connection().execute(select(table.c.name)).scalars().all() == ["kept"]
