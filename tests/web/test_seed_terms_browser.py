"""In Chromium: the seeds' own terms on the pages where they appear, those the other
browser tests do not pin — on a French phone the V20/V5 mode **Décontracté** (not "Détendu") and V5's
**Sursaut de Sang** (not "Afflux de Sang") on the roll form and its receipt; on a Spanish desktop the
**modo Casual** (not "Relajado") and V20's **Habilidad sin entrenamiento** (not "Técnica sin
entrenar") on a receipt."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create, create_v5, new_character, v5_character

pytestmark = pytest.mark.browser

PHONE_FR = {"width": 390, "height": 844, "locale": "fr-FR"}
DESKTOP_ES = {"width": 1280, "height": 900, "locale": "es-ES"}


def test_decontracte_and_sursaut_de_sang_on_a_french_phone(new_context, dice):
    page = new_context(**PHONE_FR).new_page()
    page.goto("/")
    mode = page.locator("#create-mode option[value=casual]")
    expect(mode).to_have_text("Décontracté")
    v5 = create_v5(page, "fr", "Sursaut")
    page.goto(v5_character(page, v5, "Mara"))
    page.locator("#roll [name=attribute]").select_option("dexterity")
    page.locator("#roll [name=skill]").select_option("stealth")
    surge = page.locator("#roll [name=blood_surge]")
    expect(page.locator(f"label[for='{surge.get_attribute('id')}']")).to_have_text("Sursaut de Sang")
    surge.check()
    page.locator("#roll-submit").click()
    card = page.locator("#feed > li.kind-roll").first
    expect(card).to_contain_text("Sursaut de Sang")
    expect(card).to_contain_text("Test de Rouse pour le Sursaut de Sang")
    expect(page.locator("main")).not_to_contain_text("Afflux")
    expect(page.locator("main")).not_to_contain_text("Détendu")


def test_modo_casual_and_habilidad_sin_entrenamiento_on_a_spanish_desktop(new_context, dice):
    page = new_context(**DESKTOP_ES).new_page()
    page.goto("/")
    expect(page.locator("#create-mode option[value=casual]")).to_contain_text("modo Casual")
    chronicle = create(page, "es", "v20", "Sin entrenar")
    page.goto(new_character(page, chronicle, {"s.name": "Lucita", "s.attributes.dexterity": "3"}))
    page.locator("#roll [name=attribute]").select_option("dexterity")
    page.locator("#roll [name=ability]").select_option("firearms")  # a Skill at 0: untrained (V20-3)
    page.locator("#roll-submit").click()
    card = page.locator("#feed > li.kind-roll").first
    expect(card).to_contain_text("Habilidad sin entrenamiento")
    expect(page.locator("main")).not_to_contain_text("Técnica sin entrenar")
    expect(page.locator("main")).not_to_contain_text("Relajado")


def test_cards_played_in_french_not_coup_de_pouce(new_context, dice):
    """Roll-under's cards (R-6) are "Cartes" on a French phone — the roll form's choice and the receipt —
    not "Coup de pouce jouées"."""
    page = new_context(**PHONE_FR).new_page()
    chronicle = create(page, "fr", "rollunder", "Cartes")
    made = page.request.post(
        f"{chronicle}/characters",
        max_redirects=0,
        form={
            "s.name": "Lou",
            "new.attributes.name.0": "Force",
            "new.attributes.value.0": "12",
            "new.skills.name.0": "Escalade",
            "new.skills.value.0": "14",
        },
    )
    sheet = made.headers["location"]
    given = page.request.post(
        f"{sheet}/adjustments",
        max_redirects=0,
        form={
            "change": "grant_card",
            "card.name": "Agile",
            "card.effect": "advantage",
            "card.consumable": "on",
        },
    )
    assert given.status in (200, 303), given.text()
    page.goto(f"{sheet}?kind=check")
    cards = page.locator("#roll fieldset", has=page.locator("input[name=cards]"))
    expect(cards).to_contain_text("Cartes")
    page.locator("#roll [name=action]").fill("grimper le mur")
    page.locator("#roll [name=skill]").select_option("escalade")
    page.locator("#roll input[name=cards]").first.check()
    page.locator("#roll-submit").click()
    card = page.locator("#feed > li.kind-roll").first
    expect(card).to_contain_text("Agile")
    expect(page.locator("main")).not_to_contain_text("pouce")
