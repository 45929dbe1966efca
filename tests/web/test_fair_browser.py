"""End to end: provably fair dice in Chromium (SPEC F-2, F-5, F-6). A player sets a client seed on
the chronicle page and rolls; the receipt shows its fairness state (pending); the Storyteller reveals
the seed; the receipt shows verified, and its "verify" button recomputes the faces in the browser
with Web Crypto; a receipt whose faces were edited in the page's data shows a mismatch."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .flows import add_character, create_chronicle, join, screenshot_card

pytestmark = pytest.mark.browser


def test_a_revealed_roll_is_verified_in_the_browser_and_an_edited_one_is_not(new_context, dice, artifacts):
    storyteller = new_context().new_page()
    player = new_context().new_page()
    storyteller.on("dialog", lambda dialog: dialog.accept())
    invitation = create_chronicle(
        storyteller, name="Fair Nights", system="v5", storyteller="Ana", difficulty="3"
    )
    join(player, invitation=invitation, name="Bruno")
    chronicle_url = player.url

    # F-2: the player's client seed, from the chronicle page (a log entry).
    player.get_by_label("Your client seed").fill("Bruno's lucky string")
    player.get_by_role("button", name="Use this client seed").click()
    expect(player.get_by_label("Your client seed")).to_have_value("Bruno's lucky string")

    add_character(
        player,
        name="Nadia Verne",
        ratings={"s.attributes.dexterity": "3", "s.skills.firearms": "2", "s.hunger": "1"},
    )
    dice.clear()  # nothing queued: the server's own fair dice
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Skill", exact=True).select_option("firearms")
    player.get_by_role("button", name="Roll", exact=True).click()
    mine = player.locator("#feed > li.kind-roll").first
    expect(mine.locator(".fair-state")).to_contain_text("Fair dice: pending")
    expect(mine.locator("button.fair-verify")).to_have_count(0)  # nothing to recompute before the reveal

    # F-5: the Storyteller reveals the seed (and commits the next one); the player's open page shows
    # the roll verified, live.
    player.goto(chronicle_url)
    card = player.locator("#feed > li.kind-roll").first
    expect(card.locator(".fair-state")).to_contain_text("Fair dice: pending")
    player.evaluate("window.__noReload = 'still here'")
    storyteller.reload()
    storyteller.get_by_role("button", name="Reveal the seed and start a new one").click()
    expect(storyteller.locator("#feed")).to_contain_text("Server seed revealed")
    expect(card.locator(".fair-state")).to_contain_text("Fair dice: verified")
    assert player.evaluate("window.__noReload") == "still here"
    button = card.locator("button.fair-verify")
    button.click()
    expect(card.locator(".fair-result")).to_have_text(
        "Verified in this browser: every face is the one the revealed seed gives."
    )
    draws = json.loads(button.get_attribute("data-fair-draws"))
    assert draws[0]["clientSeed"] == "Bruno's lucky string" and draws[0]["nonce"] == 1
    screenshot_card(card, artifacts / "fair-verified.png")

    # The page's data edited (one face changed): the browser's own recomputation disagrees.
    edited = [dict(draws[0], faces=[draws[0]["faces"][0] % 10 + 1, *draws[0]["faces"][1:]]), *draws[1:]]
    button.evaluate("(b, data) => b.setAttribute('data-fair-draws', data)", json.dumps(edited))
    button.click()
    expect(card.locator(".fair-result")).to_contain_text(
        "Mismatch: the faces shown are not those the revealed seed"
    )
    expect(card.locator(".fair")).to_have_attribute("data-verified-here", "mismatch")
