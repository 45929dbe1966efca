"""A fifth, toy system (``tests/toy_system``) registered from outside the package, on Discord's
endpoint: a chronicle of it is bound to a channel, a player's ``/roll`` of the sheet's trait rolls the
toy's pool, and its receipt checks out; the commands derive from the registry (``/chronicle new``
offers the toy, ``/roll`` and ``/ask`` take its edge), and its edge is asked and granted (A-1)."""

from __future__ import annotations

import pytest

from rollbook.discord.commands import command_definitions
from rollbook.play import verify_receipt
from tests.discord.helpers import ANNA, ST, seated
from tests.discord.signing import command, component, option
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
    # its card's title is its own word for a pool (its words' ``KINDS``), in the reader's language
    assert answer["data"]["embeds"][0]["title"] == "Dice"
    french = discord.ok(
        command("roll", [option("trait", "might")], user_id=ANNA, channel=channel, locale="fr")
    )
    assert french["data"]["embeds"][0]["title"] == "Dés"


def _options(definitions: list[dict], *path: str) -> dict[str, dict]:
    """The options of a command (or of its subcommand), by name."""
    found = {definition["name"]: definition for definition in definitions}[path[0]]
    for name in path[1:]:
        found = {sub["name"]: sub for sub in found["options"]}[name]
    return {option["name"]: option for option in found["options"]}


def _custom_ids(data: dict) -> list[str]:
    return [c["custom_id"] for row in data.get("components", []) for c in row["components"]]


def test_the_commands_offer_the_toy_and_its_edge_while_it_is_registered(toy):
    """Derived from the registry (``play.systems``): ``/chronicle new`` offers the toy by its short name
    (``toy.WORDS.SHORT_NAME``), ``/roll`` and ``/ask`` take its edge (``EDGE_FIELDS``: ``extra``, an
    integer within its model's bounds); unregistered, neither is there."""
    definitions = command_definitions()
    choices = _options(definitions, "chronicle", "new")["system"]["choices"]
    assert {"name": "Toy", "value": toy} in choices
    assert [c["value"] for c in choices][:4] == ["v20", "v5", "tiers", "rollunder"]  # the shipped first
    for name in ("roll", "ask"):
        extra = _options(definitions, name)["extra"]
        assert (extra["type"], extra["min_value"], extra["max_value"]) == (4, 0, 10), extra
        assert len(_options(definitions, name)) <= 25  # Discord's most options a command
    assert "trait" in _options(definitions, "roll")  # the toy's trait is the package's option
    # the quick roll without a chronicle is the shipped systems' (``play.quick``): not the toy's
    assert toy not in [c["value"] for c in _options(definitions, "roll")["system"]["choices"]]


def test_the_commands_without_the_toy_name_neither_it_nor_its_edge():
    definitions = command_definitions()
    assert "toy" not in [c["value"] for c in _options(definitions, "chronicle", "new")["system"]["choices"]]
    assert "extra" not in _options(definitions, "roll") and "extra" not in _options(definitions, "ask")


def test_a_toy_chronicle_made_on_discord(discord, toy):
    """``/chronicle new`` with the toy's choice makes a toy chronicle, its maker its Storyteller."""
    made = discord.ok(
        command(
            "chronicle",
            [{"name": "new", "type": 1, "options": [option("name", "Pools"), option("system", toy)]}],
            user_id=ST,
            channel="5200000000000009001",
        )
    )
    assert made["data"]["flags"] == 64 and "Pools" in made["data"]["content"], made


def test_the_toys_edge_is_asked_on_discord_then_granted(make_table, discord, toy):
    """A-1 on Discord, for an edge only the toy declares: a player's ``/roll`` with ``extra`` is refused
    (pointed to ``/ask``, nothing logged); ``/ask`` with it makes an ask, the Storyteller's button grants
    it, and the roll is the asked one (3 dice of Might and 2 extra)."""
    table, channel, (anna,) = seated(make_table, discord, toy, ANNA)
    table.character(anna, {"system": toy, "name": "Ann", "traits": {"might": 3}})
    asked_for = [option("trait", "might"), option("extra", 2, 4)]
    before = len(table.log()["entries"])
    refused = discord.ok(command("roll", asked_for, user_id=ANNA, channel=channel))
    assert refused["data"]["flags"] == 64 and "/ask" in refused["data"]["content"], refused
    assert len(table.log()["entries"]) == before

    asked = discord.ok(command("ask", asked_for, user_id=ANNA, channel=channel))
    [grant] = [c for c in _custom_ids(asked["data"]) if c.startswith("rb:g:")]
    [pending] = table.client.get(f"{table.base}/asks", headers=table.st).json()["asks"]
    assert pending["status"] == "pending" and pending["asked"] == {"extra": 2}, pending
    assert not [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]

    granted = discord.ok(component(grant, user_id=ST, channel=channel))
    assert granted["data"].get("embeds"), granted
    [roll] = [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
    assert roll["receipt"]["system"] == toy and len(roll["receipt"]["faces"]) == 5
    assert verify_receipt(roll["receipt"]) == []
