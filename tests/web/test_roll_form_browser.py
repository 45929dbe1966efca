"""In a browser (a 390×844 phone in French, a desktop in
Spanish): a retried roll form rolls once; the specialty list follows the trait chosen and a roll's
one-off choices are cleared after it; fields of which one only may be chosen look and act so; picking
a kind of roll with the keyboard keeps focus in the form; each die is named once; a 200-letter word
wraps at 390 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .flows import choose_traits, create_v5, v5_character

CASES = {"fr": ((390, 844), "Un seul parmi"), "es": ((1280, 900), "Solo uno de")}


def entries(page: Page) -> int:
    return page.locator("#feed > li.card").count()


@pytest.mark.parametrize("lang", sorted(CASES))
def test_roll_form_at_the_table(new_context, dice, lang):
    (width, height), only_one = CASES[lang]
    page = new_context(width=width, height=height, locale=lang).new_page()
    chronicle = create_v5(page, lang, f"Forme {lang}")
    sheet = v5_character(page, chronicle, "Nadia")
    page.goto(sheet)
    form = page.locator("#roll")
    # the specialty list follows the trait chosen
    form.locator("[name=attribute]").select_option("dexterity")
    form.locator("[name=skill]").select_option("firearms")
    offered = form.locator("[name=specialty] option:not([hidden])").evaluate_all("os => os.map(o => o.value)")
    assert "Pistols" in offered and "Sewers" not in offered
    form.locator("[name=specialty]").select_option("Pistols")
    # one of skill / discipline / second attribute: choosing one clears the others, which look off
    expect(page.locator("#roll .exclusive-hint")).to_contain_text(only_one)
    form.locator("[name=discipline]").select_option("obfuscate")
    expect(form.locator("[name=skill]")).to_have_value("")
    expect(form.locator(".field:has([name=skill])")).to_have_class(re.compile("is-off"))
    form.locator("[name=skill]").select_option("firearms")
    expect(form.locator("[name=discipline]")).to_have_value("")
    form.locator("[name=specialty]").select_option("Pistols")
    # a network retry of the same submission rolls once
    fields = form.evaluate("f => Object.fromEntries(new FormData(f))")
    first = page.request.post(f"{sheet}/rolls", form=fields, headers={"HX-Request": "true"})
    again = page.request.post(f"{sheet}/rolls", form=fields, headers={"HX-Request": "true"})
    assert first.ok and again.ok
    seq = re.search(r'id="entry-(\d+)"', first.text()).group(1)
    assert f'id="entry-{seq}"' in again.text()
    page.reload()  # one roll: the newest receipt is that one, and there is no later one
    newest = page.locator("#feed > li.card").first
    expect(newest).to_have_attribute("id", f"entry-{seq}")
    before = entries(page)
    # a roll from the form: its specialty does not stay chosen for the next one
    form.locator("[name=attribute]").select_option("dexterity")
    form.locator("[name=skill]").select_option("firearms")
    form.locator("[name=specialty]").select_option("Pistols")
    dice.queue(8, 8, 3, 2, 6, 1)
    page.locator("#roll-submit").click()
    expect(page.locator("#feed > li.card")).to_have_count(before + 1)
    expect(form.locator("[name=specialty]")).to_have_value("")
    expect(form.locator("[name=skill]")).to_have_value("firearms")  # the traits stay
    # each die named once: an image with its name, no title saying it again
    card = page.locator("#feed > li.card").first
    named = card.locator(".dice-row .die[role=img]")
    assert named.count() >= 1 and card.locator(".die[title]").count() == 0
    for box in card.locator(
        "input.pick-box"
    ).all():  # the reroll's ticks carry the name; the die inside is hidden
        assert box.get_attribute("aria-label")
    assert card.locator("label.pick .die[role=img]").count() == 0
    # the keyboard: picking another kind of roll keeps focus on the tabs, in the form
    tab = page.locator("#roll-panel .tabs a").nth(1)
    tab.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#roll-panel .tabs a[aria-current=page]")).to_be_focused()
    # a 200-letter word in a name: nothing wider than the screen
    for url in (sheet, chronicle):
        page.goto(url)
        width_now = page.evaluate("document.documentElement.scrollWidth")
        assert width_now <= page.viewport_size["width"], (url, width_now)


def test_a_click_survives_the_odds_redrawn_between_mousedown_and_mouseup(new_context, dice):
    """Typing a number then clicking Roll: the mousedown blurs the field, its change asks for the odds
    again, and their answer arrives before the mouseup. The button must be the same element at mouseup
    (only its label is redrawn), or the browser fires no click and the roll is silently lost."""
    page = new_context(width=390, height=844, locale="fr").new_page()
    chronicle = create_v5(page, "fr", "Clic")
    page.goto(v5_character(page, chronicle, "Nadia"))
    choose_traits(page, "dexterity", "firearms")
    expect(page.locator("#odds")).to_contain_text("5")
    before = entries(page)
    button = page.locator("#roll-submit")
    handle = button.element_handle()
    page.locator("#roll [name=modifier]").fill("1")  # focus in a changed field: the mousedown will blur it
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    page.evaluate("""() => { window.__oddsSettled = false;
        document.addEventListener("htmx:afterSettle", e => {
            if (e.detail.target && e.detail.target.id === "odds") window.__oddsSettled = true; }); }""")
    with page.expect_response(lambda r: "/odds" in r.url):
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
    # the redraw has been swapped in (a condition, not a time)
    page.wait_for_function("() => window.__oddsSettled")
    assert handle.evaluate("b => b.isConnected")
    dice.queue(8, 8, 3, 2, 6, 4)
    page.mouse.up()
    expect(page.locator("#feed > li.card")).to_have_count(before + 1)
