"""The web feed's cards of a batch are drawn from one read for every viewer (``web.live``): each
viewer's card, in their language, is the card ``table.live_item`` draws from that viewer's own
reads (the per-feed path it replaces), for the Storyteller and a player, on a sheet's page too."""

from __future__ import annotations

import re

import pytest

from rollbook.server.auth import authenticate
from rollbook.server.events import Batch
from rollbook.server.usecases import feeds as feed_reads
from rollbook.web import live

from .conftest import V20_SHEET, V20_TEST

FORM_KEY = re.compile(
    r'(name="idempotency_key"[^>]*value=")[^"]*"|(value=")[^"]*("[^>]*name="idempotency_key")'
)


def _keyless(html: str) -> str:
    """Every drawn form has its own fresh idempotency key (``web.once``): not part of the card."""
    return FORM_KEY.sub(lambda m: (m.group(1) or m.group(2)) + 'KEY"' + (m.group(3) or "")[1:], html)


def _member(app, headers: dict):
    with app.state.db.read() as session:
        return authenticate(session, headers["Authorization"].removeprefix("Bearer "))


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_batch_card_is_the_card_each_viewer_would_read_alone(app, client, make_table, lang):
    table = make_table("v20")
    player = table.join("Ann")
    character = table.character(player, V20_SHEET)
    table.roll(player, character["id"], V20_TEST)
    table.roll(table.st, character["id"], {**V20_TEST, "difficulty": 7})
    db = app.state.db
    with db.read() as session:
        rows, revealed = feed_reads.new_entries(session.connection(), table.id, 0, 50)
    batch = Batch(rows, revealed)
    with db.read() as session:
        context = feed_reads.table_context(session, table.id, [row.seq for row in rows])
    for headers in (table.st, player):
        member = _member(app, headers)
        for entry in batch.entries(member):
            if live.redraws_more(entry.view):
                continue
            for character_id in (None, character["id"]):
                alone = live.card_html(None, db, member, lang, entry.view, character_id)
                shared = live.shared_html(None, context, member, lang, entry.view, character_id)
                assert _keyless(shared) == _keyless(alone), (member.role, entry.view["kind"], character_id)
