"""On a 390×844 phone in French: a V5 Willpower reroll numbers the normal dice one
way — from 1, each face beside — on the dice to tick, in the advice, in a refusal and in the receipt."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .flows import choose_traits, create_v5, v5_character

pytestmark = pytest.mark.browser


def test_reroll_dice_numbered_from_one_with_their_faces(new_context, dice):
    page = new_context(width=390, height=844, locale="fr-FR").new_page()
    chronicle = create_v5(page, "fr", "Relances")
    page.goto(v5_character(page, chronicle, "Mara"))
    form = choose_traits(page, "dexterity", "stealth")
    form.locator("[name=difficulty]").fill("4")
    expect(page.locator("#odds")).to_contain_text("Chance")
    dice.clear()
    dice.queue(4, 6, 2, 5, 1, 3)  # Dexterity 3 + Stealth 3: normal 4, 6, 2, 5, 1; Hunger 3
    page.locator("#roll-submit").click()
    card = page.locator("#feed > li.kind-roll").first
    reroll = card.locator("form.reroll")
    expect(reroll.locator(".pick .die-no")).to_have_text(["1", "2", "3", "4", "5"])
    expect(reroll.locator("input[name=dice][value='0']")).to_have_attribute(
        "aria-label", re.compile(r"^n° 1 — Dé, 4")
    )
    best = reroll.locator(".advice .best")
    expect(best).to_contain_text(re.compile(r"relancer (\d \(\d+\)(, )?)+"))
    words = best.inner_text()
    for number, face in re.findall(r"(\d) \((\d+)\)", words.split("—")[0]):
        assert (4, 6, 2, 5, 1)[int(number) - 1] == int(face), words  # the number and the face agree
    # a forged die past the normal ones: the refusal names it as people count (die 6 is the Hunger die)
    reroll.evaluate(
        "f => { const i = document.createElement('input'); i.type = 'hidden'; i.name = 'dice';"
        " i.value = '5'; i.id = 'forged'; f.appendChild(i); }"
    )
    reroll.locator("button[type=submit]").click()
    expect(card.locator("[role=alert]")).to_contain_text("Le dé 6 est un dé de Soif")
    reroll.evaluate("f => f.querySelector('#forged').remove()")
    reroll.locator("input[name=dice][value='2']").check()
    reroll.locator("input[name=dice][value='4']").check()
    dice.queue(9, 8)
    reroll.locator("button[type=submit]").click()
    again = page.locator("#feed > li").first
    expect(again.locator(".line.history")).to_contain_text("dés 3 (2 → 9), 5 (1 → 8)")
