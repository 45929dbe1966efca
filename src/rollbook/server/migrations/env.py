"""Alembic environment: uses the connection the app hands over, else ROLLBOOK_DATABASE_URL."""

from __future__ import annotations

from alembic import context

from rollbook.server.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    from rollbook.server.engines import make_engine

    engine = make_engine(None)
    with engine.connect() as connection:
        _run(connection)
        connection.commit()
    engine.dispose()


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("rollbook migrations run online only")
run_migrations_online()
