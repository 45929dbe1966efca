"""The Roll-under Storyteller's opposed roll on Discord (``/opposed``, R-7), through signed interactions
on SQLite and PostgreSQL: the receipt is the JSON API's for the same dice, a player is refused (A-1:
the catalogue's Storyteller-only action), and dice notation the rules cannot read is a plain ephemeral
message."""

from __future__ import annotations

import pytest

from rollbook.play import catalogue
from tests.discord.helpers import ANNA, ST, faces, seated
from tests.discord.signing import command, option
from tests.server.conftest import BACKENDS

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

EPHEMERAL = 64


def _rolls(table, after: int) -> list[dict]:
    return [e for e in table.log(limit=500)["entries"] if e["seq"] > after and e["kind"] == "roll"]


def _opposed(character: int, dice: str, threshold: int) -> list[dict]:
    return [
        option("action", "Arm wrestling"),
        option("dice", dice),
        option("threshold", threshold, 4),
        option("character", str(character)),
    ]


def test_R7_the_storytellers_opposed_roll_on_discord_is_the_apis_receipt_for_the_same_dice(
    app, make_table, discord
):
    table, channel, (anna,) = seated(make_table, discord, "rollunder", ANNA)
    character = table.character(anna, dict(catalogue.EXAMPLE_SHEETS["rollunder"]))["id"]
    before = table.log()["head"]["seq"]
    with faces(app, 4, 3, 6, 2):
        answer = discord.ok(
            command("opposed", _opposed(character, "3d6+1d4", 16), user_id=ST, channel=channel)
        )
    assert answer["data"].get("embeds") and "flags" not in answer["data"], answer
    [made] = _rolls(table, before)

    request = {"kind": "opposed", "action": "Arm wrestling", "dice": "3d6+1d4", "threshold": 16}
    before = table.log()["head"]["seq"]
    with faces(app, 4, 3, 6, 2):
        rolled = table.roll(table.st, character, request)
    assert rolled.status_code == 201, rolled.text
    [api] = _rolls(table, before)
    assert made["receipt"] == api["receipt"]
    assert made["receipt"]["result"]["total"] == 15 and made["receipt"]["result"]["outcome"] == "success"


def test_A1_R7_a_player_is_refused_the_storytellers_opposed_roll_on_discord(app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "rollunder", ANNA)
    character = table.character(anna, dict(catalogue.EXAMPLE_SHEETS["rollunder"]))["id"]
    before = table.log()["head"]["seq"]
    refused = discord.ok(command("opposed", _opposed(character, "1d20", 10), user_id=ANNA, channel=channel))
    assert refused["data"]["flags"] == EPHEMERAL and "Storyteller" in refused["data"]["content"], refused
    # no ask holds an opposed roll (/ask takes no dice nor threshold): the Storyteller runs /opposed
    said = refused["data"]["content"]
    assert "/ask" not in said and said.endswith("ask them to run /opposed."), said
    assert _rolls(table, before) == []
    request = {"kind": "opposed", "action": "Arm wrestling", "dice": "1d20", "threshold": 10}
    api = table.roll(anna, character, request)  # the JSON API refuses the same request the same way
    assert api.status_code == 403 and api.json()["code"] == "grant_required", api.text


@pytest.mark.parametrize(
    ("dice", "named"),
    [("3x6", "3x6 is not a dice term"), ("2d6+", "2d6+ has a +"), ("0d6", "0d6: the number of dice")],
)
def test_R7_dice_notation_the_rules_cannot_read_is_an_ephemeral_message_never_a_roll(
    app, make_table, discord, dice, named
):
    table, channel, (anna,) = seated(make_table, discord, "rollunder", ANNA)
    character = table.character(anna, dict(catalogue.EXAMPLE_SHEETS["rollunder"]))["id"]
    before = table.log()["head"]["seq"]
    answer = discord.ok(command("opposed", _opposed(character, dice, 10), user_id=ST, channel=channel))
    assert answer["data"]["flags"] == EPHEMERAL and named in answer["data"]["content"], answer
    assert _rolls(table, before) == []


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("fr", "Seul le Conteur fait ce jet\u202f: demandez-lui de lancer /opposé."),
        ("es-ES", "Solo el Narrador hace esta tirada: pídele que lance /enfrentado."),
        ("en-US", "Only the Storyteller makes this roll: ask them to run /opposed."),
    ],
)
def test_A1_R7_the_refusal_names_the_command_the_storyteller_runs_in_the_player_s_language(
    make_table, discord, locale, said
):
    table, channel, (anna,) = seated(make_table, discord, "rollunder", ANNA)
    character = table.character(anna, dict(catalogue.EXAMPLE_SHEETS["rollunder"]))["id"]
    refused = discord.ok(
        command("opposed", _opposed(character, "1d20", 10), user_id=ANNA, channel=channel, locale=locale)
    )
    assert refused["data"]["content"] == said, refused
