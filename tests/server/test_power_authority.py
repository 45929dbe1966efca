"""A V5 Discipline power under the table's authority (SPEC A-1, A-2, V5-1), on SQLite and PostgreSQL:
a power's roll starts from the chronicle's standing difficulty like any test, and a player's power
that asks for another difficulty is an ask (or refused without one), never rolled, on every face that
rolls a power: the JSON API, the web page's roll form, a saved roll repeated."""

from __future__ import annotations

import pytest

from .conftest import Table

HTMX = {"HX-Request": "true"}

NADIA = {
    "name": "Nadia",
    "attributes": {"wits": 3, "resolve": 2},
    "disciplines": {"auspex": 2},
    "powers": [{"discipline": "auspex", "level": 1, "power": "sense_the_unseen"}],
    "hunger": 1,
}
POWER = {"kind": "power", "discipline": "auspex", "power": "sense_the_unseen", "attribute": "wits"}
STANDING = 3


def _table(make_table) -> tuple[Table, dict, int]:
    table = make_table("v5", difficulty=STANDING)
    player = table.join("Bruno")
    return table, player, table.character(player, NADIA)["id"]


def _via_api(table: Table, player: dict, nadia: int, ask: bool):
    return table.roll(player, nadia, {**POWER, "difficulty": 1}, ask=ask)


def _via_web_form(table: Table, player: dict, nadia: int, ask: bool):
    # the page's roll form: a player's edge is always an ask there (its button says so)
    data = {**{k: str(v) for k, v in POWER.items()}, "difficulty": "1", "modifier": "0"}
    return table.client.post(
        f"/chronicles/{table.id}/characters/{nadia}/rolls", data=data, headers={**player, **HTMX}
    )


def _via_saved_roll(table: Table, player: dict, nadia: int, ask: bool):
    saved = table.client.post(
        f"{table.base}/saved-rolls",
        headers=player,
        json={"character": nadia, "name": "Look", "action": {**POWER, "difficulty": 1}},
    )
    assert saved.status_code == 201, saved.text
    return table.client.post(f"{table.base}/saved-rolls/{saved.json()['id']}/rolls", headers=player)


FACES = {"api": _via_api, "web_form": _via_web_form, "saved_roll": _via_saved_roll}


def test_A1_V5_1_a_power_rolls_at_the_standing_difficulty(make_table):
    table, player, nadia = _table(make_table)
    rolled = table.roll(player, nadia, POWER)
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["request"]["difficulty"] == STANDING
    assert receipt["authority"]["baseline"]["difficulty"] == STANDING  # the baseline it used


def test_A1_a_players_power_below_the_standing_difficulty_is_refused_without_an_ask(make_table):
    table, player, nadia = _table(make_table)
    refused = _via_api(table, player, nadia, ask=False)
    assert refused.status_code == 403, refused.text
    assert refused.json()["code"] == "grant_required" and refused.json()["params"]["edges"] == ["difficulty"]
    assert [e["kind"] for e in table.log()["entries"]].count("roll") == 0


@pytest.mark.parametrize("face", sorted(FACES))
def test_A1_a_players_power_at_another_difficulty_is_asked_on_every_face(make_table, face):
    table, player, nadia = _table(make_table)
    answered = FACES[face](table, player, nadia, True)
    assert answered.status_code in (200, 202), answered.text
    kinds = [e["kind"] for e in table.log()["entries"]]
    assert "roll" not in kinds and kinds.count("ask") == 1
    asks = table.client.get(f"{table.base}/asks", headers=table.st)
    assert asks.status_code == 200, asks.text
    (waiting,) = [a for a in asks.json()["asks"] if a["status"] == "pending"]
    assert waiting["asked"] == {"difficulty": 1}
