"""Saved rolls, in Chromium, three at the table: a player on a 390×844 French phone saves the
roll form under a name ("Tirer au Glock") and rolls it again in one tap; the receipt lands on the phone's
screen and reaches the Storyteller and the other player live; a saved roll with an edge is still asked
(it waits in the Storyteller's queue, SPEC A-1); a nameless save is refused in place, in French."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import api_character, chronicle_id, create_chronicle, feed_open, join

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def test_saved_rolls_one_tap_on_a_french_phone(new_context, live_server, dice, artifacts):
    storyteller = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Saved by Night", system="v20", storyteller="Ana")
    player = new_context(width=390, height=844, locale="fr-FR").new_page()
    other = new_context().new_page()
    join(player, invitation=invitation, name="Bruno")
    join(other, invitation=invitation, name="Carla")
    lucita = api_character(
        live_server, player, {"name": "Lucita", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}}
    )
    player.goto(f"/chronicles/{chronicle_id(player)}/characters/{lucita}?lang=fr")
    storyteller.reload()
    other.reload()
    for page in (player, storyteller, other):
        feed_open(page)

    # A nameless save is refused in place, in French; then the roll form is saved under a name.
    expect(player.locator("#save-roll")).to_be_visible()
    player.locator("#roll-attribute").select_option("dexterity")
    player.locator("#roll-ability").select_option("firearms")
    player.locator("#save-roll button[type=submit]").click()
    expect(player.locator("#save-roll-alert")).to_contain_text("Nom")
    player.locator("#saved-name").fill("Tirer au Glock")
    player.locator("#save-roll button[type=submit]").click()
    glock = player.locator("#saved-rolls .saved-button", has_text="Tirer au Glock")
    expect(glock).to_be_visible()

    # One tap, after a reload too: a roll, on the phone's screen and live on the others'.
    player.reload()
    feed_open(player)
    player.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    dice.queue(8, 7, 6, 2, 1)
    glock.click()
    mine = player.locator("#feed > li.kind-roll").first
    expect(mine).to_contain_text("Lucita")
    expect(mine).to_be_in_viewport()
    for page in (storyteller, other):
        expect(page.locator("#feed > li.kind-roll").first).to_contain_text("Lucita", timeout=LIVE)
    player.locator("#saved-rolls").screenshot(path=str(artifacts / "saved-roll.png"))

    # A saved roll with an edge (+2 dice) is still asked: it waits in the Storyteller's queue.
    player.locator("#roll-attribute").select_option("dexterity")
    player.locator("#roll-ability").select_option("firearms")
    player.locator("#roll-modifier").fill("2")
    player.locator("#saved-name").fill("Tout donner")
    player.locator("#save-roll button[type=submit]").click()
    all_in = player.locator("#saved-rolls .saved-button", has_text="Tout donner")
    expect(all_in).to_be_visible()
    all_in.click()
    expect(player.locator("#feed > li.kind-ask").first).to_be_visible()
    expect(storyteller.locator("#asks .ask").first).to_contain_text("Asks for +2 dice", timeout=LIVE)
    expect(player.locator("#feed > li.kind-roll")).to_have_count(1)
    assert player.evaluate("document.documentElement.scrollWidth") <= 390


def test_saved_roll_pages_refuse_bad_input_in_place(live_server, new_context):
    """The saved-roll forms answer a bad field with a 4xx in place, never a 500."""
    storyteller = new_context().new_page()
    create_chronicle(storyteller, name="Bad input by Night", system="v20", storyteller="Ana")
    base = f"/chronicles/{chronicle_id(storyteller)}"
    htmx = {"HX-Request": "true", "Origin": live_server}
    for path, form in (
        (f"{base}/saved/1/delete", {"character": "abc"}),
        (f"{base}/saved/99/roll", {}),
        (f"{base}/characters/99/saved", {"kind": "test", "saved_name": "x"}),
    ):
        answer = storyteller.request.post(path, form=form, headers=htmx, max_redirects=0)
        assert 400 <= answer.status < 500, (path, answer.status, answer.text()[:200])
