"""Races against a real uvicorn server (threads on a free localhost port), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
import time

import httpx
import pytest

from rollbook.app.app import create_app
from rollbook.play import verify_receipt
from rollbook.server.chain import read_jsonl, verify_entries
from tests.conftest import wait_until

from .conftest import V20_SHEET, V20_TEST, ThreadedServer

RACERS = 20


def _race(server_url: str, requests: list[tuple[str, dict, dict]]) -> list[httpx.Response]:
    barrier = threading.Barrier(len(requests))
    results: list[httpx.Response | None] = [None] * len(requests)

    def go(index: int, url: str, headers: dict, body: dict) -> None:
        with httpx.Client(base_url=server_url, timeout=120) as http:
            barrier.wait()
            results[index] = http.post(url, headers=headers, json=body)

    threads = [threading.Thread(target=go, args=(i, *request)) for i, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results  # type: ignore[return-value]


def test_twenty_concurrent_spends_of_the_last_willpower_point_succeed_once(app, make_table):
    table = make_table("v20")
    player = table.join()
    character = table.character(player, {**V20_SHEET, "willpower": {"permanent": 3, "current": 1}})
    url = f"{table.base}/characters/{character['id']}/rolls"
    body = {"action": {**V20_TEST, "willpower": True}}
    with ThreadedServer(app) as server:
        results = _race(server.url, [(url, player, body)] * RACERS)
    statuses = sorted(r.status_code for r in results)
    assert statuses == [201] + [409] * (RACERS - 1), statuses
    for refused in (r for r in results if r.status_code == 409):
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["code"] == "willpower_exhausted"
    sheet = table.sheet(player, character["id"])
    assert sheet["sheet"]["willpower"]["current"] == 0
    assert sheet["version"] == character["version"] + 1
    entries = [
        e for e in table.log()["entries"] if e["kind"] != "seed_commit"
    ]  # F-1: the seed's commitment first
    assert len(entries) == 1 and entries[0]["receipt"]["result"]["willpower_success"] == 1


def test_concurrent_rolls_get_distinct_seqs_and_one_unbroken_chain(app, make_table):
    table = make_table("v20")
    characters = [table.character(table.st, {**V20_SHEET, "name": f"C{i}"}) for i in range(4)]
    requests = [
        (f"{table.base}/characters/{characters[i % 4]['id']}/rolls", table.st, {"action": V20_TEST})
        for i in range(RACERS)
    ]
    with ThreadedServer(app) as server:
        results = _race(server.url, requests)
    assert [r.status_code for r in results] == [201] * RACERS
    assert sorted(r.json()["entry"]["seq"] for r in results) == list(
        range(2, RACERS + 2)
    )  # 1: the seed (F-1)
    problems, counts = verify_entries(read_jsonl(table.export().splitlines()), verify_receipt)
    assert problems == [] and counts["receipts"] == RACERS


TIERS_SHEET = {
    "name": "Ivo",
    "skills": {"firearms": 6, "arcanes": 1},
    "weapons": [{"name": "Pistol", "bonus": 1, "capacity": 6, "loaded": 1}],
}


@pytest.mark.parametrize(
    ("action", "code", "resource"),
    [
        (
            {"kind": "skill", "skill": "firearms", "weapon": "Pistol", "bullets": 1},
            "magazine_empty",
            lambda sheet: sheet["weapons"][0]["loaded"],
        ),
        ({"kind": "spell", "spell": "Light"}, "essence_exhausted", lambda sheet: sheet["essence"]["current"]),
    ],
    ids=["last-bullet", "last-essence"],
)
def test_twenty_concurrent_uses_of_the_last_bullet_or_essence_succeed_once(
    app, make_table, action, code, resource
):
    """T-3, T-6 through the server: the last bullet is fired once, the last Essence spent once."""
    table = make_table("tiers")
    player = table.join()
    character = table.character(player, TIERS_SHEET)
    url = f"{table.base}/characters/{character['id']}/rolls"
    with ThreadedServer(app) as server:
        results = _race(server.url, [(url, player, {"action": action})] * RACERS)
    assert sorted(r.status_code for r in results) == [201] + [409] * (RACERS - 1)
    assert {r.json()["code"] for r in results if r.status_code == 409} == {code}
    assert resource(table.sheet(player, character["id"])["sheet"]) == 0
    assert [e["kind"] for e in table.log()["entries"]] == ["seed_commit", "roll"]  # F-1, then the one roll


@pytest.mark.postgres
def test_every_app_process_sees_every_roll_through_listen_notify(pg_url):
    """Two app instances (own engines, own feeds) on one PostgreSQL: a roll made through one
    reaches the live feed of the other at once, woken by NOTIFY (its poll is every 5 s)."""
    first, second = create_app(pg_url), create_app(pg_url)
    with ThreadedServer(first) as one, ThreadedServer(second) as two:
        with httpx.Client(base_url=one.url, timeout=30) as http:
            created = http.post("/api/chronicles", json={"name": "Two processes", "system": "v20"}).json()
            headers = {"Authorization": f"Bearer {created['token']}"}
            base = f"/api/chronicles/{created['chronicle']['id']}"
            character = http.post(
                f"{base}/characters", headers=headers, json={"name": "L", "sheet": V20_SHEET}
            ).json()
        received: list[dict] = []
        opened = threading.Event()

        def listen() -> None:
            with httpx.Client(base_url=two.url, timeout=30) as http:
                with http.stream(
                    "GET", f"{base}/events", headers=headers, params={"idle_timeout": 4}
                ) as stream:
                    opened.set()
                    for line in stream.iter_lines():
                        if line.startswith("data: "):
                            received.append({"at": time.monotonic(), **json.loads(line[6:])})
                            return

        listener = threading.Thread(target=listen)
        listener.start()
        assert opened.wait(10)
        chronicle_id = created["chronicle"]["id"]
        wait_until(lambda: chronicle_id in second.state.hub.listened, what="LISTEN on the feed's process")
        with httpx.Client(base_url=one.url, timeout=30) as http:
            rolled_at = time.monotonic()
            rolled = http.post(
                f"{base}/characters/{character['id']}/rolls", headers=headers, json={"action": V20_TEST}
            )
        listener.join()
    assert rolled.status_code == 201
    assert received and received[0]["seq"] == 1
    assert received[0]["at"] - rolled_at < 2.5  # well under the 5 s poll: NOTIFY woke it
    assert second.state.hub.notifications >= 1
