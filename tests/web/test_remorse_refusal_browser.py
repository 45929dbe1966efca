"""On a 390×844 phone in French: a refused roll whose refusal the odds box already
says (a Remorse roll without stains) shows it once, not in two alerts at once."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create_v5

pytestmark = pytest.mark.browser


def test_the_remorse_refusal_is_shown_once(new_context):
    page = new_context(width=390, height=844, locale="fr-FR").new_page()
    chronicle = create_v5(page, "fr", "Remords")
    made = page.request.post(
        f"{chronicle}/characters", form={"s.name": "Mara", "s.hunger": "1", "s.stains": "0"}, max_redirects=0
    )
    page.goto(f"{made.headers['location']}?kind=remorse")
    odds_alert = page.locator("#odds [role=alert]")
    expect(odds_alert).to_have_count(1)
    said = odds_alert.inner_text().strip()
    page.locator("#roll-submit").click()
    expect(page.locator("#roll-submit")).to_be_enabled()
    expect(page.locator("[role=alert]:visible", has_text=said)).to_have_count(1)
