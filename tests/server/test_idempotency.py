"""Exactly once: Idempotency-Key replays, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading

from sqlalchemy import text

from rollbook.server import tx

from .conftest import V20_SHEET, V20_TEST
from .helpers import problem


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
    again = client.post(
        url,
        headers={**headers, "content-type": "application/json"},
        content=json.dumps(body, indent=2).encode(),
    )
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert table.sheet(player, character["id"])["sheet"]["willpower"]["current"] == 2  # spent once
    assert [e["kind"] for e in table.log()["entries"]] == ["seed_commit", "roll"]  # F-1, then one roll
    # The same key with another body is refused; nothing happens.
    other = client.post(url, headers=headers, json={"action": {**V20_TEST, "willpower": False}})
    problem(other, 422, "idempotency_key_reused")
    # The same key on another route is another request too.
    problem(
        client.post(
            f"{table.base}/characters/{character['id']}/adjustments",
            headers=headers,
            json={"change": {"kind": "spend_willpower"}},
        ),
        422,
        "idempotency_key_reused",
    )
    assert [e["kind"] for e in table.log()["entries"]] == ["seed_commit", "roll"]  # F-1, then one roll
    # A new key is a new roll.
    assert (
        client.post(url, headers={**player, "Idempotency-Key": "roll-2"}, json=body).json()["entry"]["seq"]
        == 3
    )  # F-1: after the commitment


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
    client.post(
        f"{table.base}/characters/{character['id']}/adjustments",
        headers=table.st,
        json={"change": {"kind": "restore", "resource": "willpower", "amount": 1}},
    )
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
        stored = json.dumps(
            [list(map(str, row)) for row in session.execute(text("SELECT * FROM idempotency_keys"))]
        )
    assert token not in stored and "create-7d1e0a-" not in stored


def test_concurrent_requests_with_one_key_happen_once(app, client, make_table):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    url = f"{table.base}/characters/{character['id']}/rolls"
    import httpx

    from .conftest import ThreadedServer

    results = []
    with ThreadedServer(app) as server:
        barrier = threading.Barrier(8)

        def go():
            barrier.wait()
            with httpx.Client(base_url=server.url, timeout=60) as http:
                results.append(
                    http.post(
                        url,
                        headers={**table.st, "Idempotency-Key": "race"},
                        json={"action": {**V20_TEST, "willpower": True}},
                    )
                )

        threads = [threading.Thread(target=go) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert [r.status_code for r in results] == [201] * 8
    assert len({json.dumps(r.json(), sort_keys=True) for r in results}) == 1
    assert [e["kind"] for e in table.log()["entries"]] == ["seed_commit", "roll"]  # F-1, then one roll
    assert table.sheet(table.st, character["id"])["sheet"]["willpower"]["current"] == 2


# --- claimed first: one answer for every retry ---------------------------------------


def _race(app, count: int, send) -> list:
    """``count`` threads send at once (a barrier) through a real server; their responses."""
    import httpx

    from .conftest import ThreadedServer

    results: list = []
    with ThreadedServer(app) as server:
        barrier = threading.Barrier(count)

        def go():
            with httpx.Client(base_url=server.url, timeout=120) as http:
                barrier.wait()
                results.append(send(http))

        threads = [threading.Thread(target=go) for _ in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return results


def test_concurrent_retries_of_the_last_point_get_one_receipt(app, client, make_table):
    """12 retries of one roll with one key and one Willpower point left: one receipt, the same 201
    body to all (PostgreSQL used to answer 1 x 201 + 7 x 409 willpower_exhausted)."""
    table = make_table("v20")
    player = table.join()
    character = table.character(player, {**V20_SHEET, "willpower": {"permanent": 3, "current": 1}})
    url = f"{table.base}/characters/{character['id']}/rolls"
    body = {"action": {**V20_TEST, "willpower": True}}
    results = _race(
        app, 12, lambda http: http.post(url, headers={**player, "Idempotency-Key": "last-point"}, json=body)
    )
    assert [r.status_code for r in results] == [201] * 12, [r.text[:200] for r in results]
    assert len({json.dumps(r.json(), sort_keys=True) for r in results}) == 1
    assert sum(r.headers.get("idempotent-replayed") == "true" for r in results) == 11
    assert [e["kind"] for e in table.log()["entries"]] == ["seed_commit", "roll"]  # F-1, then one roll
    assert table.sheet(player, character["id"])["sheet"]["willpower"]["current"] == 0


def test_concurrent_creations_with_one_key_make_one_chronicle(app, client):
    key = "c" * 40
    body = {"name": "Race for a chronicle", "system": "v5"}
    results = _race(
        app, 8, lambda http: http.post("/api/chronicles", headers={"Idempotency-Key": key}, json=body)
    )
    assert [r.status_code for r in results] == [201] * 8, [r.text[:200] for r in results]
    assert len({json.dumps(r.json(), sort_keys=True) for r in results}) == 1


def test_anonymous_keys_must_be_unguessable(client):
    body = {"name": "Short keys", "system": "v20"}
    refused = client.post("/api/chronicles", headers={"Idempotency-Key": "k" * 31}, json=body)
    problem(refused, 422, "idempotency_key_too_short")
    assert refused.json()["params"]["minimum"] == 32
    problem(
        client.post("/api/join", headers={"Idempotency-Key": "short"}, json={"invitation": "x", "name": "A"}),
        422,
        "idempotency_key_too_short",
    )
    # a member's own key (its scope is theirs alone) may be short
    created = client.post("/api/chronicles", json=body).json()
    headers = {"Authorization": f"Bearer {created['token']}", "Idempotency-Key": "s"}
    assert (
        client.post(f"/api/chronicles/{created['chronicle']['id']}/invitation", headers=headers).status_code
        == 201
    )


def test_a_token_is_replayed_only_to_the_key_that_made_it(app, client):
    body = {"name": "Two clients", "system": "v20"}
    first = client.post("/api/chronicles", headers={"Idempotency-Key": "a" * 32 + "-first"}, json=body)
    other = client.post("/api/chronicles", headers={"Idempotency-Key": "a" * 32 + "-other"}, json=body)
    assert first.status_code == other.status_code == 201
    assert other.json()["token"] != first.json()["token"] and "idempotent-replayed" not in other.headers
    joined = client.post(
        "/api/join",
        headers={"Idempotency-Key": "j" * 40},
        json={"invitation": first.json()["invitation"], "name": "Ann"},
    )
    assert joined.status_code == 201
    with app.state.db.read() as session:
        rows = [list(map(str, row)) for row in session.execute(text("SELECT * FROM idempotency_keys"))]
    stored = json.dumps(rows)
    for secret in (
        first.json()["token"],
        first.json()["invitation"],
        other.json()["token"],
        joined.json()["token"],
    ):
        assert secret not in stored
    assert "sealed" in stored


def test_a_sealed_response_needs_its_key(app, client):
    from cryptography.exceptions import InvalidTag

    from rollbook.server import auth

    sealed = auth.seal("secret", "k" * 32, b"context")
    assert auth.unseal(sealed, "k" * 32, b"context") == "secret"
    for key, context in (("k" * 31 + "x", b"context"), ("k" * 32, b"other")):
        try:
            auth.unseal(sealed, key, context)
        except InvalidTag:
            continue
        raise AssertionError("unsealed with the wrong key or context")
    # tampering with the stored bytes is detected too
    raw = bytearray(__import__("base64").b64decode(sealed))
    raw[-1] ^= 1
    try:
        auth.unseal(__import__("base64").b64encode(bytes(raw)).decode(), "k" * 32, b"context")
    except InvalidTag:
        pass
    else:
        raise AssertionError("a tampered seal opened")


def test_records_expire_after_a_day_and_are_swept(app, client, make_table):
    from rollbook.server import tx

    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    headers = {**table.st, "Idempotency-Key": "day-old"}
    first = table.roll(headers, character["id"], V20_TEST)
    assert table.roll(headers, character["id"], V20_TEST).json() == first.json()
    with app.state.db.write() as session:  # a day passes
        session.execute(
            text(
                "UPDATE idempotency_keys SET expires_at = '2000-01-01T00:00:00.000000Z' "
                "WHERE expires_at > '2000'"
            )
        )
    again = table.roll(headers, character["id"], V20_TEST)  # an expired key is a new request
    assert again.status_code == 201 and again.json()["entry"]["seq"] == first.json()["entry"]["seq"] + 1
    with app.state.db.write() as session:
        session.execute(text("UPDATE idempotency_keys SET expires_at = '2000-01-01T00:00:00.000000Z'"))
    assert tx.sweep(app.state.db) >= 1
    with app.state.db.read() as session:
        assert session.execute(text("SELECT count(*) FROM idempotency_keys")).scalar() == 0


def test_rollbook_db_sweep_deletes_the_expired_records(app, client, make_table, database_url):
    from .conftest import run_cli

    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    assert (
        table.roll({**table.st, "Idempotency-Key": "to-sweep"}, character["id"], V20_TEST).status_code == 201
    )
    with app.state.db.write() as session:
        session.execute(text("UPDATE idempotency_keys SET expires_at = '2000-01-01T00:00:00.000000Z'"))
    done = run_cli("db", "sweep", "--database-url", database_url)
    assert done.returncode == 0, done.stderr
    assert (
        "expired idempotency record" in done.stdout
        and "(s)" not in done.stdout
        and not done.stdout.startswith("rollbook: 0 ")
    )
    with app.state.db.read() as session:
        assert session.execute(text("SELECT count(*) FROM idempotency_keys")).scalar() == 0


def test_every_64th_stored_response_sweeps_the_expired_records(app, client, make_table):
    """The records past their day are swept by the server itself, one stored response in
    ``SWEEP_ONE_IN`` (counted in the process, no draw of the system's randomness per write)."""
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    assert (
        table.roll({**table.st, "Idempotency-Key": "old-one"}, character["id"], V20_TEST).status_code == 201
    )
    with app.state.db.write() as session:
        session.execute(
            text(
                "UPDATE idempotency_keys SET expires_at = '2000-01-01T00:00:00.000000Z' "
                "WHERE expires_at > '2000'"
            )
        )

    def expired() -> int:
        with app.state.db.read() as session:
            return session.execute(
                text("SELECT count(*) FROM idempotency_keys WHERE expires_at < '2001'")
            ).scalar()

    assert expired() >= 1
    for number in range(tx.SWEEP_ONE_IN):
        assert (
            table.roll(
                {**table.st, "Idempotency-Key": f"sweep-{number}"}, character["id"], V20_TEST
            ).status_code
            == 201
        )
    assert expired() == 0
