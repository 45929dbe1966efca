"""The V5 power tab in Chromium, a French table: it opens on a Discipline and one of its powers, and the
power list follows the Discipline chosen (table.js), so the tab never pairs a power with another
Discipline."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import api_character, chronicle_id, create_chronicle

pytestmark = pytest.mark.browser

NADIA = {
    "name": "Nadia",
    "attributes": {"wits": 3, "resolve": 2, "strength": 2},
    "disciplines": {"auspex": 2, "potence": 1},
    "powers": [
        {"discipline": "potence", "level": 1, "power": "lethal_body"},
        {"discipline": "auspex", "level": 1, "power": "sense_the_unseen"},
        {"discipline": "auspex", "level": 2, "power": "premonition"},
    ],
    "hunger": 1,
}


def test_A1_the_power_list_follows_the_discipline_chosen(new_context, live_server, dice):
    page = new_context(locale="fr").new_page()
    create_chronicle(page, name="Lyon", system="v5", storyteller="Ana", language="fr")
    cid = chronicle_id(page)
    nadia = api_character(live_server, page, NADIA)
    page.goto(f"/chronicles/{cid}/characters/{nadia}?kind=power")
    powers = page.locator("#roll-power option")
    expect(page.locator("#roll-discipline")).to_have_value("auspex")
    expect(powers).to_have_count(2)  # Auspex's two powers only
    expect(page.locator("#roll-power")).to_have_value("sense_the_unseen")
    page.locator("#roll-discipline").select_option("potence")
    expect(powers).to_have_count(1)
    page.locator("#roll-power").select_option("lethal_body")
    page.locator("#roll-discipline").select_option("auspex")
    expect(powers).to_have_count(2)
    expect(page.locator("#roll-power option[value=lethal_body]")).to_have_count(0)
