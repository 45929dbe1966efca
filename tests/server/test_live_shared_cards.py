"""The web feeds' cards of a batch are drawn once per seat (``web.live.Sitting``): feeds whose viewers
see the same card share one drawing, feeds whose viewers must see different cards never do, and
every feed's card is the card ``table.live_item`` draws for that viewer alone (the page's card).

Viewers at a V20 table: the Storyteller, Ann (Lucita's owner), Bob (Bruno's owner), and Cid and Dee
(no character): an attack's dodge offered only to the owners of a possible defender (V20-20, its
form keyed per feed, ``web.once``), a hidden roll redacted for every player (F-7), a sheet's page
drawing the resources of its character for whoever may open it (V: ``access.may_open``)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.server.auth import authenticate
from rollbook.server.events import Batch
from rollbook.server.usecases import feeds as feed_reads
from rollbook.web import live

from .conftest import V20_SHEET, V20_TEST, Table, in_a_loop
from .receipts import Dice

FORM_KEY = re.compile(r'name="idempotency_key" value="([^"]*)"')
# a V20 virtue roll: no attack, so no next step (no defence offered to anyone)
COURAGE = {"kind": "virtue", "virtue": "courage"}


@pytest.fixture(scope="module")
def dice() -> Dice:
    """The faces pushed are drawn first (an attack that hits), then a deterministic stream."""
    return Dice("shared cards")


@pytest.fixture(scope="module")
def app(database_url, dice):
    with TestClient(create_app(database_url, dice=dice)) as client:
        yield client.app


@pytest.fixture()
def make_table(app):
    client = TestClient(app)

    def make(system: str) -> Table:
        response = client.post("/api/chronicles", json={"name": "Shared cards", "system": system})
        assert response.status_code == 201, response.text
        return Table(client, response.json())

    return make


def _keyless(html: str) -> str:
    """Every drawn form has its own fresh idempotency key (``web.once``): not part of the card."""
    return FORM_KEY.sub('name="idempotency_key" value="KEY"', html)


def _member(app, headers: dict):
    with app.state.db.read() as session:
        return authenticate(session, headers["Authorization"].removeprefix("Bearer "))


def _seated(make_table):
    table = make_table("v20")
    ann, bob, cid, dee = (table.join(name) for name in ("Ann", "Bob", "Cid", "Dee"))
    lucita = table.character(ann, {**V20_SHEET, "name": "Lucita"})
    bruno = table.character(bob, {**V20_SHEET, "name": "Bruno"})
    return table, {"st": table.st, "ann": ann, "bob": bob, "cid": cid, "dee": dee}, lucita, bruno


def _head(table) -> int:
    entries = table.log()["entries"]
    return entries[-1]["seq"] if entries else 0


def _batch(app, table, after: int) -> Batch:
    with app.state.db.read() as session:
        rows, revealed = feed_reads.new_entries(session.connection(), table.id, after, 50)
    return Batch(rows, revealed)


def _draw(app, batch: Batch, asks: list[tuple]) -> tuple[live.Sitting, list[str]]:
    """Every ask (member, lang, character page) as a feed asks: together, in one turn of the loop."""
    sitting = live.Sitting(app.state.db, batch)

    async def all_of():
        import asyncio

        return await asyncio.gather(
            *(
                sitting.card(None, member, lang, batch.entries(member)[-1], page)
                for member, lang, page in asks
            )
        )

    return sitting, in_a_loop(all_of())


def _alone(app, batch: Batch, member, lang: str, page) -> str:
    return live.card_html(None, app.state.db, member, lang, batch.entries(member)[-1].view, page)


def test_viewers_who_see_one_card_share_its_drawing(app, make_table):
    table, people, lucita, _ = _seated(make_table)
    after = _head(table)
    rolled = table.roll(people["ann"], lucita["id"], COURAGE)
    assert rolled.status_code == 201, rolled.text
    batch = _batch(app, table, after)
    members = {name: _member(app, headers) for name, headers in people.items()}
    assert not live.reads_every_owner("v20", batch.entries(members["cid"])[-1].view)
    asks = [(m, "en", None) for m in members.values()] + [(members["bob"], "en", None)]  # Bob: two tabs
    sitting, cards = _draw(app, batch, asks)
    for (member, lang, page), html in zip(asks, cards, strict=True):
        assert html == _alone(app, batch, member, lang, page), member.name
    # the Storyteller; Ann, who may act for the roll's character; Bob (twice), Cid and Dee alike
    assert sitting.items == 3 and sitting.renders == 3
    assert cards[2] == cards[3] == cards[4] == cards[5]
    assert sitting.calls == 1  # one thread-pool call for the turn's six feeds, with the batch's one read


def test_an_attack_offers_the_dodge_to_a_defenders_owner_only(app, make_table, dice):
    table, people, lucita, bruno = _seated(make_table)
    after = _head(table)
    dice.push(10, 10, 10, 10, 10)  # five successes: a hit, which a defender may dodge
    rolled = table.roll(people["ann"], lucita["id"], V20_TEST)  # V20-20: Dexterity + Firearms, an attack
    assert rolled.status_code == 201, rolled.text
    batch = _batch(app, table, after)
    members = {name: _member(app, headers) for name, headers in people.items()}
    assert live.reads_every_owner("v20", batch.entries(members["cid"])[-1].view)
    asks = [(m, "en", None) for m in members.values()] + [(members["bob"], "en", None)]
    sitting, cards = _draw(app, batch, asks)
    by = dict(zip([m.name for m, _, _ in asks[:5]], cards[:5], strict=True))
    for (member, lang, page), html in zip(asks, cards, strict=True):
        assert _keyless(html) == _keyless(_alone(app, batch, member, lang, page)), member.name
    dodge = 'value="dodge"'
    assert dodge in by["Bob"] and f'value="{bruno["id"]}"' in by["Bob"]  # Bruno may dodge, Bob chooses
    assert dodge not in by["Ann"] and dodge not in by["Cid"] and dodge not in by["Dee"]
    assert dodge in cards[0]  # the Storyteller acts for every defender
    assert by["Cid"] == by["Dee"] and by["Bob"] != by["Cid"]
    # the Storyteller, Ann (the damage), Bob (the dodge), Cid and Dee (nothing): four items; a card
    # with a form is rendered for each feed, each form with its own key (Bob's two tabs too): five
    assert sitting.items == 4 and sitting.renders == 5
    keys = [key for html in cards for key in FORM_KEY.findall(html)]
    assert keys and len(keys) == len(set(keys))


def test_a_hidden_roll_is_one_redacted_card_for_every_player(app, make_table):
    table, people, lucita, _ = _seated(make_table)
    after = _head(table)
    rolled = table.roll(table.st, lucita["id"], COURAGE, hidden=True)
    assert rolled.status_code == 201, rolled.text
    batch = _batch(app, table, after)
    members = {name: _member(app, headers) for name, headers in people.items()}
    asks = [(m, "en", None) for m in members.values()]
    sitting, cards = _draw(app, batch, asks)
    for (member, lang, page), html in zip(asks, cards, strict=True):
        assert html == _alone(app, batch, member, lang, page), member.name
    assert "Only the Storyteller sees this roll" not in cards[0]
    assert all("Only the Storyteller sees this roll" in html for html in cards[1:])
    assert len(set(cards[1:])) == 1 and cards[0] != cards[1]
    assert sitting.items == 2  # the Storyteller's, the players' one


def test_a_sheet_page_and_a_language_are_seats_of_their_own(app, make_table):
    table, people, lucita, _ = _seated(make_table)
    after = _head(table)
    rolled = table.roll(people["ann"], lucita["id"], COURAGE)
    assert rolled.status_code == 201, rolled.text
    batch = _batch(app, table, after)
    ann, bob, st = (_member(app, people[name]) for name in ("ann", "bob", "st"))
    asks = [
        (ann, "en", None),
        (ann, "en", lucita["id"]),  # her sheet's page: its resources redrawn
        (ann, "fr", lucita["id"]),
        (st, "en", lucita["id"]),
        (bob, "en", lucita["id"]),  # a page whose sheet he may not open: no resources
        (bob, "en", None),
    ]
    sitting, cards = _draw(app, batch, asks)
    for (member, lang, page), html in zip(asks, cards, strict=True):
        assert html == _alone(app, batch, member, lang, page), (member.name, lang, page)
    assert sitting.items == len(asks)  # (two seats may draw alike: the seat says what the card reads)
    resources = 'id="resources'
    assert resources not in cards[0] and resources in cards[1] and resources in cards[3]
    assert resources not in cards[4]
    assert cards[1] != cards[2]  # in French


def test_feeds_asking_in_later_turns_reuse_what_was_drawn(app, make_table):
    table, people, lucita, _ = _seated(make_table)
    after = _head(table)
    assert table.roll(people["ann"], lucita["id"], COURAGE).status_code == 201
    batch = _batch(app, table, after)
    cid, dee = _member(app, people["cid"]), _member(app, people["dee"])
    sitting = live.Sitting(app.state.db, batch)

    async def one_then_the_other():
        first = await sitting.card(None, cid, "en", batch.entries(cid)[-1], None)
        second = await sitting.card(None, dee, "en", batch.entries(dee)[-1], None)
        return first, second

    first, second = in_a_loop(one_then_the_other())
    assert first == second == _alone(app, batch, dee, "en", None)
    assert sitting.calls == 2 and sitting.items == 1 and sitting.renders == 1


def test_a_card_that_fails_ends_its_own_feed_alone(app, make_table, monkeypatch):
    table, people, lucita, _ = _seated(make_table)
    after = _head(table)
    assert table.roll(people["ann"], lucita["id"], COURAGE).status_code == 201
    batch = _batch(app, table, after)
    st, ann = _member(app, people["st"]), _member(app, people["ann"])
    drawn = live.shared_item

    def failing(context, member, lang, entry, character_id):
        if member.id == ann.id:
            raise RuntimeError("a drawing that fails")
        return drawn(context, member, lang, entry, character_id)

    monkeypatch.setattr(live, "shared_item", failing)
    sitting = live.Sitting(app.state.db, batch)

    async def both():
        import asyncio

        return await asyncio.gather(
            *(sitting.card(None, m, "en", batch.entries(m)[-1], None) for m in (ann, st)),
            return_exceptions=True,
        )

    failed, card = in_a_loop(both())
    assert isinstance(failed, RuntimeError) and sitting.calls == 1
    monkeypatch.setattr(live, "shared_item", drawn)
    assert card == _alone(app, batch, st, "en", None)
