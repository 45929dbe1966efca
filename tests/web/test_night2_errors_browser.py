"""Issue 34 point 4 (the standing-grant form) on a Spanish desktop: a refused standing grant comes back
with "For" and "What" as chosen and a plain sentence in the page's language, not the schema's "Input
should be a valid integer"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create

pytestmark = pytest.mark.browser


def test_issue34_point4_a_refused_standing_grant_keeps_for_and_what(new_context):
    page = new_context(width=1280, height=900, locale="es-ES").new_page()
    chronicle = create(page, "es", "v20", "Concesiones")
    made = page.request.post(f"{chronicle}/characters", form={"s.name": "Zed", "s.attributes.dexterity": "2"},
                             max_redirects=0)
    character = made.headers["location"].rsplit("/", 1)[1]
    page.goto(chronicle)
    page.locator("#standing details summary").click()
    page.locator("#standing-character").select_option(character)
    page.locator("#standing-edge").select_option("modifier")
    page.locator("#standing-value").fill("sí")
    page.locator("#standing-form button[type=submit]").click()
    alert = page.locator("#standing-alert")
    expect(alert).to_contain_text("debe ser un número entero, no sí")
    expect(alert).not_to_contain_text("Input should")
    expect(alert).not_to_contain_text("modifier")
    expect(page.locator("#standing-character")).to_have_value(character)
    expect(page.locator("#standing-edge")).to_have_value("modifier")
