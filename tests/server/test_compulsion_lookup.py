"""A V5 test's read of its character's compulsion in force (V5-14) seeks the log's partial index on
the compulsion entries, on SQLite and PostgreSQL, whatever the length of the chronicle's log: the
statement a roll sends is planned on ``ix_log_entries_compulsions``, and the roll's answer is the
same before a compulsion is called, while it is in force and after it ends."""

from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy import event, text

from .conftest import Table

GANGREL = {
    "name": "Rook",
    "clan": "Gangrel",
    "attributes": {"manipulation": 3},
    "skills": {"persuasion": 2},
    "hunger": 1,
}
PERSUADE = {"kind": "test", "attribute": "manipulation", "skill": "persuasion"}


@contextmanager
def statements_of(engine):
    seen: list[tuple[str, object]] = []

    def record(_conn, _cursor, statement, parameters, _context, _many) -> None:
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def plan_of(engine, backend: str, statement: str, parameters) -> str:
    with engine.connect() as connection:
        if backend == "sqlite":
            rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()
            return "\n".join(str(row[-1]) for row in rows)
        # a few rows: a sequential scan is cheaper; the index is what is left when it is not allowed
        connection.execute(text("SET LOCAL enable_seqscan = off"))
        rows = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters).all()
        return "\n".join(str(row[0]) for row in rows)


def compulsion_read(seen: list[tuple[str, object]]) -> tuple[str, object]:
    found = [(s, p) for s, p in seen if "log_entries.kind IN" in s and "log_entries.character_id =" in s]
    assert len(found) == 1, seen
    return found[0]


def test_v5_roll_reads_the_compulsion_through_its_index(client, app, backend):
    created = client.post("/api/chronicles", json={"name": "Compulsion index", "system": "v5"})
    assert created.status_code == 201, created.text
    t = Table(client, created.json())
    rook = t.character(t.st, GANGREL)
    for _ in range(5):  # a log longer than the character's own entries
        assert t.roll(t.st, rook["id"], PERSUADE).status_code == 201
    engine = app.state.db.engine

    with statements_of(engine) as seen:
        assert t.roll(t.st, rook["id"], PERSUADE).status_code == 201
    statement, parameters = compulsion_read(seen)
    assert "'compulsion', 'compulsion_end'" in statement  # written out, as the index's condition
    assert "ix_log_entries_compulsions" in plan_of(engine, backend, statement, parameters)

    base = f"{t.base}/characters/{rook['id']}/compulsion"
    called = client.post(base, headers=t.st, json={"compulsion": "hunger", "until": "ended"})
    assert called.status_code == 201, called.text
    rolled = t.roll(t.st, rook["id"], PERSUADE)
    assert rolled.status_code == 201, rolled.text
    modifiers = rolled.json()["entry"]["receipt"]["pool"]["modifiers"]
    assert [m["compulsion"] for m in modifiers if m["source"] == "compulsion"] == ["hunger"]
    assert client.get(base, headers=t.st).json()["compulsion"]["called"] == called.json()["entry"]["seq"]

    assert client.delete(base, headers=t.st).status_code == 200
    rolled = t.roll(t.st, rook["id"], PERSUADE)
    assert [
        m for m in rolled.json()["entry"]["receipt"]["pool"]["modifiers"] if m["source"] == "compulsion"
    ] == []
    assert client.get(base, headers=t.st).json()["compulsion"] is None
