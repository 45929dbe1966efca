"""``rollbook serve --workers N`` in a process group of its own, for the tests that need real app
processes sharing a store (a helper module: tests/server/test_serve_workers.py, the Discord
poster's): ``serve_workers`` starts it and waits for its workers, ``worker_pids`` lists them."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import wait_until

from .conftest import free_port, rollbook_command

# Two processes import the app on a shared machine: at a load of ~18 on 2 cores, 90 s was seen to be
# too short. A bound, not a speed: a start that comes in time costs no more.
START_SECONDS = 180


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def worker_pids(process: subprocess.Popen) -> list[int]:
    """uvicorn's worker processes (the supervisor's children that are not its resource tracker)."""
    workers = []
    for child in _children(process.pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"resource_tracker" not in command:
            workers.append(child)
    return workers


def stop(process: subprocess.Popen) -> str:
    """The server stopped (its whole group), and what it printed."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.stdout.read() if process.stdout else ""


@contextmanager
def serve_workers(
    database_url: str, cwd: Path, *, workers: int = 2, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen, int]]:
    """``rollbook serve --workers N`` on ``database_url`` (and ``env`` over this process's
    environment), once its health answers and its N workers run: (the process, its port)."""
    port = free_port()
    environment = {**os.environ, "ROLLBOOK_DATABASE_URL": database_url, **(env or {})}
    process = subprocess.Popen(
        [
            *rollbook_command(),
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=cwd,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )

    def ready() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"rollbook serve --workers {workers} exited: {stop(process)}")
        try:
            answered = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200
        except httpx.TransportError:
            return False
        return answered and len(worker_pids(process)) == workers

    try:
        try:
            wait_until(ready, START_SECONDS, interval=0.2, what=f"rollbook serve --workers {workers}")
        except AssertionError as late:
            raise RuntimeError(f"{late}: {stop(process)}") from None
        yield process, port
    finally:
        stop(process)
