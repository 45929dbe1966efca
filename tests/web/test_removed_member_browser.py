"""In Chromium, three people at a V20 table (the Storyteller on an English desktop, a player
on a French phone, one who joins later on a Spanish desktop): after a member was removed, his old
receipts still name him — not only the character the Storyteller then gave to another member — on
every screen, while the new player's own rolls of it are hers; the Storyteller's standing grant is
headed with the Storyteller's name."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import api_character, chronicle_id, create_chronicle, join, token_of

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def _roll(page, sheet: str) -> None:
    page.goto(sheet)
    page.locator("#roll [name=attribute]").select_option("dexterity")
    page.locator("#roll [name=ability]").select_option("firearms")
    page.locator("#roll-submit").click()


def test_a_removed_players_receipts_keep_his_name_on_every_screen(new_context, live_server, dice):
    storyteller = new_context(locale="en-US").new_page()
    bruno = new_context(width=390, height=844, locale="fr-FR").new_page()
    invitation = create_chronicle(storyteller, name="Lyon", system="v20", storyteller="Ana", language="en")
    chronicle = storyteller.url
    join(bruno, invitation=invitation, name="Bruno")
    hero = api_character(
        live_server, bruno, {"name": "Hero", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}}
    )
    sheet = f"{chronicle}/characters/{hero}"
    _roll(bruno, sheet)
    his = bruno.locator("#feed > li.kind-roll").first
    expect(his).to_be_visible()
    his_seq = his.get_attribute("data-seq")
    expect(his.locator(".who")).to_have_text("Hero")  # his own character, while he plays it

    api = f"{live_server}/api/chronicles/{chronicle_id(storyteller)}"
    st = {"Authorization": f"Bearer {token_of(storyteller)}"}
    me = httpx.get(
        f"{live_server}/api/me", headers={"Authorization": f"Bearer {token_of(bruno)}"}, timeout=30
    )
    removed = httpx.delete(f"{api}/members/{me.json()['member']['id']}", headers=st, timeout=30)
    assert removed.status_code == 200, removed.text
    carla = new_context(width=1280, height=900, locale="es-ES").new_page()
    join(carla, invitation=removed.json()["invitation"], name="Carla")
    carla_id = httpx.get(
        f"{live_server}/api/me", headers={"Authorization": f"Bearer {token_of(carla)}"}, timeout=30
    ).json()["member"]["id"]
    given = httpx.patch(f"{api}/characters/{hero}", headers=st, json={"owner": carla_id}, timeout=30)
    assert given.status_code == 200, given.text

    storyteller.goto(chronicle)
    storyteller.locator("#standing summary").click()
    storyteller.locator("#standing-character").select_option(label="Hero")
    storyteller.locator("#standing-edge").select_option("modifier")
    storyteller.locator("#standing-value").fill("1")
    if storyteller.locator("#standing-scene").count():
        storyteller.locator("#standing-scene").uncheck()
    storyteller.locator("#standing-form button[type=submit]").click()
    granted = storyteller.locator("#feed > li.kind-standing_grant").first
    expect(granted.locator(".who")).to_contain_text("Ana")

    _roll(carla, sheet)
    hers = carla.locator("#feed > li.kind-roll").first
    expect(hers.locator(".who")).to_have_text("Hero")  # her roll: the character she plays
    expect(storyteller.locator("#feed > li.kind-roll").first.locator(".who")).to_have_text(
        "Hero", timeout=LIVE
    )
    for page in (carla, storyteller):
        page.goto(chronicle)
        old = page.locator(f"#feed > li[data-seq='{his_seq}'] .who")
        expect(old).to_contain_text("Hero")
        expect(old).to_contain_text("Bruno")  # his receipt names him, not only the character Carla plays now
        expect(old).not_to_contain_text("Carla")
