"""`rollbook db upgrade|status|sweep|copy|backup|restore|verify`: the chronicle server's schema (Alembic migrations),
housekeeping, moving a store into another (``server.copy``), backups (``server.backup``)."""

from __future__ import annotations

from pathlib import Path

import typer

from rollbook.cli.base import app
from rollbook.i18n import counted

db_app = typer.Typer(help="The chronicle server's database (Alembic migrations).", no_args_is_help=True)
app.add_typer(db_app, name="db")

DatabaseOption = typer.Option(
    None,
    "--database-url",
    help="SQLAlchemy URL; default $ROLLBOOK_DATABASE_URL, else sqlite:///./rollbook.sqlite3.",
)


@db_app.command("upgrade")
def upgrade(
    database_url: str | None = DatabaseOption,
    revision: str = typer.Option("head", "--revision", help="Target revision."),
) -> None:
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
def status(database_url: str | None = DatabaseOption) -> None:
    """Print the database's revision and the newest one; exit 1 when an upgrade is due."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    from rollbook.server.db import Database
    from rollbook.server.engines import database_url as resolve_url
    from rollbook.server.migrate import current_revision, head_revision

    url = make_url(resolve_url(database_url))
    if (
        url.get_backend_name() == "sqlite"
        and url.database not in (None, "", ":memory:")
        and not Path(url.database).exists()
    ):  # a status check must not create the file
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
def sweep(database_url: str | None = DatabaseOption) -> None:
    """Delete the stored idempotent responses that expired (a day after their request; the server
    also sweeps now and then as it goes)."""
    from rollbook.cli.base import fail
    from rollbook.server import tx
    from rollbook.server.copy import CopyError, open_store

    try:  # a mistyped SQLite path is refused, not created
        database = open_store(database_url or _default_url(), must_exist=True, migrate=False)
    except CopyError as error:
        fail(str(error))
    try:
        removed = tx.sweep(database)
    finally:
        database.dispose()
    typer.echo(swept_line(removed))


@db_app.command("copy")
def copy(
    source: str = typer.Option(..., "--from", help="The store to copy from (SQLAlchemy URL)."),
    target: str = typer.Option(..., "--to", help="The store to copy into (SQLAlchemy URL); must be empty."),
    force: bool = typer.Option(
        False, "--force", help="Empty a target that is not empty first (in the copy's transaction)."
    ),
) -> None:
    """Copy every chronicle, row for row, from one store into another (SQLite -> PostgreSQL and back):
    both migrated first, the target written in one transaction (all or nothing). The server using the
    target needs the source's operator's secret (the fair seeds stay sealed under it)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
    from sqlalchemy.exc import DBAPIError

    from rollbook.cli.base import fail
    from rollbook.server.copy import CopyError, copy_database, first_line, shown

    console = Console(stderr=True)  # the bars on a terminal only; standard output keeps the one summary line
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        transient=True,
        console=console,
        disable=not console.is_terminal,
    )
    tasks: dict[str, TaskID] = {}

    def totals(rows: dict[str, int]) -> None:
        for name, n in rows.items():
            tasks[name] = bar.add_task(name, total=n or None, visible=n > 0)

    def progress(name: str, done: int) -> None:
        bar.update(tasks[name], completed=done)

    try:
        with bar:
            result = copy_database(source, target, force=force, progress=progress, totals=totals)
    except CopyError as error:
        fail(str(error))
    except DBAPIError as error:  # a row the target refused, a connection lost: rolled back, nothing written
        fail(f"the copy failed and was rolled back, the target is unchanged: {first_line(error)}")
    typer.echo(
        f"rollbook: {result.total} rows copied into {shown(target)} "
        f"({', '.join(f'{name} {n}' for name, n in result.rows.items() if n) or 'no rows'})"
    )


@db_app.command("backup")
def backup(
    file: Path = typer.Argument(..., help="The backup file to write (replaced once complete)."),
    database_url: str | None = DatabaseOption,
) -> None:
    """A consistent backup while the server runs: SQLite's online backup API (an SQLite file), or
    PostgreSQL's pg_dump -Fc (must be installed). The operator's secret is not in it: keep it apart."""
    from rollbook.cli.base import fail
    from rollbook.server.backup import BackupError
    from rollbook.server.backup import backup as run_backup
    from rollbook.server.copy import CopyError

    try:
        run_backup(database_url or _default_url(), file)
    except (BackupError, CopyError) as error:
        fail(str(error))
    typer.echo(f"rollbook: backup written to {file} ({file.stat().st_size} bytes)")


@db_app.command("restore")
def restore(
    file: Path = typer.Argument(..., help="A backup written by 'rollbook db backup'."),
    database_url: str | None = DatabaseOption,
) -> None:
    """Restore FILE into an empty database (refused when it holds rows), then check every
    chronicle's chain; exit 1 when one does not verify."""
    from rollbook.cli.base import fail
    from rollbook.server.backup import BackupError
    from rollbook.server.backup import restore as run_restore
    from rollbook.server.copy import CopyError

    try:
        checks = run_restore(file, database_url or _default_url())
    except (BackupError, CopyError) as error:
        fail(str(error))
    _report(checks, f"restored {file}")


@db_app.command("verify")
def verify(database_url: str | None = DatabaseOption) -> None:
    """Check every chronicle's log in the database as 'rollbook log verify' checks an export (the
    hash chain, the receipts, the grants, the fair dice); exit 1 when one does not verify."""
    from rollbook.cli.base import fail
    from rollbook.server.backup import verify_chains
    from rollbook.server.copy import CopyError, open_store
    from rollbook.server.secret_check import secret_verdict

    try:
        store = open_store(database_url or _default_url(), must_exist=True, migrate=False)
        try:
            verdict = secret_verdict(store)  # F-1: the seeds in use open under this machine's secret
        finally:
            store.dispose()
        checks = verify_chains(database_url or _default_url(), migrate=False)  # reads, changes nothing
    except CopyError as error:
        fail(str(error))
    _report(checks, "verified", secret=verdict)


def report_lines(checks, done: str, secret=None) -> list[str]:
    """What ``rollbook db verify`` (and a restore's check) prints: each chronicle's line and problems,
    then the summary; English for the operator, each noun in the form its count takes."""
    lines = []
    for check in checks:
        verdict = "clean" if check.clean else counted(len(check.problems), "problem", "problems")
        lines.append(f"chronicle {check.chronicle}: {counted(check.entries, 'entry', 'entries')}, {verdict}")
        lines.extend(f"  {problem}" for problem in check.problems)
    bad = [check for check in checks if not check.clean]
    secret_line = ""
    if secret is not None:
        secret_line = f"; the operator's secret {secret.summary()}"
        if secret.fails:
            secret_line += (
                " (the server will not roll those chronicles: restore the key they were sealed under, "
                "the key file or ROLLBOOK_SECRET_KEY of the machine the database came from; if it is lost "
                "for good, each Storyteller gives the unreadable seed up from the fairness panel)"
            )
    chains = (
        "every chain verifies" if not bad else counted(len(bad), "chain does", "chains do") + " not verify"
    )
    lines.append(
        f"rollbook: {done}; {counted(len(checks), 'chronicle', 'chronicles')}, {chains}{secret_line}"
    )
    return lines


def swept_line(removed: int) -> str:
    """``rollbook db sweep``'s line: "1 expired idempotency record deleted", "2 … records …"."""
    return (
        f"rollbook: {counted(removed, 'expired idempotency record', 'expired idempotency records')} deleted"
    )


def _report(checks, done: str, secret=None) -> None:
    for line in report_lines(checks, done, secret):
        typer.echo(line)
    bad = [check for check in checks if not check.clean]
    raise typer.Exit(1 if bad or (secret is not None and secret.fails) else 0)


def _default_url() -> str:
    from rollbook.server.engines import database_url

    return database_url(None)
