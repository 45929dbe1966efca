"""On a Spanish desktop: the roll form's specialty list holds only the specialties of
the traits chosen ("Amenazas (Intimidación)" is not offered while Brawl is chosen) — taken out of the
list, not merely hidden (some browsers show hidden options)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import choose_traits, create_v5, new_character

pytestmark = pytest.mark.browser


def test_the_specialty_list_follows_the_chosen_trait(new_context):
    page = new_context(width=1280, height=900, locale="es-ES").new_page()
    chronicle = create_v5(page, "es", "Especialidades")
    page.goto(
        new_character(
            page,
            chronicle,
            {
                "s.name": "Mara",
                "s.attributes.strength": "3",
                "s.skills.brawl": "2",
                "s.skills.intimidation": "2",
                "s.hunger": "1",
                "s.specialties": "brawl: Agarres\nintimidation: Amenazas",
            },
        )
    )
    form = choose_traits(page, "strength", "brawl")
    specialty = form.locator("[name=specialty]")
    texts = specialty.evaluate("s => Array.from(s.options).map(o => o.textContent.trim())")
    assert [t for t in texts if "(" in t] == ["Agarres (Pelea)"], texts
    form.locator("[name=skill]").select_option("intimidation")
    expect(specialty.locator("option", has_text="Amenazas")).to_have_count(1)
    texts = specialty.evaluate("s => Array.from(s.options).map(o => o.textContent.trim())")
    assert [t for t in texts if "(" in t] == ["Amenazas (Intimidación)"], texts
