"""The solo chronicle through the API (SPEC S-1 … S-5), on SQLite and PostgreSQL: a scenario
started, played with fixed dice to each of the sample's endings, resumed, and its export verified as
`rollbook log verify` does (fair dice included)."""

from __future__ import annotations

import json
import secrets

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.fair import check_log
from rollbook.play import verify_receipt
from rollbook.server.baselines import verify_ledger
from rollbook.server.chain import read_jsonl, verify_entries
from tests.solo.dice import ScriptDice

SAMPLE = "drowned-lantern"
DICE = ScriptDice()


@pytest.fixture(scope="module")
def fixed(database_url):
    """A client whose server rolls ``DICE`` (one face per roll, then its default)."""
    with TestClient(create_app(database_url, dice=DICE)) as test_client:
        yield test_client


def begin(client, **body) -> tuple[dict, dict]:
    response = client.post("/api/solo", json={"scenario": SAMPLE, **body})
    assert response.status_code == 201, response.text
    made = response.json()
    return made, {"Authorization": f"Bearer {made['token']}"}


def act(client, made, headers, option: str, *, lang: str = "en", key: str | None = None) -> dict:
    extra = {"Idempotency-Key": key} if key else {}
    response = client.post(
        f"/api/chronicles/{made['chronicle']['id']}/solo/act",
        params={"lang": lang},
        headers={**headers, **extra},
        json={"option": option},
    )
    assert response.status_code == 200, response.text
    return response.json()


def verified(client, made, headers) -> dict:
    """The export checked as `rollbook log verify` checks it: chain, receipts, authority, fair dice."""
    text = client.get(f"/api/chronicles/{made['chronicle']['id']}/log/export", headers=headers).text
    entries = list(read_jsonl(text.splitlines()))
    problems, counts = verify_entries(entries, verify_receipt, verify_ledger())
    fair = check_log(entry for _, entry in entries)
    assert problems == [] and not fair.problems, (problems, fair.problems)
    return {"counts": counts, "fair": fair.counts(), "entries": [entry for _, entry in entries]}


def test_the_scenarios_ship_and_are_listed(client):
    listed = client.get("/api/solo/scenarios", params={"lang": "es"}).json()["scenarios"]
    sample = next(s for s in listed if s["id"] == SAMPLE)
    assert (
        set(sample["languages"]) == {"fr", "es", "en"} and sample["title"] and sample["pregenerated"]["name"]
    )


def test_a_solo_chronicle_begins_at_the_start_in_the_players_language_s1(client):
    made, headers = begin(client, language="fr", player="Léa")
    state = made["state"]
    assert state["passage"]["id"] == "quay" and state["language"] == "fr" and not state["finished"]
    assert [c["id"] for c in state["choices"]] == ["choice:0", "choice:1"] and all(
        c["label"] for c in state["choices"]
    )
    assert state["track"]["damage"] == 0 and state["track"]["blood"]["per_turn"] >= 1
    got = client.get(
        f"/api/chronicles/{made['chronicle']['id']}/solo", headers=headers, params={"lang": "es"}
    ).json()
    assert got["passage"]["id"] == "quay" and got["passage"]["text"] != state["passage"]["text"]
    members = client.get(f"/api/chronicles/{made['chronicle']['id']}/members", headers=headers).json()
    members = members.get("members", members) if isinstance(members, dict) else members
    assert sorted(m["role"] for m in members) == ["player", "storyteller"]  # the scenario is the Storyteller


def test_a_check_shows_its_odds_before_the_roll_and_rolls_the_scenarios_difficulty_s2(fixed):
    made, headers = begin(fixed)
    state = act(fixed, made, headers, "choice:0")
    state = act(fixed, made, headers, "choice:0")
    roll = next(c for c in state["choices"] if c["id"] == "roll")
    assert roll["difficulty"] == 7 and 0 < roll["odds"]["floats"]["success"] < 1  # rollbook.odds, exact
    DICE.default = 10
    state = act(fixed, made, headers, "roll")
    rolled = [e for e in state["recent"] if e["kind"] == "roll"][-1]
    assert rolled["receipt"]["request"]["difficulty"] == 7 and rolled["actor"]["role"] == "storyteller"
    assert (
        rolled["receipt"]["authority"] == {"scenario": SAMPLE}
        and rolled["receipt"]["solo"]["role"] == "check"
    )
    assert state["passage"]["id"] == "lantern_success" and "knows_cellar" in state["flags"]


def test_bad_input_is_a_problem_not_a_traceback(fixed, client):
    made, headers = begin(fixed)
    base = f"/api/chronicles/{made['chronicle']['id']}/solo/act"
    refused = fixed.post(base, headers=headers, json={"option": "choice:9"})
    assert refused.status_code == 422 and refused.json()["code"] == "solo_choice_unknown"
    assert fixed.post(base, headers=headers, json={"option": "x", "edge": 1}).status_code == 422
    assert client.post("/api/solo", json={"scenario": "nope"}).json()["code"] == "scenario_unknown"
    bad = client.post(
        "/api/solo", json={"scenario": SAMPLE, "sheet": {"name": "X", "attributes": {"strength": 12}}}
    )
    assert bad.status_code == 422
    table = client.post("/api/chronicles", json={"name": "T", "system": "v20"}).json()
    other = client.get(
        f"/api/chronicles/{table['chronicle']['id']}/solo",
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    assert other.status_code == 409 and other.json()["code"] == "not_a_solo_chronicle"


def test_the_players_own_sheet(client):
    own = {"name": "Rosa", "attributes": {"dexterity": 3, "manipulation": 2}, "talents": {"subterfuge": 3}}
    made, headers = begin(client, sheet=own)
    assert made["state"]["character"]["name"] == "Rosa"
    assert made["state"]["character"]["sheet"]["talents"]["subterfuge"] == 3


def test_an_act_with_an_idempotency_key_happens_once(fixed):
    made, headers = begin(fixed)
    key = secrets.token_hex(16)
    first = act(fixed, made, headers, "choice:0", key=key)
    again = act(fixed, made, headers, "choice:0", key=key)
    assert first == again and first["passage"]["id"] == "lantern"
    log = fixed.get(f"/api/chronicles/{made['chronicle']['id']}/log", headers=headers).json()
    assert sum(1 for e in log["entries"] if e["kind"] == "solo_choice") == 1


def test_leaving_and_coming_back_resumes_where_the_story_was_s5(fixed, database_url):
    made, headers = begin(fixed)
    act(fixed, made, headers, "choice:1")
    state = act(fixed, made, headers, "choice:2")
    with TestClient(create_app(database_url)) as other:  # another server process on the same store
        resumed = other.get(f"/api/chronicles/{made['chronicle']['id']}/solo", headers=headers).json()
    assert resumed["passage"] == state["passage"] and resumed["choices"] == state["choices"]


def test_a_fight_with_fair_dice_verifies_fair_dice_included_s3_s5(client):
    made, headers = begin(client, client_seed="my own seed")
    act(client, made, headers, "choice:1")
    act(client, made, headers, "choice:2")
    act(client, made, headers, "choice:0")
    state = act(client, made, headers, "choice:0")
    assert state["passage"]["kind"] == "fight" and state["turn"] == 1 and state["npcs"][0]["id"] == "kessler"
    attack = next(c for c in state["choices"] if c["id"] == "attack:1:kessler")
    assert 0 < attack["odds"]["floats"]["success"] < 1 and "Crowbar" in attack["label"]  # the hit's odds
    for _ in range(20):
        if state["passage"]["id"] != "fight_warehouse":
            break
        state = act(
            client, made, headers, next(c["id"] for c in state["choices"] if c["id"].startswith("attack:1"))
        )
    assert state["passage"]["id"] in ("after_fight", "end_ash")
    checked = verified(client, made, headers)
    fair_rolls = [e for e in checked["entries"] if e["kind"] == "roll" and e["receipt"].get("fair")]
    # Every fair roll of the fight verifies once its scene has closed (F-5); a short fight is a test,
    # a damage and a soak roll: three.
    assert len(fair_rolls) >= 3
    assert checked["fair"]["verified"] == len(fair_rolls) and checked["fair"]["pending"] == 0
    kinds = {e["kind"] for e in checked["entries"]}
    assert {
        "solo_start",
        "solo_choice",
        "solo_passage",
        "scene_open",
        "turn",
        "scene_close",
        "client_seed",
    } <= kinds
    rolls = [e for e in checked["entries"] if e["kind"] == "roll"]
    assert {r["receipt"]["kind"] for r in rolls} >= {"test", "damage", "soak"}
    assert all(r["receipt"]["fair"]["client_seed"] == "my own seed" for r in rolls)


# --- every ending of the sample, with fixed dice (S-6) ---------------------------------


def fight_until_over(client, made, headers, state: dict, option_prefix: str, pushes=()) -> dict:
    here = state["passage"]["id"]
    for _ in range(12):
        if state["passage"]["id"] != here:
            return state
        DICE.push(*pushes)
        state = act(
            client,
            made,
            headers,
            next(c["id"] for c in state["choices"] if c["id"].startswith(option_prefix)),
        )
    raise AssertionError(f"the fight {here} did not end")


def route(client, made, headers, steps) -> dict:
    state = made["state"]
    for step in steps:
        option, face, fight = (step + (None, None))[:3] if isinstance(step, tuple) else (step, None, None)
        if face is not None:
            DICE.default = face
        if fight is not None:
            state = fight_until_over(client, made, headers, state, option, fight)
        else:
            state = act(client, made, headers, option)
    return state


ENDINGS = {
    # lie (success) → mercy (Willpower) → cellar → chase (one roll) → the ferry
    "end_ferry": [
        "choice:0",
        "choice:0",
        ("roll", 10),
        "choice:0",
        "choice:0",
        "choice:0",
        "choice:1",
        "roll",
        "choice:0",
        "roll",
        "choice:0",
        "choice:0",
    ],
    # lean (success) → resist (success) → cellar → the chase botched → helped (mercy) → the ledger
    "end_ledger": [
        "choice:0",
        "choice:1",
        ("roll", 10),
        "choice:0",
        "choice:1",
        "roll",
        "choice:0",
        "choice:1",
        "roll",
        "choice:0",
        ("roll", 1),
        "choice:0",
        "choice:0",
        "choice:1",
    ],
    # the alley fed → the warehouse fight won → the debt
    "end_debt": ["choice:1", "choice:2", "choice:0", "choice:0", ("attack:1", 10, ()), "choice:1"],
    # the lie botched (betrayed) → resist failed → the ambush → flee
    "end_flight": [
        "choice:0",
        "choice:0",
        ("roll", 1),
        "choice:0",
        "choice:1",
        ("roll", 2),
        "choice:0",
        "choice:2",
        "flee",
    ],
    # lean failed → the warehouse fight lost: the player botches, Kessler hits, nothing soaked
    "end_ash": [
        "choice:0",
        "choice:1",
        ("roll", 2),
        "choice:0",
        "choice:2",
        "choice:0",
        "choice:0",
        ("attack:0", 10, (1, 10, 10, 1)),
    ],
}


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_every_ending_of_the_sample_is_played_and_its_export_verifies_s6(fixed, ending):
    DICE.faces.clear()
    DICE.default = 6
    made, headers = begin(fixed)
    state = route(fixed, made, headers, ENDINGS[ending])
    assert state["passage"]["id"] == ending and state["finished"] and state["choices"] == []
    assert state["ending"] in ("good", "bitter", "dark")
    checked = verified(fixed, made, headers)
    passages = [e["receipt"]["passage"] for e in checked["entries"] if e["kind"] == "solo_passage"]
    assert passages[0] == "quay" and passages[-1] == ending
    refused = fixed.post(
        f"/api/chronicles/{made['chronicle']['id']}/solo/act", headers=headers, json={"option": "choice:0"}
    )
    assert refused.status_code == 409 and refused.json()["code"] == "solo_finished"


def test_the_sample_routes_reach_every_ending_and_the_botch_path():
    import yaml

    from rollbook.solo.library import shipped

    data = yaml.safe_load(shipped()[SAMPLE])
    endings = {name for name, passage in data["passages"].items() if "ending" in passage}
    assert endings == set(ENDINGS)
    assert json.dumps(ENDINGS["end_flight"])  # the lie's botch path → the ambush (lantern_botch, betrayed)


def test_a_scenario_changed_since_the_chronicle_began_is_not_resumed_s5(client, monkeypatch):
    from rollbook.server.usecases import solo as solo_usecases
    from rollbook.solo.library import shipped

    made, headers = begin(client)
    changed = {SAMPLE: shipped()[SAMPLE].replace(b"quay:", b"quay:", 1) + b"\n# edited\n"}
    monkeypatch.setattr(solo_usecases, "shipped", lambda: changed)
    got = client.get(f"/api/chronicles/{made['chronicle']['id']}/solo", headers=headers)
    assert got.status_code == 409 and got.json()["code"] == "scenario_changed"


def test_feeding_in_the_story_restores_blood_by_the_scenarios_hand_s3(fixed):
    """A passage's ``blood_gain`` (the alley, when Nadia drinks) is the Storyteller's ``restore``: the
    scenario is the Storyteller, so the change is logged as theirs and verifies like any."""
    DICE.faces.clear()
    DICE.default = 6
    made, headers = begin(fixed)
    before = made["state"]["track"]["blood"]["current"]
    state = route(fixed, made, headers, ["choice:1", "choice:2"])  # the alley, then drink
    assert state["passage"]["id"] == "alley_fed"
    assert state["track"]["blood"]["current"] == min(before + 3, state["track"]["blood"]["max"])
    checked = verified(fixed, made, headers)
    fed = [e for e in checked["entries"] if e["kind"] == "adjust" and e["actor"]["role"] == "storyteller"]
    assert [effect["resource"] for e in fed for effect in e["effects"]] == ["blood"]
