"""The Storyteller's queue on Discord (SPEC A-1, F-7), on both stores: an ask made on the web is
posted to the channel for the Storyteller, mentioned, with Grant / Grant changed / Refuse; a hidden
ask is told to the Storyteller alone, ephemerally, at their next interaction there (once); ``/queue``
lists every pending ask, hidden ones included, with the buttons (to a player: their own, none)."""

from __future__ import annotations

import pytest

from tests.conftest import wait_until
from tests.discord.helpers import ANNA, ST, seated
from tests.discord.signing import command, component, option
from tests.server.conftest import BACKENDS, V5_SHEET, V5_TEST

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def custom_ids(data: dict) -> list[str]:
    return [c["custom_id"] for row in data.get("components", []) for c in row["components"]]


def test_asks_reach_the_storyteller_with_their_buttons_on_discord(
    database_url, make_table, discord, discord_api
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    sasha = table.character(anna, dict(V5_SHEET))
    on_web = table.roll(anna, sasha["id"], {**V5_TEST, "difficulty": 4}, ask=True)
    assert on_web.status_code == 202, on_web.text
    web_ask = on_web.json()["ask"]["id"]
    posted = wait_until(
        lambda: [m for m in discord_api.posted(channel) if f"rb:g:{web_ask}" in custom_ids(m)],
        15,
        what="the web ask posted with its buttons",
    )
    sent = [s.body for s in discord_api.requests("POST /webhooks/") if f"rb:g:{web_ask}" in str(s.body)][0]
    assert sent["content"] == f"<@{ST}>" and sent["allowed_mentions"] == {"parse": [], "users": [ST]}
    assert custom_ids(posted[0]) == [f"rb:g:{web_ask}", f"rb:gc:{web_ask}", f"rb:rf:{web_ask}"]

    hidden = discord.ok(
        command(
            "ask",
            [option("trait", "wits"), option("difficulty", 4, 4), option("hidden", True, 5)],
            user_id=ANNA,
            channel=channel,
        )
    )
    assert hidden["data"]["flags"] == 64
    hidden_ask = int(custom_ids(hidden["data"])[0].split(":")[2])
    # the Storyteller's next interaction here: the hidden ask, to them alone, once
    told = command("verify", [], user_id=ST, channel=channel, locale="fr")
    discord.ok(told)
    [news] = discord_api.followups[told["token"]]
    assert news["flags"] == 64 and news["content"].startswith("Demandes cachées, pour vous seul\u202f: 1.")
    assert custom_ids(news) == [f"rb:g:{hidden_ask}", f"rb:gc:{hidden_ask}", f"rb:rf:{hidden_ask}"]
    again = command("verify", [], user_id=ST, channel=channel)
    discord.ok(again)
    assert again["token"] not in discord_api.followups
    by_player = command("verify", [], user_id=ANNA, channel=channel)
    discord.ok(by_player)
    assert by_player["token"] not in discord_api.followups

    queue = discord.ok(command("queue", [], user_id=ST, channel=channel))["data"]
    assert queue["flags"] == 64 and queue["content"].startswith("Asks waiting: 2")
    assert len(queue["embeds"]) == 2
    assert [c for c in custom_ids(queue) if c.startswith("rb:g:")] == [
        f"rb:g:{web_ask}",
        f"rb:g:{hidden_ask}",
    ]
    mine = discord.ok(command("queue", [], user_id=ANNA, channel=channel))["data"]
    assert len(mine["embeds"]) == 2 and custom_ids(mine) == []

    granted = discord.ok(component(f"rb:g:{hidden_ask}", user_id=ST, channel=channel))
    assert granted["data"]["flags"] == 64 and granted["data"]["embeds"]  # a hidden roll, to the Storyteller
    refused = discord.ok(component(f"rb:rf:{web_ask}", user_id=ST, channel=channel, on=posted[0]))
    assert refused["data"]["embeds"], refused
    # the posted ask, edited through the channel's webhook: decided, it offers nothing more
    [after] = [m for m in discord_api.posted(channel) if m["id"] == posted[0]["id"]]
    assert after["components"] == [] and discord_api.edits[posted[0]["id"]] == [{"components": []}]
    empty = discord.ok(command("queue", [], user_id=ST, channel=channel))["data"]
    assert empty["content"] == "No ask is waiting." and empty["flags"] == 64
