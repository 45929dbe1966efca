"""In a browser: the seeds' terms on the pages where they appear (a 390×844 phone in
French), the words players tripped over (a weapon row's "Kind", "True → False", "nivel(es)"), and one
Spanish register — tú — on a Spanish desktop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .flows import create, create_v5, v5_character

pytestmark = pytest.mark.browser

PHONE_FR = {"width": 390, "height": 844, "locale": "fr-FR"}
DESKTOP_ES = {"width": 1280, "height": 900, "locale": "es-ES"}


def _character(page, chronicle: str, form: dict) -> str:
    made = page.request.post(f"{chronicle}/characters", form=form, max_redirects=0)
    assert made.status == 303, made.text()
    return made.headers["location"]


def test_seed_terms_on_a_french_phone(new_context, dice):
    page = new_context(**PHONE_FR).new_page()
    # V20 (seeds 000): "l'Attribut et la Compétence"
    v20 = create(page, "fr", "v20", "Termes V20")
    page.goto(
        _character(
            page,
            v20,
            {
                "s.name": "Lucien",
                "s.attributes.dexterity": "3",
                "s.weapons.0.name": "Couteau",
                "s.weapons.0.damage": "1",
            },
        )
    )
    expect(page.locator("#roll-panel nav")).to_contain_text("Test : Attribut + Compétence")
    expect(page.locator("#roll")).to_contain_text("Compétence")
    weapon_row = page.locator("fieldset.obj-row[data-list=weapons]").first
    expect(weapon_row).to_contain_text("Type")
    expect(weapon_row).not_to_contain_text("Kind")
    # V5 (seed 001): "réussite, critique propre, Critique Sanglant…"
    v5 = create_v5(page, "fr", "Termes V5")
    page.goto(v5_character(page, v5, "Mara"))
    page.locator("#roll [name=attribute]").select_option("dexterity")
    page.locator("#roll [name=skill]").select_option("stealth")
    expect(page.locator("#odds")).to_contain_text("Chance")
    dice.clear()
    dice.queue(10, 10, 3, 4, 5, 2)  # two normal 10s, Hunger 2: a clean critical
    page.locator("#roll-submit").click()
    expect(page.locator("#feed > li").first.locator(".outcome")).to_have_text("Critique propre")
    # Tiers (seed 002): "un jet d'Encaissement", "le tableau des blessures"
    tiers = create(page, "fr", "tiers", "Termes Tiers")
    page.goto(_character(page, tiers, {"s.name": "Marion", "s.skills.firearms": "60", "s.endurance": "3"}))
    nav = page.locator("#roll-panel nav")
    expect(nav).to_contain_text("Encaissement")
    expect(nav).not_to_contain_text("absorption")
    expect(page.locator("main")).to_contain_text("tableau des blessures")
    page.request.post(f"{tiers}/scenes", form={"name": "Nuit"})
    page.request.post(f"{tiers}/scene/turns")
    # roll-under (seed 003): "le palier à ne pas dépasser", "une difficulté dérisoire"
    rollunder = create(page, "fr", "rollunder", "Termes d20")
    sheet = _character(
        page, rollunder, {"s.name": "Lou", "new.attributes.name.0": "Force", "new.attributes.value.0": "12"}
    )
    page.goto(f"{sheet}?kind=opposed")
    expect(page.locator("#roll")).to_contain_text("Palier à ne pas dépasser")
    page.goto(f"{sheet}?kind=check")
    expect(page.locator("#roll [name=task] option[value=trivial]")).to_have_text("dérisoire")


def test_words_on_a_tiers_feed_in_spanish(new_context, dice):
    page = new_context(**DESKTOP_ES).new_page()
    tiers = create(page, "es", "tiers", "Palabras")
    sheet = _character(
        page, tiers, {"s.name": "Marion", "s.skills.firearms": "60", "s.endurance": "3", "s.turn_spent": "on"}
    )
    page.goto(f"{sheet}?change=new_turn")
    page.locator("#change button[type=submit]").click()
    card = page.locator("#feed > li", has_text="Turno gastado")
    expect(card.first).to_contain_text("Turno gastado: sí → no")
    expect(page.locator("#feed")).not_to_contain_text("True")
    page.goto(f"{sheet}?kind=soak")
    page.locator("#roll [name=attack_tier]").fill("9")
    page.locator("#roll [name=location]").select_option("torso")
    dice.clear()
    dice.queue(1)
    page.locator("#roll-submit").click()
    outcome = page.locator("#feed > li").first.locator(".outcome")
    expect(outcome).to_have_text(
        re.compile(r"^([2-9]|1[0-9]) niveles de herida$")
    )  # a plural, not "nivel(es)"
    page.goto(tiers)
    expect(page.locator("main")).to_contain_text("Tú:")
    expect(page.locator("main")).not_to_contain_text("Usted")
