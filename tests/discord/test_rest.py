"""``DiscordRest`` against the stand-in of Discord's REST API (tests/discord/standin.py):
deferred answers edited, follow-ups, commands overwritten in bulk, channel webhooks made and
executed; 429 honoured (its ``retry_after``, body or header, route or global), 5xx and refused
connections retried within the call's budget, then ``DiscordUnavailable``; a 4xx refused at once."""

from __future__ import annotations

import time

import pytest

from rollbook.discord.rest import DiscordNotConfigured, DiscordRefused, DiscordRest, DiscordUnavailable
from rollbook.settings import Settings
from tests.discord.standin import APPLICATION_ID, BOT_TOKEN, StandIn

APP = APPLICATION_ID
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ"


@pytest.fixture()
def standin():
    with StandIn() as server:
        yield server


@pytest.fixture()
def rest(standin):
    with DiscordRest.from_settings(standin.settings(), budget=5.0) as client:
        yield client


def test_a_deferred_answer_is_edited_into_the_original_message(rest, standin):
    body = {"content": "", "embeds": [{"title": "Dexterity + Firearms", "description": "3 successes"}]}
    message = rest.edit_original(APP, INTERACTION_TOKEN, body)
    assert message["embeds"] == body["embeds"]
    [seen] = standin.requests()
    assert (seen.method, seen.path) == ("PATCH", f"/webhooks/{APP}/{INTERACTION_TOKEN}/messages/@original")
    assert seen.body == body
    assert "authorization" not in seen.headers  # the interaction's token is its authentication
    assert seen.headers["user-agent"].startswith("DiscordBot (")
    assert standin.originals[INTERACTION_TOKEN] == body


def test_follow_ups_are_posted_in_order(rest, standin):
    rest.followup(APP, INTERACTION_TOKEN, {"content": "first"})
    rest.followup(APP, INTERACTION_TOKEN, {"content": "second", "flags": 64})
    assert standin.followups[INTERACTION_TOKEN] == [{"content": "first"}, {"content": "second", "flags": 64}]
    assert [seen.path for seen in standin.requests()] == [f"/webhooks/{APP}/{INTERACTION_TOKEN}"] * 2


def test_commands_are_overwritten_in_bulk_globally_or_for_one_guild(rest, standin):
    commands = [
        {
            "name": "roll",
            "description": "Roll dice",
            "type": 1,
            "name_localizations": {"fr": "jet", "es-ES": "tirada"},
        }
    ]
    made = rest.put_commands(commands)
    assert [command["name"] for command in made] == ["roll"]
    rest.put_commands(commands, guild_id="220000000000000002")
    first, second = standin.requests()
    assert (first.method, first.path) == ("PUT", f"/applications/{APP}/commands")
    assert second.path == f"/applications/{APP}/guilds/220000000000000002/commands"
    assert first.body == second.body == commands
    assert first.headers["authorization"] == f"Bot {BOT_TOKEN}"


def test_a_channel_webhook_is_made_then_executed_and_waited_for(rest, standin):
    url = rest.create_channel_webhook("330000000000000003", "rollbook")
    assert url.startswith(standin.base + "/webhooks/")
    message = rest.execute_webhook(url, {"embeds": [{"title": "one"}]})
    assert message["id"] and message["channel_id"] == "330000000000000003"
    [made, posted] = standin.requests()
    assert made.body == {"name": "rollbook"} and made.headers["authorization"] == f"Bot {BOT_TOKEN}"
    assert posted.query == {"wait": ["true"]} and "authorization" not in posted.headers
    assert [m["embeds"] for m in standin.posted("330000000000000003")] == [[{"title": "one"}]]


def test_a_stored_webhook_url_is_sent_to_the_configured_base_only(rest, standin):
    url = rest.create_channel_webhook("330000000000000003", "rollbook")
    webhook, token = url.rsplit("/", 2)[-2:]
    rest.execute_webhook(f"https://discord.com/api/webhooks/{webhook}/{token}", {"content": "x"})
    assert len(standin.posted("330000000000000003")) == 1
    with pytest.raises(ValueError):
        rest.execute_webhook("https://example.org/upload", {"content": "x"})


def test_a_429_waits_its_retry_after_from_the_body(rest, standin):
    url = rest.create_channel_webhook("330000000000000003", "rollbook")
    standin.rate_limit("POST /webhooks/", 0.3)
    rest.execute_webhook(url, {"content": "late"})
    limited, accepted = standin.requests("POST /webhooks/")
    assert (limited.status, accepted.status) == (429, 200)
    assert accepted.at - limited.at >= 0.3


def test_a_429_waits_its_retry_after_from_the_header(rest, standin):
    standin.rate_limit("PATCH", 0.25, in_body=False)
    rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"})
    limited, accepted = standin.requests()
    assert limited.status == 429 and accepted.at - limited.at >= 0.25


def test_a_global_limit_holds_every_route_a_route_limit_only_its_own(rest, standin):
    standin.rate_limit("PATCH", 0.3)  # a route's limit: the follow-up goes at once
    rest.followup(APP, INTERACTION_TOKEN, {"content": "free"}, budget=0)
    rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"})
    standin.rate_limit("PATCH", 0.3, global_limit=True)
    started = time.monotonic()
    with pytest.raises(DiscordUnavailable) as limited:
        rest.edit_original(APP, INTERACTION_TOKEN, {"content": "y"}, budget=0)
    assert limited.value.status == 429 and limited.value.global_limit and 0 < limited.value.retry_after <= 0.3
    sent = len(standin.requests())
    with pytest.raises(DiscordUnavailable):  # another route: held by the global limit, nothing sent
        rest.followup(APP, INTERACTION_TOKEN, {"content": "held"}, budget=0)
    assert len(standin.requests()) == sent
    rest.followup(APP, INTERACTION_TOKEN, {"content": "after"})
    assert standin.requests()[-1].at - started >= 0.3


def test_a_limit_longer_than_the_budget_is_refused_at_once(rest, standin):
    standin.rate_limit("PATCH", 30)
    started = time.monotonic()
    with pytest.raises(DiscordUnavailable) as limited:
        rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"}, budget=1)
    assert time.monotonic() - started < 1
    assert limited.value.retry_after > 29 and not limited.value.global_limit


def test_a_5xx_is_tried_again_with_a_backoff(rest, standin):
    standin.fail("PATCH", 503, times=2)
    rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"})
    assert [seen.status for seen in standin.requests()] == [503, 503, 200]


def test_discord_down_past_the_budget_is_unavailable_within_it(standin):
    standin.down("PATCH")
    with DiscordRest.from_settings(standin.settings(), budget=1.0, max_retries=10) as rest:
        started = time.monotonic()
        with pytest.raises(DiscordUnavailable) as down:
            rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"})
        assert time.monotonic() - started <= 1.5
    assert down.value.status == 503 and INTERACTION_TOKEN not in str(down.value)
    assert "{token}" in down.value.route
    assert 2 <= len(standin.requests()) <= 4  # backoff: 0.25 s, then 0.5 s, then past the budget


def test_a_refused_connection_is_unavailable_then_works_once_discord_is_back(rest, standin):
    standin.refuse()
    started = time.monotonic()
    with pytest.raises(DiscordUnavailable) as refused:
        rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"}, budget=0.5)
    assert refused.value.status is None and time.monotonic() - started < 1.5
    standin.accept()
    assert rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"}, budget=0)["content"] == "x"


def test_a_4xx_is_refused_at_once_with_discords_code(rest, standin):
    with pytest.raises(DiscordRefused) as refused:
        rest.execute_webhook(f"{standin.base}/webhooks/440000000000000004/not-a-token", {"content": "x"})
    assert (refused.value.status, refused.value.code) == (404, 10015)
    assert "not-a-token" not in str(refused.value)
    assert len(standin.requests()) == 1


def test_a_wrong_bot_token_is_refused_and_a_missing_one_named(standin):
    settings = Settings(discord_api_base=standin.base, discord_application_id=APP, discord_bot_token="wrong")
    with DiscordRest.from_settings(settings) as rest, pytest.raises(DiscordRefused) as refused:
        rest.put_commands([])
    assert refused.value.status == 401 and "wrong" not in str(refused.value)
    with (
        DiscordRest(standin.base, application_id=APP) as rest,
        pytest.raises(DiscordNotConfigured) as missing,
    ):
        rest.put_commands([])
    assert missing.value.variable == "DISCORD_BOT_TOKEN"
    assert standin.requests("PUT") == [standin.requests("PUT")[0]]  # only the wrong token's was sent


def test_the_api_base_is_a_setting(monkeypatch, standin):
    from rollbook.settings import SettingsError, load

    monkeypatch.delenv("DISCORD_API_BASE", raising=False)
    assert load().discord_api_base == "https://discord.com/api/v10"
    monkeypatch.setenv("DISCORD_API_BASE", standin.base + "/")
    assert load().discord_api_base == standin.base
    monkeypatch.setenv("DISCORD_API_BASE", "discord.com")
    with pytest.raises(SettingsError, match="DISCORD_API_BASE"):
        load()


def test_a_spent_bucket_holds_its_route_until_its_reset(rest, standin):
    standin.bucket_spent("PATCH", 0.3)
    rest.edit_original(APP, INTERACTION_TOKEN, {"content": "last of the bucket"})
    with pytest.raises(DiscordUnavailable) as held:  # not sent: it would be a 429
        rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"}, budget=0)
    assert held.value.retry_after <= 0.3 and len(standin.requests()) == 1
    rest.followup(APP, INTERACTION_TOKEN, {"content": "another route goes at once"}, budget=0)
    rest.edit_original(APP, INTERACTION_TOKEN, {"content": "after the reset"})
    first, _, last = standin.requests()
    assert last.at - first.at >= 0.3


def test_the_apps_client_is_the_one_set_else_one_made_from_its_settings(standin):
    from types import SimpleNamespace

    from rollbook.discord.rest import client_for

    given = DiscordRest(standin.base)
    assert client_for(SimpleNamespace(discord_rest=given)) is given
    state = SimpleNamespace(settings=standin.settings())
    made = client_for(state)
    assert state.discord_rest is made and client_for(state) is made
    assert made.base == standin.base and made.application_id == standin.application_id


def test_no_token_reaches_a_log_line(rest, standin, caplog):
    import logging

    url = rest.create_channel_webhook("330000000000000003", "rollbook")
    with caplog.at_level(logging.DEBUG):
        rest.execute_webhook(url, {"content": "x"})
        rest.edit_original(APP, INTERACTION_TOKEN, {"content": "x"})
    text = "\n".join(record.getMessage() for record in caplog.records)
    assert "HTTP Request" in text  # httpx's own line, its URL's token hidden
    assert INTERACTION_TOKEN not in text and url.rsplit("/", 1)[1] not in text and BOT_TOKEN not in text
