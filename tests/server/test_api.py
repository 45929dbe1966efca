"""The JSON API, every role and rule, on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import threading

import pytest
from sqlalchemy import select, text

from rollbook.play import verify_receipt
from rollbook.server.chain import GENESIS_HASH, committed_hash_of, read_jsonl, verify_entries
from rollbook.server.models import Member, MemberToken
from tests.conftest import wait_until

from .conftest import V5_SHEET, V5_TEST, V20_SHEET, V20_TEST, bearer
from .helpers import problem

# --- chronicles and people --------------------------------------------------------------------


def test_creator_is_storyteller_and_tokens_are_stored_hashed(client, app, make_table):
    table = make_table("v20", mode="casual", language="fr")
    assert table.created["member"]["role"] == "storyteller"
    assert table.created["chronicle"] == {
        **table.created["chronicle"],
        "system": "v20",
        "mode": "casual",
        "language": "fr",
    }
    me = client.get("/api/me", headers=table.st).json()
    assert me["member"]["role"] == "storyteller" and me["chronicle"]["id"] == table.id
    token = table.created["token"]
    with app.state.db.read() as session:
        keys = session.scalars(
            select(MemberToken).where(MemberToken.member_id == table.created["member"]["id"])
        ).all()
        assert [(k.kind, k.token_hash) for k in keys] == [("key", hashlib.sha256(token.encode()).hexdigest())]
        dump = json.dumps([list(row) for row in session.execute(text("SELECT * FROM members"))])
        assert token not in dump
        assert table.invitation not in json.dumps(
            [list(row) for row in session.execute(text("SELECT * FROM chronicles"))]
        )


def test_players_join_with_the_invitation_code(client, make_table):
    table = make_table()
    player = table.join("Ann")
    me = client.get("/api/me", headers=player).json()
    assert me["member"]["role"] == "player" and me["member"]["name"] == "Ann"
    problem(client.post("/api/join", json={"invitation": "nope", "name": "Bob"}), 404, "invitation_invalid")
    problem(client.post(f"{table.base}/invitation", headers=player), 403, "storyteller_only")
    renewed = client.post(f"{table.base}/invitation", headers=table.st)
    assert renewed.status_code == 201
    problem(
        client.post("/api/join", json={"invitation": table.invitation, "name": "Bob"}),
        404,
        "invitation_invalid",
    )
    assert (
        client.post("/api/join", json={"invitation": renewed.json()["invitation"], "name": "Bob"}).status_code
        == 201
    )
    names = [m["name"] for m in client.get(f"{table.base}/members", headers=player).json()["members"]]
    assert names == ["Storyteller", "Ann", "Bob"]


def test_tokens_are_required_and_bound_to_their_chronicle(client, make_table):
    table, other = make_table(), make_table()
    body = problem(client.get(f"{table.base}/characters"), 401, "unauthorized")
    assert "Bearer" in client.get(f"{table.base}/characters").headers["www-authenticate"]
    problem(client.get(f"{table.base}/characters", headers=bearer("forged")), 401, "token_invalid")
    problem(client.get(f"{table.base}/characters", headers=other.st), 403, "wrong_chronicle")
    assert body["type"] == "/problems/unauthorized"
    cookie = table.created["token"]
    client.cookies.set("rollbook_token", cookie)
    try:
        assert client.get(f"{table.base}/characters").status_code == 200
    finally:
        client.cookies.clear()


def test_only_the_storyteller_changes_the_chronicle(client, make_table):
    table = make_table("v20")
    player = table.join()
    problem(client.patch(table.base, headers=player, json={"difficulty": 7}), 403, "storyteller_only")
    changed = client.patch(table.base, headers=table.st, json={"difficulty": 7, "name": "Nights"})
    assert changed.status_code == 200 and changed.json()["difficulty"] == 7
    problem(client.patch(table.base, headers=table.st, json={"difficulty": 11}), 422, "out_of_range")
    problem(client.patch(table.base, headers=table.st, json={"name": None}), 422, "blank_text")
    problem(client.patch(table.base, headers=table.st, json={"name": "  "}), 422, "blank_text")
    cleared = client.patch(table.base, headers=table.st, json={"difficulty": None})
    assert cleared.json()["difficulty"] is None and cleared.json()["name"] == "Nights"
    tiers = make_table("tiers")
    body = problem(
        client.patch(tiers.base, headers=tiers.st, json={"difficulty": 5, "lang": "x"}), 422, "unknown_field"
    )
    body = problem(
        client.patch(tiers.base + "?lang=es", headers=tiers.st, json={"difficulty": 5}),
        422,
        "field_not_for_system",
    )
    assert body["detail"] == "difficulty no se aplica a las crónicas tiers."


# --- characters -------------------------------------------------------------------------------


def test_players_act_only_for_their_own_characters(client, make_table):
    table = make_table("v20")
    ann, bob = table.join("Ann"), table.join("Bob")
    ann_id = client.get("/api/me", headers=ann).json()["member"]["id"]
    mine = table.character(ann, V20_SHEET)
    assert mine["owner"] == ann_id
    problem(
        client.post(
            f"{table.base}/characters", headers=bob, json={"name": "X", "sheet": V20_SHEET, "owner": ann_id}
        ),
        403,
        "storyteller_only",
    )
    problem(client.get(f"{table.base}/characters/{mine['id']}", headers=bob), 403, "not_your_character")
    problem(table.roll(bob, mine["id"], V20_TEST), 403, "not_your_character")
    assert [c["id"] for c in client.get(f"{table.base}/characters", headers=bob).json()["characters"]] == []
    assert [c["id"] for c in client.get(f"{table.base}/characters", headers=ann).json()["characters"]] == [
        mine["id"]
    ]
    # The Storyteller sees, rolls for and hands out any character; NPCs have no owner.
    npc = table.character(table.st, {**V20_SHEET, "name": "Beckett"}, owner=None)
    assert npc["owner"] is None
    assert table.roll(table.st, mine["id"], V20_TEST).status_code == 201
    given = client.patch(f"{table.base}/characters/{npc['id']}", headers=table.st, json={"owner": ann_id})
    assert given.json()["owner"] == ann_id
    assert len(client.get(f"{table.base}/characters", headers=table.st).json()["characters"]) == 2
    problem(client.get(f"{table.base}/characters/999999", headers=table.st), 404, "character_not_found")


def test_sheets_are_validated_and_edited_by_role(client, make_table):
    table = make_table("v20")
    player = table.join()
    problem(
        client.post(
            f"{table.base}/characters", headers=player, json={"name": "X", "sheet": {"name": "X", "bogus": 1}}
        ),
        422,
        "unknown_field",
    )
    character = table.character(player, V20_SHEET)
    url = f"{table.base}/characters/{character['id']}"
    edited = client.patch(
        url, headers=player, json={"patch": {"notes": "Fled Madrid"}, "version": character["version"]}
    )
    assert edited.status_code == 200 and edited.json()["sheet"]["notes"] == "Fled Madrid"
    assert edited.json()["version"] == character["version"] + 1
    problem(
        client.patch(url, headers=player, json={"patch": {"attributes": {"dexterity": 5}}}),
        403,
        "forbidden_edit",
    )
    problem(client.patch(url, headers=player, json={"difficulty": 4}), 403, "storyteller_only")
    problem(
        client.patch(url, headers=table.st, json={"patch": {"humanity": 3}, "version": character["version"]}),
        409,
        "version_conflict",
    )
    by_st = client.patch(url, headers=table.st, json={"patch": {"attributes": {"dexterity": 5}}})
    assert by_st.json()["sheet"]["attributes"]["dexterity"] == 5


# --- rolls ------------------------------------------------------------------------------------


def test_a_roll_is_made_by_the_server_from_the_sheet(client, make_table, app):
    table = make_table("v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    response = table.roll(player, character["id"], {**V20_TEST, "willpower": True})
    assert response.status_code == 201, response.text
    body = response.json()
    entry = body["entry"]
    commit = table.log()["entries"][0]  # F-1: the server seed's commitment, before the first roll uses it
    assert commit["seq"] == 1 and commit["prev_hash"] == GENESIS_HASH and commit["kind"] == "seed_commit"
    assert entry["seq"] == 2 and entry["prev_hash"] == commit["entry_hash"] and entry["kind"] == "roll"
    assert entry["receipt"]["fair"]["commitment"] == commit["receipt"]["commitment"]
    assert entry["entry_hash"] == committed_hash_of(entry, commit["visibility"])
    receipt = entry["receipt"]
    assert receipt["pool"]["total"] == 5 and len(receipt["faces"]) == 5
    assert verify_receipt(receipt) == []
    assert body["character"]["sheet"]["willpower"]["current"] == 2  # spent in the same transaction (V20-9)
    assert body["character"]["version"] == character["version"] + 1
    assert body["effects"] == [{"resource": "willpower", "before": 3, "after": 2}]
    assert entry["actor"]["character"] == character["id"] and entry["actor"]["role"] == "player"


@pytest.mark.parametrize(
    "action",
    [
        {**V20_TEST, "faces": [10, 10, 10, 10, 10]},
        {**V20_TEST, "extra": {"faces": [10]}},
        {**V20_TEST, "hunger_faces": [10]},
    ],
)
def test_a_client_never_sends_faces_for_an_online_roll(client, make_table, action):
    """V5-13: faces anywhere in the request are refused before anything happens."""
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    problem(table.roll(table.st, character["id"], action), 422, "faces_not_allowed")
    assert table.log()["entries"] == []


def test_rule_refusals_are_problems_and_change_nothing(client, make_table):
    table = make_table("v20")
    character = table.character(table.st, {**V20_SHEET, "willpower": {"permanent": 3, "current": 0}})
    body = problem(
        table.roll(table.st, character["id"], {**V20_TEST, "willpower": True}), 409, "willpower_exhausted"
    )
    assert body["detail"] == "No Willpower left to spend."
    problem(
        table.roll(table.st, character["id"], {**V20_TEST, "specialty": "Pistols"}), 422, "unknown_specialty"
    )
    problem(table.roll(table.st, character["id"], {"kind": "dance"}), 422, "bad_choice")
    assert table.log()["entries"] == []
    assert table.sheet(table.st, character["id"])["version"] == character["version"]


def test_standing_difficulty_is_used_by_players_rolls(client, make_table):
    table = make_table("v20", difficulty=8)
    player = table.join()
    character = table.character(player, V20_SHEET)
    rolled = table.roll(player, character["id"], V20_TEST).json()["entry"]["receipt"]
    assert rolled["request"]["difficulty"] == 8
    # A-1: another difficulty is the Storyteller's to grant: refused unless asked (tests/server/test_authority.py)
    problem(table.roll(player, character["id"], {**V20_TEST, "difficulty": 4}), 403, "grant_required")
    assert table.roll(player, character["id"], {**V20_TEST, "difficulty": 8}).status_code == 201
    # A character's own standing difficulty wins over the chronicle's; the Storyteller names any.
    client.patch(f"{table.base}/characters/{character['id']}", headers=table.st, json={"difficulty": 5})
    assert (
        table.roll(player, character["id"], V20_TEST).json()["entry"]["receipt"]["request"]["difficulty"] == 5
    )
    by_st = table.roll(table.st, character["id"], {**V20_TEST, "difficulty": 9}).json()["entry"]["receipt"]
    assert by_st["request"]["difficulty"] == 9


def test_hidden_rolls_are_redacted_for_players_until_revealed(client, make_table):
    table = make_table("v20")
    player = table.join()
    character = table.character(player, V20_SHEET)
    problem(table.roll(player, character["id"], V20_TEST, hidden=True), 403, "grant_required")  # A-1
    table.roll(player, character["id"], V20_TEST)
    hidden = table.roll(
        table.st, character["id"], {"kind": "test", "attribute": "wits", "ability": "alertness"}, hidden=True
    )
    assert hidden.status_code == 201
    seq = hidden.json()["entry"]["seq"]
    seen = {
        entry["seq"]: entry for entry in table.log(player)["entries"]
    }  # seeds' commitments (F-1, F-7) too
    assert seen[seq]["redacted"] is True and seen[seq]["receipt"] is None and seen[seq]["actor"] is None
    assert seen[seq]["entry_hash"] == hidden.json()["entry"]["entry_hash"]
    assert client.get(f"{table.base}/log/{seq}", headers=player).json()["receipt"] is None
    assert {entry["seq"]: entry for entry in table.log()["entries"]}[seq][
        "receipt"
    ] is not None  # the Storyteller sees everything
    problem(client.post(f"{table.base}/log/{seq}/reveal", headers=player), 403, "storyteller_only")
    problem(client.post(f"{table.base}/log/1/reveal", headers=table.st), 409, "not_hidden")
    revealed = client.post(f"{table.base}/log/{seq}/reveal", headers=table.st)
    assert revealed.status_code == 201
    reveal = revealed.json()["entry"]
    assert reveal["kind"] == "reveal" and reveal["refers_to"] == seq and reveal["visibility"] == "public"
    assert reveal["receipt"] == {"reveals": seq, "entry_hash": hidden.json()["entry"]["entry_hash"]}
    problem(client.post(f"{table.base}/log/{seq}/reveal", headers=table.st), 409, "already_revealed")
    now_seen = client.get(f"{table.base}/log/{seq}", headers=player).json()
    assert (
        now_seen["receipt"] == hidden.json()["entry"]["receipt"] and now_seen["revealed_by"] == reveal["seq"]
    )
    # The hidden entry itself was never updated: same hash, still hidden.
    assert (
        now_seen["entry_hash"] == hidden.json()["entry"]["entry_hash"] and now_seen["visibility"] == "hidden"
    )
    problems, counts = verify_entries(read_jsonl(table.export(player).splitlines()), verify_receipt)
    assert problems == [] and counts["redacted"] == 0


def test_v5_willpower_reroll_is_a_followup_on_the_latest_receipt(client, make_table):
    table = make_table("v5")
    player = table.join()
    character = table.character(player, V5_SHEET)
    first = table.roll(player, character["id"], V5_TEST).json()["entry"]
    assert len(first["receipt"]["result"]["hunger"]) == 1  # V5-2, V5-13: Hunger from the sheet
    url = f"{table.base}/log/{first['seq']}/rerolls"
    problem(
        client.post(url, headers=player, json={"action": {"kind": "reroll", "dice": [0], "faces": [10]}}),
        422,
        "faces_not_allowed",
    )
    problem(
        client.post(url, headers=player, json={"action": {"kind": "reroll", "dice": [5]}}),
        422,
        "reroll_hunger_die",
    )
    rerolled = client.post(url, headers=player, json={"action": {"kind": "reroll", "dice": [0, 1]}})
    assert rerolled.status_code == 201, rerolled.text
    entry = rerolled.json()["entry"]
    assert entry["kind"] == "reroll" and entry["refers_to"] == first["seq"]
    assert entry["receipt"]["faces"] == first["receipt"]["faces"]
    assert entry["receipt"]["rerolls"][0]["dice"] == [0, 1]
    assert verify_receipt(entry["receipt"]) == []
    assert rerolled.json()["character"]["sheet"]["willpower"]["superficial"] == 1
    problem(
        client.post(url, headers=player, json={"action": {"kind": "reroll", "dice": [2]}}),
        409,
        "roll_finished",
    )
    again = f"{table.base}/log/{entry['seq']}/rerolls"
    problem(
        client.post(again, headers=player, json={"action": {"kind": "reroll", "dice": [2]}}),
        409,
        "reroll_limit_strict",
    )


def test_a_card_played_on_a_finished_roll_is_refused(client, make_table):
    """R-6 through the server: the follow-up is refused and nothing is logged; R-7 opposed rolls are
    the Storyteller's."""
    table = make_table("rollunder")
    player = table.join()
    player_id = client.get("/api/me", headers=player).json()["member"]["id"]
    character = table.character(
        table.st,
        {
            "name": "Mara",
            "skills": {"lockpicking": 12},  # cards are the ST's (R-6)
            "cards": [{"name": "Lucky", "effect": "advantage"}],
        },
        owner=player_id,
    )
    rolled = table.roll(
        player, character["id"], {"kind": "check", "action": "Pick the lock", "skill": "lockpicking"}
    )
    assert rolled.status_code == 201, rolled.text
    seq = rolled.json()["entry"]["seq"]
    problem(
        client.post(
            f"{table.base}/log/{seq}/rerolls",
            headers=player,
            json={"action": {"kind": "card", "card": "Lucky"}},
        ),
        409,
        "card_after_roll",
    )
    problem(
        table.roll(
            player,
            character["id"],
            {"kind": "opposed", "action": "Arm-wrestle", "dice": "3d6", "threshold": 10},
        ),
        403,
        "grant_required",
    )  # A-1
    assert [e["kind"] for e in table.log()["entries"]] == ["seed_commit", "roll"]  # F-1, then the one roll
    assert table.log()["entries"][-1]["seq"] == seq
    assert table.sheet(player, character["id"])["sheet"]["cards"][0]["name"] == "Lucky"


def test_followups_other_systems_refuse(client, make_table):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    seq = table.roll(table.st, character["id"], V20_TEST).json()["entry"]["seq"]
    problem(
        client.post(f"{table.base}/log/{seq}/rerolls", headers=table.st, json={"action": {"kind": "reroll"}}),
        422,
        "no_followup",
    )
    problem(
        client.post(f"{table.base}/log/99/rerolls", headers=table.st, json={"action": {}}),
        404,
        "entry_not_found",
    )


def test_adjustments_by_role(client, make_table):
    table = make_table("v20")
    player = table.join()
    character = table.character(player, {**V20_SHEET, "willpower": {"permanent": 3, "current": 1}})
    url = f"{table.base}/characters/{character['id']}/adjustments"
    problem(
        client.post(
            url, headers=player, json={"change": {"kind": "restore", "resource": "willpower", "amount": 2}}
        ),
        403,
        "storyteller_only",
    )
    restored = client.post(
        url, headers=table.st, json={"change": {"kind": "restore", "resource": "willpower", "amount": 2}}
    )
    assert restored.status_code == 201 and restored.json()["character"]["sheet"]["willpower"]["current"] == 3
    problem(
        client.post(url, headers=player, json={"change": {"kind": "spend_experience", "trait": "firearms"}}),
        409,
        "not_enough_xp",
    )
    awarded = client.post(url, headers=table.st, json={"change": {"kind": "award_experience", "amount": 10}})
    assert awarded.status_code == 201
    spent = client.post(
        url, headers=player, json={"change": {"kind": "spend_experience", "trait": "firearms"}}
    )
    assert spent.status_code == 201 and spent.json()["character"]["sheet"]["skills"]["firearms"] == 3
    kinds = [e["kind"] for e in table.log(player)["entries"]]
    assert kinds == ["adjust", "adjust", "adjust"]


# --- the log ----------------------------------------------------------------------------------


def test_log_pages_and_chain(client, make_table):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    for _ in range(5):
        assert table.roll(table.st, character["id"], V20_TEST).status_code == 201
    page = table.log(limit=2)
    assert [e["seq"] for e in page["entries"]] == [1, 2] and page["next"] == 2
    page = table.log(after=page["next"], limit=2)
    assert [e["seq"] for e in page["entries"]] == [3, 4] and page["next"] == 4
    last = table.log(after=4, limit=2)  # the seed's commitment (F-1) and five rolls
    assert [e["seq"] for e in last["entries"]] == [5, 6] and last["next"] is None
    assert last["head"] == {"seq": 6, "entry_hash": last["entries"][-1]["entry_hash"]}
    entries = table.log()["entries"]
    for before, after in zip(entries, entries[1:]):
        assert after["prev_hash"] == before["entry_hash"]
    exported = table.export()
    problems, counts = verify_entries(read_jsonl(exported.splitlines()), verify_receipt)
    assert problems == [] and counts["receipts"] == 5
    assert client.get(table.base, headers=table.st).json()["log_head"]["seq"] == 6
    problem(client.get(f"{table.base}/log", headers=table.st, params={"limit": 0}), 422, "out_of_range")


def test_log_entries_cannot_be_updated_or_deleted(app, make_table):
    """The database itself refuses UPDATE and DELETE on the log (triggers from the migration)."""
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    table.roll(table.st, character["id"], V20_TEST)
    engine = app.state.db.engine
    for statement in (
        "UPDATE log_entries SET kind = 'forged' WHERE chronicle_id = :c",
        "DELETE FROM log_entries WHERE chronicle_id = :c",
    ):
        with pytest.raises(Exception) as refused:
            with engine.begin() as connection:
                connection.execute(text(statement), {"c": table.id})
        assert "append-only" in str(refused.value)
    assert len(table.log()["entries"]) == 2  # the seed's commitment (F-1) and the roll


def test_live_feed_streams_entries_as_server_sent_events(client, make_table, app):
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    table.roll(table.st, character["id"], V20_TEST)

    def later():  # once the feed below is open: the roll reaches it live, not in its backlog
        wait_until(lambda: table.id in app.state.hub.watched, what="the feed to open")
        table_client = app.state.db
        from rollbook.server.usecases import rolls

        with table_client.write() as session:
            member = session.scalars(select(Member).where(Member.chronicle_id == table.id)).first()
            rolls.roll(session, member, character["id"], V20_TEST)

    roller = threading.Thread(target=later)
    roller.start()
    response = client.get(f"{table.base}/events", headers=table.st, params={"idle_timeout": 1.5})
    roller.join()
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [block for block in response.text.split("\n\n") if block.startswith("id:")]
    assert [block.splitlines()[0] for block in events] == [
        "id: 1",
        "id: 2",
        "id: 3",
    ]  # F-1: the seed's commitment first
    data = json.loads(events[2].splitlines()[2].removeprefix("data: "))
    assert data["seq"] == 3 and data["kind"] == "roll"
    resumed = client.get(
        f"{table.base}/events", headers={**table.st, "Last-Event-ID": "2"}, params={"idle_timeout": 0.5}
    )
    assert [b.splitlines()[0] for b in resumed.text.split("\n\n") if b.startswith("id:")] == ["id: 3"]


# --- errors -----------------------------------------------------------------------------------


def test_validation_errors_are_problems_in_the_readers_language(client, make_table):
    body = problem(
        client.post("/api/chronicles", json={"name": "x", "system": "v20", "colour": "red"}),
        422,
        "unknown_field",
    )
    assert body["errors"][0]["loc"] == ["body", "colour"]
    problem(client.post("/api/chronicles", json={"system": "v20"}), 422, "missing_field")
    problem(client.post("/api/chronicles", json={"name": "x", "system": "d6"}), 422, "bad_choice")
    problem(
        client.post("/api/chronicles", content=b"{", headers={"content-type": "application/json"}),
        400,
        "body_not_json",
    )
    problem(client.get("/api/nowhere"), 404, "not_found")
    problem(client.delete("/api/chronicles"), 405, "method_not_allowed")
    table = make_table("v20")
    character = table.character(table.st, {**V20_SHEET, "willpower": {"permanent": 3, "current": 0}})
    url = f"{table.base}/characters/{character['id']}/rolls"
    action = {"action": {**V20_TEST, "willpower": True}}
    french = problem(client.post(url + "?lang=fr", headers=table.st, json=action), 409, "willpower_exhausted")
    spanish = problem(
        client.post(url, headers={**table.st, "Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}, json=action),
        409,
        "willpower_exhausted",
    )
    english = problem(
        client.post(url, headers={**table.st, "Accept-Language": "de, en;q=0.8"}, json=action),
        409,
        "willpower_exhausted",
    )
    assert english["detail"] == "No Willpower left to spend."
    assert french["detail"] != english["detail"] and spanish["detail"] != english["detail"]
    assert "Volonté" in french["detail"] and "Voluntad" in spanish["detail"]
    assert (
        "ne prend jamais"
        in problem(
            client.post(url + "?lang=fr", headers=table.st, json={"action": {**V20_TEST, "faces": [1]}}),
            422,
            "faces_not_allowed",
        )["detail"]
    )
    described = client.get("/problems/willpower_exhausted?lang=es").json()
    assert described["code"] == "willpower_exhausted"


def test_openapi_describes_the_api(client):
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/api/chronicles",
        "/api/join",
        "/api/chronicles/{chronicle_id}/characters/{character_id}/rolls",
        "/api/chronicles/{chronicle_id}/log",
        "/api/chronicles/{chronicle_id}/log/{seq}/reveal",
        "/api/chronicles/{chronicle_id}/log/{seq}/rerolls",
        "/api/chronicles/{chronicle_id}/events",
        "/api/chronicles/{chronicle_id}/log/export",
    ):
        assert path in paths, path
    roll = paths["/api/chronicles/{chronicle_id}/characters/{character_id}/rolls"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in roll["parameters"])
    assert "Problem" in schema["components"]["schemas"]
