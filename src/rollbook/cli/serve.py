"""`rollbook serve`: the chronicle server (uvicorn), on SQLite with no set-up or on PostgreSQL."""

from __future__ import annotations

import typer

from rollbook.cli.base import app


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on."),
    port: int = typer.Option(8000, "--port", help="TCP port to listen on."),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        help="SQLAlchemy URL; default $ROLLBOOK_DATABASE_URL, else sqlite:///./rollbook.sqlite3 "
        "(PostgreSQL: postgresql+psycopg://USER@HOST:5432/DB).",
    ),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn log level."),
    threads: int | None = typer.Option(
        None,
        "--threads",
        min=1,
        help="Worker threads per process for the requests' database work; default 4 "
        "(rollbook.app.app.WORKER_THREADS: a few overlap the waits, more only contend for the GIL).",
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        min=1,
        help="App processes sharing the port, each with its own connections and threads: for PostgreSQL, "
        "the store several processes share (on SQLite they take turns at the file's write lock).",
    ),
) -> None:
    """Run the chronicle server. Migrations are applied on start; several processes may share one
    PostgreSQL database."""
    from rollbook.app import serving
    from rollbook.app.app import WORKER_THREADS
    from rollbook.server.engines import database_url as resolve_url

    url = resolve_url(database_url)
    target = serving.app_for(url, threads=threads or WORKER_THREADS, workers=workers)
    processes = f", {workers} processes" if workers > 1 else ""

    def announce() -> None:  # once the port is bound: the address it prints answers
        typer.echo(f"rollbook: serving on http://{host}:{port} (database {_shown(url)}{processes})", err=True)

    serving.run(target, host=host, port=port, log_level=log_level, workers=workers, announce=announce)


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
