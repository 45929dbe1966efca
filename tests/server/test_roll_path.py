"""The roll's path (docs/ARCHITECTURE.md "The path of a roll"): the statements one
roll sends, the entry ``store.append_entry`` answers, the API's routes as the app's own."""

from __future__ import annotations

import dataclasses
import secrets

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import event, select

from rollbook.app.app import API_ROUTERS, close_app, create_app
from rollbook.entries import AdjustReceipt
from rollbook.server import tx
from rollbook.server.access import lock_character, lock_chronicle
from rollbook.server.auth import MemberRow, authenticate
from rollbook.server.models import LogEntry
from rollbook.server.store import AppendedEntry, actor_of, append_entry

from .conftest import V20_SHEET, V20_TEST, Table


@pytest.fixture()
def quiet(fresh_url):
    """An app of its own, no feed open: nothing else sends statements while a test counts them."""
    made = create_app(fresh_url)
    with TestClient(made) as test_client:
        yield made, test_client
    close_app(made)


def _table(client) -> tuple[Table, dict, dict]:
    created = client.post("/api/chronicles", json={"name": "Roll path", "system": "v20", "difficulty": 6})
    assert created.status_code == 201, created.text
    table = Table(client, created.json())
    player = table.join()
    return table, player, table.character(player, V20_SHEET)


def test_a_keyed_roll_sends_ten_statements_on_sqlite_and_nine_on_postgresql(quiet, backend):
    """BEGIN (SQLite's; PostgreSQL's is the driver's), the token, the key's claim, the chronicle and
    the character locked by one statement, the standing grants, the next nonce, the open scene, the
    log's head, the entry, the answer stored: no statement more (a second one reading what the
    transaction holds would fail this)."""
    app, client = quiet
    table, player, character = _table(client)
    assert table.roll(player, character["id"], V20_TEST).status_code == 201  # the public seed committed
    sent: list[str] = []

    def count(_connection, _cursor, statement, *_rest) -> None:
        sent.append(statement)

    event.listen(app.state.db.engine, "before_cursor_execute", count)
    try:
        answer = client.post(
            f"{table.base}/characters/{character['id']}/rolls",
            headers={**player, "Idempotency-Key": secrets.token_urlsafe(16)},
            json={"action": V20_TEST},
        )
    finally:
        event.remove(app.state.db.engine, "before_cursor_execute", count)
    assert answer.status_code == 201, answer.text
    assert len(sent) == (10 if backend == "sqlite" else 9), "\n".join(sent)


def test_lock_character_answers_the_chronicle_and_its_character(quiet):
    app, client = quiet
    table, player, character = _table(client)
    with app.state.db.read() as session:
        storyteller = authenticate(session, table.created["token"])
    chronicle, locked = tx.run(
        app.state.db, lambda session: lock_character(session, storyteller, character["id"])
    )
    assert (chronicle.id, locked.id, locked.chronicle_id) == (table.id, character["id"], table.id)


def test_an_appended_entry_is_frozen_and_is_the_row_stored(quiet):
    app, client = quiet
    table, _player, _character = _table(client)
    db = app.state.db

    def append(session):
        storyteller = authenticate(session, table.created["token"])
        chronicle = lock_chronicle(session, table.id)
        return append_entry(
            session,
            chronicle,
            kind="adjust",
            actor=actor_of(storyteller),
            visibility="public",
            receipt=AdjustReceipt(change={"note": "frozen"}),
        )

    entry = tx.run(db, append)
    assert isinstance(entry, AppendedEntry)
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.seq = 0  # type: ignore[misc]
    with db.read() as session:
        stored = session.scalars(select(LogEntry).where(LogEntry.id == entry.id)).one()
        assert {
            field.name: getattr(stored, field.name) for field in dataclasses.fields(AppendedEntry)
        } == dataclasses.asdict(entry)


def test_every_api_route_is_one_of_the_apps_own_routes(app):
    """The JSON API's routes are the app's (matched once per request), not included routers (which
    FastAPI scans twice: once to choose the router, once to dispatch within it)."""
    own = {id(route) for route in app.router.routes}
    api_routes = [route for router in API_ROUTERS for route in router.routes]
    assert api_routes and all(isinstance(route, APIRoute) and id(route) in own for route in api_routes)
    assert all(route.unique_id == route.name for route in api_routes)  # the operation ids the app names


def test_the_member_a_token_opens_is_a_frozen_row(quiet):
    """The token check answers a plain row (no ORM object the transaction would follow): changing
    who signed is a use case's own statement, never this object's."""
    app, client = quiet
    table, _player, _character = _table(client)
    with app.state.db.read() as session:
        storyteller = authenticate(session, table.created["token"])
    assert isinstance(storyteller, MemberRow)
    assert (storyteller.chronicle_id, storyteller.role, storyteller.removed_at) == (
        table.id,
        "storyteller",
        None,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        storyteller.role = "player"  # type: ignore[misc]
