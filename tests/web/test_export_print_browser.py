"""Export and print, in Chromium: the log exported
from the page is byte for byte the API's export; a sheet prints on a page of its own (print CSS: no
header, no buttons); a refusal from the Storyteller's queue carries a reason the player reads live; the
invitation link has a copy button; on a 390×844 French phone the scene-name placeholder is read whole."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import add_character, chronicle_id, create_chronicle, feed_open, join, token_of, wait_for_odds

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


@pytest.fixture(scope="module")
def table(module_context):
    """The Storyteller, two players and Lucita's sheet: one table for the module's tests."""
    new_context = module_context
    storyteller = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Paper by Night", system="v20", storyteller="Ana")
    player = new_context().new_page()
    other = new_context().new_page()
    join(player, invitation=invitation, name="Bruno")
    join(other, invitation=invitation, name="Carla")
    sheet = add_character(
        player,
        name="Lucita",
        ratings={"s.attributes.dexterity": "3", "s.skills.firearms": "2"},
        extra={"s.notes": "Owes the Sheriff a favour."},
    )
    return storyteller, player, other, sheet


def test_export_the_log_and_print_a_sheet(table, live_server, dice):
    storyteller, player, _, sheet = table
    player.goto(sheet)
    dice.queue(8, 7, 3, 2, 1)
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Ability", exact=True).select_option("firearms")
    wait_for_odds(player, "5 dice")
    player.locator("#roll-submit").click()
    expect(player.locator("#feed > li.kind-roll")).to_have_count(1)

    # The log from the page, as the API exports it (JSON Lines), for each reader.
    for page in (storyteller, player):
        page.goto(f"/chronicles/{chronicle_id(page)}")
        with page.expect_download() as waiting:
            page.locator("#export-log").click()
        download = waiting.value
        assert download.suggested_filename == f"chronicle-{chronicle_id(page)}.jsonl"
        api = httpx.get(
            f"{live_server}/api/chronicles/{chronicle_id(page)}/log/export",
            headers={"Authorization": f"Bearer {token_of(page)}"},
            timeout=30,
        )
        assert api.status_code == 200
        with open(download.path(), "rb") as exported:
            assert exported.read() == api.content
        assert b'"kind":"roll"' in api.content

    # A printable sheet: reached from the sheet, no page chrome or buttons on paper.
    player.goto(sheet)
    player.locator("#print-link").click()
    expect(player.locator("#print-sheet h1")).to_have_text("Lucita")
    expect(player.locator("#print-sheet")).to_contain_text("Firearms")
    expect(player.locator("#print-sheet")).to_contain_text("Owes the Sheriff a favour.")
    expect(player.locator("#print-now")).to_be_visible()
    player.emulate_media(media="print")
    expect(player.locator("header.top")).to_be_hidden()
    expect(player.locator("#print-now")).to_be_hidden()
    expect(player.locator("#print-sheet")).to_be_visible()
    assert player.locator("body").evaluate("b => getComputedStyle(b).backgroundColor") == "rgb(255, 255, 255)"
    # The chronicle page says where a sheet prints.
    player.emulate_media(media="screen")
    player.goto(f"/chronicles/{chronicle_id(player)}")
    expect(player.locator("#print-hint")).to_be_visible()


def test_a_refusal_carries_a_reason_and_the_link_copies(table, dice):
    storyteller, player, other, sheet = table
    player.emulate_media(media="screen")
    player.goto(sheet)
    for page in (storyteller, other):
        page.goto(f"/chronicles/{chronicle_id(page)}")
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Ability", exact=True).select_option("firearms")
    player.get_by_label("Dice modifier", exact=True).fill("2")
    wait_for_odds(player, "This roll asks the Storyteller for")
    player.locator("#roll-submit").click()
    feed_open(other)
    ask = storyteller.locator("#asks .ask").first
    expect(ask).to_contain_text("Asks for +2 dice", timeout=LIVE)
    ask.locator(".refuse-reason").fill("Not in the dark, Lucita")
    ask.get_by_role("button", name="Refuse").click()
    expect(player.locator("#feed > li").first).to_contain_text("Not in the dark, Lucita", timeout=LIVE)
    expect(other.locator("#feed > li").first).to_contain_text("Not in the dark, Lucita", timeout=LIVE)

    storyteller.context.grant_permissions(["clipboard-read", "clipboard-write"])
    storyteller.locator(
        "#invitation button[type=submit]"
    ).first.click()  # a new code: shown once, with its link
    link = storyteller.locator("#invitation-link").inner_text().strip()
    assert "/join#" in link
    storyteller.locator("#copy-invitation").click()
    expect(storyteller.locator("#copy-invitation")).to_have_text("Copied")
    assert storyteller.evaluate("navigator.clipboard.readText()") == link


def test_the_scene_name_placeholder_is_not_cut_on_a_french_phone(new_context):
    storyteller = new_context(width=390, height=844, locale="fr-FR").new_page()
    create_chronicle(storyteller, name="Nuit de papier", system="v20", storyteller="Ana", language="fr")
    field = storyteller.locator("#scene-name")
    expect(field).to_be_visible()
    placeholder = field.get_attribute("placeholder")
    assert "(" in placeholder  # "Nom de la scène (facultatif)"
    fits = field.evaluate("""e => {
        const style = getComputedStyle(e);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = style.font;
        const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [ctx.measureText(e.placeholder).width, room];
    }""")
    assert fits[0] <= fits[1], fits
    assert storyteller.evaluate("document.documentElement.scrollWidth") <= 390
