"""End to end on phones (390 x 844, Chromium): the whole loop of SPEC A-1 — a player asks for +2
dice, the Storyteller's page shows the ask live, the Storyteller grants +1, and the roll appears on
both pages without a reload. Screenshots of the Storyteller's queue and of the granted receipt go to
the run's artifacts (``scripts/docs-screenshots`` copies them to ``docs/``, shown in ``docs/web.md`` and the README)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import add_character, create_chronicle, join, screenshot_card, settled, wait_for_odds

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def test_A1_ask_live_queue_grant_changed_roll_on_both_phones(new_context, dice, artifacts):
    storyteller = new_context(**PHONE).new_page()
    player = new_context(**PHONE).new_page()

    invitation = create_chronicle(storyteller, name="Madrid by Night", system="v20", storyteller="Ana")
    join(player, invitation=invitation, name="Bruno")
    add_character(player, name="Lucita", ratings={"s.attributes.dexterity": "3", "s.skills.firearms": "2"})

    storyteller.reload()
    expect(storyteller.locator("#asks")).to_contain_text("Nothing waits for you.")
    storyteller.evaluate("window.__noReload = 'still here'")

    # The player asks for two more dice: the form says it asks the Storyteller, with both odds.
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Ability", exact=True).select_option("firearms")
    wait_for_odds(player, "Dexterity 3 + Firearms 2 = 5 dice")
    expect(player.locator("#roll-submit")).to_have_text("Roll")
    player.get_by_label("Dice modifier", exact=True).fill("2")
    wait_for_odds(player, "This roll asks the Storyteller for: +2 dice.")
    wait_for_odds(player, "Without the ask:")
    expect(player.locator("#roll-submit")).to_have_text("Ask the Storyteller")
    player.locator("#roll-submit").click()
    expect(player.locator("#feed > li").first).to_contain_text("Asks the Storyteller: Dexterity + Firearms")
    expect(player.locator("#asks")).to_contain_text("Waiting for the Storyteller.")

    # Live on the Storyteller's phone: the queue, with the odds as asked.
    ask = storyteller.locator("#asks .ask").first
    expect(ask).to_contain_text("Asks for +2 dice", timeout=LIVE)
    expect(ask).to_contain_text("As asked: Chance of success:")
    assert storyteller.evaluate("window.__noReload") == "still here"
    storyteller.locator("#asks").scroll_into_view_if_needed()
    settled(storyteller)
    storyteller.locator("#asks").screenshot(path=str(artifacts / "authority-queue.png"))

    # The Storyteller grants one die, not two.
    dice.queue(10, 8, 6, 3, 1, 7)  # 6 dice: Dexterity 3 + Firearms 2 + 1 granted
    ask.locator("summary").click()
    ask.get_by_label("Dice modifier", exact=True).fill("1")
    ask.get_by_role("button", name="Grant this").click()
    granted = storyteller.locator("#feed > li.kind-roll").first
    expect(granted).to_contain_text("Granted by the Storyteller in #")
    expect(granted).to_contain_text("Dexterity 3 + Firearms 2 + modifier +1 = 6 dice")
    expect(storyteller.locator("#asks")).to_contain_text("Nothing waits for you.")
    assert storyteller.evaluate("window.__noReload") == "still here"

    # ... and on the player's phone, live: the roll as granted, the ask gone from their list.
    theirs = player.locator("#feed > li.kind-roll").first
    expect(theirs).to_contain_text("Granted by the Storyteller in #", timeout=LIVE)
    expect(theirs.locator(".outcome")).to_have_text("Success (complete)")  # 10, 8, 6, 7 less one 1: three
    expect(theirs).to_contain_text("Dexterity 3 + Firearms 2 + modifier +1 = 6 dice")
    expect(theirs).to_contain_text(
        "As granted: Chance of success: 87.6%"
    )  # 6 dice at 6 (the ask showed 90.1% for 7)
    expect(player.locator("#feed > li.kind-grant").first).to_contain_text("+1 die (asked: +2 dice)")
    expect(player.locator("#asks")).to_be_hidden()
    theirs.scroll_into_view_if_needed()
    settled(player)
    screenshot_card(theirs, artifacts / "authority-granted.png")
