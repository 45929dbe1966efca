"""``rollbook db copy``: every row of one store copied into another (SQLite → PostgreSQL and back).

The tables are the models' (``models.Base.metadata``), in dependency order (``sorted_tables``), so a
table added later is copied too. Both stores are migrated to the head first; the source is read in
one snapshot (``Database.read``: a running server may go on writing, the copy is of one moment); the
target is written in ONE transaction: emptied first when forced, filled, its PostgreSQL sequences
set past the ids copied, committed at the end or not at all (a failure half-way leaves it as it was).

Copied as stored: ids, timestamps, every hash of the log, the sealed seeds (still sealed: the target
server needs the same operator's secret to roll under them), the idempotent answers still in their
window (the expired ones are left behind: the server would sweep them). A JSON column's SQL NULL
stays SQL NULL and a JSON ``null`` stays JSON ``null``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import JSON, Connection, Integer, MetaData, Table, func, inspect, select, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from rollbook.server import auth
from rollbook.server.db import Database
from rollbook.server.engines import database_url
from rollbook.server.models import Base, IdempotencyRecord

BATCH = 1000  # rows per INSERT round trip
SQL_NULL = "__rollbook_sql_null__"  # the label suffix of a JSON column's "IS NULL" flag

Progress = Callable[[str, int], None]  # (table, rows copied so far in it), after each batch


class CopyError(Exception):
    """The copy cannot be made: one line saying why (a bad URL, a store that does not answer, a
    target that is not empty)."""


@dataclass
class CopyResult:
    rows: dict[str, int] = field(default_factory=dict)  # table name -> rows copied

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def tables() -> list[Table]:
    """The tables of the models, parents before children."""
    return list(Base.metadata.sorted_tables)


def open_store(url: str, *, must_exist: bool = False, migrate: bool = True) -> Database:
    """A ``Database`` on ``url``, migrated to the head (``migrate``; else only asked ``SELECT 1``);
    ``CopyError`` (one line) when the URL is bad or the store does not answer. ``must_exist``: an
    SQLite file that is not there is refused, not created (a source)."""
    try:
        resolved = database_url(url)
        parsed = make_url(resolved)
    except ArgumentError as error:
        raise CopyError(f"bad database URL {url!r}: {error}") from None
    if (
        must_exist
        and parsed.get_backend_name() == "sqlite"
        and parsed.database not in (None, "", ":memory:")
        and not Path(parsed.database).expanduser().exists()
    ):
        raise CopyError(f"no database file at {parsed.database}")
    try:
        database = Database(resolved)
    except (ArgumentError, ImportError) as error:
        raise CopyError(f"bad database URL {url!r}: {error}") from None
    try:
        if migrate:
            database.upgrade()
        else:
            with database.engine.connect() as connection:
                connection.execute(text("SELECT 1"))
    except (DBAPIError, OSError) as error:
        database.dispose()
        raise CopyError(f"cannot reach {shown(resolved)}: {first_line(error)}") from None
    return database


def shown(url: str) -> str:
    """The URL without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def first_line(error: BaseException) -> str:
    orig = getattr(error, "orig", None) or error
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


def counts(connection: Connection) -> dict[str, int]:
    """The rows of each of the models' tables (0 for a table the store does not have yet)."""
    present = set(inspect(connection).get_table_names())
    return {
        table.name: connection.execute(select(func.count()).select_from(table)).scalar_one()
        if table.name in present
        else 0
        for table in tables()
    }


def copy_database(
    source_url: str,
    target_url: str,
    *,
    force: bool = False,
    progress: Progress | None = None,
    totals: Callable[[dict[str, int]], None] | None = None,
) -> CopyResult:
    """Copy every row of ``source_url`` into ``target_url`` (see the module's docstring).

    ``totals(rows per table)`` hears what will be copied before the first row is; ``progress`` after
    each batch. An exception raised by either aborts the copy: the target is left as it was."""
    if same_store(source_url, target_url):
        raise CopyError("the source and the target are the same store")
    source = open_store(source_url, must_exist=True)
    try:
        target = open_store(target_url)
        try:
            return _copy(source, target, force=force, progress=progress, totals=totals)
        finally:
            target.dispose()
    finally:
        source.dispose()


def same_store(one: str, other: str) -> bool:
    """Whether two URLs name one store (an SQLite file however its path is written)."""
    try:
        first, second = make_url(database_url(one)), make_url(database_url(other))
    except ArgumentError:
        return False
    if (
        first.get_backend_name() == second.get_backend_name() == "sqlite"
        and first.database
        and second.database
    ):
        return Path(first.database).expanduser().resolve() == Path(second.database).expanduser().resolve()
    return first.render_as_string(hide_password=False) == second.render_as_string(hide_password=False)


def _copy(
    source: Database,
    target: Database,
    *,
    force: bool,
    progress: Progress | None,
    totals: Callable[[dict[str, int]], None] | None,
) -> CopyResult:
    moment = auth.stamp(datetime.now(UTC))
    result = CopyResult()
    with source.read() as reading, target.transaction() as writing:
        read, write = reading.connection(), writing.connection()
        present = {name: n for name, n in counts(write).items() if n}
        if present and not force:
            listed = ", ".join(f"{n} in {name}" for name, n in present.items())
            raise CopyError(f"the target is not empty (rows: {listed}); --force empties it first")
        if present:
            empty(write)
        wanted = {
            table.name: read.execute(
                select(func.count()).select_from(table).where(*window(table, moment))
            ).scalar_one()
            for table in tables()
        }
        if totals is not None:
            totals(wanted)
        for table in tables():
            result.rows[table.name] = 0
            for batch in batches(read, table, moment):
                write.execute(writable(table).insert(), batch)
                result.rows[table.name] += len(batch)
                if progress is not None:
                    progress(table.name, result.rows[table.name])
        if not target.sqlite:
            reset_sequences(write)
    return result


def window(table: Table, moment: str) -> list:
    """The rows of ``table`` worth copying: all, but the idempotent answers whose window is over."""
    if table.name == IdempotencyRecord.__tablename__:
        return [table.c.expires_at > moment]
    return []


def json_columns(table: Table) -> list[str]:
    return [column.name for column in table.columns if isinstance(column.type, JSON)]


def batches(connection: Connection, table: Table, moment: str) -> Iterator[list[dict]]:
    """The rows of ``table`` in primary-key order, ``BATCH`` at a time, as INSERT parameters: a JSON
    column read as None is SQL NULL or JSON ``null`` as it was stored (``JSON.NULL``)."""
    flagged = json_columns(table)
    columns = [*table.columns, *(table.c[name].is_(None).label(name + SQL_NULL) for name in flagged)]
    query = select(*columns).where(*window(table, moment)).order_by(*table.primary_key.columns)
    rows = connection.execution_options(yield_per=BATCH).execute(query).mappings()
    for chunk in rows.partitions(BATCH):
        out = []
        for row in chunk:
            values = {column.name: row[column.name] for column in table.columns}
            for name in flagged:
                if values[name] is None and not row[name + SQL_NULL]:
                    values[name] = JSON.NULL
            out.append(values)
        yield out


_writable: dict[str, Table] = {}
_WRITE_METADATA = MetaData()


def writable(table: Table) -> Table:
    """``table`` with its JSON columns writing None as SQL NULL (``JSON.NULL`` for a JSON ``null``)."""
    if table.name not in _writable:
        copy = table.to_metadata(_WRITE_METADATA)
        for column in copy.columns:
            if column.name in json_columns(table):
                column.type = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")
        _writable[table.name] = copy
    return _writable[table.name]


def empty(connection: Connection) -> None:
    """Delete every row of the models' tables, children first, in the caller's transaction. The log's
    append-only triggers are lifted for the deletes and put back as they were (SQLite: dropped and
    created again from their stored SQL; PostgreSQL: disabled and enabled; both transactional)."""
    sqlite = connection.dialect.name == "sqlite"
    for table in reversed(tables()):
        if sqlite:
            triggers = connection.execute(
                text("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = :t"),
                {"t": table.name},
            ).all()
            for name, _sql in triggers:
                connection.exec_driver_sql(f'DROP TRIGGER "{name}"')
            connection.execute(table.delete())
            for _name, sql in triggers:
                connection.exec_driver_sql(sql)
        else:
            connection.exec_driver_sql(f'ALTER TABLE "{table.name}" DISABLE TRIGGER USER')
            connection.execute(table.delete())
            connection.exec_driver_sql(f'ALTER TABLE "{table.name}" ENABLE TRIGGER USER')


def reset_sequences(connection: Connection) -> None:
    """PostgreSQL: each table's id sequence set past the largest id copied (the rows were inserted
    with their ids, which does not advance a sequence), so the next insert takes the next id."""
    for table in tables():
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or not isinstance(keys[0].type, Integer):
            continue
        sequence = connection.execute(
            text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": table.name, "c": keys[0].name}
        ).scalar_one()
        if sequence is None:
            continue
        largest = connection.execute(select(func.max(keys[0]))).scalar_one()
        connection.execute(
            text("SELECT setval(CAST(:s AS regclass), :v, :called)"),
            {"s": sequence, "v": largest or 1, "called": largest is not None},
        )
