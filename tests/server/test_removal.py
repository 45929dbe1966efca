"""What a removal takes away, on both stores."""

from __future__ import annotations

import re

from .conftest import V20_SHEET


def _member_id(client, headers) -> int:
    return client.get("/api/me", headers=headers).json()["member"]["id"]


def test_removed_player_rejoins_with_same_invitation(client, make_table):
    table = make_table("v20")
    ann = table.join("Ann")
    ann_id = _member_id(client, ann)
    removed = client.delete(f"{table.base}/members/{ann_id}", headers=table.st)
    assert removed.status_code == 200, removed.text
    fresh = removed.json()["invitation"]
    assert fresh and fresh != table.invitation
    again = client.post("/api/join", json={"invitation": table.invitation, "name": "Ann"})
    assert again.status_code == 404 and again.json()["code"] == "invitation_invalid"
    assert client.post("/api/join", json={"invitation": fresh, "name": "Bob"}).status_code == 201
    names = [m["name"] for m in client.get(f"{table.base}/members", headers=table.st).json()["members"]]
    assert "Ann" not in names and "Bob" in names


def _shown(client, chronicle: str) -> str | None:
    found = re.search(r'id="invitation-code">([^<]+)<', client.get(chronicle).text)
    return found.group(1) if found else None


def test_the_storytellers_page_shows_the_invitation_a_removal_made(app):
    from fastapi.testclient import TestClient

    with TestClient(app) as storyteller, TestClient(app) as player:
        made = storyteller.post(
            "/chronicles",
            data={"name": "Lyon", "system": "v20", "storyteller": "Ana"},
            follow_redirects=False,
        )
        chronicle = made.headers["location"]
        old = _shown(storyteller, chronicle)
        assert old
        player.post("/join", data={"invitation": old, "name": "Julien"}, follow_redirects=False)
        julien = re.search(r"/members/(\d+)/remove", storyteller.get(chronicle).text).group(1)
        out = storyteller.post(f"{chronicle}/members/{julien}/remove", follow_redirects=False)
        assert out.status_code == 303
        new = _shown(storyteller, chronicle)
        assert new and new != old
        refused = player.post("/join", data={"invitation": old, "name": "Julien"}, follow_redirects=False)
        assert refused.status_code >= 400
        # a removal through the API: the page no longer shows the code that stopped working
        with TestClient(app) as other:
            other.post("/join", data={"invitation": new, "name": "Zoé"}, follow_redirects=False)
            zoe = other.get("/api/me").json()["member"]["id"]
        token = storyteller.cookies.get("rollbook_token")
        api = TestClient(app)
        assert (
            api.delete(
                f"/api{chronicle}/members/{zoe}", headers={"Authorization": f"Bearer {token}"}
            ).status_code
            == 200
        )
        assert _shown(storyteller, chronicle) is None


def _ask(table, headers, character_id) -> dict:
    response = table.roll(
        headers,
        character_id,
        {"kind": "test", "attribute": "dexterity", "ability": "firearms", "modifier": 1},
        ask=True,
    )
    assert response.status_code == 202, response.text
    return response.json()["ask"]


def _verified(table) -> list[str]:
    from rollbook.play import verify_receipt
    from rollbook.server.chain import read_jsonl, verify_entries
    from rollbook.server.ledger import AuthorityLedger

    problems, _ = verify_entries(read_jsonl(table.export().splitlines()), verify_receipt, AuthorityLedger())
    return problems


def test_ask_granted_after_its_player_was_removed(client, make_table):
    table = make_table("v20")
    ann = table.join("Ann")
    character = table.character(ann, V20_SHEET)
    waiting = _ask(table, ann, character["id"])
    ann_id = _member_id(client, ann)
    assert client.delete(f"{table.base}/members/{ann_id}", headers=table.st).status_code == 200
    entries = table.log()["entries"]
    assert [e["kind"] for e in entries[-2:]] == ["member_removed", "withdrawal"]
    withdrawal = entries[-1]
    assert (
        withdrawal["receipt"]["ask"] == waiting["id"] and withdrawal["receipt"]["cause"] == "member_removed"
    )
    assert withdrawal["actor"]["role"] == "storyteller"
    refused = client.post(f"{table.base}/asks/{waiting['id']}/grant", headers=table.st, json={})
    assert refused.status_code == 409 and refused.json()["code"] == "ask_decided"
    assert not [e for e in table.log()["entries"] if e["kind"] == "roll"]
    assert client.get(f"{table.base}/asks?status=pending", headers=table.st).json()["asks"] == []
    assert _verified(table) == []


def test_ask_granted_after_the_character_changed_hands(client, make_table):
    table = make_table("v20")
    ann, bob = table.join("Ann"), table.join("Bob")
    character = table.character(ann, V20_SHEET)
    other = table.character(ann, {**V20_SHEET, "name": "Other"})
    waiting = _ask(table, ann, character["id"])
    kept = _ask(table, ann, other["id"])
    bob_id = _member_id(client, bob)
    moved = client.patch(
        f"{table.base}/characters/{character['id']}", headers=table.st, json={"owner": bob_id}
    )
    assert moved.status_code == 200, moved.text
    withdrawals = [e for e in table.log()["entries"] if e["kind"] == "withdrawal"]
    assert [w["receipt"]["ask"] for w in withdrawals] == [waiting["id"]]
    assert withdrawals[0]["receipt"]["cause"] == "owner_changed"
    refused = client.post(f"{table.base}/asks/{waiting['id']}/grant", headers=table.st, json={})
    assert refused.status_code == 409 and refused.json()["code"] == "ask_decided"
    # the ask on the character Ann still plays waits, and is granted for her
    granted = client.post(f"{table.base}/asks/{kept['id']}/grant", headers=table.st, json={})
    assert granted.status_code in (200, 201), granted.text
    assert _verified(table) == []
