"""On a 390×844 phone in French: the receipts come before the
fair-dice, export and key panels; a quick roll's receipt lands on the screen; the ×2 of a specialty's
dice is not hidden by the next row of dice; the hidden-roll box keeps its full size. The phone's
chronicle page is the docs' screenshot."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import api_character, chronicle_id, create_chronicle, feed_open, join

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "locale": "fr-FR"}


def _top(page, selector: str) -> float:
    return page.locator(selector).bounding_box()["y"]


def test_the_phone_table(new_context, live_server, dice, artifacts):
    storyteller = new_context().new_page()
    invitation = create_chronicle(
        storyteller, name="Nuit de Paris", system="v20", storyteller="Ana", language="fr"
    )
    player = new_context(**PHONE).new_page()
    join(player, invitation=invitation, name="Bruno")
    lucita = api_character(
        live_server,
        player,
        {
            "name": "Lucita",
            "attributes": {"dexterity": 5},
            "skills": {"firearms": 5},
            "specialties": {"firearms": ["Pistols"]},
        },
    )
    player.goto(f"/chronicles/{chronicle_id(player)}?lang=fr")
    feed_open(player)

    # The receipts before the fair dice, the export and the key.
    feed = _top(player, "#feed-title")
    assert feed < _top(player, "#fair-title")
    assert feed < _top(player, "#export-title")
    assert feed < _top(player, "#key-title")
    assert _top(player, "#quick-title") < feed  # the quick roll stays above its receipts

    # A quick roll lands on screen.
    player.locator("#quick-pool").fill("5")
    player.locator("#quick button[type=submit]").click()
    card = player.locator("#feed > li.card").first
    expect(card).to_be_visible()
    expect(card).to_be_in_viewport()
    player.screenshot(path=str(artifacts / "phone-chronicle.png"))

    # On the sheet: the hidden-roll box full size; a specialty roll's ×2 marks clear of the next row.
    player.goto(f"/chronicles/{chronicle_id(player)}/characters/{lucita}?lang=fr")
    box = player.locator("#roll-hidden").bounding_box()
    assert box["width"] >= 20 and box["height"] >= 20, box
    dice.queue(10, 10, 3, 10, 5, 10, 7, 10, 2, 10)
    rolled = player.request.post(
        f"/chronicles/{chronicle_id(player)}/characters/{lucita}/rolls",
        max_redirects=0,
        form={
            "kind": "test",
            "attribute": "dexterity",
            "ability": "firearms",
            "specialty": "Pistols",
            "difficulty": "6",
        },
    )
    assert rolled.status == 303, rolled.text()
    player.reload()
    dice_box = player.locator("#feed > li.kind-roll").first.locator(".dice").first
    expect(dice_box.locator(".die.m-specialty").first).to_be_visible()
    clash = dice_box.evaluate("""dice => {
        const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
        const all = [...dice.querySelectorAll('.die')].map(d => d.getBoundingClientRect());
        const marked = [...dice.querySelectorAll('.die.m-specialty')].map(d => d.getBoundingClientRect());
        const rows = new Set(all.map(r => Math.round(r.top))).size;
        const hidden = marked.filter(m => all.some(o => o.top > m.bottom - 1 && o.top < m.bottom + 1.1 * rem
                                                        && o.left < m.right && o.right > m.left));
        return {rows, hidden: hidden.length, marked: marked.length};
    }""")
    assert clash["rows"] >= 2 and clash["marked"] >= 1 and clash["hidden"] == 0, clash
    assert player.evaluate("document.documentElement.scrollWidth") <= 390
