"""Engines, transactions and migrations.

Nothing important lives in process memory: every request runs in its own database transaction,
and several app processes may share one PostgreSQL database.

- **SQLite** (the embedded default): the driver's own transaction handling is switched off and
  every write transaction starts with ``BEGIN IMMEDIATE`` (a SQLAlchemy ``begin`` event), so a
  writer holds the database's write lock from its first statement: two spends of the last point
  cannot interleave. Read-only transactions (``Database.read()``) use a plain deferred ``BEGIN``;
  WAL mode lets them run beside the writer.
- **PostgreSQL**: write transactions lock the chronicle row and then the character row with
  ``SELECT ... FOR UPDATE`` (always in that order), see ``access``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_DATABASE_URL = "sqlite:///./rollbook.sqlite3"
ENVIRONMENT_VARIABLE = "ROLLBOOK_DATABASE_URL"
MIGRATIONS_DIR = Path(__file__).parent / "migrations"
ALEMBIC_INI = Path(__file__).parent / "alembic.ini"
_MIGRATION_LOCK_ID = 0x726F6C6C  # "roll": PostgreSQL advisory lock held while migrating


def database_url(explicit: str | None = None) -> str:
    """The URL to use: the argument, then ``ROLLBOOK_DATABASE_URL``, then ``./rollbook.sqlite3``.

    ``postgres://`` and ``postgresql://`` URLs are given the psycopg 3 driver.
    """
    url = explicit or os.environ.get(ENVIRONMENT_VARIABLE) or DEFAULT_DATABASE_URL
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix):]
    return url


def is_sqlite(engine_or_url: Engine | str) -> bool:
    url = engine_or_url.url if isinstance(engine_or_url, Engine) else make_url(engine_or_url)
    return url.get_backend_name() == "sqlite"


def make_engine(url: str | None = None) -> Engine:
    url = database_url(url)
    if is_sqlite(url):
        return _sqlite_engine(url)
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=30, pool_timeout=60)


def _sqlite_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False}, pool_size=10, max_overflow=30)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None  # pysqlite must not emit its own BEGIN: we do (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection) -> None:
        if connection.get_execution_options().get("rollbook_read"):
            connection.exec_driver_sql("BEGIN")
        else:
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # take the write lock now, not at the first write

    return engine


class Database:
    """One engine and its two kinds of transactions. Hooks run after a write commits."""

    def __init__(self, url: str | None = None, *, engine: Engine | None = None) -> None:
        self.url = database_url(url)
        self.engine = engine or make_engine(self.url)
        self.sqlite = is_sqlite(self.engine)
        self._writer = sessionmaker(self.engine, expire_on_commit=False)
        # Reads see one snapshot: WAL + a deferred BEGIN on SQLite, REPEATABLE READ on PostgreSQL.
        read_options = {"rollbook_read": True} if self.sqlite else {"isolation_level": "REPEATABLE READ"}
        self._reader = sessionmaker(self.engine.execution_options(**read_options), expire_on_commit=False)
        self.after_commit: list[Callable[[set[int]], None]] = []

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction: committed on success, rolled back on any exception.

        ``session.info["chronicles"]`` (a set) names the chronicles whose log grew; the
        ``after_commit`` hooks (the live feed) hear about them once the commit is durable.
        """
        with self._writer() as session:
            with session.begin():
                yield session
            touched = set(session.info.get("chronicles", ()))
        if touched:
            for hook in list(self.after_commit):
                hook(touched)

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._reader() as session:
            with session.begin():
                yield session

    def upgrade(self) -> None:
        upgrade(self.engine)

    def dispose(self) -> None:
        self.engine.dispose()


def alembic_config(connection=None):
    from alembic.config import Config

    config = Config(str(ALEMBIC_INI)) if ALEMBIC_INI.exists() else Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the Alembic migrations (on start and by ``rollbook db upgrade``).

    On PostgreSQL an advisory lock makes app processes starting together migrate one at a time.
    """
    from alembic import command

    with engine.connect() as connection:
        if not is_sqlite(engine):
            connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": _MIGRATION_LOCK_ID})
            connection.commit()
        try:
            with connection.begin():
                command.upgrade(alembic_config(connection), revision)
        finally:
            if is_sqlite(engine):  # a migration may switch them off to rebuild a table (0003_security)
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            if not is_sqlite(engine):
                connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": _MIGRATION_LOCK_ID})
                connection.commit()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()
