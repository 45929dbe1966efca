"""A hidden roll rerolled and revealed by its latest receipt (docs/server.md §7: it carries the first
faces and every reroll) counts as revealed for its hidden seed (F-7): the next rotation reveals that
seed, and a player's export verifies every face under it; on SQLite and PostgreSQL."""

from __future__ import annotations

from .conftest import V5_SHEET, V5_TEST
from .forging import entries_of, verify


def test_revealing_the_latest_receipt_of_a_rerolled_hidden_roll_frees_its_seed(make_table, client, tmp_path):
    table = make_table("v5")
    ana = table.join("Ana")
    sasha = table.character(ana, V5_SHEET)
    hidden = table.roll(table.st, sasha["id"], V5_TEST, hidden=True)
    assert hidden.status_code == 201, hidden.text
    seq = hidden.json()["entry"]["seq"]
    rerolled = client.post(
        f"{table.base}/log/{seq}/rerolls",
        headers=table.st,
        json={"action": {"kind": "reroll", "dice": [1]}},
    )
    assert rerolled.status_code == 201, rerolled.text
    latest = rerolled.json()["entry"]
    assert latest["kind"] == "reroll" and latest["refers_to"] == seq and latest["visibility"] == "hidden"
    shown = client.post(f"{table.base}/log/{latest['seq']}/reveal", headers=table.st)
    assert shown.status_code == 201, shown.text

    rotated = client.post(f"{table.base}/fair/rotate", headers=table.st)
    assert rotated.status_code == 201, rotated.text
    revealed = rotated.json()["hidden_revealed"]
    assert revealed is not None, rotated.json()  # F-7: every roll under the hidden seed is revealed
    assert revealed["stream"] == "hidden" and revealed["last_nonce"] == 2  # the roll and its reroll

    entries = entries_of(table.export(ana))
    answer = verify(tmp_path, entries)
    assert answer.returncode == 0, answer.stdout
    assert "fair dice: 2 verified, 0 pending" in answer.stderr, answer.stderr  # every face, against the seed
