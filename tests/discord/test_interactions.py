"""POST /discord/interactions, on both stores: the Ed25519 signature checked before
anything is parsed (401 and nothing written otherwise), PING, linking, a channel bound by the
Storyteller, rolls through the use cases (logged, verified in the export), the interaction id as
the Idempotency-Key, the Storyteller's buttons refused to a player."""

from __future__ import annotations

import json
import time

import pytest
from sqlalchemy import func, select

from rollbook.server.models import DiscordLink, IdempotencyRecord, LogEntry
from tests.discord.signing import CHANNEL, command, component, interaction, modal, option
from tests.server.conftest import BACKENDS, V5_SHEET
from tests.server.helpers import verify

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

ST_USER, PLAYER_USER, STRANGER = "2100000000000000001", "2100000000000000002", "2100000000000000003"


def counts(app) -> tuple[int, int, int]:
    with app.state.db.read() as session:
        return (
            session.scalar(select(func.count()).select_from(LogEntry)),
            session.scalar(select(func.count()).select_from(IdempotencyRecord)),
            session.scalar(select(func.count()).select_from(DiscordLink)),
        )


def linked_table(make_table, discord, system="v5", channel=CHANNEL):
    """A chronicle whose Storyteller linked (by key) and bound the channel, and a player who joined
    through Discord with the invitation, with a character."""
    table = make_table(system)
    st_key = table.st["Authorization"].split()[1]
    answer = discord.ok(
        command("link", [option("code", st_key)], user_id=ST_USER, name="Anna", channel=channel)
    )
    assert answer["type"] == 4 and answer["data"]["flags"] == 64, answer
    assert (
        discord.ok(
            command(
                "chronicle", [{"name": "bind", "type": 1, "options": []}], user_id=ST_USER, channel=channel
            )
        )["data"]["flags"]
        == 64
    )
    joined = discord.ok(
        command(
            "link", [option("code", table.invitation)], user_id=PLAYER_USER, name="Bruno", channel=channel
        )
    )
    key = joined["data"]["content"].split("||")[1]
    player = {"Authorization": f"Bearer {key}"}
    character = table.character(player, dict(V5_SHEET))
    return table, player, character


def test_ping_is_answered_pong(discord):
    response = discord.send(interaction(1, None, user_id=STRANGER))
    assert response.status_code == 200 and response.json() == {"type": 1}


def test_a_bad_missing_or_stale_signature_is_401_and_writes_nothing(app, discord, make_table):
    table = make_table("v5")
    payload = command("link", [option("code", table.invitation)], user_id=STRANGER)
    before = counts(app)
    raw = json.dumps(payload).encode()
    stamp = str(int(time.time()))
    bad = [
        discord.send(payload, signed=False),  # no headers at all
        discord.send(payload, signature="00" * 64),  # a wrong signature
        discord.send(payload, signature=discord.key.sign(raw + b" ", stamp), timestamp=stamp),  # another body
        discord.send(payload, timestamp=str(int(time.time()) - 301)),  # stale (signed for real)
        discord.send(payload, signature="zz"),  # not hex
        discord.send(payload, body=b"not json"),  # signed, but the wrong bytes for the signature below
    ]
    for response in bad[:-1]:
        assert response.status_code == 401, response.text
        assert response.json()["code"] == "discord_signature_invalid"
    assert counts(app) == before  # nothing written: no member, no link, no idempotency record
    # a well-signed body that is not JSON is a 400, still nothing written
    assert bad[-1].status_code == 400 and counts(app) == before


def test_a_roll_made_on_discord_is_logged_verifies_and_is_answered_once(app, discord, make_table, tmp_path):
    table, player, character = linked_table(make_table, discord)
    roll = command(
        "roll", [option("trait", "dexterity"), option("trait2", "firearms")], user_id=PLAYER_USER, locale="fr"
    )
    first = discord.ok(roll)
    assert first["type"] == 4
    embed = first["data"]["embeds"][0]
    assert embed["author"]["name"] == "Sasha" and "#" in embed["footer"]["text"]
    # V5-8: the reroll button and the select of normal dice, numbered from 1 with their faces
    custom_ids = [c["custom_id"] for row in first["data"]["components"] for c in row["components"]]
    assert any(cid.startswith("rb:rs:") for cid in custom_ids)
    select_menu = next(c for row in first["data"]["components"] for c in row["components"] if c["type"] == 3)
    assert select_menu["options"][0]["label"].startswith("Dé 1")
    before = counts(app)
    again = discord.ok(roll)  # Discord delivers it twice: one roll, the same answer
    assert again == first and counts(app) == before
    rolls = [e for e in table.log()["entries"] if e["kind"] == "roll"]
    assert (
        len(rolls) == 1 and rolls[0]["actor"]["name"] == "Bruno" and rolls[0]["character"] == character["id"]
    )
    # the reroll through the select, as the player
    seq = rolls[0]["seq"]
    rerolled = discord.ok(component(f"rb:rs:{seq}", ["0"], user_id=PLAYER_USER))
    assert rerolled["type"] == 4 and "embeds" in rerolled["data"], rerolled
    assert [e["kind"] for e in table.log()["entries"]][-1] == "reroll"
    result = verify(tmp_path, table.export().splitlines())
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_unlinked_user_is_told_to_link_and_a_stranger_cannot_act(discord, make_table):
    make_table("v5")
    answer = discord.ok(command("rouse", [], user_id=STRANGER))
    assert answer["data"]["flags"] == 64 and "/link" in answer["data"]["content"]


def test_the_storytellers_grant_button_pressed_by_a_player_is_refused(app, discord, make_table):
    table, player, character = linked_table(make_table, discord)
    asked = discord.ok(
        command(
            "ask",
            [option("trait", "dexterity"), option("trait2", "firearms"), option("difficulty", 4, 4)],
            user_id=PLAYER_USER,
        )
    )
    buttons = {
        c["custom_id"].split(":")[1]: c["custom_id"]
        for row in asked["data"]["components"]
        for c in row["components"]
    }
    assert {"g", "gc", "rf"} <= set(buttons), asked
    before = counts(app)
    for custom_id in (buttons["g"], buttons["rf"], buttons["gc"]):
        refused = discord.ok(component(custom_id, user_id=PLAYER_USER))
        assert refused["type"] == 4 and refused["data"]["flags"] == 64, refused
    assert counts(app)[0] == before[0]  # no grant, no refusal logged
    # the Storyteller's "Grant changed": a modal of the edges asked, then the roll at difficulty 3
    shown = discord.ok(component(buttons["gc"], user_id=ST_USER))
    assert shown["type"] == 9 and shown["data"]["custom_id"].startswith("rb:gm:")
    granted = discord.ok(modal(shown["data"]["custom_id"], {"difficulty": "3"}, user_id=ST_USER))
    assert granted["type"] == 4, granted
    kinds = [e["kind"] for e in table.log()["entries"]]
    assert kinds[-1] == "roll" and "grant" in kinds[-3:]


def test_removing_the_member_ends_the_link_at_once(client, discord, make_table):
    table, player, character = linked_table(make_table, discord)
    assert discord.ok(command("rouse", [], user_id=PLAYER_USER))["type"] == 4
    member_id = client.get("/api/me", headers=player).json()["member"]["id"]
    removed = client.delete(f"{table.base}/members/{member_id}", headers=table.st)
    assert removed.status_code == 200, removed.text
    answer = discord.ok(command("rouse", [], user_id=PLAYER_USER))
    assert answer["data"]["flags"] == 64 and "/link" in answer["data"]["content"]
    # unlink, then the link is gone
    assert "Unlinked" in discord.ok(command("unlink", [], user_id=ST_USER))["data"]["content"]


def test_rotating_the_members_key_ends_the_link_and_an_edge_points_to_ask(client, discord, make_table):
    table, player, character = linked_table(make_table, discord)
    edge = discord.ok(
        command("roll", [option("trait", "wits"), option("difficulty", 5, 4)], user_id=PLAYER_USER)
    )
    assert (
        edge["data"]["flags"] == 64
        and "/ask" in edge["data"]["content"]
        and "Difficulty" in edge["data"]["content"]  # the field in words
    )
    rotated = client.post(f"{table.base}/members/me/key", headers=player)
    assert rotated.status_code == 201, rotated.text
    answer = discord.ok(command("rouse", [], user_id=PLAYER_USER))
    assert answer["data"]["flags"] == 64 and "/link" in answer["data"]["content"]


def test_a_thread_of_a_linked_channel_acts_for_its_member(discord, make_table):
    table, player, character = linked_table(make_table, discord)
    thread = "1200000000000000999"
    payload = command(
        "roll",
        [option("trait", "dexterity"), option("trait2", "firearms")],
        user_id=PLAYER_USER,
        channel=thread,
    )
    payload["channel"] = {"id": thread, "type": 11, "parent_id": CHANNEL}  # a public thread of the channel
    answer = discord.ok(payload)
    assert answer["type"] == 4 and answer["data"]["embeds"], answer
    assert [e for e in table.log()["entries"] if e["kind"] == "roll"][-1]["character"] == character["id"]
    elsewhere = command("rouse", [], user_id=PLAYER_USER, channel="1200000000000000998")  # another channel
    assert "/link" in discord.ok(elsewhere)["data"]["content"]


def test_only_the_storyteller_binds_and_a_bad_code_links_nothing(app, discord, make_table):
    table, player, character = linked_table(make_table, discord)
    other = "1200000000000000777"
    assert (
        "/link"
        in discord.ok(
            command(
                "chronicle", [{"name": "bind", "type": 1, "options": []}], user_id=PLAYER_USER, channel=other
            )
        )["data"]["content"]
    )
    discord.ok(command("link", [option("code", table.invitation)], user_id=STRANGER, channel=other))
    before = counts(app)
    refused = discord.ok(
        command("chronicle", [{"name": "bind", "type": 1, "options": []}], user_id=STRANGER, channel=other)
    )
    assert refused["data"]["flags"] == 64 and "Storyteller" in refused["data"]["content"], refused
    bad = discord.ok(command("link", [option("code", "not-a-code")], user_id="2100000000000000009"))
    assert bad["data"]["flags"] == 64 and counts(app) == before
