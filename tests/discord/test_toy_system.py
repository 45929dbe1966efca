"""A fifth, toy system (``tests/toy_system``) registered from outside the package, on Discord's
endpoint: a chronicle of it is bound to a channel, a player's ``/roll`` of the sheet's trait rolls the
toy's pool, and its receipt checks out; the commands derive from the registry (``/chronicle new``
offers the toy, ``/roll``, ``/ask`` and ``/odds`` take its edge, named and described in each language
by the words its field brings), its edge is asked and granted (A-1), and ``/odds`` answers the odds of
the roll's own request (with its edge, under the table rule in force: TR-1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rollbook.discord.commands import LOCALES, command_definitions, valid_name
from rollbook.i18n import translate
from rollbook.odds import odds_for
from rollbook.play import verify_receipt
from rollbook.present.preview import odds_view
from tests.discord.helpers import ANNA, ST, seated
from tests.discord.signing import command, component, option
from tests.toy_system import house, house_registered, registered
from tests.toy_system import toy as toy_module


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
    for name in ("roll", "ask", "odds"):
        extra = _options(definitions, name)["extra"]
        assert (extra["type"], extra["min_value"], extra["max_value"]) == (4, 0, 10), extra
        assert len(_options(definitions, name)) <= 25  # Discord's most options a command
    assert "trait" in _options(definitions, "roll")  # the toy's trait is the package's option
    # the quick roll without a chronicle is the shipped systems' (``play.quick``): not the toy's
    assert toy not in [c["value"] for c in _options(definitions, "roll")["system"]["choices"]]


def test_the_commands_without_the_toy_name_neither_it_nor_its_edge():
    definitions = command_definitions()
    assert "toy" not in [c["value"] for c in _options(definitions, "chronicle", "new")["system"]["choices"]]
    for name in ("roll", "ask", "odds"):
        assert "extra" not in _options(definitions, name)


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


def test_the_toys_derived_option_speaks_its_words_in_french_and_spanish(toy):
    """A derived option is named and described as the web form labels its field (``labels.field``):
    the toy's ``extra`` by its model's title, a msgid of the shipped catalogues ("Dice modifier"), in
    each language; its French and Spanish names made of those words, within Discord's rule, and no
    name twice in a command in any locale."""
    title = toy_module.PoolAction.model_fields["extra"].title
    assert title == "Dice modifier"
    definitions = command_definitions()
    for name in ("roll", "ask", "odds"):
        extra = _options(definitions, name)["extra"]
        assert extra["description"] == "Dice modifier"
        assert extra["description_localizations"] == {
            "fr": "Modificateur de dés",
            "es-ES": "Modificador de dados",
        }
        assert extra["description_localizations"] == {
            locale: translate(title, lang) for locale, lang in LOCALES.items()
        }
        assert extra["name_localizations"] == {"fr": "modificateur_de_dés", "es-ES": "modificador_de_dados"}
        assert all(valid_name(form) for form in extra["name_localizations"].values())
        for locale in LOCALES:
            named = [
                o["name_localizations"].get(locale, o["name"]) for o in _options(definitions, name).values()
            ]
            assert len(named) == len(set(named)), (name, locale)


def _odds_on_discord(discord, discord_api, channel: str, options: list[dict]) -> list[str]:
    """``/odds`` as the player sends it: deferred, its answer the lines of its embed."""
    asked = command("odds", options, user_id=ANNA, channel=channel)
    assert discord.ok(asked) == {"type": 5}
    return discord_api.originals[asked["token"]]["embeds"][0]["description"].splitlines()


def _lines(view) -> list[str]:
    return [view.headline, *[f"{row.label}: **{row.percent}** ({row.fraction})" for row in view.rows]]


def test_the_toys_odds_on_discord_are_the_odds_of_the_rolls_own_request(
    make_table, discord, discord_api, toy
):
    """A-1 on ``/odds``: the toy's odds with its derived edge (``extra``) are those of the request the
    roll would make with it (``POST …/odds`` for the same action: the asked pool, 3 + 2 dice), not of
    the sheet's trait alone; asking for the odds logs nothing."""
    table, channel, (anna,) = seated(make_table, discord, toy, ANNA)
    character = table.character(anna, {"system": toy, "name": "Ann", "traits": {"might": 3}})["id"]
    before = len(table.log()["entries"])
    for extra, pool in ((None, 3), (2, 5)):
        action = {"kind": "pool", "trait": "might", **({"extra": extra} if extra else {})}
        api = table.client.post(
            f"{table.base}/characters/{character}/odds", headers=anna, json={"action": action}
        )
        assert api.status_code == 200, api.text
        answered = api.json()
        assert answered["request"] == {"pool": pool}
        exact = odds_for(toy, toy_module.ToyRequest(pool))
        assert answered["odds"]["outcomes"] == exact["outcomes"]
        assert Fraction(exact["outcomes"]["failure"]) == Fraction(2, 3) ** pool

        options = [option("trait", "might"), *([option("extra", extra, 4)] if extra else [])]
        shown = _odds_on_discord(discord, discord_api, channel, options)
        expected = odds_view({"system": toy, "kind": "pool", "request": answered["request"]}, "en")
        assert expected is not None and shown[: 1 + len(expected.rows)] == _lines(expected), shown
    assert len(table.log()["entries"]) == before


def test_the_house_pools_odds_on_discord_follow_the_table_rule_in_force(make_table, discord, discord_api):
    """TR-1 on ``/odds``: the toy pool with a table rule of its own (``toy_house``), switched on at the
    table, and the derived edge: Discord answers the odds ``POST …/odds`` gives the same action, those
    of the roll's request under the rule (a 4 succeeds too: a failure is (1/2)^pool, not (2/3)^pool)."""
    with house_registered() as rule_id:
        table, channel, (anna,) = seated(make_table, discord, house.SYSTEM, ANNA)
        sheet = {"system": house.SYSTEM, "name": "Ann", "traits": {"might": 2}}
        character = table.character(anna, sheet)["id"]
        ruled = table.client.put(
            f"{table.base}/table-rules", headers=table.st, json={"table_rules": [rule_id]}
        )
        assert ruled.status_code == 200, ruled.text
        action = {"kind": "pool", "trait": "might", "extra": 1}
        api = table.client.post(
            f"{table.base}/characters/{character}/odds", headers=anna, json={"action": action}
        )
        assert api.status_code == 200, api.text
        answered = api.json()
        assert answered["request"] == {"pool": 3, "table_rules": [rule_id]}
        assert Fraction(answered["odds"]["outcomes"]["failure"]) == Fraction(1, 2) ** 3

        shown = _odds_on_discord(
            discord, discord_api, channel, [option("trait", "might"), option("extra", 1, 4)]
        )
        expected = odds_view({"system": house.SYSTEM, "kind": "pool", "request": answered["request"]}, "en")
        assert expected is not None and shown[: 1 + len(expected.rows)] == _lines(expected), shown
        assert "87.5" in shown[0]  # 1 - (1/2)^3
