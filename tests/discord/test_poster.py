"""The channel poster (``rollbook.discord.poster``) on both stores, against the stand-in of
Discord's REST API: every public entry made elsewhere (here: the JSON API) is posted to each channel
bound to its chronicle, in seq order, after its commit; hidden entries never; an entry an
interaction already showed there not twice; a 429 waits its ``retry_after``; a channel webhook that
is down never slows nor fails the roll, and its posts arrive in order once it is back; two app
processes on one store post each entry once; an idle bound channel costs the poster no read."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.discord import store
from rollbook.server import tx
from tests.conftest import wait_until
from tests.discord.helpers import bind, cursor, posted_seqs, public_seqs, webhook_of
from tests.server.conftest import V20_SHEET, V20_TEST


def playing(make_table):
    """A V20 table whose Storyteller has a character and has rolled once (the public stream's seed
    committed: each later roll is one entry)."""
    table = make_table("v20")
    character = table.character(table.st, V20_SHEET)
    rolled(table, table.st, character["id"], 1)
    return table, character


def rolled(table, headers, character_id, count: int, **body) -> list[int]:
    seqs = []
    for _ in range(count):
        response = table.roll(headers, character_id, V20_TEST, **body)
        assert response.status_code == 201, response.text
        seqs.append(response.json()["entry"]["seq"])
    return seqs


def posted_first(app, make_table, what: str):
    """A table bound to a channel, its first roll made and posted: (table, character, channel, the roll's seqs)."""
    table, character = playing(make_table)
    channel = bind(app, table)
    first = rolled(table, table.st, character["id"], 1)
    wait_until(lambda: cursor(app, channel) >= first[-1], what=what)
    return table, character, channel, first


def test_public_entries_are_posted_in_order_and_hidden_ones_never(app, client, make_table, discord_api):
    table, character = playing(make_table)
    channel = bind(app, table)
    made = rolled(table, table.st, character["id"], 2)
    hidden = rolled(table, table.st, character["id"], 1, hidden=True)
    made += rolled(table, table.st, character["id"], 2)
    wait_until(lambda: cursor(app, channel) >= made[-1], what="the poster's cursor past the last roll")
    posted = discord_api.posted(channel.channel_id)
    # every public entry after the binding (the hidden stream's seed commitment too, F-7), no other
    assert posted_seqs(posted) == public_seqs(table, after=channel.last_posted)
    assert set(made) <= set(posted_seqs(posted)) and hidden[0] not in posted_seqs(posted)
    assert all(message["webhook_id"] for message in posted)
    webhook_made = discord_api.requests(rf"POST /channels/{channel.channel_id}/webhooks")
    assert len(webhook_made) == 1  # made once, on the first post, then kept (sealed) in the store
    sent = discord_api.requests(rf"POST /webhooks/{webhook_of(discord_api, channel)}/hook-token")
    assert sent and all(
        seen.query == {"wait": ["true"]} and seen.body["allowed_mentions"] == {"parse": []} for seen in sent
    )


def test_an_entry_an_interaction_showed_is_not_posted_twice(app, client, make_table, discord_api):
    table, character, channel, first = posted_first(app, make_table, "the first roll posted")
    # an entry an interaction answered in the channel: marked in the transaction that made it
    answered = tx.run(
        app.state.db,
        lambda session: store.mark_answered(session, table.id, channel.channel_id, [first[-1] + 1]),
    )
    assert answered is None
    later = rolled(table, table.st, character["id"], 2)
    assert later[0] == first[-1] + 1
    wait_until(lambda: cursor(app, channel) >= later[-1], what="the later rolls handled")
    assert posted_seqs(discord_api.posted(channel.channel_id)) == [first[0], later[1]]


def test_every_bound_channel_gets_the_entry(app, client, make_table, discord_api):
    table, character = playing(make_table)
    channels = [bind(app, table), bind(app, table)]
    made = rolled(table, table.st, character["id"], 2)
    for channel in channels:
        wait_until(
            lambda channel=channel: posted_seqs(discord_api.posted(channel.channel_id)) == made,
            what="both channels posted",
        )


def test_a_429_holds_the_channel_for_its_retry_after(app, client, make_table, discord_api):
    table, character, channel, first = posted_first(app, make_table, "the webhook made and a first post")
    hook = rf"POST /webhooks/{webhook_of(discord_api, channel)}/"
    discord_api.rate_limit(hook, 0.3)
    later = rolled(table, table.st, character["id"], 2)
    wait_until(lambda: cursor(app, channel) >= later[-1], what="the rolls posted after the 429")
    limited = [seen for seen in discord_api.requests(hook) if seen.status == 429]
    accepted = [seen for seen in discord_api.requests(hook) if seen.status == 200 and seen.at > limited[0].at]
    assert len(limited) == 1 and accepted[0].at - limited[0].at >= 0.3
    assert posted_seqs(discord_api.posted(channel.channel_id)) == first + later


def test_a_channel_webhook_that_is_down_never_slows_the_roll_and_catches_up_in_order(
    app, client, make_table, discord_api
):
    table, character = playing(make_table)
    channel, other = bind(app, table), bind(app, table)
    first = rolled(table, table.st, character["id"], 1)
    wait_until(
        lambda: cursor(app, channel) >= first[-1] and cursor(app, other) >= first[-1],
        what="both webhooks made",
    )
    webhook_id = webhook_of(discord_api, channel)
    discord_api.down(rf"POST /webhooks/{webhook_id}/")
    durations = []
    later = []
    for _ in range(3):
        started = time.monotonic()
        later += rolled(table, table.st, character["id"], 1)
        durations.append(time.monotonic() - started)
    wait_until(
        lambda: (
            discord_api.requests(rf"POST /webhooks/{webhook_id}/.*")
            and discord_api.requests(rf"POST /webhooks/{webhook_id}/")[-1].status == 503
        ),
        what="a post refused",
    )
    # the other channel goes on meanwhile; the down one holds its entries, in order
    wait_until(
        lambda: posted_seqs(discord_api.posted(other.channel_id)) == first + later, what="the other channel"
    )
    assert cursor(app, channel) == first[-1]
    assert max(durations) < 2.0, durations  # the roll never waited for Discord
    discord_api.up(rf"POST /webhooks/{webhook_id}/")
    wait_until(
        lambda: cursor(app, channel) >= later[-1], 15, what="the channel caught up once its webhook is back"
    )
    assert posted_seqs(discord_api.posted(channel.channel_id)) == first + later


def test_discord_unreachable_then_back(app, client, make_table, discord_api):
    table, character, channel, first = posted_first(app, make_table, "a first post")
    poster = app.state.discord_poster
    failed = poster.failed
    discord_api.refuse()
    later = rolled(table, table.st, character["id"], 2)  # the rolls succeed with Discord unreachable
    wait_until(lambda: poster.failed > failed, what="a post that found Discord unreachable")
    discord_api.accept()
    wait_until(lambda: cursor(app, channel) >= later[-1], 15, what="the posts once Discord is back")
    assert posted_seqs(discord_api.posted(channel.channel_id)) == first + later


def test_a_webhook_deleted_in_discord_is_made_again(app, client, make_table, discord_api):
    table, character, channel, first = posted_first(app, make_table, "a first post")
    discord_api.delete_webhooks(channel.channel_id)  # someone deleted it in the channel's settings
    later = rolled(table, table.st, character["id"], 1)
    wait_until(lambda: cursor(app, channel) >= later[-1], 15, what="the post through a new webhook")
    assert posted_seqs(discord_api.posted(channel.channel_id)) == first + later
    assert len(discord_api.requests(rf"POST /channels/{channel.channel_id}/webhooks")) == 2


def test_a_bot_without_manage_webhooks_is_tried_again_and_never_fails_the_roll(
    app, client, make_table, discord_api
):
    table, character = playing(make_table)
    channel = bind(app, table)
    discord_api.fail(
        rf"POST /channels/{channel.channel_id}/webhooks",
        403,
        body={"message": "Missing Permissions", "code": 50013},
    )
    made = rolled(table, table.st, character["id"], 2)  # 201 both: Discord's refusal is the poster's
    wait_until(
        lambda: cursor(app, channel) >= made[-1], 15, what="the posts once the bot may make the webhook"
    )
    assert [
        seen.status for seen in discord_api.requests(rf"POST /channels/{channel.channel_id}/webhooks")
    ] == [403, 200]
    assert posted_seqs(discord_api.posted(channel.channel_id)) == made


def test_two_app_processes_on_one_store_post_each_entry_once(
    app, client, database_url, make_table, discord_api
):
    other_app = create_app(database_url, settings=discord_api.settings())
    with TestClient(other_app) as other:
        table, character = playing(make_table)
        channel = bind(app, table)
        made = []
        for index in range(6):
            table.client = other if index % 2 else client  # the rolls come through both processes
            made += rolled(table, table.st, character["id"], 1)
        table.client = client
        wait_until(lambda: cursor(app, channel) >= made[-1], 15, what="every roll handled")
        assert posted_seqs(discord_api.posted(channel.channel_id)) == made
        assert len(discord_api.requests(rf"POST /channels/{channel.channel_id}/webhooks")) == 1


def test_an_idle_bound_channel_costs_the_poster_nothing(app, client, make_table, discord_api):
    """The poster read every binding's cursor and head every 1–2 s, rolls or not.
    It rides the live feeds' wake now (``Hub.follow``): while nothing is rolled the hub's catch-ups
    go on (one read per process, the bound chronicles' heads among them) and the poster makes no
    read at all; a roll wakes it once."""
    table, character, channel, first = posted_first(app, make_table, "a first post")
    hub, poster = app.state.hub, app.state.discord_poster
    wait_until(lambda: table.id in hub.followed, what="the bound chronicle followed by the hub")
    wait_until(lambda: not poster._running and not poster._held, what="the poster at rest")
    interval, hub.poll_interval = hub.poll_interval, 0.1
    try:
        caught_up = hub.catch_ups
        wait_until(lambda: hub.catch_ups >= caught_up + 2, what="catch-ups at the new interval")
        looks, caught_up = poster.looks, hub.catch_ups
        # thirty catch-ups, three seconds at least: longer than the poster's own poll was (1 s, 2 s)
        wait_until(lambda: hub.catch_ups >= caught_up + 30, 20, what="thirty catch-ups")
        assert poster.looks == looks  # idle: the poster read nothing
        later = rolled(table, table.st, character["id"], 1)
        wait_until(lambda: cursor(app, channel) >= later[-1], what="the roll posted")
        assert poster.looks > looks
    finally:
        hub.poll_interval = interval
    assert posted_seqs(discord_api.posted(channel.channel_id)) == first + later
