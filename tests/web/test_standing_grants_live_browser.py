"""Live, three people at a V5 table (the second evening: the Storyteller on an
English desktop, a player on a Spanish phone, one on a French desktop), SPEC A-1:

- a standing grant for every character reaches both players' open roll forms without a reload;
- after an ask is sent the form returns to a plain roll (every edge from what stands), and
  after the Storyteller refuses it the form does not come back holding the asked modifier and the ask
  button;
- after a granted hidden-roll ask the hidden box is unticked: the next roll is a plain roll.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser import WAIT_MS

from .flows import create_chronicle, join, v5_character

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def _ready(page: Page, sheet: str) -> None:
    page.goto(sheet)
    page.locator("#roll [name=attribute]").select_option("dexterity")
    page.locator("#roll [name=skill]").select_option("stealth")
    expect(page.locator("#odds")).to_contain_text("3")


def test_three_people_live_at_a_v5_table(new_context, dice):
    storyteller = new_context(locale="en-US").new_page()
    lucia = new_context(width=390, height=844, locale="es-ES").new_page()
    julien = new_context(width=1280, height=900, locale="fr-FR").new_page()
    invitation = create_chronicle(storyteller, name="Chicago", system="v5", storyteller="Ana", language="en")
    chronicle = storyteller.url
    join(lucia, invitation=invitation, name="Lucía")
    join(julien, invitation=invitation, name="Julien")
    _ready(lucia, v5_character(lucia, chronicle, "Sasha"))
    _ready(julien, v5_character(julien, chronicle, "Marcel"))
    for page in (lucia, julien):
        page.evaluate("window.__noReload = 'still here'")
    storyteller.reload()

    # +1 die for every character, on both open forms, live
    storyteller.locator("#standing summary").click()
    storyteller.locator("#standing-character").select_option("")
    storyteller.locator("#standing-edge").select_option("modifier")
    storyteller.locator("#standing-value").fill("1")
    if storyteller.locator("#standing-scene").count():
        storyteller.locator("#standing-scene").uncheck()
    storyteller.locator("#standing-form button[type=submit]").click()
    for page in (lucia, julien):
        expect(page.locator("#roll [name=modifier]")).to_have_value("1", timeout=LIVE)
        assert page.evaluate("window.__noReload") == "still here"
    plain = {lucia: "Tirada", julien: "Jet"}
    for page, label in plain.items():
        expect(page.locator("#roll-submit")).to_have_text(label)

    # Lucía asks for +3 dice; her form is a plain roll again once the ask is sent
    lucia.locator("#roll [name=modifier]").fill("3")
    expect(lucia.locator("#roll-submit")).to_have_text("Pedir al Narrador")  # the ask button
    lucia.locator("#roll-submit").click()
    expect(lucia.locator("#feed > li.kind-ask")).to_have_count(1)
    expect(lucia.locator("#roll [name=modifier]")).to_have_value("1")  # what stands, not the asked 3
    expect(lucia.locator("#roll-submit")).to_have_text("Tirada")
    ask = storyteller.locator("#asks .ask").first
    expect(ask).to_be_visible(timeout=LIVE)
    ask.locator("input[name=reason]").fill("Not this time")
    ask.get_by_role("button", name="Refuse").click()
    expect(lucia.locator("#feed > li.kind-refusal")).to_have_count(1, timeout=LIVE)
    expect(julien.locator("#feed > li.kind-refusal")).to_have_count(1, timeout=LIVE)  # the table sees it too
    expect(lucia.locator("#roll [name=modifier]")).to_have_value("1")
    expect(lucia.locator("#roll-submit")).to_have_text("Tirada")
    assert lucia.evaluate("window.__noReload") == "still here"

    # Julien asks for a hidden roll; granted, his box is unticked and his next roll is plain
    julien.locator("#roll-hidden").check()
    expect(julien.locator("#roll-submit")).to_have_text("Demander au Conteur")  # the form redrawn as an ask
    julien.locator("#roll-submit").click()
    expect(julien.locator("#feed > li.kind-ask")).to_have_count(2, timeout=LIVE)  # Lucía's and his
    expect(julien.locator("#roll-hidden")).not_to_be_checked()
    ask = storyteller.locator("#asks .ask").first
    expect(ask).to_be_visible(timeout=LIVE)
    ask.get_by_role("button", name="Grant", exact=True).click()
    expect(julien.locator("#feed > li.kind-grant")).to_have_count(1, timeout=LIVE)
    expect(julien.locator("#roll-hidden")).not_to_be_checked()
    julien.locator("#roll [name=attribute]").select_option("dexterity")
    julien.locator("#roll [name=skill]").select_option("stealth")
    expect(julien.locator("#roll-submit")).to_have_text("Jet")
    julien.locator("#roll-submit").click()
    expect(julien.locator("#feed > li.kind-roll:not(.is-hidden)")).to_have_count(1)
    expect(julien.locator("#feed > li").first).to_have_class(re.compile(r"\bkind-roll\b"))
    expect(julien.locator("#feed > li.kind-ask")).to_have_count(2)  # no other hidden ask
