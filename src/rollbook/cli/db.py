"""`rollbook db upgrade|status|sweep`: the chronicle server's schema (Alembic migrations) and housekeeping."""

from __future__ import annotations

from typing import Optional

import typer

from rollbook.cli.base import app

db_app = typer.Typer(help="The chronicle server's database (Alembic migrations).", no_args_is_help=True)
app.add_typer(db_app, name="db")

DatabaseOption = typer.Option(
    None, "--database-url", help="SQLAlchemy URL; default $ROLLBOOK_DATABASE_URL, else sqlite:///./rollbook.sqlite3."
)


@db_app.command("upgrade")
def upgrade(database_url: Optional[str] = DatabaseOption,
            revision: str = typer.Option("head", "--revision", help="Target revision.")) -> None:
    """Apply the migrations up to REVISION (the server also does this on start)."""
    from rollbook.server.db import Database
    from rollbook.server.migrate import current_revision

    database = Database(database_url)
    try:
        database.upgrade() if revision == "head" else _upgrade_to(database, revision)
        typer.echo(f"rollbook: database at revision {current_revision(database.engine)}")
    finally:
        database.dispose()


def _upgrade_to(database, revision: str) -> None:
    from rollbook.server.migrate import upgrade as run_upgrade

    run_upgrade(database.engine, revision)


@db_app.command("status")
def status(database_url: Optional[str] = DatabaseOption) -> None:
    """Print the database's revision and the newest one; exit 1 when an upgrade is due."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    from rollbook.server.db import Database
    from rollbook.server.engines import database_url as resolve_url
    from rollbook.server.migrate import current_revision, head_revision

    url = make_url(resolve_url(database_url))
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:") \
            and not Path(url.database).exists():  # a status check must not create the file
        typer.echo(f"current: none (no database file at {url.database})\nhead: {head_revision()}")
        raise typer.Exit(1)
    database = Database(database_url)
    try:
        current, head = current_revision(database.engine), head_revision()
    finally:
        database.dispose()
    typer.echo(f"current: {current or 'none'}\nhead: {head}")
    raise typer.Exit(0 if current == head else 1)


@db_app.command("sweep")
def sweep(database_url: Optional[str] = DatabaseOption) -> None:
    """Delete the stored idempotent responses that expired (a day after their request; the server
    also sweeps now and then as it goes)."""
    from rollbook.server import tx
    from rollbook.server.db import Database

    database = Database(database_url)
    try:
        removed = tx.sweep(database)
    finally:
        database.dispose()
    typer.echo(f"rollbook: {removed} expired idempotency record(s) deleted")
