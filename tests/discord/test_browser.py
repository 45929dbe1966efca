"""In Chromium: a roll made through ``POST /discord/interactions`` (a signed
APPLICATION_COMMAND, as Discord sends it) appears on the web table's live feed, open in the
Storyteller's browser, without a reload."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from playwright.sync_api import expect

from rollbook.app.app import create_app
from tests.browser import WAIT_MS
from tests.discord.conftest import discord_settings
from tests.discord.signing import command, option
from tests.server.conftest import V5_SHEET, ThreadedServer
from tests.web.flows import api_character, create, feed_open, token_of

pytestmark = pytest.mark.browser

ST = "6100000000000000001"
CHANNEL = "6200000000000000001"


def send(url: str, key, payload: dict) -> dict:
    raw = json.dumps(payload).encode()
    stamp = str(int(time.time()))
    response = httpx.post(
        f"{url}/discord/interactions",
        content=raw,
        timeout=30,
        headers={
            "Content-Type": "application/json",
            "X-Signature-Timestamp": stamp,
            "X-Signature-Ed25519": key.sign(raw, stamp),
        },
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_a_roll_made_on_discord_appears_on_the_web_tables_live_feed(browser, tmp_path, discord_key, standin):
    app = create_app(
        f"sqlite:///{tmp_path / 'table.sqlite3'}", settings=discord_settings(discord_key, standin)
    )
    with ThreadedServer(app) as server:
        context = browser.new_context(
            base_url=server.url, viewport={"width": 1280, "height": 900}, locale="en-US"
        )
        context.set_default_timeout(WAIT_MS)
        try:
            page = context.new_page()
            create(page, "en", "v5", "Discord night")
            feed_open(page)
            character = api_character(server.url, page, dict(V5_SHEET))
            linked = send(
                server.url,
                discord_key,
                command("link", [option("code", token_of(page))], user_id=ST, channel=CHANNEL),
            )
            assert linked["data"]["flags"] == 64, linked
            answer = send(
                server.url,
                discord_key,
                command(
                    "roll",
                    [
                        option("character", str(character)),
                        option("trait", "dexterity"),
                        option("trait2", "firearms"),
                    ],
                    user_id=ST,
                    channel=CHANNEL,
                ),
            )
            seq = int(answer["data"]["embeds"][0]["footer"]["text"].split()[0].lstrip("#"))
            card = page.locator(f"#feed > li.card[data-seq='{seq}']")
            expect(card).to_have_count(1)  # over the live feed: the page was not reloaded
            expect(card).to_contain_text("Dexterity")
        finally:
            context.close()
