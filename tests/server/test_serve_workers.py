"""``rollbook serve --workers N``: several app processes share the port and the store (on SQLite and
PostgreSQL), and every connection is answered without waiting for the client's delayed ACK
(``serving.NoDelayHttpProtocol``: uvicorn's workers accept on a socket asyncio does not set
``TCP_NODELAY`` on, and each answer then waited ~40 ms)."""

from __future__ import annotations

import http.client
import json
import time

import httpx
import pytest

from .conftest import V20_SHEET, V20_TEST
from .workers import serve_workers, worker_pids


@pytest.fixture(scope="module")
def served(database_url, tmp_path_factory):
    """One ``serve --workers 2`` per store for the module (each test makes its own chronicle): starting
    three processes that import the app is most of these tests' time."""
    with serve_workers(database_url, tmp_path_factory.mktemp("workers")) as running:
        yield running


def test_two_processes_serve_the_api_and_a_roll_is_logged_once(served):
    process, port = served
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        created = client.post("/api/chronicles", json={"name": "Workers", "system": "v20", "difficulty": 6})
        assert created.status_code == 201
        chronicle = created.json()["chronicle"]["id"]
        joined = client.post(
            "/api/join", json={"invitation": created.json()["invitation"], "name": "Ann"}
        ).json()
        player = {"Authorization": f"Bearer {joined['token']}"}
        character = client.post(
            f"/api/chronicles/{chronicle}/characters",
            headers=player,
            json={"name": V20_SHEET["name"], "sheet": V20_SHEET},
        ).json()
        rolls = f"/api/chronicles/{chronicle}/characters/{character['id']}/rolls"
        key = {"Idempotency-Key": "workers-roll-1"}
        first = client.post(rolls, headers={**player, **key}, json={"action": V20_TEST})
        again = client.post(rolls, headers={**player, **key}, json={"action": V20_TEST})
        assert first.status_code == again.status_code == 201
        assert again.headers.get("Idempotent-Replayed") == "true"
        assert again.json()["entry"] == first.json()["entry"]
        log = client.get(f"/api/chronicles/{chronicle}/log", headers=player).json()
        kinds = [entry["kind"] for entry in log["entries"]]
        assert kinds.count("roll") == 1 and kinds[-2:] == ["seed_commit", "roll"]  # F-2: the seed first
    assert len(worker_pids(process)) == 2


def test_the_protocol_sets_tcp_nodelay_on_the_connection(monkeypatch):
    """What the workers' sockets lack, set on each accepted connection (deterministic: the option
    itself, read back from the socket)."""
    import socket

    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from rollbook.app.serving import NoDelayHttpProtocol

    monkeypatch.setattr(HttpToolsProtocol, "connection_made", lambda self, transport: None)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        with socket.create_connection(listener.getsockname()) as _client:
            accepted, _address = listener.accept()
            with accepted:
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
                transport = type("Transport", (), {"get_extra_info": lambda self, name: accepted})()
                NoDelayHttpProtocol.connection_made(object.__new__(NoDelayHttpProtocol), transport)
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def test_answers_on_a_kept_alive_connection_do_not_wait_for_a_delayed_ack(served):
    """Requests one after the other on one connection: without TCP_NODELAY each waited for the
    client's delayed ACK (~40 ms); with it, a few ms. The median of twenty (a busy machine slows a
    few of them, never the middle one to 40 ms)."""
    _process, port = served
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    durations = []
    try:
        connection.request("GET", "/api/systems")  # the connection made, the app warm
        assert json.loads(connection.getresponse().read())["systems"]
        for _ in range(20):
            started = time.monotonic()
            connection.request("GET", "/api/systems")
            response = connection.getresponse()
            response.read()
            durations.append(time.monotonic() - started)
            assert response.status == 200
    finally:
        connection.close()
    median = sorted(durations)[len(durations) // 2]
    assert median < 0.025, (
        f"the median answer took {median * 1000:.1f} ms: {[round(d * 1000) for d in durations]}"
    )


def test_two_processes_spend_willpower_exactly_as_far_as_it_goes(served):
    """Twelve rolls spending Willpower at once, through both processes, on a sheet holding 3 points:
    three are made, nine refused, the sheet at 0, three entries (on SQLite the processes' writers
    take turns at the database's lane file, ``db.WriterLane``; on PostgreSQL at the row locks)."""
    from concurrent.futures import ThreadPoolExecutor

    _process, port = served
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=60) as client:
        created = client.post(
            "/api/chronicles", json={"name": "Spend", "system": "v20", "difficulty": 6}
        ).json()
        chronicle = created["chronicle"]["id"]
        joined = client.post("/api/join", json={"invitation": created["invitation"], "name": "Ann"}).json()
        player = {"Authorization": f"Bearer {joined['token']}"}
        character = client.post(
            f"/api/chronicles/{chronicle}/characters",
            headers=player,
            json={"name": V20_SHEET["name"], "sheet": V20_SHEET},
        ).json()
    rolls = f"{base}/api/chronicles/{chronicle}/characters/{character['id']}/rolls"

    def spend(index: int) -> tuple[int, str]:
        with httpx.Client(timeout=60) as own:  # a connection each: uvicorn spreads them over the processes
            answer = own.post(
                rolls,
                headers={**player, "Idempotency-Key": f"spend-{index}"},
                json={"action": {**V20_TEST, "willpower": True}},
            )
            return answer.status_code, answer.json().get("code", "")

    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(spend, range(12)))
    assert sorted(answers) == [(201, "")] * 3 + [(409, "willpower_exhausted")] * 9
    with httpx.Client(base_url=base, timeout=30) as client:
        sheet = client.get(f"/api/chronicles/{chronicle}/characters/{character['id']}", headers=player).json()
        log = client.get(f"/api/chronicles/{chronicle}/log", headers=player).json()
    assert sheet["sheet"]["willpower"]["current"] == 0
    assert [entry["kind"] for entry in log["entries"]].count("roll") == 3
