"""A homebrew trait typed with accents and capitals keeps them — on a V20 and a Tiers
sheet made in the form (the sheet, its editor, and the API's ``names``), and in the Storyteller's queue
when a player asks for a roll-under check of one ("Agilité", not "Agilite"), live and after a reload."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from .flows import chronicle_id, create, feed_open, join, token_of

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844, "locale": "fr-FR"}
DESKTOP_ES = {"width": 1280, "height": 900, "locale": "es-ES"}


def _typed(page, group: str, name: str, value: str) -> None:
    page.locator("[name='s.name']").fill("Nadia")
    typed = page.locator(f"[name='new.{group}.name.0']")
    typed.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")
    typed.fill(name)
    page.locator(f"[name='new.{group}.value.0']").fill(value)
    page.locator("form.sheet-form button[type=submit], main form button[type=submit]").last.click()
    expect(page.get_by_role("heading", level=1, name="Nadia")).to_be_visible()


@pytest.mark.parametrize(
    ("system", "group", "name", "value"),
    [
        ("v20", "knowledges", "Héraldique des Clans", "2"),
        ("tiers", "skills", "Brujería Ígnea", "40"),
    ],
)
def test_typed_names_keep_accents_and_capitals(new_context, live_server, system, group, name, value):
    page = new_context(**(PHONE if system == "v20" else DESKTOP_ES)).new_page()
    lang = "fr" if system == "v20" else "es"
    chronicle = create(page, lang, system, f"Noms {system}")
    page.goto(f"{chronicle}/characters/new")
    _typed(page, group, name, value)
    expect(page.locator(".traits")).to_contain_text(name)
    folded = name.encode("ascii", "ignore").decode()
    expect(page.locator("main")).not_to_contain_text(name[0] + name[1:].lower())
    character = page.url.rstrip("/").rsplit("/", 1)[1].split("?")[0]
    api = httpx.get(
        f"{live_server}/api/chronicles/{chronicle_id(page)}/characters/{character}",
        headers={"Authorization": f"Bearer {token_of(page)}"},
        timeout=30,
    ).json()
    assert name in api["sheet"]["names"].values(), (folded, api["sheet"]["names"])


def test_the_storytellers_ask_header_keeps_the_typed_name(new_context):
    storyteller = new_context(**PHONE).new_page()
    chronicle = create(storyteller, "fr", "rollunder", "Agilités")
    invitation = storyteller.locator("#invitation-code").inner_text().strip()
    player = new_context(**DESKTOP_ES).new_page()
    join(player, invitation=invitation, name="Bruno")
    player.goto(f"{chronicle}/characters/new")
    _typed(player, "attributes", "Agilité", "12")
    sheet = player.url.split("?")[0].split("#")[0]
    storyteller.goto(chronicle)
    feed_open(storyteller)
    asked = player.request.post(
        f"{sheet}/rolls",
        form={"kind": "check", "action": "sauter", "attribute": "agilite", "bonus": "2"},
        headers={"HX-Request": "true"},
    )
    assert asked.status == 200, asked.text()
    ask = storyteller.locator("#asks .ask").first
    expect(ask).to_contain_text("Agilité")
    expect(storyteller.locator("#feed > li.kind-ask").first).to_contain_text("Agilité")
    storyteller.reload()
    expect(storyteller.locator("#asks .ask").first).to_contain_text("Agilité")
    expect(storyteller.locator("#asks")).not_to_contain_text("Agilite")
