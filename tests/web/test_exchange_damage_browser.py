"""In Chromium, on a Spanish desktop (V20-17): "Roll damage" is offered after an attack
only (a Melee test, not a Stealth one), its weapon list holds the attack's weapons with the first
chosen (the knife, not "unarmed"), and after the exchange the sheet reopens on the roll tab, not on
the last follow-up's (Damage, Soak)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import api_character, chronicle_id, create_chronicle

pytestmark = pytest.mark.browser

DESKTOP_ES = {"width": 1280, "height": 900, "locale": "es-ES"}


def test_damage_after_an_attack_only_with_its_weapon_and_the_roll_tab_after(new_context, live_server, dice):
    page = new_context(**DESKTOP_ES).new_page()
    create_chronicle(page, name="Madrid", system="v20", storyteller="Ana", language="es")
    nia = api_character(
        live_server,
        page,
        {
            "name": "Nia",
            "attributes": {"strength": 3, "dexterity": 3},
            "skills": {"melee": 2, "stealth": 2},
            "weapons": [
                {"name": "Glock", "kind": "firearm", "damage": 4, "damage_type": "lethal"},
                {"name": "Navaja", "damage": 1, "damage_type": "lethal"},
            ],
        },
    )
    api_character(live_server, page, {"name": "Bran", "attributes": {"stamina": 2}})
    sheet = f"/chronicles/{chronicle_id(page)}/characters/{nia}"
    page.goto(f"{sheet}?kind=test")
    roll = page.locator("#roll")

    def attack(ability: str) -> None:
        roll.locator("[name=attribute]").select_option("dexterity")
        roll.locator("[name=ability]").select_option(ability)
        roll.locator("[name=target]").select_option(label="Bran")
        dice.queue(6, 8, 9, 2, 3)  # 3 successes
        page.locator("#roll-submit").click()

    attack("stealth")
    sneak = page.locator("#feed > li.kind-roll").first
    expect(sneak).to_contain_text("Sigilo")
    expect(sneak.get_by_role("button", name="Tirar el daño")).to_have_count(0)  # Stealth deals no damage
    attack("melee")
    stab = page.locator("#feed > li.kind-roll", has_text="Pelea con armas").first
    damage = stab.get_by_role("button", name="Tirar el daño")
    expect(damage).to_be_visible()
    weapon = stab.locator("select[name=weapon]")
    expect(weapon).to_have_value("Navaja")  # the Melee attack's weapon, not "unarmed"
    assert weapon.locator("option").all_inner_texts()[1:] == ["Navaja"]  # no Glock after a Melee attack
    dice.queue(6, 1, 1, 7, 2, 10)
    damage.click()
    expect(stab.locator(".step")).to_have_count(1)
    expect(stab.locator(".step").first).to_contain_text("Tirada de daño")

    # the sheet reopens on the roll tab, not the last follow-up's
    page.goto(sheet)
    current = page.locator("#roll-panel nav a[aria-current=page]")
    expect(current).to_have_text("Prueba: Atributo + Habilidad")
    expect(page.locator("#roll input[name=kind]")).to_have_value("test")


def test_a_v20_attack_is_declared_with_a_weapon_of_the_sheet(new_context, live_server, dice):
    """V20-17: the test form offers the sheet's weapons when it has some (none when it has none); an attack
    declared with the knife offers its damage roll with the knife alone."""
    page = new_context(**DESKTOP_ES).new_page()
    create_chronicle(page, name="Toledo", system="v20", storyteller="Ana", language="es")
    nia = api_character(
        live_server,
        page,
        {
            "name": "Nia",
            "attributes": {"strength": 3, "dexterity": 3},
            "skills": {"melee": 2},
            "weapons": [
                {"name": "Glock", "kind": "firearm", "damage": 4, "damage_type": "lethal"},
                {"name": "Navaja", "damage": 1, "damage_type": "lethal"},
            ],
        },
    )
    bran = api_character(live_server, page, {"name": "Bran", "attributes": {"stamina": 2}})
    page.goto(f"/chronicles/{chronicle_id(page)}/characters/{bran}?kind=test")
    expect(page.locator("#roll [name=ability]")).to_be_visible()
    expect(page.locator("#roll [name=weapon]")).to_have_count(0)  # Bran carries nothing
    page.goto(f"/chronicles/{chronicle_id(page)}/characters/{nia}?kind=test")
    roll = page.locator("#roll")
    weapon = roll.locator("select[name=weapon]")
    expect(page.locator(f"label[for='{weapon.get_attribute('id')}']")).to_have_text("Arma")
    roll.locator("[name=attribute]").select_option("dexterity")
    roll.locator("[name=ability]").select_option("melee")
    weapon.select_option("Navaja")
    roll.locator("[name=target]").select_option(label="Bran")
    dice.queue(6, 8, 9, 2, 3)
    page.locator("#roll-submit").click()
    stab = page.locator("#feed > li.kind-roll").first
    expect(stab.get_by_role("button", name="Tirar el daño")).to_be_visible()
    expect(stab.locator("select[name=weapon] option")).to_have_text(
        ["Navaja"]
    )  # the declared weapon, no other
    dice.queue(6, 1, 1, 7, 2, 10)
    stab.get_by_role("button", name="Tirar el daño").click()
    expect(stab.locator(".step").first).to_contain_text("Fuerza 3 + Arma 1")  # the knife's +1 (V20-17)
