"""A step's own answer that comes back late never takes a later step away (SPEC V20-17, V20-20).

Bob dodges; his answer (the exchange's card as it was after the dodge) is held back until Alice's
damage has reached his page live with its "Soak" button. When the held answer lands, the card keeps
the damage step and the soak button: a redraw rendered before the card on the page is dropped."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .flows import api_character, chronicle_id, create_chronicle, join

pytestmark = pytest.mark.browser

LIVE = 10_000  # ms


def waited_for(condition, page, seconds: float = 10.0) -> None:
    """Playwright's sync API runs a route's handler while it waits: wait, a little at a time, for it."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the held answer never came"
        page.wait_for_timeout(20)


def test_V20_20_a_late_answer_to_the_dodge_keeps_the_damage_that_came_live(new_context, live_server, dice):
    storyteller = new_context().new_page()
    alice = new_context().new_page()
    bob = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Late by Night", system="v20", storyteller="Ana")
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
        {"name": "Bran", "attributes": {"stamina": 2, "dexterity": 2}, "talents": {"athletics": 1}},
    )
    bob.reload()

    alice.goto(f"/chronicles/{chronicle_id(alice)}/characters/{nia}?kind=test&lang=en")
    alice.get_by_label("Attribute", exact=True).select_option("dexterity")
    alice.get_by_label("Ability").select_option("melee")
    alice.get_by_label("Weapon").select_option("Knife")
    alice.get_by_label("Target", exact=True).select_option(label="Bran")
    alice.get_by_label("The target dodges").check()
    dice.queue(6, 8, 9, 2, 3)  # 3 successes
    alice.get_by_role("button", name="Roll", exact=True).click()
    expect(alice.locator("#feed > li").first).to_contain_text("Attack on Bran")

    # Bob's answer to his dodge is made by the server now, and held back from his page
    held = []
    bob.route("**/follow", lambda route: held.append((route, route.fetch())))
    dodge = bob.get_by_role("button", name="Dodge (3 attack successes)")
    expect(dodge).to_be_visible(timeout=LIVE)
    dice.queue(7, 3, 2)  # one success: two attack successes left
    dodge.click()
    roll_damage = alice.get_by_role("button", name="Roll damage")
    expect(roll_damage).to_be_visible(timeout=LIVE)  # the dodge is in the log
    waited_for(lambda: len(held) == 1, bob)  # the answer, made, is in our hands
    dice.queue(6, 7, 2, 2, 2)  # 2 lethal levels
    roll_damage.click()
    card = bob.locator("#feed > li.card", has=bob.locator(".steps")).first
    soak = bob.get_by_role("button", name="Soak 2 lethal")
    expect(soak).to_be_visible(timeout=LIVE)  # the damage came live, with the soak offered to Bob
    expect(card.locator(".step")).to_have_count(2)

    # The late answer lands: htmx has handled it once the dodge form's request is over
    bob.evaluate(
        "() => { window.answered = 0;"
        " document.addEventListener('htmx:afterRequest', () => { window.answered += 1; }); }"
    )
    route, response = held[0]
    route.fulfill(response=response)
    bob.wait_for_function("() => window.answered > 0", timeout=LIVE)
    expect(card.locator(".step")).to_have_count(2)
    expect(soak).to_be_visible()
    dice.queue(2, 2, 2)
    soak.click()
    expect(card.locator(".step")).to_have_count(3)
