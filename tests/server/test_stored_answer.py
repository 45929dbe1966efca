"""A keyed write's stored answer (the idempotency record's body), on SQLite and PostgreSQL: the JSON
of the answer the first request got, its non-ASCII text kept as it is (UTF-8, not escaped), and a
retry's answer is the first one byte for byte."""

from __future__ import annotations

import json

from sqlalchemy import text

from .conftest import V20_SHEET, V20_TEST


def test_a_keyed_roll_stores_its_answer_and_replays_it_byte_for_byte(app, client, make_table):
    table = make_table("v20")
    player = table.join("Zoë")
    character = table.character(player, {**V20_SHEET, "name": "Éléonore «la Rouge» 紅"})
    url = f"{table.base}/characters/{character['id']}/rolls"
    headers = {**player, "Idempotency-Key": "stored-answer-3c9e"}

    first = client.post(url, headers=headers, json={"action": V20_TEST})
    assert first.status_code == 201, first.text
    again = client.post(url, headers=headers, json={"action": V20_TEST})
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content

    with app.state.db.read() as session:
        stored = session.execute(
            text("SELECT status, body FROM idempotency_keys WHERE status = 201 ORDER BY id DESC LIMIT 1")
        ).one()
    assert json.loads(stored.body) == first.json()
    assert "Zoë" in stored.body and "\\u" not in stored.body  # UTF-8 as it is
