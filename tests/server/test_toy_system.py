"""A fifth, toy system (a plain d6 pool, ``tests/toy_system``) registered from outside the package:
created, rolled, asked, granted, shown, verified and given odds through the JSON API (A-1, A-2),
with no file of ``src/`` naming it."""

from __future__ import annotations

import io
import json
import sys

import pytest

from rollbook.cli import main
from rollbook.play import systems, verify_receipt
from rollbook.server.chain import read_jsonl, verify_entries
from rollbook.server.ledger import AuthorityLedger
from tests.in_process import run_here
from tests.toy_system import registered
from tests.toy_system import toy as toy_module

from .conftest import Table


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def toy_table(client, system: str) -> Table:
    response = client.post("/api/chronicles", json={"name": "Toy table", "system": system})
    assert response.status_code == 201, response.text
    return Table(client, response.json())


def test_the_api_lists_a_registered_system_and_only_while_it_is(client):
    with registered() as toy:
        assert toy in client.get("/api/systems").json()["systems"]
    assert toy not in client.get("/api/systems").json()["systems"]
    refused = client.post("/api/chronicles", json={"name": "Gone", "system": toy})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_choice"
    with pytest.raises(ValueError):
        systems.register("v20", toy_module)  # a shipped system is never replaced


def test_a_toy_pool_is_rolled_asked_granted_shown_verified_and_given_odds(
    client, toy, tmp_path, monkeypatch, capsys
):
    table = toy_table(client, toy)
    assert table.system == toy
    player = table.join("Pat")
    character = table.character(player, {"system": toy, "name": "Ann", "traits": {"might": 3}})

    # The odds of the roll the player would make: 3d6, at least one 5 or 6 = 1 - (2/3)^3.
    odds = client.post(
        f"{table.base}/characters/{character['id']}/odds",
        headers=player,
        json={"action": {"kind": "pool", "trait": "might"}},
    )
    assert odds.status_code == 200, odds.text
    assert odds.json()["request"] == {"pool": 3}
    assert odds.json()["odds"]["outcomes"]["success"] == "19/27"

    # The player's own roll: the sheet's pool, each 5-6 a success.
    rolled = table.roll(player, character["id"], {"kind": "pool", "trait": "might"})
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    assert receipt["system"] == toy and len(receipt["faces"]) == 3
    assert receipt["result"]["successes"] == sum(face >= 5 for face in receipt["faces"])
    assert verify_receipt(receipt) == []

    # An edge (extra dice) is asked, then granted: the server rolls what was granted.
    refused = table.roll(player, character["id"], {"kind": "pool", "trait": "might", "extra": 2})
    assert refused.status_code == 403, refused.text
    asked = table.roll(player, character["id"], {"kind": "pool", "trait": "might", "extra": 2}, ask=True)
    assert asked.status_code == 202, asked.text
    ask_id = asked.json()["ask"]["id"]
    granted = client.post(f"{table.base}/asks/{ask_id}/grant", headers=table.st, json={})
    assert granted.status_code == 201, granted.text
    grant_receipt = granted.json()["entry"]["receipt"]
    assert len(grant_receipt["faces"]) == 5 and grant_receipt["request"] == {"pool": 5}

    # Shown: the log as the player reads it; verified: the export checks out, grants included.
    seen = table.log(player)["entries"]
    assert [entry["kind"] for entry in seen][-3:] == ["ask", "grant", "roll"]
    problems, _ = verify_entries(read_jsonl(table.export().splitlines()), verify_receipt, AuthorityLedger())
    assert problems == []

    # The CLI, in this process (where the toy is registered): ``rollbook log verify`` of the export.
    exported = tmp_path / "toy.jsonl"
    exported.write_text(table.export())
    monkeypatch.setattr(sys, "argv", ["rollbook", "log", "verify", str(exported)])
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code in (0, None), capsys.readouterr()


def test_rollbook_resolve_takes_a_toy_line(toy, monkeypatch, capsys):
    """The CLI's ``rollbook resolve`` (the resolve contract), in this process: the toy's line."""
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"system": "toy", "pool": 3, "faces": [6, 2, 5]}\n'))
    monkeypatch.setattr(sys, "argv", ["rollbook", "resolve"])
    with pytest.raises(SystemExit) as ended:
        main()
    out = capsys.readouterr().out
    assert ended.value.code in (0, None), out
    assert json.loads(out) == {
        "pool": 3,
        "faces": [6, 2, 5],
        "successes": 2,
        "outcome": "success",
        "system": "toy",
    }


def test_rollbook_roll_and_odds_take_the_toy_from_the_registry(toy, monkeypatch, capsys):
    """The CLI's ``rollbook roll`` and ``rollbook odds``, in this process: a system registered without
    a command of its own takes its quick roll's values (``--pool``) and answers its rules and odds."""
    rolled = run_here(monkeypatch, capsys, "roll", "toy", "--pool", "4", "--json")
    assert rolled.returncode == 0, rolled.stderr
    receipt = json.loads(rolled.stdout)
    assert receipt["system"] == "toy" and receipt["pool"] == 4 and len(receipt["faces"]) == 4
    assert receipt["successes"] == sum(1 for face in receipt["faces"] if face >= 5)
    shown = run_here(monkeypatch, capsys, "roll", "toy", "--pool", "2")
    assert shown.returncode == 0 and "Pool 2" in shown.stdout, shown.stdout + shown.stderr
    # its view speaks the reader's language through the shipped msgids, as the shipped systems' do
    french = run_here(monkeypatch, capsys, "roll", "toy", "--pool", "2", "--lang", "fr")
    assert french.returncode == 0 and "Réserve 2" in french.stdout, french.stdout + french.stderr
    assert "Réussites" in french.stdout and "Pool" not in french.stdout, french.stdout

    odds = run_here(monkeypatch, capsys, "odds", "toy", "--pool", "3", "--json")
    assert odds.returncode == 0, odds.stderr
    assert json.loads(odds.stdout)["outcomes"] == {"success": "19/27", "failure": "8/27"}
    table = run_here(monkeypatch, capsys, "odds", "toy", "--pool", "3")
    assert table.returncode == 0 and "70.37%" in table.stdout and "19/27" in table.stdout, table.stdout

    listed = run_here(monkeypatch, capsys, "odds", "--help")
    assert "toy" in listed.stdout, listed.stdout
    for command, pool in (
        ("odds", "many"),
        ("roll", "many"),
        ("roll", "31"),
    ):  # no number; past the rules' 30
        refused = run_here(monkeypatch, capsys, command, "toy", "--pool", pool)
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr


def test_rollbook_roll_and_odds_refuse_the_toy_once_it_is_gone(monkeypatch, capsys):
    """Outside the registry, ``toy`` is no system: a one-line refusal naming the systems known."""
    for command in ("roll", "odds"):
        refused = run_here(monkeypatch, capsys, command, "toy", "--pool", "3")
        assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    unknown = run_here(monkeypatch, capsys, "odds", "toy", "--pool", "3")
    assert "v20" in unknown.stderr and "toy" in unknown.stderr.split("choose")[0], unknown.stderr
