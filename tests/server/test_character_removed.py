"""A removed character on SQLite and PostgreSQL: ``characters.removed_at`` is
set in the transaction of its ``removal`` entry and every look-up filters on it (it cannot be rolled
for, edited, targeted or seen in a list; its removal and its rolls stay in the log); migration
0005_character_removed marks the characters a log already removed."""

from __future__ import annotations

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from rollbook.app.app import create_app
from rollbook.server.migrate import alembic_config, upgrade
from rollbook.server.models import Character, LogEntry
from rollbook.server.problems import ProblemError
from rollbook.server.usecases import characters

from .conftest import V5_SHEET, Table
from .helpers import as_member, entries_of


def test_a_removed_character_is_not_found_listed_edited_or_rolled_for(app, make_table):
    table = make_table("v5")
    player = table.join("Bruno")
    kept, gone = (table.character(player, {**V5_SHEET, "name": name}) for name in ("Kept", "Gone"))
    assert table.roll(player, gone["id"], {"kind": "test", "attribute": "wits"}).status_code == 201
    as_member(app, table.st, lambda s, m: characters.remove_character(s, m, gone["id"]))
    with app.state.db.read() as session:
        row = session.get(Character, gone["id"])
        removal = session.scalars(
            select(LogEntry).where(LogEntry.kind == "removal", LogEntry.character_id == gone["id"])
        ).one()
        assert row.removed_at == removal.created_at and session.get(Character, kept["id"]).removed_at is None
    for headers in (table.st, player):
        assert table.client.get(f"{table.base}/characters/{gone['id']}", headers=headers).status_code == 404
        for lister in (characters.list_characters, characters.roster):
            ids = [c["id"] for c in as_member(app, headers, lister)]
            assert kept["id"] in ids and gone["id"] not in ids
    assert table.roll(player, gone["id"], {"kind": "test", "attribute": "wits"}).status_code == 404
    for who in (player, table.st):
        with pytest.raises(ProblemError) as refused:
            as_member(
                app, who, lambda s, m: characters.edit_character(s, m, gone["id"], patch={"concept": "x"})
            )
        assert refused.value.status == 404
        with pytest.raises(ProblemError) as refused:  # nor removed twice
            as_member(app, table.st, lambda s, m: characters.remove_character(s, m, gone["id"]))
        assert refused.value.status == 404
    # the removal and the character's rolls are still in the log
    assert [e["character"] for e in entries_of(table, "removal")] == [gone["id"]]
    assert any(e["character"] == gone["id"] for e in entries_of(table, "roll"))
    assert table.roll(player, kept["id"], {"kind": "test", "attribute": "wits"}).status_code == 201


def test_a_removed_character_is_named_in_the_refusal_an_unknown_id_is_not(app, make_table):
    """A refusal read "No existe el personaje 2", naming an id; a removed character's 404 names it
    (code ``character_removed``), an id that never was one says so without echoing the number."""
    table = make_table("v5")
    player = table.join("Bruno")
    gone = table.character(player, {**V5_SHEET, "name": "Ofelia"})
    as_member(app, table.st, lambda s, m: characters.remove_character(s, m, gone["id"]))
    for path in (f"{table.base}/characters/{gone['id']}",):
        answer = table.client.get(path, headers={**player, "Accept-Language": "es"})
        assert answer.status_code == 404 and answer.json()["code"] == "character_removed"
        assert "Ofelia" in answer.json()["detail"] and str(gone["id"]) not in answer.json()["detail"]
    rolled = table.roll(player, gone["id"], {"kind": "test", "attribute": "wits"})
    assert rolled.status_code == 404 and rolled.json()["code"] == "character_removed"
    unknown = table.client.get(f"{table.base}/characters/987654", headers={**player, "Accept-Language": "fr"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "character_not_found"
    assert "987654" not in unknown.json()["detail"]


def test_the_migration_marks_characters_the_log_removed(fresh_url):
    fresh = create_app(fresh_url)
    with TestClient(fresh) as client:
        created = client.post("/api/chronicles", json={"name": "Old", "system": "v5"})
        assert created.status_code == 201, created.text
        table = Table(client, created.json())
        kept, gone = (table.character(table.st, {**V5_SHEET, "name": name}) for name in ("Kept", "Gone"))
        as_member(fresh, table.st, lambda s, m: characters.remove_character(s, m, gone["id"]))
        engine = fresh.state.db.engine
        with engine.connect() as connection, connection.begin():  # back to before the column
            command.downgrade(alembic_config(connection), "0004_fair_seeds")
        with engine.connect() as connection:
            assert "removed_at" not in connection.execute(text("SELECT * FROM characters"))
        upgrade(engine)
        with fresh.state.db.read() as session:
            removal = session.scalars(select(LogEntry).where(LogEntry.kind == "removal")).one()
            assert session.get(Character, gone["id"]).removed_at == removal.created_at
            assert session.get(Character, kept["id"]).removed_at is None
        assert client.get(f"{table.base}/characters/{gone['id']}", headers=table.st).status_code == 404
        assert client.get(f"{table.base}/characters/{kept['id']}", headers=table.st).status_code == 200
    fresh.state.db.dispose()
