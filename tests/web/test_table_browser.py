"""End to end: Chromium at the table (Playwright, sync API) against a real uvicorn.

Two browser contexts — the Storyteller and a player — join one chronicle; the player rolls and the
receipt appears on the Storyteller's page without a reload; Hunger dice cannot be picked for a
Willpower reroll (V5-8); the language switch renames the outcomes; a bad input shows the server's
error in place. Screenshots go to the run's artifacts
(``test-artifacts/run/``; ``scripts/docs-screenshots`` copies the ones ``docs/web.md`` shows to ``docs/``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import add_character, create_chronicle, join, screenshot_card, settled, wait_for_odds

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def _mark_page(page) -> None:
    """A marker that a reload or navigation would wipe: proves updates arrive live."""
    page.evaluate("window.__noReload = 'still here'")


def _not_reloaded(page) -> None:
    assert page.evaluate("window.__noReload") == "still here"


def test_v5_table_live_receipts_reroll_language_and_errors(new_context, dice, artifacts):
    storyteller = new_context().new_page()
    player = new_context().new_page()

    # The Storyteller sets difficulty 3 for the players' rolls (A-1: another one would be asked).
    invitation = create_chronicle(
        storyteller, name="Nights of Lyon", system="v5", storyteller="Ana", difficulty="3"
    )
    join(player, invitation=invitation, name="Bruno")
    sheet_url = add_character(
        player,
        name="Nadia Verne",
        ratings={
            "s.attributes.dexterity": "3",
            "s.attributes.composure": "2",
            "s.attributes.resolve": "2",
            "s.attributes.wits": "3",
            "s.skills.firearms": "2",
            "s.skills.stealth": "3",
            "s.skills.awareness": "1",
            "s.hunger": "2",
        },
        extra={
            "s.clan": "Brujah",
            "s.concept": "Courier",
            "s.specialties": "firearms: Pistols",
            "new.disciplines.name.0": "Celerity",
            "new.disciplines.value.0": "2",
            "s.experience.total": "12",
        },
    )

    # The Storyteller watches the chronicle page; it must not reload.
    storyteller.reload()
    expect(storyteller.get_by_role("link", name="Nadia Verne")).to_be_visible()
    _mark_page(storyteller)

    # Pick the traits; the exact odds update before the roll.
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Skill", exact=True).select_option("firearms")
    player.get_by_label("Difficulty", exact=True).fill("3")
    wait_for_odds(player, "Dexterity 3 + Firearms 2 = 5 dice")
    wait_for_odds(player, "2 of them Hunger dice")
    expect(player.locator("#odds .headline")).to_contain_text("Chance to win")

    # A bad input: the server's own sentence, in place, before and on rolling.
    player.get_by_label("Difficulty", exact=True).fill("0")
    expect(player.locator("#odds [role=alert]")).to_contain_text("Difficulty must be at least 1, not 0.")
    player.get_by_role("button", name="Roll", exact=True).click()
    # said once: the odds box already says it, the roll's alert stays empty
    expect(
        player.locator("[role=alert]:visible", has_text="Difficulty must be at least 1, not 0.")
    ).to_have_count(1)
    expect(player.locator("#roll-alert")).to_be_empty()
    player.get_by_label("Difficulty", exact=True).fill("3")
    wait_for_odds(player, "Chance to win")

    # V5 messy critical: normal 10, 7, 3; Hunger 10, 2 (a pair of 10s with a Hunger 10).
    dice.clear()
    dice.queue(10, 7, 3, 10, 2)
    player.get_by_role("button", name="Roll", exact=True).click()
    mine = player.locator("#feed > li").first
    expect(mine.locator(".outcome")).to_have_text("Messy Critical")
    expect(player.locator("#roll-alert")).to_be_empty()

    # ... and it is on the Storyteller's page, live.
    theirs = storyteller.locator("#feed > li").first
    expect(theirs.locator(".outcome")).to_have_text("Messy Critical", timeout=LIVE)
    _not_reloaded(storyteller)
    expect(theirs.locator(".die-hunger.m-messy")).to_have_count(1)
    expect(theirs.locator(".m-paired")).to_have_count(2)
    expect(theirs.locator(".line")).to_have_count(5)
    seq_messy = int(mine.get_attribute("data-seq"))

    settled(player)
    screenshot_card(mine, artifacts / "receipt-v5-messy-critical.png")

    # A bestial failure, then a Willpower reroll: Hunger dice are not pickable.
    dice.queue(4, 6, 2, 1, 5)  # normal 4, 6, 2; Hunger 1, 5
    player.get_by_role("button", name="Roll", exact=True).click()
    bestial = player.locator("#feed > li").first
    expect(bestial.locator(".outcome")).to_have_text("Bestial Failure")
    seq_bestial = int(bestial.get_attribute("data-seq"))
    assert seq_bestial == seq_messy + 1
    form = bestial.locator("form.reroll")
    expect(form.locator("input[type=checkbox][name=dice]")).to_have_count(3)  # the three normal dice
    hunger = form.locator(".dice-row[data-group=hunger] .die")
    expect(hunger).to_have_count(2)
    expect(form.locator(".dice-row[data-group=hunger] input")).to_have_count(0)
    hunger.first.click()  # clicking a Hunger die selects nothing
    expect(form.locator("input[name=dice]:checked")).to_have_count(0)
    expect(form.locator(".advice .best")).to_contain_text("Best choice")

    # A forged request naming a Hunger die is refused by the server, in place.
    form.evaluate(
        "f => { const i = document.createElement('input'); i.type = 'hidden'; i.name = 'dice';"
        " i.value = '3'; i.id = 'forged'; f.appendChild(i); }"
    )
    form.get_by_role("button", name="Reroll with Willpower").click()
    expect(bestial.locator(f"#reroll-{seq_bestial}-alert")).to_contain_text(
        "Die 4 is a Hunger die: Hunger dice can never be rerolled."
    )  # numbered from 1
    form.evaluate("f => f.querySelector('#forged').remove()")

    # Pick the 4 and the 2 (keyboard: Space on the focused die), reroll them into 8 and 9.
    form.locator("input[name=dice][value='0']").focus()
    player.keyboard.press("Space")
    form.locator("input[name=dice][value='2']").check()
    expect(form.locator(".advice")).to_contain_text("Your choice")
    dice.queue(8, 9)
    form.get_by_role("button", name="Reroll with Willpower").click()
    rerolled = player.locator("#feed > li").first
    expect(rerolled.locator(".outcome")).to_have_text("Success")
    expect(rerolled.locator(".line.history")).to_contain_text("dice 1 (4 → 8), 3 (2 → 9)")
    expect(player.locator(f"#entry-{seq_bestial} form.reroll")).to_have_count(
        0
    )  # followed up: no second reroll
    expect(player.locator(f"#entry-{seq_bestial}")).to_contain_text(f"Rerolled in #{seq_bestial + 1}")
    expect(player.locator(".resources")).to_contain_text(
        "3/4"
    )  # Willpower: 4 boxes, 1 superficial damage (V5-8)
    expect(storyteller.locator("#feed > li").first.locator(".outcome")).to_have_text("Success", timeout=LIVE)
    _not_reloaded(storyteller)

    # The Storyteller rolls hidden for the character; the player sees only that a roll was made.
    storyteller.goto(sheet_url)
    storyteller.get_by_label("Attribute", exact=True).select_option("wits")
    storyteller.get_by_label("Skill", exact=True).select_option("awareness")
    storyteller.get_by_label("Hidden roll (only you see it until you reveal it)").check()
    dice.queue(9, 2, 8, 6)
    _mark_page(player)
    storyteller.get_by_role("button", name="Roll", exact=True).click()
    hidden_card = storyteller.locator("#feed > li").first
    expect(hidden_card.locator(".badge-hidden")).to_have_text("hidden")
    # a hidden roll is a one-off choice: the box comes back unticked for the next roll
    expect(storyteller.get_by_label("Hidden roll (only you see it until you reveal it)")).not_to_be_checked()
    seq_hidden = hidden_card.get_attribute("data-seq")
    redacted = player.locator("#feed > li").first
    expect(redacted).to_contain_text("Only the Storyteller sees this roll", timeout=LIVE)
    expect(redacted.locator(".outcome")).to_have_count(0)
    hidden_card.get_by_role("button", name="Reveal to the table").click()
    revealed = player.locator(f"#entry-{seq_hidden}")
    expect(revealed.locator(".outcome")).to_be_visible(timeout=LIVE)
    expect(revealed.locator(".badge-hidden")).to_contain_text("revealed")
    _not_reloaded(player)

    # Screenshots: the chronicle page (Storyteller) and the sheet (player).
    storyteller.goto(storyteller.url.split("/characters/")[0])
    # the chronicle's settings (A-5: its creation logs the mode it was made with), messy, bestial,
    # reroll, hidden, reveal
    expect(storyteller.locator("#feed > li")).to_have_count(6)
    expect(storyteller.locator("#feed > li.kind-settings")).to_have_count(1)
    settled(storyteller)
    storyteller.screenshot(path=str(artifacts / "chronicle.png"), full_page=True)
    player.reload()
    wait_for_odds(player, "Chance to win")
    player.screenshot(path=str(artifacts / "sheet-v5.png"), full_page=True)

    # The language switch renames the outcomes (cookie: it stays on the next pages).
    player.get_by_role("link", name=re.compile("^FR")).click()
    expect(player.locator(f"#entry-{seq_messy} .outcome")).to_have_text("Critique Sanglant")
    expect(player.locator(f"#entry-{seq_bestial} .outcome")).to_have_text("Échec Bestial")
    expect(player.get_by_role("heading", name="Jet", exact=True)).to_be_visible()
    player.goto(player.url.split("?")[0])
    expect(player.locator(f"#entry-{seq_messy} .outcome")).to_have_text("Critique Sanglant")
    player.get_by_role("link", name=re.compile("^ES")).click()
    expect(player.locator(f"#entry-{seq_messy} .outcome")).to_have_text("Crítico sucio")
    expect(player.locator(f"#entry-{seq_bestial} .outcome")).to_have_text("Fallo bestial")


def test_v20_botch_and_phone_width(new_context, dice, artifacts):
    storyteller = new_context(width=360, height=780).new_page()
    create_chronicle(storyteller, name="Chicago by Night", system="v20", storyteller="Marcus", difficulty="6")
    add_character(
        storyteller,
        name="Sheriff Lodin",
        ratings={
            "s.attributes.dexterity": "2",
            "s.attributes.wits": "3",
            "s.skills.firearms": "1",
            "s.talents.alertness": "2",
            "s.virtues.courage": "3",
        },
    )
    no_horizontal_scroll = "document.documentElement.scrollWidth <= window.innerWidth + 1"
    assert storyteller.evaluate(no_horizontal_scroll)
    storyteller.get_by_label("Attribute", exact=True).select_option("dexterity")
    storyteller.get_by_label("Ability").select_option("firearms")
    wait_for_odds(storyteller, "Dexterity 2 + Firearms 1 = 3 dice")
    expect(storyteller.locator("#odds [data-outcome=botch] .pct")).to_have_text("6.1%")  # SPEC V20-15
    dice.clear()
    dice.queue(1, 4, 3)  # no success, a 1: a botch (V20-11)
    storyteller.get_by_role("button", name="Roll", exact=True).click()
    card = storyteller.locator("#feed > li").first
    expect(card.locator(".outcome")).to_have_text("Botch")
    expect(card.locator(".die.m-one")).to_have_count(1)
    assert storyteller.evaluate(no_horizontal_scroll)
    settled(storyteller)
    screenshot_card(card, artifacts / "receipt-v20-botch.png")
    storyteller.get_by_role("link", name="Chicago by Night").click()
    expect(storyteller.locator("#feed .outcome").first).to_have_text("Botch")
    assert storyteller.evaluate(no_horizontal_scroll)
