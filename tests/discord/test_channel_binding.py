"""A bound channel stays its chronicle's table, on both stores: another chronicle's Storyteller
(anyone can make a chronicle) can neither bind it to theirs nor unbind it; the bound chronicle's
Storyteller unbinds it, and only then may another chronicle have it. The command is held by a
server's administrators by default (Discord's default member permissions)."""

from __future__ import annotations

import pytest

from rollbook.discord import store
from rollbook.discord.commands import MANAGE_WEBHOOKS, command_definitions
from rollbook.server.usecases.checks import NAME_MAX
from tests.discord.signing import command, option
from tests.server.conftest import BACKENDS

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

OWNER, INTRUDER = "5300000000000000001", "5300000000000000002"
_channels = iter(range(5400000000000000001, 5400000000000000999))


def _sub(name: str) -> list[dict]:
    return [{"name": name, "type": 1, "options": []}]


def _bound_chronicle(app, channel: str) -> int | None:
    with app.state.db.read() as session:
        found = store.channel_of(session, channel)
    return None if found is None else found.chronicle_id


def _linked(discord, table, user: str, channel: str) -> None:
    key = table.st["Authorization"].split()[1]
    discord.ok(command("link", [option("code", key)], user_id=user, channel=channel))


def test_another_chronicles_storyteller_cannot_take_or_unbind_a_bound_channel(
    database_url, app, make_table, discord
):
    channel = str(next(_channels))
    table, intruders = make_table("v5"), make_table("v5")
    _linked(discord, table, OWNER, channel)
    discord.ok(command("chronicle", _sub("bind"), user_id=OWNER, channel=channel))
    assert _bound_chronicle(app, channel) == table.id

    _linked(discord, intruders, INTRUDER, channel)
    for sub in ("bind", "unbind"):
        answer = discord.ok(command("chronicle", _sub(sub), user_id=INTRUDER, channel=channel))
        assert "another chronicle's table" in answer["data"]["content"], answer
        assert answer["data"]["flags"] & 64  # ephemeral: the refusal is the intruder's alone
        assert _bound_chronicle(app, channel) == table.id

    answer = discord.ok(command("chronicle", _sub("unbind"), user_id=OWNER, channel=channel))
    assert "no longer your chronicle's table" in answer["data"]["content"]
    assert _bound_chronicle(app, channel) is None
    discord.ok(command("chronicle", _sub("bind"), user_id=INTRUDER, channel=channel))  # free again
    assert _bound_chronicle(app, channel) == intruders.id


def test_a_player_of_the_bound_chronicle_cannot_unbind_it(database_url, app, make_table, discord):
    channel = str(next(_channels))
    table = make_table("v5")
    _linked(discord, table, OWNER, channel)
    discord.ok(command("chronicle", _sub("bind"), user_id=OWNER, channel=channel))
    discord.ok(command("link", [option("code", table.invitation)], user_id=INTRUDER, channel=channel))
    answer = discord.ok(command("chronicle", _sub("unbind"), user_id=INTRUDER, channel=channel))
    assert "Storyteller" in answer["data"]["content"]
    assert _bound_chronicle(app, channel) == table.id


def test_the_chronicle_command_is_held_by_administrators_by_default(database_url):
    [chronicle] = [c for c in command_definitions() if c["name"] == "chronicle"]
    assert chronicle["default_member_permissions"] == MANAGE_WEBHOOKS == str(1 << 29)
    assert [sub["name"] for sub in chronicle["options"]] == ["bind", "unbind", "new"]


def test_a_scene_name_longer_than_the_apis_limit_is_refused_on_discord_too(
    database_url, app, make_table, discord, client
):
    channel = str(next(_channels))
    table = make_table("v5")
    _linked(discord, table, OWNER, channel)
    too_long = "x" * (NAME_MAX + 1)
    answer = discord.ok(
        command("scene", [option("action", "open"), option("name", too_long)], user_id=OWNER, channel=channel)
    )
    assert f"at most {NAME_MAX}" in answer["data"]["content"], answer
    assert client.get(f"{table.base}/scene", headers=table.st).json().get("scene") is None
    api = client.post(f"{table.base}/scenes", headers=table.st, json={"name": too_long})
    assert api.status_code == 422
    [scene] = [c for c in command_definitions() if c["name"] == "scene"]
    assert [o["max_length"] for o in scene["options"] if o["name"] == "name"] == [NAME_MAX]
