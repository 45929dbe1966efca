"""The pages fit their Content-Security-Policy: Chromium at the table (the home page, a chronicle,
a sheet with its odds bars, a roll reaching another page live, the dice statistics, the solo page)
reports no policy violation, neither as a ``securitypolicyviolation`` event nor on the console,
while the pages work as usual (htmx swaps, the live feed, the bars drawn at their length)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import add_character, chronicle_id, create_chronicle, join, wait_for_odds

pytestmark = pytest.mark.browser

WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sourceFile || '') + ':' + e.lineNumber);
});
"""


def _watched(context):
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text)
            if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text
            else None
        ),
    )
    return page, console


def _violations(page, console: list[str]) -> list[str]:
    return [*page.evaluate("window.__csp || []"), *console]


def test_the_pages_run_under_their_content_security_policy_with_no_violation(new_context, dice):
    storyteller, st_console = _watched(new_context())
    player, player_console = _watched(new_context())

    invitation = create_chronicle(
        storyteller, name="Strict Nights", system="v5", storyteller="Ana", difficulty="3"
    )
    assert (
        "frame-ancestors 'none'" in (storyteller.context.request.get("/").headers["content-security-policy"])
    )
    join(player, invitation=invitation, name="Bruno")
    add_character(
        player,
        name="Nadia Verne",
        ratings={"s.attributes.dexterity": "3", "s.skills.firearms": "2", "s.hunger": "1"},
    )
    storyteller.reload()
    expect(storyteller.get_by_role("link", name="Nadia Verne")).to_be_visible()

    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Skill", exact=True).select_option("firearms")
    player.get_by_label("Difficulty", exact=True).fill("3")
    wait_for_odds(player, "Chance to win")
    bars = player.locator("#odds .bars .bar > span")  # their lengths are classes, not style attributes
    expect(bars.first).to_be_attached()
    # drawn with a length once the page's stylesheet has laid them out (waited for, not read at once)
    player.wait_for_function(
        "() => [...document.querySelectorAll('#odds .bars .bar > span')]"
        ".some(e => e.getBoundingClientRect().width > 0)"
    )

    dice.clear()
    dice.queue(10, 7, 3, 2, 10)  # normal 10, 7, 3, 2; Hunger 10: a Messy Critical
    player.get_by_role("button", name="Roll", exact=True).click()
    expect(player.locator("#feed > li").first.locator(".outcome")).to_have_text("Messy Critical")
    expect(storyteller.locator("#feed > li").first.locator(".outcome")).to_have_text(
        "Messy Critical"
    )  # the live feed (server-sent events) is a connection the policy allows

    storyteller.goto(f"/chronicles/{chronicle_id(storyteller)}/fair/stats")
    expect(storyteller.locator(".bar-cell").first).to_be_visible()
    storyteller.goto("/solo")
    expect(storyteller.locator("h1")).to_be_visible()

    assert _violations(storyteller, st_console) == []
    assert _violations(player, player_console) == []
