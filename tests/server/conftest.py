"""Fixtures for the chronicle server: every storage test runs on SQLite (a temp file) and on the
PostgreSQL server at 127.0.0.1:5432 (a fresh ``rollbook_test_<random>`` database per test
session, created through the ``test`` database and dropped at the end). The PostgreSQL
parameters are skipped, with the reason, only when no server answers there.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from rollbook.app.app import close_app, create_app  # noqa: E402
from rollbook.server import listen  # noqa: E402
from tests.conftest import wait_until  # noqa: E402

PG_ADMIN_URL = os.environ.get("ROLLBOOK_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]

_pg_problem: str | None = None
_pg_checked = False


def postgres_problem() -> str | None:
    """None when the PostgreSQL server answers; else why not (the skip reason)."""
    global _pg_checked, _pg_problem
    if not _pg_checked:
        _pg_checked = True
        try:
            import psycopg

            with psycopg.connect(PG_ADMIN_URL, connect_timeout=3) as connection:
                connection.execute("SELECT 1")
        except Exception as error:
            _pg_problem = f"no PostgreSQL server answers at {PG_ADMIN_URL}: {error}".strip()
    return _pg_problem


def _admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as connection:
        connection.execute(sql)


def create_test_database(name: str) -> None:
    """A database of the tests' own whose commits do not wait for their WAL's flush to disk: what a
    commit shows every later transaction is the same (only a crash of the PostgreSQL server itself
    could lose the last ones), and a test's commit costs ~0.3 ms instead of one fsync, 5-10 ms on
    this project's machines (thousands of commits a run)."""
    _admin(f'CREATE DATABASE "{name}"')
    _admin(f'ALTER DATABASE "{name}" SET synchronous_commit = off')


def sqlalchemy_pg_url(database: str) -> str:
    from sqlalchemy.engine import make_url

    return (
        make_url(PG_ADMIN_URL)
        .set(drivername="postgresql+psycopg", database=database)
        .render_as_string(hide_password=False)
    )


@contextmanager
def fresh_pg_database() -> Iterator[str]:
    """A PostgreSQL database of its own, dropped afterwards (for a migration run backwards on it)."""
    name = f"rollbook_fresh_{secrets.token_hex(6)}"
    create_test_database(name)
    try:
        yield sqlalchemy_pg_url(name)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session (dropped at the end)."""
    problem = postgres_problem()
    if problem:
        print(f"\nrollbook: skipping the PostgreSQL tests: {problem}", file=sys.stderr)
        pytest.skip(problem)
    name = f"rollbook_test_{secrets.token_hex(6)}"
    create_test_database(name)
    try:
        yield sqlalchemy_pg_url(name)
    finally:
        # Every app on this database was closed by now (close_app): a listener of it still running
        # is an app some test left open, which would log its lost connection to the end of the run.
        # (Another directory's conftest has a pg_url, and a database, of its own: its apps may run.)
        left = [
            thread
            for thread in threading.enumerate()
            if thread.name == listen.thread_name(sqlalchemy_pg_url(name))
        ]
        if left:
            warnings.warn(
                f"{len(left)} live-feed listener(s) still running as the test database {name} is "
                "dropped: an app was not closed (close_app) by the test or fixture that made it",
                stacklevel=1,
            )
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request, tmp_path_factory) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'rollbook.sqlite3'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture(scope="session")
def app(database_url):
    made = create_app(database_url)
    yield made
    close_app(made)  # a listener started by a feed outside any lifespan ends before the database is dropped


@pytest.fixture(scope="session")
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture()
def backend(database_url) -> str:
    return "sqlite" if database_url.startswith("sqlite") else "postgresql"


@pytest.fixture()
def fresh_url(database_url, tmp_path):
    """A database of its own (the migration is run backwards on it)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    with fresh_pg_database() as url:
        yield url


def in_a_loop(coroutine):
    """Run ``coroutine`` to its end in an event loop of its own thread (the test's thread may hold a
    loop already: Playwright's sync API keeps one)."""
    with start_blocking_portal() as portal:
        return portal.call(lambda: coroutine)


@contextmanager
def scratch_table(url: str, prefix: str, *columns) -> Iterator[tuple]:
    """A ``Database`` on ``url`` and a table of its own (an integer id, then ``columns``), dropped
    afterwards, with the Database disposed."""
    from sqlalchemy import Column, Integer, MetaData
    from sqlalchemy import Table as SqlTable

    from rollbook.server.db import Database

    db = Database(url)
    metadata = MetaData()
    table = SqlTable(
        f"{prefix}_{secrets.token_hex(4)}", metadata, Column("id", Integer, primary_key=True), *columns
    )
    metadata.create_all(db.engine)
    try:
        yield db, table
    finally:
        metadata.drop_all(db.engine)
        db.dispose()


# --- a table at play -------------------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """One chronicle: its Storyteller's headers, and helpers to add players and characters."""

    def __init__(self, client, created: dict) -> None:
        self.client = client
        self.created = created
        self.id = created["chronicle"]["id"]
        self.system = created["chronicle"]["system"]
        self.st = bearer(created["token"])
        self.invitation = created["invitation"]
        self.base = f"/api/chronicles/{self.id}"

    def join(self, name: str = "Player") -> dict[str, str]:
        response = self.client.post("/api/join", json={"invitation": self.invitation, "name": name})
        assert response.status_code == 201, response.text
        return bearer(response.json()["token"])

    def character(self, headers: dict, sheet: dict, **fields) -> dict:
        response = self.client.post(
            f"{self.base}/characters",
            headers=headers,
            json={"name": sheet.get("name", "X"), "sheet": sheet, **fields},
        )
        assert response.status_code == 201, response.text
        return response.json()

    def roll(self, headers: dict, character_id: int, action: dict, **body):
        return self.client.post(
            f"{self.base}/characters/{character_id}/rolls", headers=headers, json={"action": action, **body}
        )

    def sheet(self, headers: dict, character_id: int) -> dict:
        response = self.client.get(f"{self.base}/characters/{character_id}", headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    def log(self, headers: dict | None = None, **params) -> dict:
        response = self.client.get(f"{self.base}/log", headers=headers or self.st, params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def export(self, headers: dict | None = None) -> str:
        response = self.client.get(f"{self.base}/log/export", headers=headers or self.st)
        assert response.status_code == 200, response.text
        return response.text


@pytest.fixture()
def make_table(client):
    def make(system: str = "v20", **fields) -> Table:
        body = {"name": f"Chronicle {secrets.token_hex(3)}", "system": system, **fields}
        response = client.post("/api/chronicles", json=body)
        assert response.status_code == 201, response.text
        return Table(client, response.json())

    return make


V20_SHEET = {
    "name": "Lucita",
    "attributes": {"dexterity": 3, "wits": 2},
    "talents": {"alertness": 2},
    "skills": {"firearms": 2},
    "virtues": {"courage": 3},
    "willpower": {"permanent": 3, "current": 3},
}

V5_SHEET = {
    "name": "Sasha",
    "attributes": {"dexterity": 3, "wits": 2},
    "skills": {"firearms": 3},
    "hunger": 1,
}

V20_TEST = {"kind": "test", "attribute": "dexterity", "ability": "firearms"}
V5_TEST = {"kind": "test", "attribute": "dexterity", "skill": "firearms"}


# --- real servers -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ThreadedServer:
    """uvicorn serving an app in a thread of this process, on a free localhost port. Leaving it
    stops the server and closes the app (``close_app``). A feed still open held uvicorn's graceful
    shutdown for ever, so the lifespan's end (which closes the app) never came, and the app's
    live-feed listener outlived the test and its database: open connections now
    get ``grace`` seconds, then are cancelled and the lifespan ends; if even that hangs the exit is
    forced (which skips the lifespan's end), and the app is closed here all the same."""

    GRACE_SECONDS = 5  # uvicorn's timeout_graceful_shutdown: how long an open feed may hold the stop
    JOIN_SECONDS = 30.0

    def __init__(self, app, *, grace: int = GRACE_SECONDS) -> None:
        import uvicorn

        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=grace,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadedServer:
        self.thread.start()
        wait_until(lambda: self.server.started or not self.thread.is_alive(), 20, what="uvicorn to start")
        if not self.server.started:
            raise RuntimeError("uvicorn did not start")
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=self.JOIN_SECONDS)
        if self.thread.is_alive():  # the stop itself hangs: forced (the lifespan's end is skipped then)
            self.server.force_exit = True
            self.thread.join(timeout=self.JOIN_SECONDS)
        if hasattr(getattr(self.app, "state", None), "hub"):  # a rollbook app (not a bare ASGI callable)
            close_app(self.app)  # idempotent: the lifespan's end did it already, unless it was skipped


REPO = Path(__file__).resolve().parents[2]


def rollbook_command() -> list[str]:
    return [sys.executable, "-m", "rollbook"]


def run_cli(
    *args: str,
    env: dict | None = None,
    cwd: Path | None = None,
    input: str | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*rollbook_command(), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        input=input,
        timeout=timeout,
    )


def insert_or_refuse(table: str, index: int):
    """A write for the batching tests: inserts ``index`` into ``table`` and names ``index`` as a
    chronicle whose log grew; every third (``index % 3 == 0``) is then refused (409 ``refused``)."""
    from sqlalchemy import text

    from rollbook.server.problems import ProblemError

    def work(session):
        session.execute(text(f"INSERT INTO {table} (n) VALUES (:n)"), {"n": index})
        session.info.setdefault("chronicles", set()).add(index)
        if index % 3 == 0:
            raise ProblemError(409, "refused")
        return index

    return work
