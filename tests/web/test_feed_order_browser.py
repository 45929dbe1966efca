"""The live feed shows the log in order, in Chromium: the Storyteller's first
roll commits the chronicle's fair seed in the same transaction, so the seed's commitment (seq N-1)
comes over the live feed after the roll's own answer (seq N) is on the page; each card goes to its
place by its seq, newest on top, whatever order they arrive in."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import chronicle_id, create, feed_open, token_of

pytestmark = pytest.mark.browser


def seqs(page) -> list[int]:
    return page.eval_on_selector_all("#feed > li.card", "cards => cards.map(c => Number(c.dataset.seq))")


def test_cards_are_in_seq_order_whatever_order_they_arrive_in(new_context, dice):
    dice.clear()  # the server's own fair dice: the first roll commits a seed
    context = new_context()
    # The last entry id the live feed brought (what the page has been told; table.js may drop a copy).
    context.add_init_script("""document.addEventListener('htmx:sseBeforeMessage', e => {
        const id = Number(e.detail && e.detail.lastEventId) || 0;
        window.lastEventId = Math.max(window.lastEventId || 0, id); });""")
    page = context.new_page()
    create(page, "en", "v5", "In order")
    feed_open(page)
    for pool in ("3", "4"):
        page.locator("#quick-pool").fill(pool)
        page.locator("#quick button[type=submit]").click()
        expect(page.locator("#feed > li.card.kind-quick_roll", has_text=f"pool of {pool}")).to_have_count(1)
    expect(page.locator("#feed > li.card.kind-seed_commit")).to_have_count(1)
    head = page.request.get(
        f"/api/chronicles/{chronicle_id(page)}", headers={"Authorization": f"Bearer {token_of(page)}"}
    ).json()["log_head"]["seq"]
    page.wait_for_function(f"() => window.lastEventId >= {head}")  # the feed has said all the log holds
    shown = seqs(page)
    assert shown == sorted(shown, reverse=True) and len(shown) == len(set(shown)) and len(shown) >= 3, shown

    # Whatever arrives late goes to its place: the oldest card put on top, as a late event would be.
    page.evaluate("""() => {
        const feed = document.getElementById('feed');
        feed.insertBefore(feed.lastElementChild, feed.firstElementChild);
        feed.dispatchEvent(new CustomEvent('htmx:sseMessage', {bubbles: true, detail: {type: 'entry'}}));
    }""")
    assert seqs(page) == shown
    # and after a reload, the page shows the same order
    page.reload()
    assert seqs(page) == shown


def test_an_entry_that_arrives_twice_is_never_shown_twice(new_context, dice):
    """Our own answer can land after the same entry came over the live feed: the second copy goes in
    the same task as the swap, so not even a glance at the page finds the entry twice."""
    page = new_context().new_page()
    create(page, "en", "v5", "Once")
    page.locator("#quick-pool").fill("3")
    page.locator("#quick button[type=submit]").click()
    card = page.locator("#feed > li.card.kind-quick_roll")
    expect(card).to_have_count(1)
    copies = page.evaluate("""() => {
        const card = document.querySelector('#feed > li.card.kind-quick_roll');
        htmx.swap(document.getElementById('feed'), card.outerHTML, {swapStyle: 'afterbegin', settleDelay: 20});
        return document.querySelectorAll('#' + CSS.escape(card.id)).length;  // before htmx settles
    }""")
    assert copies == 1
