"""The hot statements of a signed write, run on the connection's DB-API cursor (issue 15).

Executing one Core statement through SQLAlchemy costs ~25 µs of CPU on SQLite and ~55 µs on
PostgreSQL beyond the driver's own work (an execution context, result metadata, event dispatch,
a ``Row`` per row), several times a driver's execute of the same SQL on SQLite; a roll runs eight
such statements (``bench/README.md``, "Fifth pass"). A ``Statement`` here is a Core statement that
SQLAlchemy still compiles (once per driver, psycopg and asyncpg apart: the same SQL text, bind
casts and parameter order as ``Connection.execute`` sends) and whose parameters and results go
through the column types' own processors (JSON, on either store); only the execution is the
driver's:

- it runs in the SQLAlchemy connection's transaction (begun as ``Connection.execute`` would: on
  SQLite by the ``begin`` event's ``BEGIN``, in a savepoint when the loop writer batches); on a
  connection whose execution options say ``ONE_STATEMENT`` (``Database.read_connection``: one read,
  its own snapshot) it is sent alone, no transaction begun around it;
- a driver error is raised as SQLAlchemy raises it (``DBAPIError.instance``: ``IntegrityError``,
  ``OperationalError``, … with the driver's error as ``orig``), so ``tx``'s retries read the same
  SQLSTATE, constraint name or SQLite code; a connection the server closed is invalidated, with
  the pool's older connections, as SQLAlchemy invalidates them (the pool replaces them);
- a row is a named tuple of the statement's columns (by their keys).

Use it for the few statements every signed write runs; everything else stays plain SQLAlchemy.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Executable


# An execution option: this connection runs single statements, each its own transaction (SQLite
# outside BEGIN, PostgreSQL in autocommit), so a Statement begins none (a BEGIN and a ROLLBACK less:
# ~70 µs of CPU per signed write on SQLite, bench/README.md "Sixth pass").
ONE_STATEMENT = "rollbook_one_statement"


class _Compiled:
    __slots__ = ("bind_processors", "compiled", "positions", "result_processors", "row", "sql")

    def __init__(self, statement: Any, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.compiled = compiled
        self.positions = compiled.positiontup  # None for a named paramstyle (psycopg's pyformat)
        self.bind_processors = {
            name: processor for name, bind in compiled.binds.items()
            if (processor := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
        columns = list(getattr(statement, "exported_columns", ()))  # a text() statement has none
        self.row = namedtuple("Row", [column.key for column in columns]) if columns else None  # type: ignore[misc]
        self.result_processors = [
            (index, processor) for index, column in enumerate(columns)
            if (processor := column.type.dialect_impl(dialect).result_processor(dialect, None)) is not None]

    def parameters(self, given: Mapping[str, Any]) -> Any:
        values = self.compiled.construct_params(given)
        for name, processor in self.bind_processors.items():
            if name in values:
                values[name] = processor(values[name])
        if self.positions is not None:
            return tuple(values[name] for name in self.positions)
        return values

    def make_row(self, raw: tuple) -> tuple:
        if self.result_processors:
            raw = list(raw)
            for index, processor in self.result_processors:
                raw[index] = processor(raw[index])
        return self.row._make(raw)


class Statement:
    """A Core ``statement`` run on the DB-API cursor (see the module's docstring)."""

    __slots__ = ("_by_driver", "statement")

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._by_driver: dict[str, _Compiled] = {}

    def _compiled(self, dialect: Dialect) -> _Compiled:
        # by driver: psycopg's and asyncpg's PostgreSQL dialects take their parameters differently
        compiled = self._by_driver.get(dialect.driver)
        if compiled is None:
            compiled = self._by_driver[dialect.driver] = _Compiled(self.statement, dialect)
        return compiled

    def _run(self, connection: Connection, params: Mapping[str, Any], read: Callable[[Any], Any]) -> Any:
        dialect = connection.dialect
        compiled = self._compiled(dialect)
        parameters = compiled.parameters(params)
        if not connection.in_transaction() and not connection.get_execution_options().get(ONE_STATEMENT):
            connection.begin()  # what Connection.execute's autobegin does (SQLite: the begin event's BEGIN)
        dbapi_connection = connection.connection.dbapi_connection  # the transaction's own connection
        cursor = None
        try:
            cursor = dbapi_connection.cursor()
            cursor.execute(compiled.sql, parameters)
            return read(cursor)
        except dialect.loaded_dbapi.Error as error:
            # as Connection.execute does: a connection the server closed is invalidated, and so are
            # the pool's connections made before it (a restart ended them all; the pool replaces
            # each at its next checkout), and the error says so
            disconnected = dialect.is_disconnect(error, dbapi_connection, cursor)
            if disconnected:
                connection.engine.pool._invalidate(connection.connection, error, _checkin=False)
                connection.invalidate(error)
            raise DBAPIError.instance(compiled.sql, parameters, error, dialect.loaded_dbapi.Error,
                                      connection_invalidated=disconnected, dialect=dialect) from error
        finally:
            if cursor is not None and not connection.invalidated:
                cursor.close()

    def first(self, connection: Connection, params: Mapping[str, Any]) -> tuple | None:
        """The first row (a named tuple), or None."""
        compiled = self._compiled(connection.dialect)

        def read(cursor) -> tuple | None:
            raw = cursor.fetchone()
            return None if raw is None else compiled.make_row(raw)

        return self._run(connection, params, read)

    def all(self, connection: Connection, params: Mapping[str, Any]) -> list[tuple]:
        """Every row (named tuples)."""
        compiled = self._compiled(connection.dialect)
        return self._run(connection, params, lambda cursor: [compiled.make_row(raw) for raw in cursor.fetchall()])

    def rowcount(self, connection: Connection, params: Mapping[str, Any]) -> int:
        """The rows an UPDATE or DELETE matched."""
        return self._run(connection, params, lambda cursor: cursor.rowcount)
