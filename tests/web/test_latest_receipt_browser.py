"""In a browser: on a 390×844 phone in French, a player on their sheet
sees the Storyteller's new rolls arrive in the latest-receipt bar at the bottom, with a count of the new
ones, cleared when the feed is reached; on a Spanish desktop the bar stays out of the way."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create_v5, feed_open, v5_character

CASES = {"fr": ((390, 844), "Dernier reçu"), "es": ((1280, 900), "Último recibo")}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_latest_receipt_bar(new_context, dice, artifacts, lang):
    (width, height), label = CASES[lang]
    storyteller = new_context(locale=lang).new_page()
    chronicle = create_v5(storyteller, lang, f"Soirée {lang}")
    link = storyteller.locator("#invitation-link").inner_text().strip()
    npc = v5_character(storyteller, chronicle, "Gardien")
    player = new_context(width=width, height=height, locale=lang).new_page()
    player.goto(link)
    player.locator("#join-name").fill("Julien")
    player.locator("#join button[type=submit]").click()
    sheet = v5_character(player, chronicle, "Nadia")
    player.goto(sheet)
    feed_open(player)
    for faces in ((10, 10, 3, 4, 5, 1), (2, 3, 4, 5, 6, 1)):
        dice.queue(*faces)
        rolled = storyteller.request.post(
            f"{npc}/rolls",
            form={"kind": "test", "attribute": "dexterity", "skill": "firearms", "difficulty": "2"},
            max_redirects=0,
        )
        assert rolled.status == 303
    bar = player.locator("#latest-bar")
    if width < 960:
        expect(bar).to_be_visible()
        expect(bar).to_contain_text(label)
        expect(bar).to_contain_text("Gardien")
        expect(bar.locator(".latest-count .n")).to_have_text("2")
        player.screenshot(path=str(artifacts / "latest-bar.png"))
        bar.click()  # to the feed: the count is cleared
        expect(bar.locator(".latest-count")).to_be_hidden()
        assert player.evaluate("document.documentElement.scrollWidth") <= width
    else:
        expect(player.locator("#feed > li.card")).to_have_count(2)
        expect(bar).to_be_hidden()
