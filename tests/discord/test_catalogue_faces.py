"""SPEC A-1 on every face, generated from the action catalogue (``rollbook.play.catalogue``), on SQLite
and PostgreSQL: every action a player makes × every face that makes it (the JSON API with and without
``ask``, the web page's form post, Discord's interactions endpoint, signed) × every edge of the action
(what only the Storyteller sets), sent off the baseline (the model's default and the table's standing
difficulty) without a grant or a standing rule: refused or asked, never rolled with that edge.

The CLI does not apply: ``rollbook roll`` rolls locally, with no chronicle, no member and no
Storyteller (a table's rolls are made through the server's faces only).

An action or an edge is covered by being declared in the catalogue (``tests/catalogue_cases.py``
derives the cases from it); a face that has no way to send an edge (Discord's commands take only a
difficulty and ``hidden`` as edges) is sent it anyway, as a crafted request would be."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.discord.handlers import COMMANDS, TEST_KINDS
from rollbook.play import authority, catalogue
from tests.catalogue_cases import STANDING, EdgeCase, edge_cases, form_value, quick_player_values
from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command, option
from tests.server.conftest import BACKENDS

HTMX = {"HX-Request": "true"}
CASES = edge_cases()
ROLLED = ("roll", "reroll", "quick_roll")


def _new_rolls(table, before: int) -> list[dict]:
    return [e for e in table.log()["entries"] if e["seq"] > before and e["kind"] in ROLLED]


def _carries(entry: dict, case: EdgeCase) -> bool:
    """Whether a rolled entry was rolled with the case's edge at the case's value."""
    if case.edge == authority.HIDDEN:
        return entry["visibility"] == "hidden"
    receipt = entry.get("receipt") or {}
    made = receipt.get("quick") if case.action.way == "quick" else receipt.get("action")
    return isinstance(made, dict) and made.get(case.edge) == case.value


def _player_part(case: EdgeCase) -> dict:
    return {k: v for k, v in case.action.example.items() if k not in case.action.edges}


def _request(case: EdgeCase) -> tuple[dict, bool]:
    """(the request with the edge, hidden)."""
    if case.edge == authority.HIDDEN:
        return _player_part(case), True
    return {**_player_part(case), case.edge: case.value}, False


# --- the faces ---------------------------------------------------------------------------------


def _api(table, player, character: int, case: EdgeCase, ask: bool):
    action, hidden = _request(case)
    return table.roll(player, character, action, hidden=hidden, ask=ask)


def _web(table, player, character: int, case: EdgeCase):
    if case.action.way == "quick":
        values = {**quick_player_values(case.action), case.edge: case.value}
        url = f"/chronicles/{table.id}/quick"
    else:
        values = {**_player_part(case), case.edge: case.value}
        url = f"/chronicles/{table.id}/characters/{character}/rolls"
    data = {name: form_value(value) for name, value in values.items()}
    return table.client.post(url, data=data, headers={**player, **HTMX})


def _option(name: str, value: Any) -> dict:
    kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
    return option(name, value, kind)


def discord_command(action: catalogue.Action) -> str | None:
    """The Discord command that makes the action, if any: a test named by traits is ``/roll``, a quick
    roll is ``/roll`` without traits, a kind with a command of its own name is that command."""
    if action.way == "quick" or action.kind == TEST_KINDS[action.system]:
        return "roll"
    return action.kind if action.kind in COMMANDS else None


def _discord_options(case: EdgeCase, character: int) -> list[dict]:
    action = case.action
    if action.way == "quick":
        given = quick_player_values(action)
        return [_option(k, v) for k, v in given.items()] + [_option(case.edge, case.value)]
    options = [option("character", str(character))]
    if action.kind == TEST_KINDS[action.system]:
        traits = [v for k, v in action.example.items() if k in ("attribute", "ability", "skill")]
        options += [option(name, trait) for name, trait in zip(("trait", "trait2"), traits, strict=False)]
        options += [_option(k, v) for k, v in action.example.items() if k in ("weapon", "bullets", "action")]
    return [*options, _option(case.edge, case.value)]


@pytest.mark.parametrize("database_url", BACKENDS, indirect=True)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_A1_an_edge_without_a_grant_is_refused_or_asked_on_every_face_never_rolled(case, make_table, discord):
    system = case.action.system
    fields = {"difficulty": STANDING[system]} if system in STANDING else {}
    table, channel, (anna,) = seated(make_table, discord, system, ANNA, **fields)
    character = table.character(anna, dict(catalogue.EXAMPLE_SHEETS[system]))["id"]
    outcomes: dict[str, str] = {}

    if case.action.way == "roll":  # the JSON API rolls a character's actions (quick rolls: web, Discord)
        before = table.log()["head"]["seq"]
        refused = _api(table, anna, character, case, ask=False)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "grant_required" and case.edge in refused.json()["params"]["edges"]
        asked = _api(table, anna, character, case, ask=True)
        assert asked.status_code != 201, asked.text
        outcomes["api"] = "refused"
        outcomes["api_ask"] = "asked" if asked.status_code == 202 else f"refused {asked.status_code}"
        assert _new_rolls(table, before) == []

    before = table.log()["head"]["seq"]
    posted = _web(table, anna, character, case)
    rolled = _new_rolls(table, before)
    assert not [entry for entry in rolled if _carries(entry, case)], (posted.status_code, posted.text[:300])
    outcomes["web"] = "rolled at the baseline" if rolled else f"not rolled ({posted.status_code})"

    name = discord_command(case.action)
    if name is not None:
        before = table.log()["head"]["seq"]
        answer = discord.ok(command(name, _discord_options(case, character), user_id=ANNA, channel=channel))
        rolled = _new_rolls(table, before)
        assert not [entry for entry in rolled if _carries(entry, case)], answer
        outcomes["discord"] = "rolled at the baseline" if rolled else "not rolled"
    assert outcomes, "no face made the action"


def test_every_action_a_player_makes_is_covered_with_each_of_its_edges():
    covered = {(case.action.id, case.edge) for case in CASES}
    for action in catalogue.ACTIONS:
        if action.way in ("roll", "quick") and not action.storyteller_only:
            assert {(action.id, edge) for edge in action.edges} <= covered


DECLARED = [a for a in catalogue.ACTIONS if a.way in ("contest_side", "extended_step")]


@pytest.mark.parametrize("database_url", BACKENDS, indirect=True)
@pytest.mark.parametrize("action", DECLARED, ids=lambda action: action.id)
def test_TR3_TR4_A1_a_declared_rolls_action_is_the_storytellers_a_player_declaring_one_is_refused(
    action, make_table
):
    """A contest's side or an extended action's roll carries no edge of the player's (the catalogue
    declares none): its whole action, edges included, is the Storyteller's declaration."""
    assert action.player == frozenset() and action.edges == ()
    system = action.system
    table = make_table(system, **({"difficulty": STANDING[system]} if system in STANDING else {}))
    player = table.join("Anna")
    character = table.character(player, dict(catalogue.EXAMPLE_SHEETS[system]))["id"]
    request = {**catalogue.find(system, action.kind).example, "difficulty": 2}  # an edge set too
    before = table.log()["head"]["seq"]
    if action.way == "contest_side":
        side = {"character": character, "action": request}
        made = table.client.post(
            f"{table.base}/contests", headers=player, json={"attacker": side, "defender": side}
        )
    else:
        made = table.client.post(
            f"{table.base}/extended",
            headers=player,
            json={"character": character, "action": request, "target": 3},
        )
    assert made.status_code == 403, made.text
    assert table.log()["head"]["seq"] == before


def test_every_actions_use_case_is_a_function_of_the_use_cases():
    import importlib

    for action in catalogue.ACTIONS:
        module, function = action.usecase.split(".")
        found = getattr(importlib.import_module(f"rollbook.server.usecases.{module}"), function, None)
        assert callable(found), action.id
