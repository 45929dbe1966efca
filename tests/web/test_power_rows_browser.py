"""In a browser (a French phone): the new-character form adds a third power row and more ("Ajouter un
autre pouvoir"), each sent and kept; a power row's list of the Discipline's powers stops at the rating
typed in the same form (Auspex 1: no level 2 power offered)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create_v5

pytestmark = pytest.mark.browser


def test_a_third_power_row_and_a_list_up_to_the_rating(new_context):
    page = new_context(width=390, height=844, locale="fr").new_page()
    chronicle = create_v5(page, "fr", "Pouvoirs")
    page.goto(f"{chronicle}/characters/new")
    page.locator("details:has([name='new.disciplines.name.0'])").evaluate("d => d.open = true")
    page.locator("[name='new.disciplines.name.0']").fill("Auspex")
    page.locator("[name='new.disciplines.value.0']").fill("1")
    page.locator("details:has([name='s.powers.0.name'])").evaluate("d => d.open = true")
    add = page.locator("[data-add-power-row]")
    expect(add).to_be_visible()
    add.click()
    expect(page.locator("[name='s.powers.2.discipline']")).to_be_focused()  # its first box
    add.click()
    expect(page.locator("[name='s.powers.3.name']")).to_have_count(1)
    page.locator("[name='s.powers.2.discipline']").fill("Auspex")
    listed = page.locator("[name='s.powers.2.name']").get_attribute("list")
    levels = page.locator(f"datalist#{listed} option").evaluate_all(
        "os => os.map(o => Number(o.textContent))"
    )
    assert levels and max(levels) == 1, (listed, levels)
    page.locator("[name='s.powers.2.name']").fill("Percevoir l’invisible")
    page.locator("#sheet-s-name").fill("Inès")
    page.locator("form#character button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name="Inès")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Percevoir l")
