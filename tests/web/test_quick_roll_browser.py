"""In a browser: on a 390×844 phone in French a player rolls "6 dice,
Hunger 2" from the chronicle page without a sheet (V5), on a Spanish desktop "5 dice, difficulty 7"
(V20); the receipt says it used no sheet and reaches the Storyteller live; the Storyteller forbids
quick rolls and the player's form is gone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create, feed_open

CASES = {
    "fr": (
        (390, 844),
        "v5",
        {"pool": "6", "hunger": "2"},
        "Jet rapide, sans feuille : réserve de 6, Soif 2",
        "Le Conteur n'a pas autorisé les jets rapides.",
    ),
    "es": (
        (1280, 900),
        "v20",
        {"pool": "5"},
        "Tirada rápida, sin hoja: reserva de 5",
        "El Narrador no ha permitido las tiradas rápidas.",
    ),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_quick_roll_without_a_sheet(new_context, dice, lang):
    (width, height), system, values, title, forbidden = CASES[lang]
    storyteller = new_context(locale=lang).new_page()
    create(storyteller, lang, system, f"Rapide {lang}")
    link = storyteller.locator("#invitation-link").inner_text().strip()
    player = new_context(width=width, height=height, locale=lang).new_page()
    player.goto(link)
    player.locator("#join-name").fill("Julien")
    player.locator("#join button[type=submit]").click()
    expect(player.locator(".tag.you")).to_contain_text("Julien")
    storyteller.reload()
    feed_open(storyteller)
    for name, value in values.items():
        player.locator(f"#quick-{name}").fill(value)
    player.locator("#quick button[type=submit]").click()
    card = player.locator("#feed > li.card", has_text=title)
    expect(card).to_have_count(1)
    expect(card.locator(".dice-row .die").first).to_be_visible()
    expect(storyteller.locator("#feed > li.card", has_text=title)).to_have_count(1)  # live, on the other page
    assert player.evaluate("document.documentElement.scrollWidth") <= width
    # the Storyteller forbids them
    storyteller.locator("#quick-allowed").uncheck()
    storyteller.locator("#quick-setting button[type=submit]").click()
    expect(storyteller.locator("#quick-allowed")).not_to_be_checked()
    player.reload()
    expect(player.locator("#quick-forbidden")).to_have_text(forbidden)
    expect(player.locator("#quick")).to_have_count(0)
