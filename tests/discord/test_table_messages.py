"""What the table sees on Discord, on both stores: the advised Willpower reroll's button rerolls
exactly the dice it names (V5-8), each entry is posted to the channel once, a revealed hidden roll
reaches the channel, ``/odds`` answers the roll's own request's odds, a removed member's dice are
never posted publicly, and ``/roll specialty:`` reads the sheet's specialties."""

from __future__ import annotations

import pytest

from tests.discord.helpers import ANNA, faces, seated
from tests.discord.signing import command, component, option
from tests.server.conftest import BACKENDS, V5_SHEET

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def _buttons(answer: dict) -> list[str]:
    return [
        c["custom_id"]
        for row in answer["data"].get("components", [])
        for c in row["components"]
        if c.get("type") == 2
    ]


@pytest.mark.parametrize(
    "normal, advised",
    [([6, 6, 6, 6, 1], [4]), ([6, 6, 6, 1, 2], [3, 4]), ([6, 6, 1, 2, 3], [2, 3, 4])],
    ids=["one", "two", "three"],
)
def test_V5_8_the_advised_reroll_button_rerolls_exactly_the_dice_it_names(
    app, make_table, discord, normal, advised
):
    # standing difficulty 6: five successes of six, one short, so a reroll is advised
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA, difficulty=6)
    table.character(anna, dict(V5_SHEET))  # Dexterity 3 + Firearms 3, Hunger 1: five normal dice
    with faces(app, *normal, 6, *[10] * len(advised)):
        answer = discord.ok(
            command(
                "roll",
                [option("trait", "dexterity"), option("trait2", "firearms")],
                user_id=ANNA,
                channel=channel,
            )
        )
        [reroll] = [c for c in _buttons(answer) if c.startswith("rb:rr:")]
        seq = answer["data"]["embeds"][0]["footer"]["text"].split()[0].lstrip("#")
        assert reroll == f"rb:rr:{seq}:" + ".".join(map(str, advised))
        pressed = discord.ok(component(reroll, user_id=ANNA, channel=channel))
    assert pressed["type"] == 4 and pressed["data"].get("embeds"), pressed
    last = table.log()["entries"][-1]
    assert last["kind"] == "reroll" or last["receipt"].get("rerolls"), last
    rerolls = last["receipt"]["rerolls"]
    assert rerolls[-1]["dice"] == advised and rerolls[-1]["faces"] == [10] * len(advised)
