"""Live in Chromium (SPEC A-1): a standing grant
reaches a player's open roll form without a reload (no ``htmx:oobErrorNoTarget #standing``), and once an
ask is sent the roll form is a plain roll again (the hidden-roll box unticked, every edge from what
stands), so the player's next roll carries nothing they did not set again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import add_character, create_chronicle, join, wait_for_odds

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page
CATCH_OOB = """window.__oob = [];
document.addEventListener('htmx:oobErrorNoTarget', e => window.__oob.push(String(e.detail.content && e.detail.content.id)));"""


def _table(new_context):
    storyteller = new_context().new_page()
    player = new_context(**PHONE).new_page()
    invitation = create_chronicle(storyteller, name="Madrid by Night", system="v20", storyteller="Ana")
    join(player, invitation=invitation, name="Bruno")
    add_character(player, name="Lucita", ratings={"s.attributes.dexterity": "3", "s.skills.firearms": "2"})
    player.evaluate(CATCH_OOB)
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Ability", exact=True).select_option("firearms")
    wait_for_odds(player, "Dexterity 3 + Firearms 2 = 5 dice")
    storyteller.reload()
    return storyteller, player


def test_A1_a_standing_grant_reaches_the_open_roll_form_live(new_context, dice):
    storyteller, player = _table(new_context)
    player.evaluate("window.__noReload = 'still here'")
    storyteller.locator("#standing summary").click()
    storyteller.locator("#standing-character").select_option(label="Lucita")
    storyteller.locator("#standing-edge").select_option("modifier")
    storyteller.locator("#standing-value").fill("1")
    if storyteller.locator("#standing-scene").count():  # offered only while a scene runs
        storyteller.locator("#standing-scene").uncheck()
    storyteller.locator("#standing-form button[type=submit]").click()
    expect(storyteller.locator("#standing")).to_contain_text("Lucita:")

    # On the player's open form, live: the granted die stands, the roll is a plain roll, not an ask.
    expect(player.get_by_label("Dice modifier", exact=True)).to_have_value("1", timeout=LIVE)
    wait_for_odds(player, "Dexterity 3 + Firearms 2 + modifier +1 = 6 dice")
    expect(player.locator("#roll-submit")).to_have_text("Roll")
    expect(player.locator("#odds")).not_to_contain_text("asks the Storyteller")
    assert player.evaluate("window.__noReload") == "still here"
    assert player.evaluate("window.__oob") == []
    dice.queue(10, 8, 6, 3, 1, 7)
    player.get_by_label("Attribute", exact=True).select_option(
        "dexterity"
    )  # the redrawn form keeps the last traits
    player.locator("#roll-submit").click()
    mine = player.locator("#feed > li.kind-roll").first
    expect(mine).to_contain_text("Dexterity 3 + Firearms 2 + modifier +1 = 6 dice")
    expect(player.locator("#feed > li.kind-ask")).to_have_count(0)


def test_A1_after_an_ask_the_roll_form_is_a_plain_roll(new_context, dice):
    storyteller, player = _table(new_context)
    player.get_by_label("Dice modifier", exact=True).fill("2")
    player.locator("#roll-hidden").check()
    wait_for_odds(player, "This roll asks the Storyteller for")
    expect(player.locator("#roll-submit")).to_have_text("Ask the Storyteller")
    player.locator("#roll-submit").click()
    expect(player.locator("#feed > li").first).to_contain_text("Asks the Storyteller")

    # The form is a plain roll again: no edge left set, the hidden-roll box unticked.
    expect(player.locator("#roll-hidden")).not_to_be_checked()
    expect(player.get_by_label("Dice modifier", exact=True)).to_have_value("0")
    expect(player.locator("#roll-submit")).to_have_text("Roll")

    # The Storyteller grants +1 (changed); the player's next roll carries nothing of the ask.
    dice.queue(10, 8, 6, 3, 1, 7)
    ask = storyteller.locator("#asks .ask").first
    expect(ask).to_contain_text("Asks for +2 dice", timeout=LIVE)
    ask.locator("summary").click()
    ask.get_by_label("Dice modifier", exact=True).fill("1")
    ask.get_by_role("button", name="Grant this").click()
    expect(player.locator("#feed > li.kind-grant").first).to_contain_text(
        "A hidden ask granted", timeout=LIVE
    )
    expect(player.locator("#roll-hidden")).not_to_be_checked()
    dice.queue(10, 8, 6, 3, 1)
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Ability", exact=True).select_option("firearms")
    wait_for_odds(player, "Dexterity 3 + Firearms 2 = 5 dice")
    player.locator("#roll-submit").click()
    plain = player.locator("#feed > li.kind-roll").first
    expect(plain).to_contain_text("Dexterity 3 + Firearms 2 = 5 dice")
    expect(plain).not_to_contain_text("Granted")
    expect(player.locator("#feed > li.kind-ask")).to_have_count(1)
