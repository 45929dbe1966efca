"""What the Discord tests share (a helper module, not a test module): channels bound through the
store, unique snowflakes, and the seqs the posted messages show (each embed's footer: ``#seq · …``)."""

from __future__ import annotations

import itertools
import re

from rollbook.discord import store
from rollbook.server import auth, tx

_snowflakes = itertools.count(500_000_000_000_000_001)
GUILD = "440000000000000004"


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
