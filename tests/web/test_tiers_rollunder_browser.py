"""End to end for the two other games: a Tiers and a roll-under chronicle each get a character
(the sheet form filled as a person would), a roll with options, and its receipt live on the
Storyteller's page (Chromium, Playwright, fixed dice)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import add_character, create_chronicle, join, wait_for_odds

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def _watching(page) -> None:
    page.evaluate("window.__noReload = 'still here'")


def _not_reloaded(page) -> None:
    assert page.evaluate("window.__noReload") == "still here"


def test_tiers_character_firearm_roll_and_live_receipt(new_context, dice):
    storyteller = new_context().new_page()
    player = new_context(width=360, height=780).new_page()
    invitation = create_chronicle(storyteller, name="Paliers de Lyon", system="tiers", storyteller="Ana")
    join(player, invitation=invitation, name="Bruno")
    add_character(
        player,
        name="Marion",
        ratings={"s.skills.firearms": "7", "s.skills.dodge": "5", "s.endurance": "3", "s.armor.torso": "2"},
        extra={"s.weapons.0.name": "Pistol", "s.weapons.0.bonus": "2", "s.weapons.0.capacity": "8"},
    )
    storyteller.reload()
    _watching(storyteller)

    expect(player.locator(".traits")).to_contain_text("Firearms")
    player.get_by_label("Skill", exact=True).select_option("firearms")
    player.locator("#roll-weapon").select_option("Pistol")
    player.get_by_label("Bullets fired", exact=True).fill("3")
    wait_for_odds(player, "Chance of success")
    dice.clear()
    dice.queue(3)  # effective 7 + 2 = 9; tier 9 − 3 = 6, × 3 bullets = 18 (T-1, T-3)
    player.get_by_role("button", name="Roll", exact=True).click()
    mine = player.locator("#feed > li").first
    expect(mine.locator(".outcome")).to_have_text("Success at tier 18")
    expect(player.locator(".resources")).to_contain_text("5/8")  # three rounds fired
    assert player.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

    theirs = storyteller.locator("#feed > li").first
    expect(theirs.locator(".outcome")).to_have_text("Success at tier 18", timeout=LIVE)
    _not_reloaded(storyteller)

    # A dodge waits for the attack's tier instead of showing an error.
    player.locator("#roll-panel nav").get_by_role("link", name="Dodge").click()
    wait_for_odds(player, "Fill in “Attack tier” to see the odds.")


def test_rollunder_character_card_roll_and_live_receipt(new_context, dice):
    storyteller = new_context().new_page()
    player = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Sous le niveau", system="rollunder", storyteller="Ana")
    join(player, invitation=invitation, name="Bruno")
    sheet = add_character(
        player,
        name="Lou",
        ratings={
            "new.skills.name.0": "Climb",
            "new.skills.value.0": "12",
            "new.attributes.name.0": "Strength",
            "new.attributes.value.0": "9",
        },
    )
    expect(player.locator("[name='s.cards.0.name']")).to_have_count(0)  # cards are the Storyteller's
    given = storyteller.request.post(
        f"{sheet}/adjustments",
        form={
            "change": "grant_card",
            "card.name": "Agile",
            "card.effect": "advantage",
            "card.consumable": "on",
        },
        max_redirects=0,
    )
    assert given.status in (200, 303), given.text()
    player.reload()
    storyteller.reload()
    _watching(storyteller)

    expect(player.locator(".traits")).to_contain_text("Climb")
    expect(player.locator(".resources")).to_contain_text("Agile (advantage)")
    expect(player.locator("#roll-panel nav a")).to_have_count(1)  # no opposed roll for a player
    player.get_by_label("Declared action", exact=True).fill("Climb the wall")
    player.get_by_label("Skill", exact=True).select_option("climb")
    player.get_by_label("Agile (advantage)").check()
    wait_for_odds(player, "Climb 12 + Agile = target 12")
    dice.clear()
    dice.queue(17, 9)  # advantage keeps the lower: 9 ≤ 12
    player.get_by_role("button", name="Roll", exact=True).click()
    mine = player.locator("#feed > li").first
    expect(mine.locator(".outcome")).to_have_text("Success")
    expect(mine.locator(".card-title")).to_contain_text("Climb")
    expect(player.locator(".resources")).to_contain_text("None held.")  # the card is used up
    expect(player.locator("#roll-cards input")).to_have_count(0)

    theirs = storyteller.locator("#feed > li").first
    expect(theirs.locator(".outcome")).to_have_text("Success", timeout=LIVE)
    expect(theirs).to_contain_text("Climb the wall")
    _not_reloaded(storyteller)

    # The Storyteller grants a card from the sheet: the player's open roll form offers it at once (live).
    _watching(player)
    storyteller.goto(player.url)
    storyteller.locator("#change-panel nav").get_by_role("link", name="Remove a card").click()
    expect(storyteller.locator("#change-nothing")).to_have_text("No cards to remove.")
    storyteller.locator("#change-panel nav").get_by_role("link", name="Grant a card").click()
    storyteller.locator("#change [name='card.name']").fill("Strong")
    storyteller.locator("#change [name='card.effect']").select_option("bonus")
    storyteller.locator("#change [name='card.bonus']").fill("2")
    storyteller.get_by_role("button", name="Apply").click()
    expect(storyteller.locator("#feed > li").first).to_contain_text("Strong")
    expect(player.locator("#roll-cards")).to_contain_text("Strong (+2)", timeout=LIVE)
    player.get_by_label("Strong (+2)").check()
    wait_for_odds(player, "Climb 12 + Strong +2 = target 14")
    _not_reloaded(player)
