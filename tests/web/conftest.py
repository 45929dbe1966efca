"""The web table's fixtures: a real uvicorn serving ``create_app`` on a free localhost port with a
temporary SQLite file, Debian's Chromium driven by Playwright, and fixed dice for the tests.

Fixed dice (test-only): the server rolls with ``SecureDice()`` from ``rollbook.server.service``;
the ``dice`` fixture replaces that name, in this test process and for one test, with
``ScriptedDice``: faces queued with ``dice.queue(...)`` are drawn first, then the secure source
takes over. uvicorn runs in a thread of this process, so the replacement reaches the server under
test; the shipped server has no way to roll chosen faces.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections import deque
from pathlib import Path

import pytest

from rollbook.dice import SecureDice

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


class ScriptedDice:
    """A dice source that draws queued faces first (shared by every roll of the server)."""

    name = "scripted"
    faces: deque[int] = deque()
    lock = threading.Lock()

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

    @classmethod
    def queue(cls, *faces: int) -> None:
        with cls.lock:
            cls.faces.extend(faces)

    @classmethod
    def clear(cls) -> None:
        with cls.lock:
            cls.faces.clear()


@pytest.fixture
def dice():
    """The server rolls with ``ScriptedDice`` for the duration of one test (nothing queued is left
    for the next one, and other tests in this process keep the real source)."""
    from rollbook.server import service

    original = service.SecureDice
    ScriptedDice.clear()
    service.SecureDice = ScriptedDice  # type: ignore[assignment]
    yield ScriptedDice
    service.SecureDice = original  # type: ignore[assignment]
    ScriptedDice.clear()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """``http://127.0.0.1:PORT`` of a real uvicorn serving the app on a temporary SQLite file."""
    import uvicorn

    from rollbook.server.app import create_app

    folder = tmp_path_factory.mktemp("web-db")
    app = create_app(f"sqlite:///{folder / 'table.sqlite3'}")
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="rollbook-web-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def new_context(browser, live_server):
    """Open browser contexts (one per person at the table); all closed at the end of the test."""
    contexts = []

    def make(*, width: int = 1280, height: int = 900, locale: str = "en-US"):
        context = browser.new_context(base_url=live_server, viewport={"width": width, "height": height},
                                      locale=locale, reduced_motion="reduce")
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
