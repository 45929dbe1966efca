"""A press on a button is not lost when the page moves the button from under a still pointer
(table.js): the roll form's odds boxes sit above its Roll button, and their answer to the last choice
can land between the press and the release, growing the boxes and pushing the button down. The
release then happens over something else, the browser fires no click on the button, and the roll
was silently lost (no request, no error, the form still holding its choices)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error, FloatRect, Locator, Page, Route, expect

from tests.conftest import wait_until

from .flows import api_character, chronicle_id, create_chronicle

pytestmark = pytest.mark.browser


def hold_the_odds(page: Page) -> list[Route]:
    """From now on the odds boxes' requests are held (their answers do not land) until ``release``."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/*odds*", hold)
    return held


def release(page: Page, held: list[Route]) -> None:
    """The held odds requests sent on, and the next ones no longer held."""
    page.unroute("**/*odds*")
    for route in held:
        try:
            route.continue_()
        except Error as error:  # a request the odds box replaced by a newer one (hx-sync) is gone
            if "already handled" not in str(error):
                raise


def press(page: Page, button: Locator) -> FloatRect:
    """The pointer down in the middle of ``button`` (not released), its place then."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    return box


def nia_rolls_dexterity(page: Page, live_server, name: str) -> None:
    """A V20 chronicle ``name`` whose Nia (Dexterity 3, Melee 2) has her test form open, Dexterity chosen."""
    create_chronicle(page, name=name, system="v20", storyteller="Ana")
    nia = api_character(
        live_server, page, {"name": "Nia", "attributes": {"dexterity": 3}, "skills": {"melee": 2}}
    )
    page.goto(f"/chronicles/{chronicle_id(page)}/characters/{nia}?kind=test")
    page.locator("#roll [name=attribute]").select_option("dexterity")


def test_a_roll_pressed_while_the_odds_grow_above_it_is_sent(new_context, live_server, dice):
    page = new_context().new_page()
    create_chronicle(page, name="Lyon by Night", system="v20", storyteller="Ana")
    nia = api_character(
        live_server,
        page,
        {
            "name": "Nia",
            "attributes": {"strength": 3, "dexterity": 3},
            "skills": {"melee": 2},
            "weapons": [{"name": "Knife", "damage": 1, "damage_type": "lethal"}],
        },
    )
    api_character(live_server, page, {"name": "Bran", "attributes": {"stamina": 2}})
    page.goto(f"/chronicles/{chronicle_id(page)}/characters/{nia}?kind=test")
    roll = page.locator("#roll")
    roll.locator("[name=attribute]").select_option("dexterity")
    roll.locator("[name=ability]").select_option("melee")
    expect(page.locator("#odds .headline")).to_be_visible()
    expect(page.locator("#exchange-odds .bars")).to_have_count(0)

    # the odds of the last choice (a target: the whole exchange's bars appear) are held back...
    held = hold_the_odds(page)
    roll.locator("[name=target]").select_option(label="Bran")
    wait_until(lambda: len(held) >= 2 or page.evaluate("0"), what="the odds asked of the target")

    # ...until the Roll button is pressed: they land while it is down, and push it down the page
    button = page.locator("#roll-submit")
    box = press(page, button)
    release(page, held)
    expect(page.locator("#exchange-odds .bars").first).to_be_visible()
    moved = button.bounding_box()
    assert moved is not None and moved["y"] > box["y"] + box["height"], "the button did not move"

    dice.queue(6, 8, 9, 2, 3)
    page.mouse.up()
    expect(page.locator("#feed > li.kind-roll")).to_have_count(1)
    expect(page.locator("#feed > li.kind-roll").first).to_contain_text("Bran")


def test_a_roll_pressed_while_its_button_is_drawn_again_is_sent(new_context, live_server, dice):
    """The same press when the form's button is drawn anew under the pointer (a redraw of the panel
    holding it, by an answer rather than the live feed, which waits for the release): the new copy
    is pressed."""
    page = new_context().new_page()
    nia_rolls_dexterity(page, live_server, "Nantes by Night")
    page.locator("#roll [name=ability]").select_option("melee")
    expect(page.locator("#odds .headline")).to_be_visible()
    button = page.locator("#roll-submit")
    press(page, button)
    button.evaluate("b => b.replaceWith(b.cloneNode(true))")  # as an outerHTML swap draws it
    dice.queue(6, 8, 9)
    page.mouse.up()
    expect(page.locator("#feed > li.kind-roll")).to_have_count(1)


def test_a_roll_sent_while_the_odds_are_still_asked_is_not_dropped(new_context, live_server, dice):
    """The odds boxes ask on their own elements (hx-sync on each, not on the form): a roll sent while
    their request is in flight is sent, never dropped or queued behind them."""
    page = new_context().new_page()
    nia_rolls_dexterity(page, live_server, "Arles by Night")
    expect(page.locator("#odds .headline")).to_be_visible()

    held = hold_the_odds(page)
    page.locator("#roll [name=ability]").select_option("melee")
    wait_until(lambda: held or page.evaluate("0"), what="the odds asked of the last choice")
    dice.queue(6, 8, 9, 2, 3)
    page.locator("#roll-submit").click()
    expect(page.locator("#feed > li.kind-roll")).to_have_count(1)  # while the odds still wait
    release(page, held)
