"""A fifth, toy system (``tests/toy_system``) registered from outside the package, on Discord's
endpoint: a chronicle of it is bound to a channel, a player's ``/roll`` of the sheet's trait rolls the
toy's pool, and its receipt checks out."""

from __future__ import annotations

import pytest

from rollbook.play import verify_receipt
from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command, option
from tests.toy_system import registered


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def test_a_toy_roll_on_discord(make_table, discord, toy):
    table, channel, (anna,) = seated(make_table, discord, toy, ANNA)
    table.character(anna, {"system": toy, "name": "Ann", "traits": {"might": 3}})
    answer = discord.ok(command("roll", [option("trait", "might")], user_id=ANNA, channel=channel))
    rolls = [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
    assert rolls, answer
    receipt = rolls[-1]["receipt"]
    assert receipt["system"] == toy and len(receipt["faces"]) == 3
    assert verify_receipt(receipt) == []
    embed = answer["data"]["embeds"][0]
    assert embed["footer"]["text"].startswith(f"#{rolls[-1]['seq']}")  # the roll's card, public

    # A-1 on Discord: a hidden roll is the Storyteller's edge; the player's is refused, nothing logged.
    before = len(table.log()["entries"])
    refused = discord.ok(
        command("roll", [option("trait", "might"), option("hidden", True, 5)], user_id=ANNA, channel=channel)
    )
    assert refused["data"]["flags"] == 64 and "embeds" not in refused["data"]
    assert len(table.log()["entries"]) == before


def test_the_toy_card_speaks_the_toys_words(make_table, discord, toy):
    """The words the toy declares (``toy.WORDS``, registered with its play module) on its card: its
    pool counted in dice, not roll-under's target (the words of a system that declares none)."""
    table, channel, (anna,) = seated(make_table, discord, toy, ANNA)
    table.character(anna, {"system": toy, "name": "Ann", "traits": {"might": 3}})
    answer = discord.ok(command("roll", [option("trait", "might")], user_id=ANNA, channel=channel))
    description = answer["data"]["embeds"][0]["description"]
    assert "Might 3 = 3 dice" in description and "target" not in description
