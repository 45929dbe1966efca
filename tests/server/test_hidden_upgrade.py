"""F-7 for chronicles made before it (SQLite and PostgreSQL): migration 0010_legacy_hidden_seed
moves the one seed in use to the hidden stream when hidden rolls under it are not all revealed, so
the next rotation does not give their faces away; a chronicle whose hidden rolls were all revealed,
or that has none, keeps its seed public. Afterwards the next visible roll commits a new public seed
and hidden rolls go on under the old one."""

from __future__ import annotations

from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from rollbook.app.app import create_app
from rollbook.server.migrate import alembic_config, upgrade
from rollbook.server.models import FairSeed

from .conftest import V5_SHEET, V5_TEST, Table


def streams(app, chronicle_id: int) -> list[tuple[str, int]]:
    with app.state.db.read() as session:
        rows = session.scalars(
            select(FairSeed).where(FairSeed.chronicle_id == chronicle_id, FairSeed.revealed_seq.is_(None))
        ).all()
        return sorted((row.stream, row.nonce) for row in rows)


def test_a_seed_in_use_holding_hidden_rolls_goes_on_as_the_hidden_seed_after_the_upgrade(fresh_url):
    fresh = create_app(fresh_url)
    with TestClient(fresh) as client:
        tables = []
        for name in ("Hidden waiting", "Visible only", "Hidden revealed"):
            created = client.post("/api/chronicles", json={"name": name, "system": "v5"})
            assert created.status_code == 201, created.text
            table = Table(client, created.json())
            table.npc = table.character(table.st, V5_SHEET)
            tables.append(table)
        waiting, visible, revealed = tables
        for table, hidden in ((waiting, True), (visible, False), (revealed, True)):
            rolled = table.roll(table.st, table.npc["id"], V5_TEST, hidden=hidden)
            assert rolled.status_code == 201, rolled.text
        seq = revealed.log()["entries"][-1]["seq"]
        assert client.post(f"{revealed.base}/log/{seq}/reveal", headers=revealed.st).status_code == 201
        engine = fresh.state.db.engine
        with engine.connect() as connection, connection.begin():
            command.downgrade(alembic_config(connection), "0009_feed_revocation")
            # as a chronicle made before F-7 stood: its one seed in use, whatever rolls used it
            connection.execute(text("UPDATE fair_seeds SET stream = 'public'"))
        upgrade(engine)
        assert streams(fresh, waiting.id) == [("hidden", 1)]
        assert streams(fresh, visible.id) == [("public", 1)]
        assert streams(fresh, revealed.id) == [("public", 1)]
        # the next visible roll commits a public seed; hidden rolls go on under the old one
        shown = waiting.roll(waiting.st, waiting.npc["id"], V5_TEST).json()["entry"]["receipt"]["fair"]
        hidden = waiting.roll(waiting.st, waiting.npc["id"], V5_TEST, hidden=True).json()["entry"]["receipt"][
            "fair"
        ]
        assert (shown["stream"], shown["nonce"]) == ("public", 1)
        assert (hidden["stream"], hidden["nonce"]) == ("hidden", 2)
        assert streams(fresh, waiting.id) == [("hidden", 2), ("public", 1)]
