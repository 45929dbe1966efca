"""A real full disk (a small tmpfs of the test's own, where the machine lets the test mount one):
an SQLite store on it answers rolls 507 ``storage_full`` on a kept connection, never a dropped one,
``/api/health`` names the failed checks, and the server recovers by itself once space is freed.
(The fault injected at the store's boundary, on both stores, is ``test_host_failures.py``.)"""

from __future__ import annotations

import errno
import http.client
import json
import os
import subprocess
import tempfile
from pathlib import Path

import httpx
import pytest

from rollbook.app.app import close_app, create_app

from .conftest import V20_SHEET, V20_TEST, ThreadedServer
from .conftest import Table as ChronicleTable


@pytest.fixture()
def small_disk():
    """A 24 MiB tmpfs mounted for the test (skipped where the machine does not allow it)."""
    where = Path(tempfile.mkdtemp(prefix="rollbook-disk-"))
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(where)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        where.rmdir()
        pytest.skip(f"this machine does not let the test mount a filesystem: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
        where.rmdir()


def _fill(where: Path) -> Path:
    """Write a filler file until the filesystem has no byte left."""
    filler = where / "filler"
    with filler.open("wb", buffering=0) as out:
        block = b"\0" * 65536
        try:
            while True:
                out.write(block)
                out.flush()
        except OSError as error:
            assert error.errno == errno.ENOSPC
        try:
            while True:
                out.write(b"\0")
                out.flush()
        except OSError:
            pass
    return filler


def test_a_full_disk_is_507_on_a_kept_connection_and_recovers(small_disk):
    app = create_app(f"sqlite:///{small_disk / 'rollbook.sqlite3'}")
    try:
        with ThreadedServer(app) as server:
            with httpx.Client(base_url=server.url) as client:
                created = client.post("/api/chronicles", json={"name": "Full", "system": "v20"})
                table = ChronicleTable(client, created.json())
                player = table.join()
                character = table.character(player, V20_SHEET)
                assert client.get("/api/health").status_code == 200
            roll_path = f"{table.base}/characters/{character['id']}/rolls"
            body = json.dumps({"action": V20_TEST})
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

            def ask(method: str, path: str, payload: str | None = None) -> tuple[int, dict]:
                headers = {**player, "Content-Type": "application/json"} if payload else dict(player)
                connection.request(method, path, body=payload, headers=headers)
                response = connection.getresponse()
                return response.status, json.loads(response.read() or b"{}")

            assert ask("POST", roll_path, body)[0] == 201
            socket_before = connection.sock
            filler = _fill(small_disk)
            answers: list[tuple[int, dict]] = []
            while len(answers) < 300 and not any(status == 507 for status, _ in answers):
                answers.append(ask("POST", roll_path, body))  # until the store meets the full disk
            statuses = {status for status, _ in answers}
            assert statuses <= {201, 507}, answers  # never a 500 or a dropped connection
            assert 507 in statuses, statuses
            full = next(problem for status, problem in answers if status == 507)
            assert full["code"] == "storage_full" and "try again" in full["detail"]
            status, health = ask("GET", "/api/health")
            assert status == 503 and "disk" in health["failed"], health
            assert connection.sock is socket_before  # the same keep-alive connection throughout

            filler.unlink()  # space freed: the server recovers by itself
            assert ask("POST", roll_path, body)[0] == 201
            status, health = ask("GET", "/api/health")
            assert status == 200 and health["failed"] == [], health
            assert connection.sock is socket_before
            connection.close()
    finally:
        close_app(app)
