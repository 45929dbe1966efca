"""In Chromium, three people at the table: when a player's
link drops, the LIVE badge says so, pressing Roll says nothing was sent (no silent nothing); when the
link comes back the badge is live again, the receipts missed meanwhile arrive, and pressing Roll again
rolls once (the form's Idempotency-Key)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import add_character, chronicle_id, create_chronicle, feed_open, join, token_of, wait_for_odds

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def test_a_lost_connection_is_visible_and_a_retry_rolls_once(new_context, live_server, dice):
    storyteller = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Offline by Night", system="v20", storyteller="Ana")
    player = new_context(width=390, height=844).new_page()
    other = new_context().new_page()
    join(player, invitation=invitation, name="Bruno")
    join(other, invitation=invitation, name="Carla")
    sheet = add_character(
        player, name="Lucita", ratings={"s.attributes.dexterity": "3", "s.skills.firearms": "2"}
    )
    add_character(
        storyteller, name="Sheriff", ratings={"s.attributes.dexterity": "2", "s.skills.firearms": "2"}
    )
    npc_sheet = storyteller.url
    other.reload()
    player.goto(sheet)
    feed_open(player)
    feed_open(other)
    badge = player.locator(".feed-panel .live")
    expect(badge).to_have_attribute("data-state", "live")

    # The link drops: the badge says so, and a press on Roll says that nothing was sent.
    player.context.set_offline(True)
    expect(badge).to_have_attribute("data-state", "offline", timeout=LIVE)
    expect(badge).to_have_text("offline")
    player.get_by_label("Attribute", exact=True).select_option("dexterity")
    player.get_by_label("Ability", exact=True).select_option("firearms")
    player.locator("#roll-submit").click()
    expect(player.locator("#roll-alert")).to_contain_text("No connection: nothing was sent")
    expect(player.locator("#feed > li.kind-roll")).to_have_count(0)

    # Meanwhile the Storyteller rolls: the other player sees it live, the offline one does not.
    dice.queue(8, 7, 3, 2)
    storyteller.goto(npc_sheet)
    storyteller.get_by_label("Attribute", exact=True).select_option("dexterity")
    storyteller.get_by_label("Ability", exact=True).select_option("firearms")
    wait_for_odds(storyteller, "4 dice")
    storyteller.locator("#roll-submit").click()
    expect(other.locator("#feed > li.kind-roll")).to_have_count(1, timeout=LIVE)
    expect(storyteller.locator("#feed > li.kind-roll")).to_have_count(1)
    expect(player.locator("#feed > li.kind-roll")).to_have_count(0)

    # The link comes back: the badge is live again, the missed receipt arrives, one press rolls once.
    player.context.set_offline(False)
    expect(badge).to_have_attribute("data-state", "live", timeout=LIVE)
    expect(player.locator("#feed > li.kind-roll")).to_have_count(1, timeout=LIVE)
    expect(player.locator("#feed > li.kind-roll").first).to_contain_text("Sheriff")

    # The link drops between the server's answer and the phone: the roll was made, the phone is told
    # the answer was lost; pressing again rolls nothing more (the same Idempotency-Key), the one
    # receipt shows.
    dice.queue(9, 9, 4, 3, 1)
    reached = []

    def lose_the_answer(route):
        reached.append(route.fetch().status)
        route.abort("connectionreset")

    player.route("**/characters/*/rolls", lose_the_answer)
    player.locator("#roll-submit").click()
    expect(player.locator("#roll-alert")).to_contain_text("The connection was lost before the answer")
    assert reached == [200]
    player.unroute("**/characters/*/rolls")
    player.locator("#roll-submit").click()
    expect(player.locator("#roll-alert .connection-lost")).to_have_count(0)
    expect(player.locator("#feed > li.kind-roll")).to_have_count(2, timeout=LIVE)
    expect(other.locator("#feed > li.kind-roll")).to_have_count(2, timeout=LIVE)
    log = player.request.get(
        f"/api/chronicles/{chronicle_id(player)}/log?limit=500",
        headers={"Authorization": f"Bearer {token_of(player)}"},
    ).json()
    assert sum(1 for e in log["entries"] if e["kind"] == "roll") == 2  # the Sheriff's and Lucita's one
