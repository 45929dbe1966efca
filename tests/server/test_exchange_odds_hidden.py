"""V20-17, T-4: the exchange odds never give back a defender's ratings the caller may not see, on both
stores. Exact odds built from another player's sheet let a player recover its soak pool (matching the
fractions against ``rollbook odds``): a player who may not open the defender's sheet gets no odds, the
same answer whatever the defender's ratings; the Storyteller, and the defender's owner, get them."""

from __future__ import annotations

import pytest

from tests.server.conftest import BACKENDS

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

ATTACKERS = {
    "v20": {
        "name": "Nia",
        "attributes": {"strength": 3, "dexterity": 3},
        "skills": {"melee": 2},
        "weapons": [{"name": "knife", "damage": 1, "damage_type": "lethal"}],
    },
    "tiers": {
        "name": "Nia",
        "skills": {"firearms": 6},
        "weapons": [{"name": "pistol", "bonus": 2, "capacity": 6}],
    },
}
DEFENDERS = {
    "v20": lambda soak: {"name": f"Bran {soak}", "attributes": {"stamina": soak, "dexterity": 2}},
    "tiers": lambda soak: {"name": f"Bran {soak}", "endurance": soak, "wounds": {"level": 0, "length": 6}},
}
ATTACKS = {
    "v20": {"attribute": "dexterity", "ability": "melee", "weapon": "knife"},
    "tiers": {"skill": "firearms", "weapon": "pistol", "bullets": 1},
}


@pytest.mark.parametrize("system", ["v20", "tiers"])
def test_V20_17_a_player_gets_no_odds_built_from_another_players_hidden_ratings(
    database_url, client, make_table, system
):
    t = make_table(system)
    alice, bob = t.join("Alice"), t.join("Bob")
    nia = t.character(alice, ATTACKERS[system])
    weak, tough = (t.character(bob, DEFENDERS[system](soak)) for soak in (1, 4))
    url = f"{t.base}/odds/exchange"

    def odds(headers, target):
        response = client.get(
            url, headers=headers, params={"attacker": nia["id"], "target": target["id"], **ATTACKS[system]}
        )
        assert response.status_code == 200, response.text
        return response.json()

    seen = [odds(alice, weak), odds(alice, tough)]
    for answer in seen:
        assert answer["defender_numbers"] is False and answer["odds"] is None
    assert {k: v for k, v in seen[0].items() if k != "target"} == {
        k: v for k, v in seen[1].items() if k != "target"
    }  # nothing in the answer depends on the defender's ratings
    storyteller = [odds(t.st, weak), odds(t.st, tough)]
    assert all(a["defender_numbers"] and a["odds"] for a in storyteller)
    assert storyteller[0]["odds"]["outcomes"] != storyteller[1]["odds"]["outcomes"]
    mine = t.character(alice, DEFENDERS[system](2))  # her own character's sheet is hers to see
    assert odds(alice, mine)["odds"]["outcomes"]
