"""On the server (SQLite and PostgreSQL): sheet edits that merge on the current
sheet unless the same field changed meanwhile, every edit a log entry (who, which field, from what to
what), the Storyteller removing a character (logged; no longer listed or found), a second member
joining under a name already at the table suffixed."""

from __future__ import annotations

import pytest

from rollbook.server.problems import ProblemError
from rollbook.server.usecases import characters

from .conftest import V5_SHEET
from .helpers import as_member, entries_of


def test_an_edit_merges_on_the_current_sheet_and_is_logged(app, make_table):
    table = make_table("v5")
    player = table.join("Bruno")
    made = table.character(player, V5_SHEET)
    drawn = table.sheet(player, made["id"])["sheet"]  # the editor is drawn
    # meanwhile the Storyteller adds a stain (the sheet's version moves)
    moved = table.client.post(
        f"{table.base}/characters/{made['id']}/adjustments",
        headers=table.st,
        json={"change": {"kind": "stains", "amount": 1}},
    )
    assert moved.status_code == 201, moved.text
    # the player's editor sends its concept, with the sheet it was drawn from: applied, the stain kept
    as_member(
        app,
        player,
        lambda s, m: characters.edit_character(
            s, m, made["id"], patch={"concept": "Sniper", "stains": drawn.get("stains", 0)}, base=drawn
        ),
    )
    sheet = table.sheet(player, made["id"])["sheet"]
    assert sheet["concept"] == "Sniper" and sheet["stains"] == 1
    edit = entries_of(table, "sheet_edit")[-1]
    assert edit["actor"]["name"] == "Bruno" and edit["character"] == made["id"]
    assert edit["receipt"]["changes"] == [{"field": "concept", "before": "", "after": "Sniper"}]


def test_the_same_field_changed_meanwhile_is_a_conflict(app, make_table):
    table = make_table("v5")
    made = table.character(table.st, V5_SHEET)
    drawn = table.sheet(table.st, made["id"])["sheet"]
    as_member(
        app,
        table.st,
        lambda s, m: characters.edit_character(s, m, made["id"], patch={"concept": "A"}, base=drawn),
    )
    with pytest.raises(ProblemError) as refused:
        as_member(
            app,
            table.st,
            lambda s, m: characters.edit_character(s, m, made["id"], patch={"concept": "B"}, base=drawn),
        )
    assert refused.value.code == "edit_conflict" and refused.value.params["field"] == "concept"
    # the same change made twice is no conflict; a number changed is also an effect
    as_member(
        app,
        table.st,
        lambda s, m: characters.edit_character(
            s, m, made["id"], patch={"concept": "A", "attributes": {"wits": 4}}, base=drawn
        ),
    )
    sheet = table.sheet(table.st, made["id"])["sheet"]
    assert sheet["concept"] == "A" and sheet["attributes"]["wits"] == 4
    edit = entries_of(table, "sheet_edit")[-1]
    assert edit["receipt"]["changes"] == [{"field": "attributes.wits", "before": 2, "after": 4}]
    assert edit["effects"] == [{"resource": "attributes.wits", "before": 2, "after": 4}]


def test_the_storyteller_removes_a_character(app, make_table):
    table = make_table("v5")
    player = table.join("Bruno")
    twice = [table.character(player, V5_SHEET) for _ in range(2)]  # the back button made it twice
    with pytest.raises(ProblemError) as refused:
        as_member(app, player, lambda s, m: characters.remove_character(s, m, twice[1]["id"]))
    assert refused.value.status == 403
    as_member(app, table.st, lambda s, m: characters.remove_character(s, m, twice[1]["id"]))
    assert table.client.get(f"{table.base}/characters/{twice[1]['id']}", headers=table.st).status_code == 404
    listed = table.client.get(f"{table.base}/characters", headers=table.st).json()
    ids = [c["id"] for c in (listed["characters"] if isinstance(listed, dict) else listed)]
    assert twice[0]["id"] in ids and twice[1]["id"] not in ids
    removed = entries_of(table, "removal")[-1]
    assert removed["character"] == twice[1]["id"] and removed["actor"]["role"] == "storyteller"
    assert removed["receipt"]["name"] == V5_SHEET["name"]
    assert table.roll(player, twice[1]["id"], {"kind": "test", "attribute": "wits"}).status_code == 404


def test_a_name_already_at_the_table_is_suffixed(make_table):
    table = make_table("v20")
    names = []
    for typed in ("Julien", "julien ", "Julien"):
        response = table.client.post("/api/join", json={"invitation": table.invitation, "name": typed})
        assert response.status_code == 201, response.text
        names.append(response.json()["member"]["name"])
    assert names == ["Julien", "julien (2)", "Julien (3)"]
