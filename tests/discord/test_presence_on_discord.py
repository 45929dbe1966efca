"""A player who plays on Discord only is "at the table" on the web's panel while they act there
(``usecases.presence.DISCORD_FRESH``), on both stores."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import update

from rollbook.server import tx
from rollbook.server.models import Presence
from rollbook.server.usecases import presence
from tests.discord.helpers import ANNA, faces, seated
from tests.discord.signing import command, option
from tests.server.conftest import BACKENDS, V5_SHEET

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def _online(client, table) -> set[str]:
    page = client.get(f"/chronicles/{table.id}/people?lang=en", headers=table.st)
    assert page.status_code == 200, page.text
    return set(
        re.findall(r'<li data-member="\d+" data-online="1">.*?<span class="person">([^<]+)<', page.text)
    )


def test_a_discord_only_player_is_at_the_table_while_active_there(app, client, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA, difficulty=6)
    table.character(anna, V5_SHEET)
    with faces(app, 6, 6, 6, 1, 2, 6):
        rolled = command(
            "roll",
            [option("trait", "dexterity"), option("trait2", "firearms")],
            user_id=ANNA,
            channel=channel,
        )
        discord.ok(rolled)
    assert "U02" in _online(client, table)  # ANNA's name when she joined through Discord

    def age(session):  # the roll was long ago: no longer at the table
        old = (datetime.now(UTC) - presence.DISCORD_FRESH).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        session.execute(update(Presence).where(Presence.process == presence.DISCORD).values(seen_at=old))

    tx.run(app.state.db, age)
    assert "U02" not in _online(client, table)
