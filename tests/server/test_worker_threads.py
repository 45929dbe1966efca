"""The worker threads of one app process (``create_app(threads=)``, ``rollbook serve --threads``):
sync endpoints and dependencies run in at most that many threads at once, the others wait their
turn in order (bench/README.md, "Third pass": more threads only fight over the GIL)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import WORKER_THREADS, create_app

from .conftest import run_cli


def _tokens(client: TestClient) -> int:
    return client.portal.call(lambda: anyio.to_thread.current_default_thread_limiter().total_tokens)


@pytest.mark.parametrize("threads", [1, 3])
def test_sync_work_runs_in_at_most_the_given_threads(tmp_path, threads):
    app = create_app(f"sqlite:///{tmp_path / 'threads.sqlite3'}", threads=threads)
    running, most = 0, 0
    guard = threading.Lock()

    def busy() -> dict:  # a sync endpoint, as the API's are: it runs in a worker thread
        nonlocal running, most
        with guard:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with guard:
            running -= 1
        return {}

    app.add_api_route("/busy", busy)
    with TestClient(app) as client:
        assert _tokens(client) == threads
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: client.get("/busy").status_code, range(8)))
    assert answers == [200] * 8
    assert most == threads


def test_the_default_is_the_server_s(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'default.sqlite3'}")) as client:
        assert _tokens(client) == WORKER_THREADS


def test_no_threads_is_refused(tmp_path):
    with pytest.raises(ValueError, match="threads"):
        create_app(f"sqlite:///{tmp_path / 'none.sqlite3'}", threads=0)
    done = run_cli("serve", "--threads", "0", "--database-url", f"sqlite:///{tmp_path / 'cli.sqlite3'}")
    assert done.returncode == 2
    assert "--threads" in done.stderr and "Traceback" not in done.stderr


def test_rollbook_serve_passes_its_threads(monkeypatch, tmp_path):

    from rollbook.app import serving
    from rollbook.cli.serve import serve

    made = []
    monkeypatch.setattr(serving, "create_app", lambda *args, **kwargs: made.append(kwargs) or object())
    # one process serves through serving.AnnouncingServer (uvicorn.Server): nothing is served here either
    monkeypatch.setattr(serving.AnnouncingServer, "run", lambda self, *args, **kwargs: None)
    serve(
        host="127.0.0.1",
        port=8000,
        database_url=f"sqlite:///{tmp_path / 's.sqlite3'}",
        log_level="info",
        threads=6,
        workers=1,
    )
    assert made == [{"threads": 6}]
