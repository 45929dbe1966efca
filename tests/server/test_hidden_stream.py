"""Hidden rolls keep their secret through a reveal (SPEC F-7), on SQLite and
PostgreSQL, tried as an adversarial player would: after the scene closes and the seed rotates, a
player recomputes faces from EVERY revealed seed, for every nonce and every client seed they know,
and finds no hidden roll's faces; the public stream's nonces show no gap where a hidden roll was; a
hidden ask's public entries say only that a hidden ask was made and granted. The hidden seed is
revealed once all its rolls are, or with all of them by the Storyteller; exports verify clean."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from rollbook.fair import faces_for
from rollbook.server import seal
from rollbook.server.models import FairSeed

from .conftest import V5_SHEET, V5_TEST
from .forging import entries_of, verify

BIG = {**V5_SHEET, "name": "Vasha", "attributes": {"dexterity": 5, "wits": 2}, "skills": {"firearms": 5}}
NPC = {**V5_SHEET, "name": "The Prince", "attributes": {"dexterity": 4, "wits": 5}, "skills": {"firearms": 5}}
ALL_NONCES = range(1, 40)


def call(client, method: str, url: str, headers: dict, expect: int, **kwargs) -> dict:
    response = client.request(method, url, headers=headers, **kwargs)
    assert response.status_code == expect, response.text
    return response.json()


def seed_in_use(app, chronicle_id: int, stream: str) -> bytes | None:
    with app.state.db.read() as session:
        row = session.scalars(
            select(FairSeed).where(
                FairSeed.chronicle_id == chronicle_id,
                FairSeed.stream == stream,
                FairSeed.revealed_seq.is_(None),
            )
        ).first()
        return None if row is None else seal.unseal(row.sealed, chronicle_id, row.commitment)


@pytest.fixture()
def hidden_session(client, make_table):
    """A V5 evening: two players with client seeds, visible rolls around the Storyteller's hidden
    rolls (one of an NPC), a player's hidden ask granted, a scene closed, a rotation."""
    table = make_table("v5")
    alice, bob = table.join("Alice"), table.join("Bob")
    base = table.base
    call(client, "PUT", f"{base}/members/me/client-seed", alice, 200, json={"client_seed": "alice"})
    call(client, "PUT", f"{base}/members/me/client-seed", bob, 200, json={"client_seed": "bob"})
    vasha = table.character(alice, BIG)
    ilse = table.character(bob, {**BIG, "name": "Ilse"})
    prince = table.character(table.st, NPC)
    call(client, "POST", f"{base}/scenes", table.st, 201, json={"name": "Elysium"})
    hidden, visible = [], []

    def roll(headers, character, **body):
        answer = call(
            client,
            "POST",
            f"{base}/characters/{character['id']}/rolls",
            headers,
            201,
            json={"action": V5_TEST, **body},
        )
        (hidden if body.get("hidden") else visible).append(answer["entry"])
        return answer["entry"]

    roll(alice, vasha)
    roll(table.st, prince, hidden=True)  # an NPC's hidden roll between two visible ones
    roll(bob, ilse)
    roll(table.st, vasha, hidden=True)
    # a player's hidden ask (A-1: a hidden roll is the Storyteller's), granted as asked
    asked = call(
        client,
        "POST",
        f"{base}/characters/{vasha['id']}/rolls",
        alice,
        202,
        json={"action": {**V5_TEST, "difficulty": 4}, "hidden": True, "ask": True},
    )
    granted = call(client, "POST", f"{base}/asks/{asked['ask']['id']}/grant", table.st, 201, json={})
    hidden.append(granted["entry"])
    roll(alice, vasha)
    closed = call(client, "POST", f"{base}/scene/close", table.st, 200)
    roll(bob, ilse)
    roll(table.st, prince, hidden=True)
    rotated = call(client, "POST", f"{base}/fair/rotate", table.st, 201)
    return {
        "table": table,
        "alice": alice,
        "bob": bob,
        "hidden": hidden,
        "visible": visible,
        "closed": closed,
        "rotated": rotated,
        "ask": asked,
        "grant": granted,
        "vasha": vasha,
        "prince": prince,
    }


def test_hidden_roll_recomputed_after_reveal(hidden_session):
    """F-7: from every seed revealed after the scene's close and the rotation, for every nonce and
    every client seed a player knows, no hidden roll's faces come out (today they all do: the hidden
    roll's nonce is the gap between the visible ones)."""
    table, bob = hidden_session["table"], hidden_session["bob"]
    exported = entries_of(table.export(bob))
    revealed = [bytes.fromhex(e["receipt"]["seed"]) for e in exported if e["kind"] == "seed_reveal"]
    assert len(revealed) >= 2  # the scene's close and the rotation both revealed a seed
    clients = {""} | {e["receipt"]["client_seed"] for e in exported if e["kind"] == "client_seed"}
    assert len(hidden_session["hidden"]) == 4
    for entry in hidden_session["hidden"]:
        secret = tuple(entry["receipt"]["faces"])
        assert len(secret) >= 9  # nine dice or more: no chance match in the ~500 tries below
        for seed in revealed:
            for client_seed in clients:
                for nonce in ALL_NONCES:
                    assert faces_for(seed, table.id, client_seed, nonce, [10] * len(secret)) != secret, (
                        f"hidden roll {entry['seq']} recomputed from a revealed seed at nonce {nonce}"
                    )
        assert entry["receipt"]["fair"]["stream"] == "hidden"
    # and the public stream has no gap where a hidden roll was: no nonce points at one
    public: dict[str, list[int]] = {}
    for e in exported:
        if e["kind"] == "roll" and not e.get("redacted"):
            public.setdefault(e["receipt"]["fair"]["commitment"], []).append(e["receipt"]["fair"]["nonce"])
    assert all(sorted(nonces) == list(range(1, len(nonces) + 1)) for nonces in public.values()), public
    assert sum(map(len, public.values())) == len(hidden_session["visible"])


def test_hidden_seed_stays_sealed_until_its_rolls_are_revealed(hidden_session, app):
    """F-7: neither the scene's close nor a plain rotation reveals the hidden seed while a hidden roll
    under it is hidden; it is never in an answer, an export or a page meanwhile."""
    table = hidden_session["table"]
    assert hidden_session["closed"]["rotation"]["hidden_revealed"] is None
    assert hidden_session["rotated"]["hidden_revealed"] is None
    secret = seed_in_use(app, table.id, "hidden")
    assert secret is not None
    for headers in (table.st, hidden_session["alice"], hidden_session["bob"]):
        texts = [
            table.export(headers),
            json.dumps(table.log(headers)),
            table.client.get(f"{table.base}/fair", headers=headers).text,
            table.client.get(f"/chronicles/{table.id}", headers=headers).text,
        ]
        assert all(secret.hex() not in text for text in texts)
    state = table.client.get(f"{table.base}/fair", headers=hidden_session["bob"]).json()
    assert all(r["stream"] == "public" for r in state["revealed"])


def test_storyteller_reveals_the_hidden_rolls_with_their_seed(hidden_session, tmp_path):
    """F-7: ``reveal_hidden`` reveals every hidden roll still hidden and the hidden seed in one
    transaction; then a player's export verifies every hidden roll's faces, clean (F-8 counts too)."""
    table, bob = hidden_session["table"], hidden_session["bob"]
    answer = call(table.client, "POST", f"{table.base}/fair/rotate?reveal_hidden=true", table.st, 201)
    hidden = answer["hidden_revealed"]
    assert hidden["stream"] == "hidden" and hidden["rolls"] == hidden["last_nonce"] == 4
    log = {e["seq"]: e for e in table.log(bob, limit=500)["entries"]}
    for entry in hidden_session["hidden"]:
        shown = log[entry["seq"]]
        assert not shown.get("redacted") and shown["revealed_by"] is not None
        seed = bytes.fromhex(hidden["seed"])
        fair = shown["receipt"]["fair"]
        assert faces_for(
            seed, table.id, fair["client_seed"], fair["nonce"], [10] * len(shown["receipt"]["faces"])
        ) == tuple(shown["receipt"]["faces"])
    # the granted hidden roll's ask and grant come with it: A-2 checks out on a player's export
    assert not log[hidden_session["ask"]["entry"]["seq"]].get("redacted")
    assert not log[hidden_session["grant"]["grant"]["seq"]].get("redacted")
    exported = entries_of(table.export(bob))
    checked = verify(tmp_path, exported)
    assert checked.returncode == 0, checked.stdout
    assert "fair dice: 8 verified, 0 pending" in checked.stderr, checked.stderr


def test_hidden_seed_revealed_at_the_rotation_once_each_roll_was(client, make_table, tmp_path):
    """F-7: a hidden seed whose every roll the Storyteller revealed one by one is revealed at the
    next rotation (the scene's close), and the reveal counts its rolls (F-8)."""
    table = make_table("v5")
    alice = table.join("Alice")
    vasha = table.character(alice, BIG)
    call(client, "POST", f"{table.base}/scenes", table.st, 201, json={"name": "Docks"})
    first = call(
        client,
        "POST",
        f"{table.base}/characters/{vasha['id']}/rolls",
        table.st,
        201,
        json={"action": V5_TEST, "hidden": True},
    )["entry"]
    call(client, "POST", f"{table.base}/characters/{vasha['id']}/rolls", alice, 201, json={"action": V5_TEST})
    call(client, "POST", f"{table.base}/log/{first['seq']}/reveal", table.st, 201)
    closed = call(client, "POST", f"{table.base}/scene/close", table.st, 200)
    assert closed["rotation"]["hidden_revealed"]["rolls"] == 1
    assert closed["rotation"]["revealed"]["rolls"] == closed["rotation"]["revealed"]["last_nonce"] == 1
    checked = verify(tmp_path, entries_of(table.export(alice)))
    assert checked.returncode == 0, checked.stdout
    assert "fair dice: 2 verified, 0 pending" in checked.stderr


def test_hidden_ask_public_entries_say_only_that_it_was_made_and_granted(hidden_session, tmp_path):
    """Another player (and the public part of the export) reads of a hidden ask only
    its kind: no traits, difficulty or pool; the player who asked reads their ask; the Storyteller
    reads everything; both exports verify."""
    table, alice, bob = hidden_session["table"], hidden_session["alice"], hidden_session["bob"]
    ask_seq, grant_seq = hidden_session["ask"]["entry"]["seq"], hidden_session["grant"]["grant"]["seq"]
    for headers in (bob,):
        text = table.export(headers)
        seen = {e["seq"]: e for e in entries_of(text)}
        for seq, kind in ((ask_seq, "ask"), (grant_seq, "grant")):
            assert seen[seq]["kind"] == kind and seen[seq]["redacted"] is True
            assert seen[seq]["receipt"] is None and seen[seq]["actor"] is None
        log = {e["seq"]: e for e in table.log(headers, limit=500)["entries"]}
        assert log[ask_seq]["redacted"] and log[grant_seq]["redacted"]
        page = table.client.get(f"/chronicles/{table.id}", headers=headers).text
        assert "A hidden ask" in page
    own = {e["seq"]: e for e in table.log(alice, limit=500)["entries"]}
    assert own[ask_seq]["receipt"]["asked"] and own[grant_seq]["redacted"]
    mine = table.client.get(f"{table.base}/asks/{hidden_session['ask']['ask']['id']}", headers=alice).json()[
        "ask"
    ]
    assert mine["status"] == "granted" and mine["decision"]["edges"] is None  # what was granted stays hidden
    storyteller = {e["seq"]: e for e in table.log(table.st, limit=500)["entries"]}
    assert storyteller[grant_seq]["receipt"]["action"]["difficulty"] == 4
    for headers in (table.st, alice, bob):
        checked = verify(tmp_path, entries_of(table.export(headers)))
        assert checked.returncode == 0, checked.stdout


def test_the_storytellers_page_reveals_the_hidden_rolls_with_their_seed(hidden_session):
    """F-7 on the web table: the Storyteller's fair-dice panel offers to reveal the hidden rolls with
    their seed (a player's does not); the form does it."""
    table, bob = hidden_session["table"], hidden_session["bob"]
    page = table.client.get(f"/chronicles/{table.id}", headers=table.st).text
    assert 'name="reveal_hidden"' in page and "Reveal the hidden rolls and their seed" in page
    assert 'name="reveal_hidden"' not in table.client.get(f"/chronicles/{table.id}", headers=bob).text
    posted = table.client.post(
        f"/chronicles/{table.id}/fair/rotate",
        headers=table.st,
        data={"reveal_hidden": "1"},
        follow_redirects=False,
    )
    assert posted.status_code == 303, posted.text
    log = {e["seq"]: e for e in table.log(bob, limit=500)["entries"]}
    assert all(not log[entry["seq"]].get("redacted") for entry in hidden_session["hidden"])
    assert any(e["kind"] == "seed_reveal" and e["receipt"]["stream"] == "hidden" for e in log.values())
