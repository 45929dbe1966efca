"""Exactly once: Idempotency-Key replays, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading

from sqlalchemy import text

from .conftest import V20_SHEET, V20_TEST
from .test_api import problem


def test_a_retried_roll_returns_the_same_receipt_and_spends_once(client, make_table):
    table = make_table("v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    url = f"{table.base}/characters/{character['id']}/rolls"
    headers = {**player, "Idempotency-Key": "roll-1f1c"}
    body = {"action": {**V20_TEST, "willpower": True}}
    first = client.post(url, headers=headers, json=body)
    assert first.status_code == 201 and "idempotent-replayed" not in first.headers
    # A retry (the same JSON, formatted differently) is the stored response, byte for byte the same JSON.
    again = client.post(url, headers={**headers, "content-type": "application/json"},
                        content=json.dumps(body, indent=2).encode())
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert table.sheet(player, character["id"])["sheet"]["willpower"]["current"] == 2  # spent once
    assert len(table.log()["entries"]) == 1
    # The same key with another body is refused; nothing happens.
    other = client.post(url, headers=headers, json={"action": {**V20_TEST, "willpower": False}})
    problem(other, 422, "idempotency_key_reused")
    # The same key on another route is another request too.
    problem(client.post(f"{table.base}/characters/{character['id']}/adjustments", headers=headers,
                        json={"change": {"kind": "spend_willpower"}}), 422, "idempotency_key_reused")
    assert len(table.log()["entries"]) == 1
    # A new key is a new roll.
    assert client.post(url, headers={**player, "Idempotency-Key": "roll-2"}, json=body).json()["entry"]["seq"] == 2


def test_keys_belong_to_their_member(client, make_table):
    table = make_table("v20")
    ann, bob = table.join("Ann"), table.join("Bob")
    mine, theirs = table.character(ann, V20_SHEET), table.character(bob, V20_SHEET)
    first = table.roll({**ann, "Idempotency-Key": "same"}, mine["id"], V20_TEST)
    second = table.roll({**bob, "Idempotency-Key": "same"}, theirs["id"], V20_TEST)
    assert first.status_code == second.status_code == 201
    assert first.json()["entry"]["seq"] != second.json()["entry"]["seq"]


def test_refusals_are_not_stored(client, make_table):
    table = make_table("v20")
    character = table.character(table.st, {**V20_SHEET, "willpower": {"permanent": 3, "current": 0}})
    headers = {**table.st, "Idempotency-Key": "after-restore"}
    body = {**V20_TEST, "willpower": True}
    problem(table.roll(headers, character["id"], body), 409, "willpower_exhausted")
    client.post(f"{table.base}/characters/{character['id']}/adjustments", headers=table.st,
                json={"change": {"kind": "restore", "resource": "willpower", "amount": 1}})
    assert table.roll(headers, character["id"], body).status_code == 201


def test_a_replayed_creation_returns_the_same_token_without_storing_it(client, app):
    body = {"name": "Idempotent nights", "system": "v5"}
    headers = {"Idempotency-Key": "create-7d1e0a-" + "k" * 32}
    first = client.post("/api/chronicles", json=body, headers=headers)
    again = client.post("/api/chronicles", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    token = first.json()["token"]
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    with app.state.db.read() as session:
        stored = json.dumps([list(map(str, row)) for row in session.execute(text("SELECT * FROM idempotency_keys"))])
    assert token not in stored and "create-7d1e0a-" not in stored


def test_concurrent_requests_with_one_key_happen_once(app, client, make_table):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    url = f"{table.base}/characters/{character['id']}/rolls"
    from .conftest import ThreadedServer

    import httpx

    results = []
    with ThreadedServer(app) as server:
        barrier = threading.Barrier(8)

        def go():
            barrier.wait()
            with httpx.Client(base_url=server.url, timeout=60) as http:
                results.append(http.post(url, headers={**table.st, "Idempotency-Key": "race"},
                                         json={"action": {**V20_TEST, "willpower": True}}))

        threads = [threading.Thread(target=go) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [r.status_code for r in results] == [201] * 8
    assert len({json.dumps(r.json(), sort_keys=True) for r in results}) == 1
    assert len(table.log()["entries"]) == 1
    assert table.sheet(table.st, character["id"])["sheet"]["willpower"]["current"] == 2
