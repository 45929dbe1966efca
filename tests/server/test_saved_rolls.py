"""Saved rolls through the API, on SQLite and PostgreSQL: a member saves a
named roll of a character and repeats it; it is validated like any roll when saved (4xx with a code);
a repeat is an ordinary roll, and a player's edge in it is still asked (SPEC A-1); member-scoped (no
one else lists, repeats or deletes it); the migration makes the table."""

from __future__ import annotations

import pytest

from tests.server.conftest import V5_SHEET, V20_SHEET, V20_TEST

pytestmark = pytest.mark.usefixtures("backend")


def _save(table, headers, **body):
    return table.client.post(f"{table.base}/saved-rolls", headers=headers, json=body)


def test_a_player_saves_a_roll_and_repeats_it_in_one_call(make_table):
    table = make_table("v20")
    player = table.join("Bruno")
    lucita = table.character(player, V20_SHEET)["id"]
    saved = _save(table, player, character=lucita, name="  Shoot with the Glock ", action=V20_TEST)
    assert saved.status_code == 201, saved.text
    body = saved.json()
    assert (body["name"], body["character"], body["character_name"], body["hidden"]) == (
        "Shoot with the Glock",
        lucita,
        "Lucita",
        False,
    )
    listed = table.client.get(f"{table.base}/saved-rolls", headers=player).json()
    assert [s["id"] for s in listed] == [body["id"]]
    for _ in range(2):
        rolled = table.client.post(f"{table.base}/saved-rolls/{body['id']}/rolls", headers=player)
        assert rolled.status_code == 201, rolled.text
        assert rolled.json()["entry"]["kind"] == "roll"
        assert rolled.json()["entry"]["receipt"]["pool"]  # the same pool as the sheet builds
    rolls = [e for e in table.log()["entries"] if e["kind"] == "roll"]
    assert len(rolls) == 2 and all(e["character"] == lucita for e in rolls)


def test_an_edge_in_a_saved_roll_is_still_asked(make_table):
    table = make_table("v20")
    player = table.join("Bruno")
    lucita = table.character(player, V20_SHEET)["id"]
    saved = _save(table, player, character=lucita, name="All in", action={**V20_TEST, "modifier": 2}).json()
    repeat = table.client.post(f"{table.base}/saved-rolls/{saved['id']}/rolls", headers=player)
    assert repeat.status_code == 202, repeat.text
    assert repeat.json()["ask"]["asked"] == {"modifier": 2}
    assert [e["kind"] for e in table.log()["entries"]].count("roll") == 0
    # the Storyteller's own saved roll applies its edges (they are the Storyteller's to set)
    npc = table.character(table.st, {**V20_SHEET, "name": "Sheriff"})["id"]
    mine = _save(table, table.st, character=npc, name="All in", action={**V20_TEST, "modifier": 2}).json()
    done = table.client.post(f"{table.base}/saved-rolls/{mine['id']}/rolls", headers=table.st)
    assert done.status_code == 201 and done.json()["entry"]["receipt"]["pool"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "x", "action": {"kind": "test", "attribute": "dexterity", "ability": "flying"}}, 422, None),
        (
            {
                "name": "x",
                "action": {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": 11},
            },
            422,
            None,
        ),
        ({"name": "x", "action": {"kind": "test", "faces": [10, 10]}}, 422, "faces_not_allowed"),
        ({"name": "x", "action": {"kind": "nope"}}, 422, None),
        ({"name": " ", "action": V20_TEST}, 422, "blank_text"),
        ({"name": "x" * 81, "action": V20_TEST}, 422, None),
        ({"name": "x", "action": V20_TEST, "extra": 1}, 422, None),
        ({"name": "x", "action": "roll"}, 422, None),
    ],
)
def test_a_bad_saved_roll_is_refused_with_a_code(make_table, body, status, code):
    table = make_table("v20")
    player = table.join("Bruno")
    lucita = table.character(player, V20_SHEET)["id"]
    refused = _save(table, player, character=lucita, **body)
    assert refused.status_code == status, refused.text
    problem = refused.json()
    assert problem["code"] and problem["detail"]
    if code:
        assert problem["code"] == code
    assert table.client.get(f"{table.base}/saved-rolls", headers=player).json() == []


def test_saved_rolls_are_the_members_own(make_table):
    table = make_table("v20")
    bruno, carla = table.join("Bruno"), table.join("Carla")
    lucita = table.character(bruno, V20_SHEET)["id"]
    saved = _save(table, bruno, character=lucita, name="Shoot", action=V20_TEST).json()
    # another player may not save for Lucita, nor see, repeat or delete Bruno's saved roll
    assert (
        _save(table, carla, character=lucita, name="Shoot", action=V20_TEST).json()["code"]
        == "not_your_character"
    )
    assert table.client.get(f"{table.base}/saved-rolls", headers=carla).json() == []
    assert table.client.get(f"{table.base}/saved-rolls", headers=table.st).json() == []
    for method, path in (
        ("post", f"/saved-rolls/{saved['id']}/rolls"),
        ("delete", f"/saved-rolls/{saved['id']}"),
    ):
        answer = getattr(table.client, method)(table.base + path, headers=carla)
        assert (answer.status_code, answer.json()["code"]) == (404, "saved_roll_not_found")
    # the same name twice for one character: 409; another chronicle's saved roll: not found
    again = _save(table, bruno, character=lucita, name="Shoot", action=V20_TEST)
    assert (again.status_code, again.json()["code"]) == (409, "saved_roll_exists")
    other = make_table("v5")
    sasha = other.character(other.st, V5_SHEET)["id"]
    assert _save(other, other.st, character=sasha, name="Shoot", action={"kind": "rouse"}).status_code == 201
    stranger = table.client.post(f"{other.base}/saved-rolls/{saved['id']}/rolls", headers=other.st)
    assert stranger.status_code == 404
    gone = table.client.delete(f"{table.base}/saved-rolls/{saved['id']}", headers=bruno)
    assert gone.status_code == 200 and gone.json() == {"deleted": saved["id"]}
    assert table.client.get(f"{table.base}/saved-rolls", headers=bruno).json() == []
    assert (
        table.client.post(f"{table.base}/saved-rolls/{saved['id']}/rolls", headers=bruno).status_code == 404
    )
