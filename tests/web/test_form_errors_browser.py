"""On a French phone and a Spanish desktop: a refused standing grant comes back with
"For" and "What" as chosen and a plain sentence in the page's language, not the schema's "Input should
be a valid integer"; a list row's error on the new-character form sits at its row and names it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create

pytestmark = pytest.mark.browser


PLACES = {
    "fr": {"width": 390, "height": 844, "locale": "fr-FR"},  # a French phone
    "es": {"width": 1280, "height": 900, "locale": "es-ES"},
}  # a Spanish desktop


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_refused_standing_grant_keeps_for_and_what(new_context, lang):
    page = new_context(**PLACES[lang]).new_page()
    chronicle = create(page, lang, "v20", f"Concesiones {lang}")
    made = page.request.post(
        f"{chronicle}/characters", form={"s.name": "Zed", "s.attributes.dexterity": "2"}, max_redirects=0
    )
    character = made.headers["location"].rsplit("/", 1)[1]
    page.goto(chronicle)
    page.locator("#standing details summary").click()
    page.locator("#standing-character").select_option(character)
    page.locator("#standing-edge").select_option("modifier")
    typed = {"fr": "oui", "es": "sí"}[lang]
    page.locator("#standing-value").fill(typed)
    page.locator("#standing-form button[type=submit]").click()
    alert = page.locator("#standing-alert")
    expect(alert).to_contain_text(
        {
            "fr": f"Modificateur de dés doit être un nombre entier, pas {typed}",
            "es": f"Modificador de dados debe ser un número entero, no {typed}",
        }[lang]
    )
    expect(alert).not_to_contain_text("Input should")
    expect(alert).not_to_contain_text("modifier")
    expect(page.locator("#standing-character")).to_have_value(character)
    expect(page.locator("#standing-edge")).to_have_value("modifier")
    expect(page.locator("#standing-value")).to_have_value(typed)


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_list_rows_error_sits_at_its_row_and_names_it(new_context, lang):
    page = new_context(**PLACES[lang]).new_page()
    chronicle = create(page, lang, "v20", f"Filas {lang}")
    page.goto(f"{chronicle}/characters/new")
    page.locator("[name='s.name']").fill("Lucien")
    stealth = {"fr": "Furtivité", "es": "Sigilo"}[lang]
    for name, value in (("s.skills.stealth", "2"), ("s.specialties", f"{stealth}: Ombres")):
        field = page.locator(f"[name='{name}']")
        field.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")
        field.fill(value)
    page.locator("main form button[type=submit]").last.click()
    alert = page.locator("#character-alert")
    expect(alert).to_contain_text(stealth)  # which trait: not only "this trait is rated 2"
    box = page.locator("[name='s.specialties']")
    expect(box).to_have_attribute("aria-invalid", "true")
    assert box.evaluate("b => b.closest('details').open")
    assert box.evaluate("b => b.closest('.field').nextElementSibling.id") == "character-alert"


def test_a_weapon_rows_error_in_spanish_names_the_field_in_spanish(new_context):
    page = new_context(width=1280, height=900, locale="es-ES").new_page()
    chronicle = create(page, "es", "tiers", "Armas")
    page.goto(f"{chronicle}/characters/new")
    page.locator("[name='s.name']").fill("Mara")
    for name, value in (
        ("s.weapons.0.name", "Glock"),
        ("s.weapons.0.capacity", "15"),
        ("s.weapons.0.loaded", "99"),
    ):
        field = page.locator(f"[name='{name}']")
        field.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")
        field.fill(value)
    page.locator("main form button[type=submit]").last.click()
    alert = page.locator("#character-alert")
    expect(alert).to_contain_text("Balas cargadas")
    expect(alert).not_to_contain_text("Loaded")
    loaded = page.locator("[name='s.weapons.0.loaded']")
    expect(loaded).to_have_attribute("aria-invalid", "true")
    assert loaded.evaluate("b => b.closest('details').open")
