"""In a browser: on a 390×844 phone in French, a V5 character at 0 Willpower sees its
Mental roll "affaibli" (not wounds) and no Willpower reroll offered; on a Spanish desktop a Tiers
reload's receipt names the rounds in Spanish, with the weapon as typed."""

from __future__ import annotations

from playwright.sync_api import expect

from .flows import choose_traits, create, create_v5, new_character


def test_v5_at_no_willpower_in_french_on_a_phone(new_context):
    page = new_context(width=390, height=844, locale="fr").new_page()
    chronicle = create_v5(page, "fr", "Sans Volonté")
    page.goto(
        new_character(
            page,
            chronicle,
            {
                "s.name": "Vide",
                "s.attributes.wits": "3",
                "s.skills.investigation": "2",
                "s.hunger": "1",
                "s.willpower.max": "2",
                "s.willpower.superficial": "2",
            },
        )
    )
    choose_traits(page, "wits", "investigation")
    odds = page.locator("#odds")
    expect(odds).to_contain_text("affaibli -2")
    expect(odds).to_contain_text("Plus de Volonté à dépenser.")
    expect(odds).not_to_contain_text("blessures")
    expect(odds).not_to_contain_text("meilleure relance de Volonté")


def test_tiers_reload_in_spanish_on_a_desktop(new_context):
    page = new_context(width=1280, height=900, locale="es").new_page()
    chronicle = create(page, "es", "tiers", "Recarga")
    made = page.request.post(
        f"{chronicle}/characters",
        form={
            "s.name": "Mara",
            "s.skills.firearms": "60",
            "s.weapons.0.name": "Glock",
            "s.weapons.0.bonus": "5",
            "s.weapons.0.capacity": "17",
            "s.weapons.0.loaded": "0",
            "s.weapons.0.spare": "20",
        },
        max_redirects=0,
    )
    assert made.status == 303, made.text()
    page.goto(f"{made.headers['location']}?change=reload")
    page.wait_for_load_state("networkidle")
    page.locator("#change [name=weapon]").select_option("Glock")
    page.locator("#change button[type=submit]").click()
    card = page.locator(
        "#feed > li.card", has_text="Balas cargadas (Glock): 0 → 17"
    )  # T-3: only an empty one
    expect(card).to_have_count(1)
    expect(card).not_to_contain_text("Ammunition")
