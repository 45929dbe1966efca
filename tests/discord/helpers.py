"""What the Discord tests share (a helper module, not a test module): channels bound through the
store, unique snowflakes, and the seqs the posted messages show (each embed's footer: ``#seq · …``)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager

from rollbook.dice import GivenFaces
from rollbook.discord import store
from rollbook.server import auth, tx
from tests.discord.signing import command, option

_snowflakes = itertools.count(500_000_000_000_000_001)
GUILD = "440000000000000004"
ST, ANNA, BRUNO = "5100000000000000001", "5100000000000000002", "5100000000000000003"
_channels = iter(range(5200000000000000001, 5200000000000000999))


def snowflake() -> str:
    return str(next(_snowflakes))


def bind(app, table, channel_id: str | None = None) -> store.Channel:
    """The table's Storyteller binds a new channel (or ``channel_id``) to their chronicle."""
    channel_id = channel_id or snowflake()
    token = table.st["Authorization"].split(" ", 1)[1]

    def work(session):
        storyteller = auth.authenticate(session, token)
        return store.bind_channel(session, GUILD, channel_id, storyteller)

    return tx.run(app.state.db, work)


def cursor(app, channel: store.Channel) -> int:
    with app.state.db.read() as session:
        [found] = [row for row in store.channels_of(session, channel.chronicle_id) if row.id == channel.id]
        return found.last_posted


def posted_seqs(messages: list[dict]) -> list[int]:
    """The seq of each message's first embed, as its footer shows it."""
    seqs = []
    for message in messages:
        found = re.match(r"#(\d+) ", message["embeds"][0]["footer"]["text"])
        seqs.append(int(found.group(1)))
    return seqs


def public_seqs(table, after: int = 0) -> list[int]:
    """The seqs of the log's public entries after ``after`` (as the Storyteller reads the log)."""
    return [
        entry["seq"]
        for entry in table.log()["entries"]
        if entry["seq"] > after and entry["visibility"] != "hidden"
    ]


def webhook_of(discord, channel: store.Channel) -> str:
    """The id of the stand-in's webhook of ``channel`` (the last one made)."""
    return [made["id"] for made in discord.webhooks.values() if made["channel_id"] == channel.channel_id][-1]


def seated(make_table, discord, system: str, *players: str, **fields):
    """A chronicle (made with ``fields``) at a channel of its own: the Storyteller linked by key, the
    channel bound, each player joined through Discord (their web key back)."""
    channel = str(next(_channels))
    table = make_table(system, **fields)
    key = table.st["Authorization"].split()[1]
    discord.ok(command("link", [option("code", key)], user_id=ST, channel=channel))
    discord.ok(
        command("chronicle", [{"name": "bind", "type": 1, "options": []}], user_id=ST, channel=channel)
    )
    keys = []
    for user in players:
        joined = discord.ok(
            command(
                "link",
                [option("code", table.invitation)],
                user_id=user,
                name=f"U{user[-2:]}",
                channel=channel,
            )
        )
        keys.append({"Authorization": "Bearer " + joined["data"]["content"].split("||")[1]})
    return table, channel, keys


@contextmanager
def faces(app, *given: int) -> Iterator[GivenFaces]:
    """The app's dice are ``given`` (one queue for every roll) until the block ends."""
    source = GivenFaces(given)
    previous = app.state.dice
    app.state.dice = lambda: source
    try:
        yield source
    finally:
        app.state.dice = previous
