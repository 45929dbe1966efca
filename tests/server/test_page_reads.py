"""A page is drawn from one read transaction, on both stores (docs/ARCHITECTURE.md, "present/"):
the sheet page and the chronicle page find the member first thing in their one read (the keychain's
cookie checked there, ``PageAccess.read_in``), then read everything they show in it; a roll posted from the sheet's form (htmx) costs the
roll's one write (the member found in it, as the API's signed writes find theirs; the API's
exactly-once path, SPEC R-3) and one read for its answer (the new card, the sheet's resources)."""

from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from rollbook.app.app import close_app, create_app

SHEET = {"name": "Rook", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}}
TEST = {"kind": "test", "attribute": "dexterity", "ability": "firearms"}


@pytest.fixture
def table(database_url):
    app = create_app(database_url)
    with TestClient(app) as client:
        made = client.post("/api/chronicles", json={"name": "Reads", "system": "v20", "difficulty": 6})
        assert made.status_code == 201, made.text
        chronicle = made.json()["chronicle"]["id"]
        joined = client.post("/api/join", json={"invitation": made.json()["invitation"], "name": "P"})
        token = joined.json()["token"]
        added = client.post(
            f"/api/chronicles/{chronicle}/characters",
            json={"name": "Rook", "sheet": SHEET},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert added.status_code == 201, added.text
        client.cookies.set("rollbook_keys", f"{chronicle}.{token}")
        yield (
            app,
            client,
            f"/chronicles/{chronicle}",
            f"/chronicles/{chronicle}/characters/{added.json()['id']}",
        )
    close_app(app)


def transactions(app, call) -> tuple[int, object]:
    """How many transactions (reads and writes) ``call()`` began, and its answer."""
    begun = [0]

    def count(_connection) -> None:
        begun[0] += 1

    event.listen(app.state.db.engine, "begin", count)
    try:
        answer = call()
    finally:
        event.remove(app.state.db.engine, "begin", count)
    return begun[0], answer


def test_the_sheet_page_and_the_chronicle_page_are_each_one_read_with_the_member_in_it(table):
    app, client, chronicle, sheet = table
    for path in (sheet, chronicle):
        begun, answer = transactions(app, lambda path=path: client.get(path))
        assert answer.status_code == 200, answer.text
        assert begun == 1, path


def test_a_roll_from_the_sheet_form_is_one_write_and_one_read(table):
    app, client, _chronicle, sheet = table
    form = {**TEST, "idempotency_key": secrets.token_urlsafe(18)}
    headers = {"HX-Request": "true", "Origin": "http://testserver"}
    begun, answer = transactions(app, lambda: client.post(f"{sheet}/rolls", data=form, headers=headers))
    assert answer.status_code == 200, answer.text
    assert 'id="entry-' in answer.text  # the new card came back
    assert begun == 2
