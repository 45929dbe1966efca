"""Quick rolls without a sheet (issue 13 point 9), on SQLite and PostgreSQL: each game's own request
("6 dice, Hunger 2", "5 dice, difficulty 7", a Tiers skill, a roll-under action), the receipt says it
used no sheet and nothing is spent; the Storyteller allows or forbids the players' quick rolls."""

from __future__ import annotations

import pytest

from rollbook.server.problems import ProblemError
from rollbook.server.usecases import rolls

from .test_gamenight import as_member

CASES = {
    "v5": {"pool": 6, "hunger": 2, "difficulty": 3},
    "v20": {"pool": 5, "difficulty": 7},
    "tiers": {"skill": 60, "bonus": 5},
    "rollunder": {"action": "climb the wall", "level": 12, "advantage": True},
}


@pytest.mark.parametrize("system", sorted(CASES))
def test_a_quick_roll_uses_no_sheet(app, make_table, system):
    table = make_table(system)
    player = table.join("Julien")
    made = as_member(app, player, lambda s, m: rolls.quick_roll(s, m, CASES[system]))
    entry = made["entry"]
    assert entry["kind"] == "quick_roll" and entry["character"] is None and entry["effects"] == []
    receipt = entry["receipt"]
    assert receipt["sheet"] is None and receipt["quick"] == {"system": system, **CASES[system]}
    assert receipt["result"]["system"] == system and receipt["faces"]
    if system == "v5":
        assert receipt["result"]["pool"] == 6 and receipt["result"]["hunger_level"] == 2 and len(receipt["faces"]) == 6
    logged = [e for e in table.log()["entries"] if e["kind"] == "quick_roll"]
    assert [e["seq"] for e in logged] == [entry["seq"]]


def test_the_storyteller_forbids_and_allows_quick_rolls(app, make_table):
    table = make_table("v5")
    player = table.join("Julien")
    with pytest.raises(ProblemError) as refused:  # a player may not set it
        as_member(app, player, lambda s, m: rolls.set_quick_rolls(s, m, False))
    assert refused.value.status == 403
    as_member(app, table.st, lambda s, m: rolls.set_quick_rolls(s, m, False))
    with pytest.raises(ProblemError) as refused:
        as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3}))
    assert refused.value.status == 403
    as_member(app, table.st, lambda s, m: rolls.quick_roll(s, m, {"pool": 3}, hidden=True))  # the Storyteller may
    as_member(app, table.st, lambda s, m: rolls.set_quick_rolls(s, m, True))
    as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3, "hunger": 1}))
    with pytest.raises(ProblemError) as refused:  # what the game does not take is refused by name
        as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3, "level": 4}))
    assert refused.value.code == "field_not_for_system"
