"""In Chromium on a French phone (V5-10): a Rouse at Hunger 5 says the hunger-frenzy
risk, not "chance that Hunger rises: 0.0 %"; a failed one offers the Storyteller a one-tap hunger
frenzy test on its receipt, which rolls it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import api_character, chronicle_id, create_v5

pytestmark = pytest.mark.browser


def test_a_rouse_at_hunger_5_says_the_frenzy_risk_and_offers_the_test(new_context, live_server, dice):
    page = new_context(width=390, height=844, locale="fr-FR").new_page()
    create_v5(page, "fr", "Faim")
    rook = api_character(
        live_server,
        page,
        {
            "name": "Rook",
            "clan": "Gangrel",
            "attributes": {"dexterity": 3, "manipulation": 3},
            "skills": {"firearms": 3},
            "hunger": 5,
        },
    )
    page.goto(f"/chronicles/{chronicle_id(page)}/characters/{rook}?kind=rouse")
    odds = page.locator("#odds")
    expect(odds).to_contain_text("risque d'un test de frénésie de la faim")
    expect(odds).not_to_contain_text("monte")
    dice.queue(3)  # a failed Rouse at Hunger 5
    page.locator("#roll-submit").click()
    rouse = page.locator("#feed > li.kind-roll").first
    expect(rouse).to_contain_text("Soif 5")
    expect(rouse).to_contain_text("Test de frénésie de la faim")
    expect(rouse).to_contain_text("difficulté 4 proposé : le Conteur peut le demander")
    call = rouse.get_by_role("button", name="Demander le test de frénésie de la faim")
    expect(call).to_be_visible()
    assert call.evaluate(
        "b => { const r = b.getBoundingClientRect(); return r.right <= innerWidth && r.height >= 24; }"
    )
    dice.queue(6, 6, 2, 2, 2)
    call.click()
    expect(page.locator("#feed > li.kind-roll").first).to_contain_text(
        "Test de frénésie de la faim après le Rouse n°"
    )
