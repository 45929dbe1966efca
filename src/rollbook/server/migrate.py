"""The schema's migrations (Alembic): applied when an app starts and by ``rollbook db upgrade``."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, text

from rollbook.server.engines import is_sqlite

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
ALEMBIC_INI = Path(__file__).parent / "alembic.ini"
MIGRATION_LOCK_ID = 0x726F6C6C  # "roll": PostgreSQL advisory lock held while migrating


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

    sqlite = is_sqlite(engine)
    with engine.connect() as connection:
        if not sqlite:
            connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": MIGRATION_LOCK_ID})
            connection.commit()
        try:
            with connection.begin():
                command.upgrade(alembic_config(connection), revision)
        finally:
            if sqlite:  # a migration may switch them off to rebuild a table (0003_security)
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            else:
                connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": MIGRATION_LOCK_ID})
                connection.commit()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()
