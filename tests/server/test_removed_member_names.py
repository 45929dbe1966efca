"""On SQLite and PostgreSQL: "after a member was removed, his old receipts show
another member's name". A player rolls, is removed, another player joins and is given his character;
the old receipts still name the removed player — in the API log, in the export and on the web page's
feed (the log keeps the actor's name as it was, ``store.actor_of``; a card of a character the actor no
longer plays names the actor beside the character, not only the character another member now plays)."""

from __future__ import annotations

import json
import re

from rollbook.server.usecases import rolls
from tests.web.helpers import text_of

from .conftest import V20_SHEET, V20_TEST, bearer
from .helpers import as_member


def _who(page: str, seq: int) -> str:
    """The heading of the feed card of entry ``seq`` (who made it), as read."""
    found = re.search(
        rf'<li id="[^"]*" class="card[^"]*" data-seq="{seq}".*?<span class="who">(.*?)</span>\s*<time',
        page,
        re.DOTALL,
    )
    assert found, f"no card #{seq} on the page"
    return text_of(found.group(1)).strip()


def _member_id(client, headers) -> int:
    return client.get("/api/me", headers=headers).json()["member"]["id"]


def test_a_removed_players_receipts_keep_his_name(app, client, make_table):
    table = make_table("v20")
    bruno = table.join("Bruno")
    bruno_id = _member_id(client, bruno)
    hero = table.character(bruno, {**V20_SHEET, "name": "Hero"})
    rolled = table.roll(bruno, hero["id"], V20_TEST)
    assert rolled.status_code == 201, rolled.text
    his_roll = rolled.json()["entry"]["seq"]
    his_quick = as_member(app, bruno, lambda s, m: rolls.quick_roll(s, m, {"pool": 5}))["entry"]["seq"]

    removed = client.delete(f"{table.base}/members/{bruno_id}", headers=table.st)
    assert removed.status_code == 200, removed.text
    joined = client.post("/api/join", json={"invitation": removed.json()["invitation"], "name": "Carla"})
    assert joined.status_code == 201, joined.text
    carla, carla_id = bearer(joined.json()["token"]), joined.json()["member"]["id"]
    given = client.patch(f"{table.base}/characters/{hero['id']}", headers=table.st, json={"owner": carla_id})
    assert given.status_code == 200, given.text  # Bruno's character is Carla's now
    again = table.roll(carla, hero["id"], V20_TEST)
    assert again.status_code == 201, again.text
    her_roll = again.json()["entry"]["seq"]
    her_quick = as_member(app, carla, lambda s, m: rolls.quick_roll(s, m, {"pool": 5}))["entry"]["seq"]

    expected = {
        his_roll: (bruno_id, "Bruno"),
        his_quick: (bruno_id, "Bruno"),
        her_roll: (carla_id, "Carla"),
        her_quick: (carla_id, "Carla"),
    }
    # the API log, read by the Storyteller and by the player who joined since
    for headers in (table.st, carla):
        by_seq = {e["seq"]: e for e in table.log(headers)["entries"]}
        for seq, (member, name) in expected.items():
            assert (by_seq[seq]["actor"]["member"], by_seq[seq]["actor"]["name"]) == (member, name), by_seq[
                seq
            ]
    # the export (what `rollbook log verify` reads)
    exported = {e["seq"]: e for e in map(json.loads, table.export().splitlines())}
    for seq, (member, name) in expected.items():
        assert (exported[seq]["actor"]["member"], exported[seq]["actor"]["name"]) == (member, name)
    # the web page's feed and the receipt's own page, for both readers
    for headers in (table.st, carla):
        page = client.get(f"/chronicles/{table.id}", headers=headers)
        assert page.status_code == 200, page.text
        assert "Bruno" in _who(page.text, his_roll) and "Carla" not in _who(page.text, his_roll)
        assert _who(page.text, his_quick) == "Bruno"
        assert "Hero" in _who(page.text, her_roll) and "Bruno" not in _who(page.text, her_roll)
        assert _who(page.text, her_quick) == "Carla"
        single = client.get(f"/chronicles/{table.id}/entries/{his_roll}", headers=headers)
        assert single.status_code == 200 and "Bruno" in _who(single.text, his_roll)


def test_a_removed_players_character_unclaimed_still_names_him(app, client, make_table):
    """Before the Storyteller gives the character to anyone, the cards of its removed player's rolls
    name him too (the character has no player now)."""
    table = make_table("v20")
    bruno = table.join("Bruno")
    hero = table.character(bruno, {**V20_SHEET, "name": "Hero"})
    rolled = table.roll(bruno, hero["id"], V20_TEST)
    assert rolled.status_code == 201, rolled.text
    seq = rolled.json()["entry"]["seq"]
    page = client.get(f"/chronicles/{table.id}", headers=table.st).text
    assert _who(page, seq) == "Hero"  # his own character, while he plays it: the character's name alone
    assert (
        client.delete(f"{table.base}/members/{_member_id(client, bruno)}", headers=table.st).status_code
        == 200
    )
    page = client.get(f"/chronicles/{table.id}", headers=table.st).text
    assert "Hero" in _who(page, seq) and "Bruno" in _who(page, seq)
