"""V5 compulsions in Chromium (seed 001, V5-14), a French table, the player on a phone (390×844): a
bestial failure rolled from the phone, the Storyteller's one tap on its card calls Rook's compulsion,
its badge shows on the phone's table and sheet, the phone's next roll carries its penalty (the odds
first), the Storyteller ends it from the sheet; the export verifies. Screenshots in
``test-artifacts/run/``."""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import expect

from rollbook.play import verify_receipt
from rollbook.server.baselines import verify_ledger
from rollbook.server.chain import read_jsonl, verify_entries

from .flows import (
    api_character,
    chronicle_id,
    create_chronicle,
    join,
    screenshot_card,
    token_of,
    wait_for_odds,
)

pytestmark = pytest.mark.browser

ROOK = {
    "name": "Rook",
    "clan": "Gangrel",
    "attributes": {"dexterity": 3, "manipulation": 3},
    "skills": {"firearms": 3, "persuasion": 2},
    "hunger": 1,
}


def test_seed_001_a_compulsion_called_shown_applied_and_ended_in_french_on_a_phone(
    new_context, live_server, dice, artifacts
):
    storyteller = new_context(locale="fr").new_page()
    phone = new_context(width=390, height=844, locale="fr").new_page()
    invitation = create_chronicle(storyteller, name="Chicago", system="v5", storyteller="Ana", language="fr")
    join(phone, invitation=invitation, name="Alice")
    cid = chronicle_id(storyteller)
    rook = api_character(live_server, phone, ROOK)
    sheet = f"/chronicles/{cid}/characters/{rook}"

    # the phone rolls Dexterity + Firearms: no success, the Hunger die a 1 — a bestial failure (V5-6)
    phone.goto(sheet)
    phone.get_by_label("Attribut", exact=True).select_option("dexterity")
    phone.get_by_label("Compétence", exact=True).select_option("firearms")
    wait_for_odds(phone, "Dextérité 3 + Armes à feu 3 = 6 dés")
    dice.queue(2, 2, 2, 2, 2, 1)
    phone.get_by_role("button", name="Jet", exact=True).click()
    expect(phone.locator("#feed > li").first.locator(".outcome")).to_have_text("Échec Bestial")

    # the Storyteller's one tap on the card calls the clan's compulsion (the player has no such button)
    storyteller.goto(f"/chronicles/{cid}")
    failed = storyteller.locator("#feed li.kind-roll").first
    failed.get_by_role("button", name="Appeler la compulsion").click()
    called = storyteller.locator("#feed li.kind-compulsion").first
    expect(called).to_contain_text("Compulsion pour Rook : Pulsions sauvages")
    expect(called).to_contain_text("−3 dés aux réserves avec Manipulation, Intelligence")

    # shown on the phone's table beside Rook, and on the sheet
    phone.goto(f"/chronicles/{cid}")
    expect(
        phone.locator("#feed li.kind-roll").first.get_by_role("button", name="Appeler la compulsion")
    ).to_have_count(0)
    expect(phone.locator(".compulsion-badge").first).to_have_text("Compulsion : Pulsions sauvages")
    phone.goto(sheet)
    panel = phone.locator("#compulsion")
    expect(panel).to_contain_text("Compulsion : Pulsions sauvages")
    expect(panel.get_by_role("button", name="Mettre fin à la compulsion")).to_have_count(0)
    screenshot_card(panel, artifacts / "compulsion-phone-fr.png")

    # applied to the pool: Manipulation + Persuasion, 5 − 3 = 2 dice, in the odds and in the receipt
    phone.get_by_label("Attribut", exact=True).select_option("manipulation")
    phone.get_by_label("Compétence", exact=True).select_option("persuasion")
    wait_for_odds(phone, "Manipulation 3 + Persuasion 2 + compulsion -3 = 2 dés")
    dice.queue(7, 3)
    phone.get_by_role("button", name="Jet", exact=True).click()
    rolled = phone.locator("#feed li.kind-roll").first
    expect(rolled).to_contain_text("compulsion -3 = 2 dés")
    screenshot_card(rolled, artifacts / "compulsion-roll-phone-fr.png")

    # the Storyteller ends it from the sheet; the badge goes, the call form is back
    storyteller.goto(sheet)
    storyteller.locator("#end-compulsion").click()
    expect(
        storyteller.locator("#compulsion").get_by_role("button", name="Appeler la compulsion")
    ).to_be_visible()
    phone.goto(f"/chronicles/{cid}")
    expect(phone.locator("#feed li.kind-compulsion_end").first).to_contain_text(
        "Fin de la compulsion de Rook : Pulsions sauvages"
    )
    expect(phone.locator(".compulsion-badge")).to_have_count(0)

    export = httpx.get(
        f"{live_server}/api/chronicles/{cid}/log/export",
        headers={"Authorization": f"Bearer {token_of(storyteller)}"},
        timeout=30,
    )
    problems, _ = verify_entries(read_jsonl(export.text.splitlines()), verify_receipt, verify_ledger())
    assert problems == []
    kinds = [json.loads(line)["kind"] for line in export.text.splitlines()]
    assert [kind for kind in kinds if kind.startswith("compulsion")] == ["compulsion", "compulsion_end"]
