"""The odds of a request the rules refuse are refused the same way as its roll, on every face
(``rollbook.odds.admitted``: the rules' own ``needed`` and ``resolve``, as ``dice.roll`` goes): a
toy pool of no dice, or of more than the toy's 30 (its resolver's bounds, ``out_of_range``), refused
by ``POST …/odds`` as by ``POST …/rolls``, by the web's odds box as by its roll form, by Discord's
``/odds`` as by ``/roll``, by ``rollbook odds toy`` as by ``rollbook roll toy``; and the shipped
systems' own bounds on both (a V20 pool of 0 dice rolls a failure and has its odds; a V5 pool of 0
is refused by both), on both stores."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from rollbook.odds import admitted, odds_for
from rollbook.odds.contests import contest_odds, extended_odds
from rollbook.rules.base import RuleError
from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command, option
from tests.in_process import run_here
from tests.toy_system import registered
from tests.toy_system import toy as toy_module

HTMX = {"HX-Request": "true"}
TRAITS = {"might": 3, "none": 0, "huge": 30}  # a sheet's trait is unbounded: the rules bound the pool
EMPTY = {"kind": "pool", "trait": "none"}


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def test_the_rules_bounds_refuse_the_odds_as_the_roll(toy):
    for pool in (0, toy_module.MAX_POOL + 1):
        for request in (toy_module.ToyRequest(pool), toy_module.PushRequest(pool)):
            with pytest.raises(RuleError) as refused:
                odds_for(toy, request)
            assert refused.value.code == "out_of_range" and refused.value.params["value"] == pool
    assert (
        odds_for(toy, toy_module.ToyRequest(toy_module.MAX_POOL))["outcomes"]["failure"]
        == "1073741824/205891132094649"
    )
    admitted(toy, toy_module.ToyRequest(1))  # within bounds: nothing to say
    # a contest's side and an extended action's roll (TR-3, TR-4, ``odds.contests``) likewise
    for refused in (
        lambda: contest_odds(toy, toy_module.ToyRequest(3), toy_module.ToyRequest(0)),
        lambda: extended_odds(toy, toy_module.ToyRequest(31), 3, 2),
    ):
        with pytest.raises(RuleError) as said:
            refused()
        assert said.value.code == "out_of_range"
    assert contest_odds(toy, toy_module.ToyRequest(3), toy_module.ToyRequest(1))["system"] == toy


def test_the_api_refuses_the_odds_of_a_pool_the_roll_refuses(make_table, toy):
    table = make_table(toy)
    character = table.character(table.st, {"system": toy, "name": "Ann", "traits": TRAITS})["id"]
    over = {"kind": "pool", "trait": "huge", "extra": 1}  # the Storyteller's extra die: 31
    for action, pool in ((EMPTY, 0), (over, 31)):
        rolled = table.roll(table.st, character, action)
        odds = table.client.post(
            f"{table.base}/characters/{character}/odds", headers=table.st, json={"action": action}
        )
        for refused in (rolled, odds):
            assert refused.status_code == 422, refused.text
            assert refused.json()["code"] == "out_of_range", refused.text
            assert refused.json()["params"] == {"field": "pool", "value": pool, "low": 1, "high": 30}
    assert [entry for entry in table.log()["entries"] if entry["kind"] == "roll"] == []  # nothing rolled


def test_the_web_odds_box_refuses_a_pool_the_roll_form_refuses(app, toy):
    storyteller = TestClient(app)
    created = storyteller.post(
        "/chronicles", data={"name": "Empty", "system": toy, "storyteller": "Ana"}, follow_redirects=False
    )
    assert created.status_code == 303, created.text
    added = storyteller.post(
        f"{created.headers['location']}/characters",
        data={"s.name": "Ann", **{f"s.traits.{name}": str(value) for name, value in TRAITS.items()}},
        follow_redirects=False,
    )
    assert added.status_code == 303, added.text
    sheet = added.headers["location"]
    odds = storyteller.get(f"{sheet}/odds", params=EMPTY, headers=HTMX)
    rolled = storyteller.post(f"{sheet}/rolls", data=EMPTY, headers=HTMX)
    said = "Pool must be between 1 and 30, not 0."
    assert rolled.status_code == 422 and said in rolled.text, rolled.text
    assert odds.status_code == 200 and 'role="alert"' in odds.text and said in odds.text, odds.text
    assert "Chance of success" not in odds.text
    shown = storyteller.get(f"{sheet}/odds", params={"kind": "pool", "trait": "might"}, headers=HTMX)
    assert "Chance of success: 70.4" in shown.text  # within bounds: 19/27


def test_discords_odds_refuse_a_pool_its_roll_refuses(make_table, discord, discord_api, toy):
    table, channel, (anna,) = seated(make_table, discord, toy, ANNA)
    table.character(anna, {"system": toy, "name": "Ann", "traits": TRAITS})
    before = len(table.log()["entries"])
    said = "Pool must be between 1 and 30, not 0."
    rolled = discord.ok(command("roll", [option("trait", "none")], user_id=ANNA, channel=channel))
    assert rolled["data"]["content"] == said and rolled["data"]["flags"] == 64, rolled
    asked = command("odds", [option("trait", "none")], user_id=ANNA, channel=channel)
    assert discord.ok(asked) == {"type": 5}  # deferred, then answered in the player's eyes only
    answered = discord_api.originals[asked["token"]]
    assert answered["content"] == said and answered["flags"] == 64 and not answered.get("embeds"), answered
    assert len(table.log()["entries"]) == before


def test_the_cli_refuses_the_odds_of_a_pool_its_roll_refuses(toy, monkeypatch, capsys):
    for pool in ("0", "31"):
        odds = run_here(monkeypatch, capsys, "odds", "toy", "--pool", pool)
        rolled = run_here(monkeypatch, capsys, "roll", "toy", "--pool", pool)
        for refused in (odds, rolled):
            assert refused.returncode == 2, refused.stdout
            assert refused.stderr.strip() == f"rollbook: pool must be between 1 and 30, not {pool}."


def test_a_shipped_systems_bounds_are_the_same_for_its_odds_and_its_roll(monkeypatch, capsys):
    odds = run_here(monkeypatch, capsys, "odds", "v20", "--pool", "0", "--json")
    rolled = run_here(monkeypatch, capsys, "roll", "v20", "--pool", "0", "--json")
    assert odds.returncode == rolled.returncode == 0, odds.stderr + rolled.stderr
    assert json.loads(rolled.stdout)["outcome"] == "failure"  # V20: no dice, no success
    assert json.loads(odds.stdout)["outcomes"]["failure"] == "1"
    for system in ("v20", "v5"):
        low = "-1" if system == "v20" else "0"
        odds = run_here(monkeypatch, capsys, "odds", system, "--pool", low)
        rolled = run_here(monkeypatch, capsys, "roll", system, "--pool", low)
        assert odds.returncode == rolled.returncode == 2
        assert odds.stderr == rolled.stderr and "pool must be between" in odds.stderr
