"""Every view read from the log is redrawn by the live entry that changes it (``web.redraws``), in
Chromium, on SQLite and on PostgreSQL: a V5 table, the Storyteller on an English desktop, the player
on a French phone (390×844), neither page reloaded.

- the Storyteller calls Rook's compulsion from the sheet: it appears on the player's open sheet, and
  goes when it is ended (seed 001, V5-14);
- the Storyteller sets the standing difficulty (A-5): the player's open roll form takes it, and the
  next roll is a roll, not an ask (A-1); the chronicle page's tags show it;
- the Storyteller raises Rook's Strength: the player's traits follow;
- the players' quick rolls forbidden, then allowed: the player's chronicle page follows;
- a scene and a turn opened, then closed (A-3): the Storyteller's open sheet offers "Actions this
  turn", then no longer;
- the seed revealed (F-5): the player's fair-dice panel names the new commitment.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from .flows import api_character, chronicle_id, create_chronicle, join, token_of, wait_for_odds

pytestmark = pytest.mark.browser

ROOK = {
    "name": "Rook",
    "clan": "Gangrel",
    "attributes": {"strength": 2, "dexterity": 3, "manipulation": 3},
    "skills": {"firearms": 3},
    "hunger": 1,
}


def _api(server: str, page: Page, method: str, path: str, body: dict | None = None) -> dict:
    response = httpx.request(
        method,
        f"{server}/api{path}",
        headers={"Authorization": f"Bearer {token_of(page)}"},
        json=body,
        timeout=30,
    )
    assert response.status_code < 300, response.text
    return response.json() if response.content else {}


def _not_reloaded(*pages: Page) -> None:
    for page in pages:
        assert page.evaluate("() => window.__notReloaded") == "still here"


def test_the_views_of_the_log_follow_it_live(store_context, store_server, dice):
    storyteller = store_context(locale="en-US").new_page()
    phone = store_context(width=390, height=844, locale="fr-FR")
    sheet_page, table_page = phone.new_page(), phone.new_page()
    invitation = create_chronicle(storyteller, name="Chicago", system="v5", storyteller="Ana", language="en")
    cid = chronicle_id(storyteller)
    join(sheet_page, invitation=invitation, name="Alice")
    rook = api_character(store_server, sheet_page, ROOK)
    sheet = f"/chronicles/{cid}/characters/{rook}"

    sheet_page.goto(sheet)
    sheet_page.locator("#roll [name=attribute]").select_option("dexterity")
    sheet_page.locator("#roll [name=skill]").select_option("firearms")
    wait_for_odds(sheet_page, "Dextérité 3 + Armes à feu 3 = 6 dés")
    table_page.goto(f"/chronicles/{cid}")
    for page in (sheet_page, table_page):
        page.evaluate("() => { window.__notReloaded = 'still here'; }")
    expect(sheet_page.locator("#compulsion")).to_be_hidden()

    # the compulsion called from the Storyteller's sheet appears on the phone's sheet, then goes
    storyteller.goto(sheet)
    storyteller.locator("#compulsion-choice").select_option("hunger")
    storyteller.locator("#call-compulsion").click()
    expect(storyteller.locator("#end-compulsion")).to_be_visible()
    badge = sheet_page.locator("#compulsion .compulsion-badge")
    expect(badge).to_have_text("Compulsion : Soif")
    expect(sheet_page.locator("#compulsion")).to_be_visible()
    expect(sheet_page.locator("#end-compulsion")).to_have_count(0)  # the Storyteller's, not the player's
    storyteller.locator("#end-compulsion").click()
    expect(storyteller.locator("#call-compulsion")).to_be_visible()
    expect(badge).to_have_count(0)
    expect(sheet_page.locator("#compulsion")).to_be_hidden()

    # the standing difficulty set on the chronicle page reaches the open roll form: a roll, not an ask
    storyteller.goto(f"/chronicles/{cid}")
    storyteller.locator("#settings-difficulty").fill("3")
    storyteller.locator("#settings button[type=submit]").click()
    expect(storyteller.locator("#chronicle-tags")).to_contain_text("Standing difficulty 3")
    expect(sheet_page.locator("#roll [name=difficulty]")).to_have_value("3")
    expect(sheet_page.locator("#sheet-standing")).to_contain_text("3")
    expect(table_page.locator("#chronicle-tags")).to_contain_text("3")
    expect(sheet_page.locator("#roll [name=attribute]")).to_have_value("dexterity")  # the choices kept
    expect(sheet_page.locator("#roll [name=skill]")).to_have_value("firearms")
    expect(sheet_page.locator("#roll-submit")).to_have_text("Jet")
    dice.queue(8, 8, 2, 2, 2, 2)
    sheet_page.locator("#roll-submit").click()
    card = sheet_page.locator("#feed > li").first
    expect(card).to_have_class(re.compile(r"\bkind-roll\b"))
    expect(sheet_page.locator("#feed > li.kind-ask")).to_have_count(0)
    entry = _api(store_server, sheet_page, "GET", f"/chronicles/{cid}/log?after=0&limit=100")
    rolls = [e for e in entry["entries"] if e["kind"] == "roll"]
    assert rolls[-1]["receipt"]["request"]["difficulty"] == 3

    # Strength raised by the Storyteller: the phone's traits follow
    strength = sheet_page.locator("#traits li", has_text="Force").locator(".dot.on")
    expect(strength).to_have_count(2)
    _api(
        store_server,
        storyteller,
        "PATCH",
        f"/chronicles/{cid}/characters/{rook}",
        {"patch": {"attributes": {"strength": 4}}},
    )
    expect(strength).to_have_count(4)

    # quick rolls forbidden, then allowed again: the phone's chronicle page follows
    storyteller.locator("#quick-allowed").uncheck()
    with storyteller.expect_navigation():
        storyteller.locator("#quick-setting button[type=submit]").click()
    expect(table_page.locator("#quick-forbidden")).to_be_visible()
    expect(table_page.locator("#quick")).to_have_count(0)
    storyteller.locator("#quick-allowed").check()
    with storyteller.expect_navigation():
        storyteller.locator("#quick-setting button[type=submit]").click()
    expect(storyteller.locator("#quick-allowed")).to_be_checked()
    expect(table_page.locator("#quick")).to_be_visible()

    # a scene and a turn: the Storyteller's open sheet offers the actions of the turn, until it closes
    other = storyteller.context.new_page()
    other.goto(sheet)
    expect(other.locator("#turn-actions")).to_be_hidden()
    _api(store_server, storyteller, "POST", f"/chronicles/{cid}/scenes", {"name": "The docks"})
    _api(store_server, storyteller, "POST", f"/chronicles/{cid}/scene/turns")
    expect(other.locator("#turn-actions")).to_be_visible()
    expect(other.locator("#actions-count")).to_have_value("1")
    _api(store_server, storyteller, "POST", f"/chronicles/{cid}/scene/close")
    expect(other.locator("#turn-actions")).to_be_hidden()

    # the seed revealed: the phone's fair-dice panel names the new one
    before = table_page.locator("#fair .note").first.inner_text()
    _api(store_server, storyteller, "POST", f"/chronicles/{cid}/fair/rotate")
    expect(table_page.locator("#fair .note").first).not_to_have_text(before)
    _not_reloaded(sheet_page, table_page)
