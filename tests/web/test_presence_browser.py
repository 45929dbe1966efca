"""Presence and notifications, in Chromium, three at the
table: the Storyteller's "At the table" shows a player who joins, without a reload, and who is online (a
live feed open, written per server process: ``server.presence``) and who left; the Storyteller's tab
title counts the asks waiting, and a soft sound (off by default, a tick-box) marks a new one; a player
is told when a step of an exchange is theirs to take, and when a new turn starts."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from rollbook.web.presence import POLL_SECONDS

from .flows import (
    api_character,
    by_its_poll,
    chronicle_id,
    create_chronicle,
    feed_open,
    join,
    token_of,
)

pytestmark = pytest.mark.browser

LIVE = 12_000  # ms


def _ask(live_server: str, page, character: int, modifier: int) -> None:
    answer = httpx.post(
        f"{live_server}/api/chronicles/{chronicle_id(page)}/characters/{character}/rolls",
        headers={"Authorization": f"Bearer {token_of(page)}"},
        timeout=30,
        json={
            "action": {"kind": "test", "attribute": "dexterity", "ability": "firearms", "modifier": modifier},
            "ask": True,
        },
    )
    assert answer.status_code == 202, answer.text


def test_presence_title_sound_and_notices(new_context, live_server, dice, artifacts):
    # The Storyteller's page keeps Playwright's clock: the panel's poll (every POLL_SECONDS) is fired
    # when the test looks (by_its_poll), not waited out; it is still that poll, not a reload, that draws.
    at_the_table = new_context()
    at_the_table.clock.install()
    storyteller = at_the_table.new_page()
    invitation = create_chronicle(storyteller, name="Present by Night", system="v20", storyteller="Ana")
    feed_open(storyteller)
    people = storyteller.locator("#people-panel")

    def polled(shown) -> None:
        by_its_poll(storyteller, "/people?", shown, every_s=POLL_SECONDS)

    polled(
        lambda ms: expect(people.locator("[data-member][data-online]")).to_have_count(1, timeout=ms)
    )  # the Storyteller

    # A player joins: "At the table" shows him, online, without a reload; a second one joins, then leaves.
    bruno = new_context().new_page()
    join(bruno, invitation=invitation, name="Bruno")
    polled(
        lambda ms: expect(people.locator("[data-member]", has_text="Bruno")).to_have_attribute(
            "data-online", "1", timeout=ms
        )
    )
    carla = new_context(width=390, height=844).new_page()
    join(carla, invitation=invitation, name="Carla")
    carla_row = people.locator("[data-member]", has_text="Carla")
    polled(lambda ms: expect(carla_row).to_have_attribute("data-online", "1", timeout=ms))
    expect(people.locator(".online-count")).to_have_text("3 online")
    carla.close()
    polled(lambda ms: expect(carla_row).not_to_have_attribute("data-online", "1", timeout=ms))
    expect(people.locator(".online-count")).to_have_text("2 online")

    # The tab's title counts the asks waiting; the sound is off until ticked, then marks a new ask.
    lucita = api_character(
        live_server,
        bruno,
        {"name": "Lucita", "attributes": {"dexterity": 3, "stamina": 2}, "skills": {"firearms": 2}},
    )
    bruno.reload()
    feed_open(bruno)
    expect(storyteller).to_have_title(re.compile(r"^Present by Night"))
    expect(storyteller.locator("#ask-sound")).not_to_be_checked()
    _ask(live_server, bruno, lucita, 2)
    expect(storyteller).to_have_title(re.compile(r"^\(1\) Present by Night"), timeout=LIVE)
    assert storyteller.locator("body").get_attribute("data-chimes") is None
    storyteller.locator("#ask-sound").check()
    _ask(live_server, bruno, lucita, 1)
    expect(storyteller).to_have_title(re.compile(r"^\(2\) Present by Night"), timeout=LIVE)
    expect(storyteller.locator("body")).to_have_attribute("data-chimes", "1")
    storyteller.reload()  # the choice is kept in this browser
    expect(storyteller.locator("#ask-sound")).to_be_checked()
    expect(storyteller).to_have_title(re.compile(r"^\(2\) "))
    top = storyteller.locator("#asks").bounding_box()
    bottom = people.bounding_box()
    storyteller.screenshot(
        path=str(artifacts / "queue-presence.png"),
        full_page=True,
        clip={"x": 0, "y": top["y"], "width": 1280, "height": bottom["y"] + bottom["height"] - top["y"]},
    )

    # A step of an exchange that is the player's: he is told. The Storyteller's Sheriff attacks Lucita.
    sheriff = api_character(
        live_server,
        storyteller,
        {
            "name": "Sheriff",
            "attributes": {"strength": 3, "dexterity": 3},
            "skills": {"melee": 2},
            "weapons": [{"name": "Knife", "damage": 1, "damage_type": "lethal"}],
        },
    )
    storyteller.goto(f"/chronicles/{chronicle_id(storyteller)}/characters/{sheriff}?kind=test")
    storyteller.get_by_label("Attribute", exact=True).select_option("dexterity")
    storyteller.get_by_label("Ability").select_option("melee")
    storyteller.get_by_label("Target", exact=True).select_option(label="Lucita")
    dice.queue(6, 8, 9, 2, 3)
    storyteller.get_by_role("button", name="Roll", exact=True).click()
    attack = storyteller.locator("#feed > li").first
    expect(attack).to_contain_text("Attack on Lucita")
    attack.get_by_label("Weapon").select_option("Knife")
    dice.queue(6, 1, 1, 7, 2, 10)
    attack.get_by_role("button", name="Roll damage").click()
    notice = bruno.locator("#live-notice")
    expect(notice).to_be_visible(timeout=LIVE)
    expect(notice).to_contain_text("Your step: Soak")
    notice.click()
    expect(notice).to_be_hidden()

    # A new turn: the player is told.
    storyteller.goto(f"/chronicles/{chronicle_id(storyteller)}")
    storyteller.locator("#scene-name").fill("The docks")
    storyteller.get_by_role("button", name="Open a scene").click()
    storyteller.get_by_role("button", name="Start the turns").click()
    expect(notice).to_contain_text("Turn 1", timeout=LIVE)
