"""The combat chain in Chromium (SPEC V20-17, T-4, T-5): a V20 exchange (attack, damage, soak, the
defender's health track moving) and a Tiers exchange (firearms with bullets, dodge, soak, wounds),
each step offered as a button to the person who takes it, live on the other pages. Screenshots in
``test-artifacts/run/`` (``exchange-v20.png``, ``exchange-tiers.png``; copied to ``docs/`` by
``scripts/docs-screenshots``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import api_character, chronicle_id, create_chronicle, join, screenshot_card

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def test_V20_17_exchange_attack_damage_soak_moves_the_health_track(new_context, live_server, dice, artifacts):
    storyteller = new_context().new_page()
    alice = new_context().new_page()
    bob = new_context(width=390, height=844).new_page()
    invitation = create_chronicle(storyteller, name="Chicago by Night", system="v20", storyteller="Ana")
    join(alice, invitation=invitation, name="Alice")
    join(bob, invitation=invitation, name="Bob")
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
        live_server, bob, {"name": "Bran", "attributes": {"stamina": 2}, "disciplines": {"fortitude": 1}}
    )
    bob.reload()

    alice.goto(f"/chronicles/{chronicle_id(alice)}/characters/{nia}?kind=test")
    alice.get_by_label("Attribute", exact=True).select_option("dexterity")
    alice.get_by_label("Ability").select_option("melee")
    alice.get_by_label("Target", exact=True).select_option(label="Bran")
    dice.queue(6, 8, 9, 2, 3)  # 3 successes
    alice.get_by_role("button", name="Roll", exact=True).click()
    attack = alice.locator("#feed > li").first
    expect(attack).to_contain_text("Attack on Bran")
    expect(bob.get_by_role("button", name="Roll damage")).to_have_count(0)

    # Damage: Strength 3 + Knife 1 + 2 successes beyond the first (V20-17), from the attack's receipt
    attack.get_by_label("Weapon").select_option("Knife")
    dice.queue(6, 1, 1, 7, 2, 10)  # 3 levels: 1s cancel nothing
    attack.get_by_role("button", name="Roll damage").click()
    expect(attack.locator(".step")).to_have_count(1)
    expect(attack.locator(".step").first).to_contain_text("Damage roll")

    # The defender's player sees the soak as a button, live; the attacker does not
    soak = bob.get_by_role("button", name="Soak 3 lethal")
    expect(soak).to_be_visible(timeout=LIVE)
    expect(alice.get_by_role("button", name="Soak 3 lethal")).to_have_count(0)
    dice.queue(6, 2, 3)  # Stamina 2 + Fortitude 1: one level soaked
    soak.click()
    card = bob.locator("#feed > li.card", has=bob.locator(".steps")).first
    expect(card.locator(".step")).to_have_count(2)
    expect(card.locator(".step").last).to_contain_text("0 → 2")
    expect(alice.locator("#feed .step")).to_have_count(
        2, timeout=LIVE
    )  # the whole exchange, live, on one card
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    screenshot_card(card, artifacts / "exchange-v20.png")

    # The health track moved: two lethal levels on Bran's sheet
    bob.get_by_role("link", name="Bran").first.click()
    expect(bob.locator(".box-lethal")).to_have_count(2)


def test_T_4_T_5_exchange_firearms_dodge_soak_advances_the_wounds(new_context, live_server, dice, artifacts):
    storyteller = new_context().new_page()
    alice = new_context().new_page()
    invitation = create_chronicle(
        storyteller, name="Paliers", system="tiers", storyteller="Ana", language="fr"
    )
    join(alice, invitation=invitation, name="Alice")
    ana = api_character(
        live_server,
        alice,
        {
            "name": "Ana",
            "skills": {"firearms": 6},
            "weapons": [{"name": "Pistol", "bonus": 2, "capacity": 6}],
        },
    )
    api_character(
        live_server,
        storyteller,
        {"name": "Rook", "skills": {"dodge": 4}, "endurance": 3, "armor": {"torso": 2}},
    )
    storyteller.goto(f"/chronicles/{chronicle_id(storyteller)}?lang=fr")

    alice.goto(f"/chronicles/{chronicle_id(alice)}/characters/{ana}?kind=skill&lang=en")
    alice.get_by_label("Skill", exact=True).select_option("firearms")
    alice.locator("#roll-weapon").select_option("Pistol")
    alice.get_by_label("Bullets fired", exact=True).fill("2")
    alice.get_by_label("Target", exact=True).select_option(label="Rook")
    dice.queue(6)  # (6 + 2 − 6) × 2 bullets = tier 4 (T-3)
    alice.get_by_role("button", name="Roll", exact=True).click()
    expect(alice.locator("#feed > li").first.locator(".outcome")).to_have_text("Success at tier 4")
    expect(alice.locator(".resources")).to_contain_text("4/6")

    # The Storyteller runs the NPC's defence: dodge (T-4), then soak (T-5), in French
    dodge = storyteller.get_by_role("button", name="Esquiver (palier d’attaque 4)")
    expect(dodge).to_be_visible(timeout=LIVE)
    dice.queue(1, 3)  # 4 − 1, critical +1 = tier 4: not strictly greater, the hit stands
    dodge.click()
    soak = storyteller.get_by_role("button", name="Encaissement (palier d’attaque 4)")  # the seed's word
    expect(soak).to_be_visible()
    card = storyteller.locator("#feed > li.card", has=storyteller.locator(".steps")).first
    card.get_by_label("Localisation").select_option("torso")
    # The card is redrawn in place (as when a step of it arrives over the live feed meanwhile): the
    # location chosen a moment before is kept, not reset to the first one offered.
    storyteller.evaluate("""() => {
        const li = document.querySelector('#feed > li.card .steps').closest('li');
        htmx.swap(document.body, li.outerHTML.replace('<li ', '<li hx-swap-oob="outerHTML" '), {swapStyle: 'none'});
    }""")
    expect(card.get_by_label("Localisation")).to_have_value("torso")
    dice.queue(4)  # 3 + 2 − 4 = soak tier 1: 3 wounds
    soak.click()
    expect(card.locator(".step")).to_have_count(2)
    expect(card.locator(".step").last).to_contain_text("0 → 3")
    expect(alice.locator("#feed .step")).to_have_count(2, timeout=LIVE)
    screenshot_card(card, artifacts / "exchange-tiers.png")


def test_V20_20_the_defender_dodges_in_the_exchange_and_its_odds_are_the_chains(
    new_context, live_server, dice, artifacts
):
    from rollbook.present.preview import percent
    from rollbook.systems.v20.odds_exchange import Defender, Weapon, exchange_odds
    from rollbook.systems.v20.rules import V20Request

    storyteller = new_context().new_page()
    alice = new_context().new_page()
    bob = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Dodge by Night", system="v20", storyteller="Ana")
    join(alice, invitation=invitation, name="Alice")
    join(bob, invitation=invitation, name="Bob")
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
        bob,
        {
            "name": "Bran",
            "attributes": {"stamina": 2, "dexterity": 2},
            "talents": {"athletics": 1},
            "disciplines": {"fortitude": 1},
        },
    )
    bob.reload()
    # The odds of the chain: Dexterity 3 + Melee 2 against Bran's dodge, Dexterity 2 + Athletics 1 (V20-20)
    chain = exchange_odds(
        V20Request(pool=5),
        Weapon(1, "lethal", strength=3),
        Defender(stamina=2, fortitude=1, dodge=V20Request(pool=3)),
    )
    hit = percent(chain.hit, "en")

    alice.goto(f"/chronicles/{chronicle_id(alice)}/characters/{nia}?kind=test&lang=en")
    alice.get_by_label("Attribute", exact=True).select_option("dexterity")
    alice.get_by_label("Ability").select_option("melee")
    alice.get_by_label("Weapon").select_option("Knife")
    alice.get_by_label("Target", exact=True).select_option(label="Bran")
    alice.get_by_label("The target dodges").check()
    odds = alice.locator("#exchange-odds")
    # Bran is Bob's: his ratings are not Alice's to see, nor odds built from them (they give them back)
    expect(odds).to_contain_text("Bran's ratings, which are hidden from you")
    expect(odds).not_to_contain_text(f"hits {hit}")
    dice.queue(6, 8, 9, 2, 3)  # 3 successes
    alice.get_by_role("button", name="Roll", exact=True).click()
    attack = alice.locator("#feed > li").first
    expect(attack).to_contain_text("Attack on Bran")

    # The defender's player dodges, offered live; the attacker is not offered the dodge
    dodge = bob.get_by_role("button", name="Dodge (3 attack successes)")
    expect(dodge).to_be_visible(timeout=LIVE)
    expect(alice.get_by_role("button", name="Dodge (3 attack successes)")).to_have_count(0)
    dice.queue(7, 3, 2)  # one success: two attack successes left
    dodge.click()
    card = bob.locator("#feed > li.card", has=bob.locator(".steps")).first
    expect(card.locator(".step")).to_have_count(1)
    expect(card.locator(".step").first).to_contain_text("left after the dodge: 2")

    # The damage follows the dodge: the attacker's, with the successes left (3 + 1 + 1 dice)
    roll_damage = alice.get_by_role("button", name="Roll damage")
    expect(roll_damage).to_be_visible(timeout=LIVE)
    dice.queue(6, 7, 2, 2, 2)  # 2 lethal levels
    roll_damage.click()
    # the attacker's own card first (the answer to the press), then the defender's, live
    attacks = alice.locator("#feed > li.card", has=alice.locator(".steps")).first
    expect(attacks.locator(".step")).to_have_count(2)
    soak = bob.get_by_role("button", name="Soak 2 lethal")
    expect(soak).to_be_visible(timeout=LIVE)
    dice.queue(2, 2, 2)
    soak.click()
    expect(card.locator(".step")).to_have_count(3)
    # the card's odds before the attack, from its own receipts (the dodge rolled): the chain's
    expect(card.locator(".exchange-expected")).to_contain_text(f"hit {hit}")
    expect(card.locator(".exchange-expected")).to_contain_text("wounded, 2 levels marked")
    screenshot_card(card, artifacts / "exchange-v20-dodge.png")
