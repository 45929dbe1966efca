"""SPEC S-7 and S-8 through the API, on SQLite and PostgreSQL: an ending reveals the seeds its rolls
used (the export verifies with nothing pending, a story that ends without a fight too) and nothing is
rolled or changed after it; a fight turn is one of the fight's choices — a roll, a change or a sheet
edit made through the table's own routes while a fight runs is refused, the fight's own heal is not."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.fair import check_log
from rollbook.play import verify_receipt
from rollbook.server import tx
from rollbook.server.baselines import verify_ledger
from rollbook.server.chain import read_jsonl, verify_entries
from rollbook.server.db import Database
from rollbook.server.models import Member
from rollbook.server.usecases import solo
from tests.solo.dice import ScriptDice

SAMPLE = "drowned-lantern"
TINY = Path(__file__).parents[1] / "solo" / "data" / "tiny.yaml"
DICE = ScriptDice()
# lie (success) → mercy → cellar → the chase → the ferry: a good ending reached without a fight
NO_FIGHT = ["choice:0", "choice:0", "roll", "choice:0", "choice:0", "choice:0", "choice:1", "roll"]
NO_FIGHT += ["choice:0", "roll", "choice:0", "choice:0"]
TO_THE_FIGHT = ["choice:1", "choice:2", "choice:0", "choice:0"]  # the alley fed → the warehouse


@pytest.fixture(scope="module")
def fixed(database_url):
    with TestClient(create_app(database_url, dice=DICE)) as test_client:
        yield test_client


def begin(client) -> tuple[dict, dict]:
    response = client.post("/api/solo", json={"scenario": SAMPLE})
    assert response.status_code == 201, response.text
    made = response.json()
    return made, {"Authorization": f"Bearer {made['token']}"}


def act(client, made, headers, option: str) -> dict:
    response = client.post(
        f"/api/chronicles/{made['chronicle']['id']}/solo/act", headers=headers, json={"option": option}
    )
    assert response.status_code == 200, response.text
    return response.json()


def export_checked(client, made, headers) -> tuple[list[dict], dict]:
    text = client.get(f"/api/chronicles/{made['chronicle']['id']}/log/export", headers=headers).text
    entries = list(read_jsonl(text.splitlines()))
    problems, _counts = verify_entries(entries, verify_receipt, verify_ledger())
    fair = check_log(entry for _, entry in entries)
    assert problems == [] and not fair.problems, (problems, fair.problems)
    return [entry for _, entry in entries], fair.counts()


def no_fight_scenario() -> bytes:
    """The tiny scenario whose check leads to an ending whatever its result: no fight on the way."""
    data = yaml.safe_load(TINY.read_text(encoding="utf-8"))
    data["passages"]["lie"]["check"]["outcomes"] = {"botch": "gutter", "failure": "gutter", "success": "home"}
    data["passages"]["alley"]["choices"][1]["goto"] = "lie"
    del data["passages"]["brawl"]
    return yaml.safe_dump(data, allow_unicode=True).encode()


def test_S_7_a_story_that_ends_without_a_fight_reveals_its_seeds(client, database_url):
    """Fair dice (no fixed faces): the check's roll draws under the committed seed; the ending reveals it."""
    raw = no_fight_scenario()
    database = Database(database_url)
    try:
        made = tx.run(database, lambda session: solo.start(session, raw=raw))
        member = made["member"]["id"]
        for option in ("choice:0", "roll"):
            state = tx.run(
                database, lambda session, o=option: solo.act(session, session.get(Member, member), o, raw=raw)
            )
    finally:
        database.dispose()
    assert state["finished"] and state["passage"]["id"] in ("home", "gutter")
    headers = {"Authorization": f"Bearer {made['token']}"}
    entries, counts = export_checked(client, made, headers)
    kinds = [entry["kind"] for entry in entries]
    assert "scene_open" not in kinds  # no fight: no scene closed to reveal the seed
    ending = max(i for i, e in enumerate(entries) if e["kind"] == "solo_passage")
    assert "seed_reveal" in kinds[ending:]  # in the ending's transaction, after it
    assert counts.get("pending", 0) == 0 and counts.get("verified", 0) == 1, counts


def test_S_7_nothing_is_rolled_or_changed_after_the_ending(fixed):
    DICE.faces.clear()
    DICE.default = 10
    made, headers = begin(fixed)
    for option in NO_FIGHT:
        state = act(fixed, made, headers, option)
    chronicle, character = made["chronicle"]["id"], state["character"]["id"]
    base = f"/api/chronicles/{chronicle}/characters/{character}"
    rolled = fixed.post(
        f"{base}/rolls",
        headers=headers,
        json={"action": {"kind": "test", "attribute": "wits", "difficulty": 6}},
    )
    assert rolled.status_code == 409 and rolled.json()["code"] == "solo_finished"
    spent = fixed.post(
        f"{base}/adjustments", headers=headers, json={"change": {"kind": "spend_willpower", "amount": 1}}
    )
    assert spent.status_code == 409 and spent.json()["code"] == "solo_finished"
    chosen = fixed.post(f"/api/chronicles/{chronicle}/solo/act", headers=headers, json={"option": "choice:0"})
    assert chosen.status_code == 409 and chosen.json()["code"] == "solo_finished"


def test_S_8_a_change_through_the_tables_routes_during_a_fight_turn_is_refused(fixed):
    DICE.faces.clear()
    DICE.default = 6
    made, headers = begin(fixed)
    for option in TO_THE_FIGHT:
        state = act(fixed, made, headers, option)
    assert state["passage"]["kind"] == "fight"
    chronicle, character = made["chronicle"]["id"], state["character"]["id"]
    base = f"/api/chronicles/{chronicle}/characters/{character}"
    healed = fixed.post(
        f"{base}/adjustments",
        headers=headers,
        json={"change": {"kind": "spend_blood", "amount": 1, "heal": "bashing"}},
    )
    assert healed.status_code == 409 and healed.json()["code"] == "solo_fight_turn", healed.text
    rolled = fixed.post(
        f"{base}/rolls",
        headers=headers,
        json={"action": {"kind": "test", "attribute": "dexterity", "ability": "brawl", "difficulty": 6}},
    )
    assert rolled.status_code == 409 and rolled.json()["code"] == "solo_fight_turn"
    sheet = fixed.get(base, headers=headers).json()
    edited = fixed.patch(
        base, headers=headers, json={"patch": {"health": {"bashing": 0}}, "version": sheet["version"]}
    )
    assert edited.status_code == 409 and edited.json()["code"] == "solo_fight_turn", edited.text
    after = fixed.get(f"/api/chronicles/{chronicle}/solo", headers=headers).json()
    assert after["character"]["sheet"] == state["character"]["sheet"]  # nothing changed apart
    # the fight's own choices still play: the turn is the player's one action
    DICE.push(1, 10, 10, 6)  # the player misses; the foe hits, the damage lands, some is soaked
    hit = act(fixed, made, headers, next(c["id"] for c in after["choices"] if c["id"].startswith("attack:")))
    assert hit["track"]["damage"] > 0 and hit["passage"]["kind"] == "fight"
    heal = next((c for c in hit["choices"] if c["id"] == "heal"), None)
    assert heal is not None
    healed_in_turn = act(fixed, made, headers, "heal")  # the engine's change passes: it is the turn's action
    spent = [e for e in healed_in_turn["recent"] if e["kind"] == "adjust"]
    assert spent and spent[0]["receipt"]["change"]["kind"] == "spend_blood", healed_in_turn["recent"]


def test_S_7_the_second_sample_played_with_fair_dice_to_any_ending_verifies_with_nothing_pending(client):
    """The night clerk with the server's fair dice: the lobby's check, then the way out of whatever
    follows (down the service stairs; out of the fight): every ending seals its seeds."""
    made = client.post("/api/solo", json={"scenario": "night-clerk"}).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    state = made["state"]
    for _ in range(12):
        if state["finished"]:
            break
        ids = [c["id"] for c in state["choices"]]
        option = (
            "flee" if "flee" in ids else ("roll" if "roll" in ids else ids[-1] if len(ids) > 2 else ids[0])
        )
        state = act(client, made, headers, option)
    assert state["finished"], state["passage"]
    _entries, counts = export_checked(client, made, headers)
    assert counts.get("pending", 0) == 0 and counts.get("verified", 0) >= 1, counts
