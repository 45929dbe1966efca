"""Tokens (member_tokens): sessions opened and closed, keys rotated, members removed, sessions that
expire; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from sqlalchemy import event, text

from rollbook import settings as rollbook_settings
from rollbook.server import auth
from rollbook.server.usecases import members

from .conftest import V20_SHEET, V20_TEST, bearer
from .helpers import problem


def _me(client, headers) -> int:
    return client.get("/api/me", headers=headers).status_code


def test_a_session_opens_and_closes_and_the_key_stays(client, make_table):
    table = make_table("v20")
    player = table.join("Ann")
    opened = client.post("/api/session", headers=player)
    assert opened.status_code == 201, opened.text
    session = bearer(opened.json()["token"])
    assert opened.json()["member"]["name"] == "Ann" and opened.json()["token"] != player["Authorization"][7:]
    assert _me(client, session) == 200
    assert client.delete("/api/session", headers=session).json() == {"closed": True}
    problem(client.get("/api/me", headers=session), 401, "token_invalid")
    assert _me(client, player) == 200  # the key still opens
    problem(client.delete("/api/session", headers=player), 409, "not_a_session")
    problem(client.delete("/api/session"), 401, "unauthorized")


def test_rotating_the_key_revokes_the_old_key_and_every_session(client, make_table):
    table = make_table("v20")
    player = table.join("Ann")
    session = bearer(client.post("/api/session", headers=player).json()["token"])
    rotated = client.post(f"{table.base}/members/me/key", headers=player)
    assert rotated.status_code == 201, rotated.text
    new = bearer(rotated.json()["token"])
    problem(client.get("/api/me", headers=player), 401, "token_invalid")
    problem(client.get("/api/me", headers=session), 401, "token_invalid")
    assert client.get("/api/me", headers=new).json()["member"]["name"] == "Ann"
    other = make_table("v20")
    problem(client.post(f"{other.base}/members/me/key", headers=new), 403, "wrong_chronicle")


def test_the_storyteller_removes_a_member(client, make_table):
    table = make_table("v20")
    ann, bob = table.join("Ann"), table.join("Bob")
    session = bearer(client.post("/api/session", headers=ann).json()["token"])
    character = table.character(ann, V20_SHEET)
    ann_id = client.get("/api/me", headers=ann).json()["member"]["id"]
    storyteller_id = table.created["member"]["id"]
    problem(client.delete(f"{table.base}/members/{ann_id}", headers=bob), 403, "storyteller_only")
    problem(
        client.delete(f"{table.base}/members/{storyteller_id}", headers=table.st),
        409,
        "storyteller_not_removable",
    )
    removed = client.delete(f"{table.base}/members/{ann_id}", headers=table.st)
    assert removed.status_code == 200, removed.text
    assert removed.json()["characters"] == [character["id"]]
    for headers in (ann, session):
        problem(client.get("/api/me", headers=headers), 401, "token_invalid")
    names = [m["name"] for m in client.get(f"{table.base}/members", headers=table.st).json()["members"]]
    assert "Ann" not in names and "Bob" in names
    entry = table.log()["entries"][-1]
    assert entry["kind"] == "member_removed" and entry["receipt"]["member"] == ann_id
    assert entry["actor"]["member"] == storyteller_id
    assert table.sheet(table.st, character["id"])["owner"] is None
    problem(client.delete(f"{table.base}/members/{ann_id}", headers=table.st), 404, "member_not_found")
    # the removed member can no longer be given a character
    problem(
        client.patch(f"{table.base}/characters/{character['id']}", headers=table.st, json={"owner": ann_id}),
        404,
        "member_not_found",
    )
    # the log with its new entry still verifies
    from rollbook.server.chain import read_jsonl, verify_entries

    assert verify_entries(read_jsonl(table.export().splitlines()))[0] == []


def test_sessions_expire_when_the_server_says_so(app, client, make_table, monkeypatch):
    table = make_table("v20")
    player = table.join("Ann")
    before = rollbook_settings.install(rollbook_settings.Settings(session_hours=2))
    opened = client.post("/api/session", headers=player).json()
    assert opened["expires_at"] is not None
    rollbook_settings.install(before)
    assert _me(client, bearer(opened["token"])) == 200
    me = client.get("/api/me", headers=player).json()["member"]
    with app.state.db.write() as session:
        from rollbook.server.models import Member

        member = session.get(Member, me["id"])
        gone = members.open_session(session, member, ttl=timedelta(seconds=-1))
        lasting = members.open_session(session, member)
    assert lasting["expires_at"] is None
    problem(client.get("/api/me", headers=bearer(gone["token"])), 401, "token_invalid")
    assert _me(client, bearer(lasting["token"])) == 200


def test_tokens_are_stored_hashed(app, client, make_table):
    table = make_table("v20")
    player = table.join("Ann")
    session = client.post("/api/session", headers=player).json()["token"]
    with app.state.db.read() as db_session:
        dump = json.dumps(
            [list(map(str, row)) for row in db_session.execute(text("SELECT * FROM member_tokens"))]
        )
    assert session not in dump and player["Authorization"][7:] not in dump
    assert auth.digest(session) in dump


def test_a_removed_players_rolls_stay_in_the_log(client, make_table):
    table = make_table("v20")
    ann = table.join("Ann")
    character = table.character(ann, V20_SHEET)
    assert table.roll(ann, character["id"], V20_TEST).status_code == 201
    ann_id = client.get("/api/me", headers=ann).json()["member"]["id"]
    assert client.delete(f"{table.base}/members/{ann_id}", headers=table.st).status_code == 200
    kinds = [e["kind"] for e in table.log()["entries"]]
    assert kinds == ["seed_commit", "roll", "member_removed"]  # F-1: the seed committed before the roll


def test_the_migration_moves_each_members_token_into_a_key(backend, tmp_path):
    """0003_security: a member's token from before opens the same chronicle after the upgrade."""
    import secrets

    from rollbook.server.db import Database
    from rollbook.server.migrate import upgrade

    from .conftest import _admin, sqlalchemy_pg_url

    name = None
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    else:
        name = f"rollbook_migrate_{secrets.token_hex(4)}"
        _admin(f'CREATE DATABASE "{name}"')
        url = sqlalchemy_pg_url(name)
    try:
        db = Database(url)
        upgrade(db.engine, "0002_authority")
        token = auth.new_token()
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO chronicles (id, name, system, mode, language, created_at) "
                    "VALUES (1, 'Old', 'v20', 'strict', 'en', '2026-01-01T00:00:00.000000Z')"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO members (id, chronicle_id, name, role, token_hash, created_at) "
                    "VALUES (1, 1, 'Ann', 'player', :h, '2026-01-01T00:00:00.000000Z')"
                ),
                {"h": auth.digest(token)},
            )
            connection.execute(
                text(
                    "INSERT INTO characters (chronicle_id, owner_id, name, sheet, version, created_at, "
                    "updated_at) VALUES (1, 1, 'L', '{}', 1, 'x', 'x')"
                )
            )
        upgrade(db.engine)
        with db.read() as session:
            member = auth.authenticate(session, token)
            assert member is not None and member.name == "Ann" and member.removed_at is None
        db.dispose()
    finally:
        if name:
            _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_signed_write_refuses_a_forged_token_before_a_bad_key(client, make_table):
    """The token is checked first, in the write's own transaction (``api._signed_write``): a forged
    token is a 401 even with a bad key."""
    table = make_table("v20")
    player = table.join("Ann")
    character = table.character(player, V20_SHEET)
    path = f"{table.base}/characters/{character['id']}/rolls"
    bad_key = {"Idempotency-Key": "a\tb"}
    problem(
        client.post(path, headers={**player, **bad_key}, json={"action": V20_TEST}),
        400,
        "idempotency_key_invalid",
    )
    problem(
        client.post(path, headers={**bearer("forged-token"), **bad_key}, json={"action": V20_TEST}),
        401,
        "token_invalid",
    )
    problem(
        client.post(
            f"/api/chronicles/{table.id + 10_000}/characters/{character['id']}/rolls",
            headers={**player, **bad_key},
            json={"action": V20_TEST},
        ),
        403,
        "wrong_chronicle",
    )
    assert [entry["kind"] for entry in table.log()["entries"]] == []


@contextmanager
def pool_checkouts(app) -> Iterator[list[int]]:
    """The app's pool checkouts while the block runs (one item each)."""
    checkouts: list[int] = []
    pools = [app.state.db.engine.pool]

    def counted(*_args) -> None:
        checkouts.append(1)

    for pool in pools:
        event.listen(pool, "checkout", counted)
    try:
        yield checkouts
    finally:
        for pool in pools:
            event.remove(pool, "checkout", counted)


def test_a_signed_write_takes_one_pooled_connection(app, client, make_table, backend):
    """The token check shares the write's connection, on both stores: one checkout (on PostgreSQL one
    ping) per signed write, where a read of its own took a second; the refused one takes one too."""
    if app.state.hub.listener is not None:
        # PostgreSQL: the NOTIFY after the commit is the listener's, on its own connection; the
        # session's app, closed by a test that served it (ThreadedServer), would send it on a pooled
        # one (``listen.notify_now``): its listener runs again, as in a served app
        app.state.hub.listener.ensure()
    table = make_table("v20")
    player = table.join("Ann")
    character = table.character(player, V20_SHEET)
    with pool_checkouts(app) as checkouts:
        assert table.roll(player, character["id"], V20_TEST).status_code == 201
        assert (
            client.post(
                f"{table.base}/characters/{character['id']}/rolls",
                headers=bearer("forged-token"),
                json={"action": V20_TEST},
            ).status_code
            == 401
        )
    assert len(checkouts) == 1 + 1, f"{backend}: {len(checkouts)} checkouts for a roll and a refused one"


def test_a_signed_read_takes_one_pooled_connection(app, client, make_table, backend):
    """The token is read in the read's own transaction (``api._signed_read``), on both stores: one
    checkout per read, its refusals (a forged token, another chronicle) as before."""
    table = make_table("v20")
    player = table.join("Ann")
    character = table.character(player, V20_SHEET)
    path = f"{table.base}/characters/{character['id']}"
    with pool_checkouts(app) as checkouts:
        assert client.get(path, headers=player).json()["id"] == character["id"]
        problem(client.get(path, headers=bearer("forged-token")), 401, "token_invalid")
        problem(
            client.get(f"/api/chronicles/{table.id + 10_000}/characters/{character['id']}", headers=player),
            403,
            "wrong_chronicle",
        )
    assert len(checkouts) == 3, f"{backend}: {len(checkouts)} checkouts for three reads"
