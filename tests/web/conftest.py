"""The web table's fixtures: a real uvicorn serving ``create_app`` on a free localhost port with a
temporary SQLite file, Debian's Chromium driven by Playwright, and fixed dice for the tests.

Fixed dice (test-only): the server under test is made with ``create_app(..., dice=lambda: scripted)``,
the app factory's dice hook, so every roll draws from one ``ScriptedDice``: faces queued with
``dice.queue(...)`` (the ``dice`` fixture, emptied before and after each test) are drawn first, then
the secure source takes over; with nothing queued it rolls exactly like ``SecureDice``. The hook is
a Python argument only: ``rollbook serve`` never passes it, so the shipped server cannot roll
chosen faces.
"""

from __future__ import annotations

import socket
import sqlite3
import threading
from collections import deque
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.dice import SecureDice
from rollbook.server.db import Database
from tests.browser import WAIT_MS
from tests.conftest import wait_until

from .helpers import GivenDice

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "run"  # git-ignored: a run never changes the work tree


class ScriptedDice:
    """A dice source that draws queued faces first (shared by every roll of the server)."""

    name = "scripted"

    def __init__(self) -> None:
        self.faces: deque[int] = deque()
        self.lock = threading.Lock()

    def draw(self, n: int, sides: int):
        with self.lock:
            drawn = []
            for _ in range(n):
                if self.faces:
                    face = self.faces.popleft()
                    assert 1 <= face <= sides, f"queued face {face} is not on a d{sides}"
                    drawn.append(face)
                else:
                    drawn.append(SecureDice().draw(1, sides)[0])
            return tuple(drawn)

    def queue(self, *faces: int) -> None:
        with self.lock:
            self.faces.extend(faces)

    def clear(self) -> None:
        with self.lock:
            self.faces.clear()


@pytest.fixture(scope="session")
def scripted_dice() -> ScriptedDice:
    """The one dice source of the live server (``create_app(dice=...)``)."""
    return ScriptedDice()


@pytest.fixture
def dice(scripted_dice):
    """Faces for the live server to roll in this test (nothing queued is left for the next one;
    with nothing queued the server rolls its own fair dice)."""
    scripted_dice.clear()
    yield scripted_dice
    scripted_dice.clear()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory, scripted_dice):
    """``http://127.0.0.1:PORT`` of a real uvicorn serving the app on a temporary SQLite file, rolling
    ``scripted_dice``."""
    import uvicorn

    from rollbook.app.app import create_app

    folder = tmp_path_factory.mktemp("web-db")
    # Queued faces when a test queued some; else the server's own dice: provably fair (F-1 … F-6).
    app = create_app(
        f"sqlite:///{folder / 'table.sqlite3'}",
        dice=lambda: scripted_dice if scripted_dice.faces else SecureDice(),
    )
    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="rollbook-web-test", daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), 20, what="uvicorn to start")
    if not server.started:
        raise RuntimeError("uvicorn did not start")
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report kept on the test (``item.reports``): a browser test that failed says, at
    its teardown, what every page it opened showed (``_contexts``)."""
    report = yield
    item.reports = {**getattr(item, "reports", {}), report.when: report}
    return report


def _pages_seen(contexts) -> str:
    """What each open page showed when its test failed: its address, its alerts and notices, and the
    feed's cards with their steps and offers (CI keeps only the output: no screenshot to look at)."""
    lines = []
    for number, context in enumerate(contexts, 1):
        for page in context.pages:
            try:
                shown = page.evaluate(
                    """() => [...document.querySelectorAll(
                        '[role=alert], .alert, #live-notice, #live-toast, #feed > li, [data-live]')]
                        .filter((e) => !e.hidden && e.textContent.trim())
                        .map((e) => (e.id || e.className || e.tagName) + ': '
                            + e.textContent.replace(/\\s+/g, ' ').trim().slice(0, 400)
                            + (e.dataset.live ? ' [live=' + e.dataset.live + ']' : ''))"""
                )
            except Exception as error:  # a page closing or crashed: say so, and go on to the next
                shown = [f"(not readable: {error})"]
            lines.append(f"context {number}: {page.url}")
            lines.extend(f"    {text}" for text in shown)
    return "\n".join(lines)


def _contexts(browser, live_server, request=None):
    contexts = []

    def make(*, width: int = 1280, height: int = 900, locale: str = "en-US"):
        context = browser.new_context(
            base_url=live_server,
            viewport={"width": width, "height": height},
            locale=locale,
            reduced_motion="reduce",
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context

    yield make
    reports = getattr(request.node, "reports", {}) if request is not None else {}
    if any(report.failed for report in reports.values()):
        print("What the test's pages showed when it failed:\n" + _pages_seen(contexts))
    for context in contexts:
        context.close()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_server(request, tmp_path_factory, scripted_dice):
    """``live_server`` on each store: a temporary SQLite file, then a fresh PostgreSQL database
    (dropped afterwards; skipped, with the reason, when no PostgreSQL server answers), for the browser
    tests of behaviour that goes through storage (the live feed: SQLite's poll, PostgreSQL's NOTIFY)."""
    from tests.server.conftest import ThreadedServer, fresh_pg_database, postgres_problem

    def dice():
        return scripted_dice if scripted_dice.faces else SecureDice()

    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('web-store') / 'table.sqlite3'}"
        with ThreadedServer(create_app(url, dice=dice), grace=1) as server:
            yield server.url
        return
    problem = postgres_problem()
    if problem:
        pytest.skip(problem)
    with fresh_pg_database() as url, ThreadedServer(create_app(url, dice=dice), grace=1) as server:
        yield server.url


@pytest.fixture
def store_context(browser, store_server, request):
    """``new_context`` on ``store_server``'s store."""
    yield from _contexts(browser, store_server, request)


@pytest.fixture
def new_context(browser, live_server, request):
    """Open browser contexts (one per person at the table); all closed at the end of the test (what
    their pages showed is printed first when the test failed)."""
    yield from _contexts(browser, live_server, request)


@pytest.fixture(scope="module")
def module_context(browser, live_server):
    """``new_context`` for a table a module's tests share (set up once: every context and page a
    person opens costs Chromium a process and its page loads); closed after the module. Each test
    takes the pages to where it starts, so none depends on another's having run."""
    yield from _contexts(browser, live_server)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """An empty SQLite database migrated to head, once per test process: the page tests' fresh
    databases are copies of it (the migrations themselves are tested in tests/server)."""
    path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.upgrade()
    db.dispose()
    return path


def _fresh_copy(template: Path, target: Path) -> str:
    """A fresh database of the test's own: a copy of ``template`` at ``target`` (SQLite's backup)."""
    source, copy = sqlite3.connect(template), sqlite3.connect(target)
    try:
        source.backup(copy)
    finally:
        source.close()
        copy.close()
    return f"sqlite:///{target}"


@pytest.fixture
def fresh_sqlite(tmp_path, migrated_sqlite) -> str:
    """The URL of a migrated, empty SQLite database of the test's own (``create_app(url, migrate=False)``)."""
    return _fresh_copy(migrated_sqlite, tmp_path / "fresh.sqlite3")


@pytest.fixture
def app(fresh_sqlite):
    """The chronicle server and its pages on a fresh SQLite file, for the TestClient page tests."""
    return create_app(fresh_sqlite, migrate=False)


@pytest.fixture
def given_dice() -> GivenDice:
    return GivenDice()


@pytest.fixture
def given_client(fresh_sqlite, given_dice):
    """A TestClient on a fresh SQLite file whose dice roll the faces the test queues in ``given_dice``."""
    with TestClient(create_app(fresh_sqlite, migrate=False, dice=given_dice)) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where browser tests write their screenshots (ignored by git); the ones the docs show are copied
    to ``docs/`` deliberately, with ``scripts/docs-screenshots``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
