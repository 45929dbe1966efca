"""Provably fair dice on the server (SPEC F-1 … F-6), end to end on SQLite and PostgreSQL: a
chronicle, two players with client seeds, rolls and a V5 reroll, a hidden roll, the Storyteller's
rotation and the one at the end of a scene, the export, ``rollbook log verify`` clean; then each
kind of tampering caught, even by a forger who recomputes the hash chain. The seed in use is never in
an API answer, a page, a log line or an export."""

from __future__ import annotations

import json
import logging

import pytest
from sqlalchemy import select

from rollbook.dice import FAIR_ALGORITHM, FairDice, commitment_of
from rollbook.server import seal
from rollbook.server.models import FairSeed

from .conftest import V5_SHEET, V5_TEST
from .helpers import rehash, verify

SHEET_2 = {**V5_SHEET, "name": "Ilse"}


def seed_in_use(app, chronicle_id: int, stream: str = "public") -> bytes:
    with app.state.db.read() as session:
        row = session.scalars(
            select(FairSeed).where(
                FairSeed.chronicle_id == chronicle_id,
                FairSeed.stream == stream,
                FairSeed.revealed_seq.is_(None),
            )
        ).one()
        return seal.unseal(row.sealed, chronicle_id, row.commitment)


class Evening:
    """What the test's evening sent and received, to grep for the seed in use."""

    def __init__(self, client, table) -> None:
        self.client, self.table, self.seen = client, table, []

    def call(self, method: str, url: str, headers: dict, expect: int, **kwargs):
        response = self.client.request(method, url, headers=headers, **kwargs)
        assert response.status_code == expect, response.text
        self.seen.append(response.text)
        kind = response.headers.get("content-type", "").split(";")[0]
        return response.json() if kind == "application/json" else response.text


@pytest.fixture()
def evening(client, make_table, app, caplog):
    caplog.set_level(logging.DEBUG)
    table = make_table("v5")
    alice, bob = table.join("Alice"), table.join("Bob")
    e = Evening(client, table)
    base = table.base
    e.call("PUT", f"{base}/members/me/client-seed", alice, 200, json={"client_seed": "alice's lucky string"})
    e.call("PUT", f"{base}/members/me/client-seed", bob, 200, json={"client_seed": "Élodie 🎲"})
    first = table.character(alice, V5_SHEET)
    second = table.character(bob, SHEET_2)
    rolls = [e.call("POST", f"{base}/characters/{first['id']}/rolls", alice, 201, json={"action": V5_TEST})]
    e.first_seed = seed_in_use(app, table.id)
    rolls.append(
        e.call("POST", f"{base}/characters/{second['id']}/rolls", bob, 201, json={"action": V5_TEST})
    )
    rolls.append(
        e.call(
            "POST",
            f"{base}/characters/{first['id']}/rolls",
            table.st,
            201,
            json={"action": V5_TEST, "hidden": True},
        )
    )
    e.reroll = e.call(
        "POST",
        f"{base}/log/{rolls[0]['entry']['seq']}/rerolls",
        alice,
        201,
        json={"action": {"kind": "reroll", "dice": [0]}},
    )
    e.call("PUT", f"{base}/members/me/client-seed", bob, 200, json={"client_seed": "a new string"})
    rolls.append(
        e.call("POST", f"{base}/characters/{second['id']}/rolls", bob, 201, json={"action": V5_TEST})
    )
    e.rotated = e.call("POST", f"{base}/fair/rotate", table.st, 201)
    # F-5: a scene's end reveals the seed its rolls used
    e.call("POST", f"{base}/scenes", table.st, 201, json={"name": "The docks"})
    e.second_seed = seed_in_use(app, table.id)
    rolls.append(
        e.call("POST", f"{base}/characters/{first['id']}/rolls", alice, 201, json={"action": V5_TEST})
    )
    e.closed = e.call("POST", f"{base}/scene/close", table.st, 200)
    e.third_seed = seed_in_use(app, table.id)
    rolls.append(
        e.call("POST", f"{base}/characters/{second['id']}/rolls", bob, 201, json={"action": V5_TEST})
    )
    e.rolls, e.alice, e.bob = rolls, alice, bob
    e.state = e.call("GET", f"{base}/fair", alice, 200)
    for headers in (table.st, alice, bob):
        e.call("GET", f"{base}/log", headers, 200)
        e.call("GET", f"/chronicles/{table.id}", headers, 200)
    e.export = e.call("GET", f"{base}/log/export", table.st, 200)
    e.seen.append(e.call("GET", f"{base}/log/export", alice, 200))
    e.logged = caplog.text
    return e


def test_every_online_receipt_carries_its_fairness_record_and_faces_recompute(evening):
    """F-3, F-4, F-6: one nonce per roll and per follow-up, the member's own client seed."""
    e = evening
    first = e.rolls[0]["entry"]
    record = first["receipt"]["fair"]
    assert record == {
        "algorithm": FAIR_ALGORITHM,
        "commitment": commitment_of(e.first_seed),
        "client_seed": "alice's lucky string",
        "nonce": 1,
        "stream": "public",
    }
    source = FairDice(e.first_seed, e.table.id, "alice's lucky string", 1)
    assert tuple(first["receipt"]["faces"]) == source.draw(len(first["receipt"]["faces"]), 10)
    assert e.rolls[1]["entry"]["receipt"]["fair"]["client_seed"] == "Élodie 🎲"
    assert e.rolls[1]["entry"]["receipt"]["fair"]["nonce"] == 2
    hidden = e.rolls[2]["entry"]["receipt"]["fair"]
    assert hidden["client_seed"] == ""  # the Storyteller set none
    # F-7: a hidden roll takes the hidden stream's first nonce, not the public stream's next one
    assert (
        hidden["stream"] == "hidden" and hidden["nonce"] == 1 and hidden["commitment"] != record["commitment"]
    )
    last = e.reroll["entry"]["receipt"]["rerolls"][-1]
    assert last["fair"]["nonce"] == 3 and last["fair"]["client_seed"] == "alice's lucky string"
    assert e.reroll["entry"]["receipt"]["fair"] == record  # the roll's own record, copied
    assert e.rolls[3]["entry"]["receipt"]["fair"]["client_seed"] == "a new string"
    assert e.rotated["revealed"]["seed"] == e.first_seed.hex() and e.rotated["revealed"]["rolls"] == 4
    assert e.rotated["revealed"]["last_nonce"] == 4 and e.rotated["hidden_revealed"] is None  # F-8; F-7
    assert e.rotated["commitment"] == commitment_of(e.second_seed)
    assert e.closed["rotation"]["revealed"]["seed"] == e.second_seed.hex()
    assert (
        e.state["commitment"] == commitment_of(e.third_seed)
        and e.state["client_seed"] == "alice's lucky string"
    )
    assert [r["seed"] for r in e.state["revealed"]] == [e.first_seed.hex(), e.second_seed.hex()]


def test_the_seed_in_use_never_leaves_the_server(evening, app):
    """F-1: not in an API answer, a page, a log line or an export; and not in the database in clear."""
    e = evening
    secret = e.third_seed.hex()
    for text in [*e.seen, e.export, e.logged]:
        assert secret not in text and secret.upper() not in text
    with app.state.db.read() as session:
        rows = session.scalars(select(FairSeed)).all()
        assert all(
            e.third_seed.hex() not in row.sealed and e.first_seed.hex() not in row.sealed for row in rows
        )


def test_log_verify_is_clean_with_pending_rolls_and_catches_each_tampering(evening, tmp_path):
    """F-6: ``rollbook log verify`` recomputes every face under the revealed seeds, counts the roll
    under the seed in use as pending, and catches a changed face, seed, nonce, client seed or a dropped
    entry even when the forger recomputed the hash chain."""
    lines = evening.export.splitlines()
    clean = verify(tmp_path, lines)
    assert clean.returncode == 0, clean.stdout
    assert "fair dice: 5 verified, 2 pending" in clean.stderr  # the hidden roll's seed is not revealed (F-7)
    entries = [json.loads(line) for line in lines]
    first = next(e for e in entries if e["kind"] == "roll")
    reveal = next(e for e in entries if e["kind"] == "seed_reveal")
    client = next(e for e in entries if e["kind"] == "client_seed")

    def forged(change, seq: int) -> str:
        copy = [json.loads(line) for line in lines]
        change(copy)
        result = verify(tmp_path, rehash([json.dumps(e) for e in copy], seq), "forged.jsonl")
        assert result.returncode == 1 and "hash mismatch" not in result.stdout, result.stdout
        return result.stdout

    def face(copy):
        entry = next(e for e in copy if e["seq"] == first["seq"])
        faces = entry["receipt"]["faces"]
        faces[0] = faces[0] % 10 + 1
        entry["receipt"]["result"]["faces"] = faces

    def seed(copy):
        entry = next(e for e in copy if e["seq"] == reveal["seq"])
        entry["receipt"]["seed"] = "00" * 32

    def nonce(copy):
        next(e for e in copy if e["seq"] == first["seq"])["receipt"]["fair"]["nonce"] = 9

    def client_seed(copy):
        next(e for e in copy if e["seq"] == first["seq"])["receipt"]["fair"]["client_seed"] = "someone else"

    def client_entry(copy):
        next(e for e in copy if e["seq"] == client["seq"])["receipt"]["client_seed"] = "what I said"

    def dropped(copy):
        index = next(i for i, e in enumerate(copy) if e["seq"] == first["seq"] + 1)
        del copy[index]
        for later in copy[index:]:
            later["seq"] -= 1

    assert "fair_faces_differ" not in forged(face, first["seq"])  # codes are not shown: sentences are
    assert f"entry {first['seq']}: The faces" in forged(face, first["seq"])
    assert f"entry {reveal['seq']}:" in forged(seed, reveal["seq"])
    assert f"entry {first['seq']}:" in forged(nonce, first["seq"])
    assert f"entry {first['seq']}:" in forged(client_seed, first["seq"])
    assert "Client seed" in forged(client_entry, client["seq"])
    assert "nonce" in forged(dropped, first["seq"] + 1).lower()


def test_combat_follow_ups_take_their_own_nonce_and_verify(client, make_table, tmp_path):
    """F-3 on the combat chain (V20-17): the attack, its damage roll and the defender's soak each take
    the next nonce under the seed in use, with their roller's client seed; all recompute once revealed."""
    from .helpers import MELEE, V20_ATTACKER, V20_DEFENDER

    table = make_table("v20")
    alice, bob = table.join("Alice"), table.join("Bob")
    client.put(f"{table.base}/members/me/client-seed", headers=bob, json={"client_seed": "bob's"})
    nia, bran = table.character(alice, V20_ATTACKER), table.character(bob, V20_DEFENDER)
    for _ in range(20):  # an attack that hits (the dice are the server's own)
        attack = table.roll(alice, nia["id"], MELEE, target=bran["id"]).json()["entry"]
        if attack["receipt"]["result"]["successes"] > 0:
            break
    damage = table.roll(alice, nia["id"], {"kind": "damage", "weapon": "knife"}, follows=attack["seq"])
    assert damage.status_code == 201, damage.text
    soak = table.roll(bob, bran["id"], {"kind": "soak"}, follows=damage.json()["entry"]["seq"])
    assert soak.status_code == 201, soak.text
    nonces = [
        attack["receipt"]["fair"]["nonce"],
        damage.json()["entry"]["receipt"]["fair"]["nonce"],
        soak.json()["entry"]["receipt"]["fair"]["nonce"],
    ]
    assert nonces[1:] == [nonces[0] + 1, nonces[0] + 2]
    assert soak.json()["entry"]["receipt"]["fair"]["client_seed"] == "bob's"
    assert client.post(f"{table.base}/fair/rotate", headers=table.st).status_code == 201
    result = verify(tmp_path, table.export().splitlines())
    assert result.returncode == 0, result.stdout
    assert f"fair dice: {nonces[2]} verified, 0 pending" in result.stderr
