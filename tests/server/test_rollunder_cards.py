"""Roll-under cards come only from the Storyteller (R-6), on both stores."""

from __future__ import annotations

import pytest

SHEET = {"name": "Ayla", "skills": {"climb": 12}}
CHECK = {"kind": "check", "action": "Climb the wall", "skill": "climb"}
GIFT = {"name": "Rope", "effect": "bonus", "bonus": 20, "consumable": False}


@pytest.mark.parametrize("cards", [[GIFT], [{"name": "Luck", "effect": "advantage"}]])
def test_player_sheet_with_its_own_cards(client, make_table, cards):
    table = make_table("rollunder")
    player = table.join("Ann")
    made = client.post(
        f"{table.base}/characters", headers=player, json={"name": "Ayla", "sheet": {**SHEET, "cards": cards}}
    )
    assert made.status_code in (403, 422), made.text
    problem = made.json()
    assert problem["code"] == "storyteller_only" and "cards" in problem["detail"]
    assert client.get(f"{table.base}/characters", headers=player).json()["characters"] == []
    # nor by an edit of their own sheet
    mine = table.character(player, SHEET)
    edited = client.patch(
        f"{table.base}/characters/{mine['id']}", headers=player, json={"patch": {"cards": cards}}
    )
    assert edited.status_code in (403, 422), edited.text
    assert table.sheet(player, mine["id"])["sheet"]["cards"] == []
    # the player's new-character form offers no card; the Storyteller's does
    assert (
        'name="s.cards.0.name"'
        not in client.get(f"/chronicles/{table.id}/characters/new", headers=player).text
    )
    assert (
        'name="s.cards.0.name"' in client.get(f"/chronicles/{table.id}/characters/new", headers=table.st).text
    )
    # the Storyteller's own sheet may hold them
    assert (
        client.post(
            f"{table.base}/characters",
            headers=table.st,
            json={"name": "NPC", "sheet": {**SHEET, "cards": cards}},
        ).status_code
        == 201
    )


def test_a_cards_effect_is_missing_from_the_authority_stamp(client, make_table):
    table = make_table("rollunder")
    player = table.join("Ann")
    mine = table.character(player, SHEET)
    given = client.post(
        f"{table.base}/characters/{mine['id']}/adjustments",
        headers=table.st,
        json={"change": {"kind": "grant_card", "card": GIFT}},
    )
    assert given.status_code in (200, 201), given.text
    rolled = table.roll(player, mine["id"], {**CHECK, "cards": ["Rope"]})
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["authority"]["cards"] == [
        {"card": "Rope", "effect": "bonus", "bonus": 20, "consumable": False}
    ]
    assert receipt["request"]["bonus"] == 20
    plain = table.roll(player, mine["id"], CHECK).json()["entry"]["receipt"]
    assert "cards" not in plain["authority"]
