"""The exchange odds in Chromium: choosing a target on the attack form shows the odds of the whole
exchange before the roll (htmx), and they follow the form (a dodge ticked); a player attacking an NPC
is told the odds need ratings hidden from them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .flows import api_character, chronicle_id, create_chronicle, join

pytestmark = pytest.mark.browser


def test_choosing_a_target_shows_the_odds_of_the_whole_exchange(new_context, live_server):
    storyteller = new_context().new_page()
    alice = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Odds by Night", system="v20", storyteller="Ana")
    join(alice, invitation=invitation, name="Alice")
    nia = api_character(
        live_server,
        alice,
        {
            "name": "Nia",
            "attributes": {"strength": 3, "dexterity": 3},
            "skills": {"melee": 2},
            "weapons": [{"name": "Knife", "damage": 1, "damage_type": "lethal"}],
        },
    )
    api_character(
        live_server,
        storyteller,
        {"name": "Ghoul", "attributes": {"stamina": 3, "dexterity": 2}, "talents": {"athletics": 2}},
    )
    sheet = f"/chronicles/{chronicle_id(alice)}/characters/{nia}?kind=test&lang=en"
    for page in (alice, storyteller):
        page.goto(sheet)
        page.get_by_label("Attribute", exact=True).select_option("dexterity")
        page.get_by_label("Ability").select_option("melee")
        expect(page.locator("#exchange-odds")).not_to_contain_text("Against")
        page.get_by_label("Target", exact=True).select_option(label="Ghoul")
    # a player: no odds built from the NPC's ratings (they would give them back)
    expect(alice.locator("#exchange-odds")).to_contain_text("Ghoul's ratings, which are hidden from you")
    expect(alice.locator("#exchange-odds [data-outcome]")).to_have_count(0)
    odds = storyteller.locator("#exchange-odds")
    expect(odds).to_contain_text("Against Ghoul: hits 84.4%")
    before = odds.locator("[data-outcome=dodged]").count()
    storyteller.get_by_label("The target dodges").check()
    expect(odds.locator("[data-outcome=dodged]")).to_have_count(1)
    assert before == 0
    assert re.search(r"hits \d+\.\d%", odds.inner_text())
