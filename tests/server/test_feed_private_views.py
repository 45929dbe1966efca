"""A batch's views are shared by the feeds that see the entries alike (``events.Batch.view_key``),
never by two players of whom one reads a hidden entry in full: a ``sheet_edit`` is hidden, read by
the Storyteller and by the owner of the character whose sheet it shows, redacted for every other
player (``views.private_reader``), whichever of the players' feeds takes the batch first."""

from __future__ import annotations

import pytest

from rollbook.server.auth import authenticate
from rollbook.server.events import Batch
from rollbook.server.usecases import characters
from rollbook.server.usecases import feeds as feed_reads
from rollbook.server.views import entry_view

from .conftest import V5_SHEET
from .helpers import as_member


def _member(app, headers: dict):
    with app.state.db.read() as session:
        return authenticate(session, headers["Authorization"].removeprefix("Bearer "))


@pytest.mark.parametrize("first", ["owner", "other"])
def test_a_hidden_sheet_edit_is_read_by_its_owner_alone_whoever_takes_the_batch_first(app, make_table, first):
    table = make_table("v5")
    ann, bob = table.join("Ann"), table.join("Bob")
    made = table.character(ann, V5_SHEET)
    logged = table.log()["entries"]
    after = logged[-1]["seq"] if logged else 0
    drawn = table.sheet(ann, made["id"])["sheet"]
    as_member(
        app,
        ann,
        lambda s, m: characters.edit_character(s, m, made["id"], patch={"concept": "Sniper"}, base=drawn),
    )
    with app.state.db.read() as session:
        rows, revealed = feed_reads.new_entries(session.connection(), table.id, after, 50)
    assert [row.kind for row in rows] == ["sheet_edit"]
    batch = Batch(rows, revealed)
    owner, other, storyteller = _member(app, ann), _member(app, bob), _member(app, table.st)
    order = [owner, other] if first == "owner" else [other, owner]
    views = {member.id: batch.entries(member)[0] for member in [*order, storyteller]}
    for member in (owner, other, storyteller):
        assert views[member.id].view == entry_view(rows[0], member, revealed), member.name
    assert views[owner.id].view["receipt"]["changes"] == [
        {"field": "concept", "before": "", "after": "Sniper"}
    ]
    assert views[other.id].view.get("redacted") is True and views[other.id].view["receipt"] is None
    assert '"Sniper"' not in views[other.id].json
    assert batch.view_key(owner) != batch.view_key(other)
    assert batch.view_key(other) == batch.view_key(_member(app, table.join("Cid")))  # alike: one view
