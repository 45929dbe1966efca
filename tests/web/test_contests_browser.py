"""Contested and extended rolls in Chromium (SPEC TR-3, TR-4), a French table, the player on a phone
(390×844): the Storyteller declares, each side rolls its own part from the declaration's card, the
contest's result card shows both sides and the margin, the extended action's rolls show the running
total and the rolls left; the export verifies. Screenshots in ``test-artifacts/run/``."""

from __future__ import annotations

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
)

pytestmark = pytest.mark.browser


def test_TR_3_TR_4_contest_and_extended_action_in_french_on_a_phone(
    new_context, live_server, dice, artifacts
):
    storyteller = new_context(locale="fr").new_page()  # the browser's language wins
    phone = new_context(width=390, height=844, locale="fr").new_page()
    invitation = create_chronicle(storyteller, name="Chicago", system="v20", storyteller="Ana", language="fr")
    join(phone, invitation=invitation, name="Alice")
    cid = chronicle_id(storyteller)
    nia = api_character(
        live_server, phone, {"name": "Nia", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}}
    )
    bran = api_character(
        live_server, storyteller, {"name": "Bran", "attributes": {"wits": 2}, "talents": {"alertness": 2}}
    )

    # the Storyteller declares the contest: Nia's Dexterity + Firearms against Bran's Wits + Alertness
    storyteller.goto(f"/chronicles/{cid}")
    storyteller.locator("#contests summary").first.click()
    storyteller.locator("#attacker-character").select_option(str(nia))
    storyteller.locator("#attacker-attribute").fill("dexterity")
    storyteller.locator("#attacker-ability").fill("firearms")
    storyteller.locator("#defender-character").select_option(str(bran))
    storyteller.locator("#defender-attribute").fill("wits")
    storyteller.locator("#defender-ability").fill("alertness")
    storyteller.locator("#contest button[type=submit]").click()
    declared = storyteller.locator("#feed li.kind-contest").first
    expect(declared).to_contain_text("Opposition : Nia contre Bran")

    # each side rolls its own part: the player only Nia's
    phone.goto(f"/chronicles/{cid}")
    card = phone.locator("#feed li.kind-contest").first
    expect(card.get_by_role("button", name="Lancer pour Nia")).to_be_visible()
    expect(card.get_by_role("button", name="Lancer pour Bran")).to_have_count(0)
    dice.queue(8, 9, 7, 2, 3)  # three successes at difficulty 6
    card.get_by_role("button", name="Lancer pour Nia").click()
    expect(phone.locator("#feed li.kind-roll").first).to_contain_text("le jet de l'attaquant")
    storyteller.goto(f"/chronicles/{cid}")
    dice.queue(6, 2, 3, 4)  # one success
    storyteller.locator("#feed li.kind-contest").first.get_by_role("button", name="Lancer pour Bran").click()
    result = storyteller.locator("#feed li.kind-contest_result").first
    expect(result).to_contain_text("Nia remporte l'opposition de 2")
    expect(result).to_contain_text("Nia : 3 réussites — Bran : 1 réussite")
    phone.goto(f"/chronicles/{cid}")
    shown = phone.locator("#feed li.kind-contest_result").first
    expect(shown).to_contain_text("Nia remporte l'opposition de 2")
    screenshot_card(shown, artifacts / "contest-phone-fr.png")

    # an extended action: 5 successes in at most 3 rolls
    storyteller.locator("#contests summary").nth(1).click()
    storyteller.locator("#extended-character").select_option(str(nia))
    storyteller.locator("#extended-attribute").fill("dexterity")
    storyteller.locator("#extended-ability").fill("firearms")
    storyteller.locator("#extended-target").fill("5")
    storyteller.locator("#extended-max").fill("3")
    storyteller.locator("#extended button[type=submit]").click()
    expect(storyteller.locator("#feed li.kind-extended").first).to_contain_text("Action prolongée : Nia")
    phone.goto(f"/chronicles/{cid}")
    dice.queue(8, 9, 7, 2, 3)
    phone.locator("#feed li.kind-extended").first.get_by_role("button", name="Jet suivant pour Nia").click()
    first = phone.locator("#feed li.kind-roll").first
    expect(first).to_contain_text("jet 1 : 3 réussites sur 5 · jets restants : 2 · en cours")
    dice.queue(10, 6, 2, 2, 3)
    phone.locator("#feed li.kind-extended").first.get_by_role("button", name="Jet suivant pour Nia").click()
    second = phone.locator("#feed li.kind-roll").first
    expect(second).to_contain_text(
        "jet 2 : 5 réussites sur 5 · objectif atteint"
    )  # no "rolls left" once over
    expect(second).not_to_contain_text("jets restants")
    screenshot_card(second, artifacts / "extended-phone-fr.png")

    export = httpx.get(
        f"{live_server}/api/chronicles/{cid}/log/export",
        headers={"Authorization": f"Bearer {token_of(storyteller)}"},
        timeout=30,
    )
    problems, _ = verify_entries(read_jsonl(export.text.splitlines()), verify_receipt, verify_ledger())
    assert problems == []
