"""A generated test: every command of ``command_definitions()`` in every locale (fr,
es-ES, en-US), sent signed to the endpoint by the Discord user it is meant for, answers within
Discord's limits; a deferred one (``/odds``) edits its original message on the REST stand-in, and
that body is within the limits too. Then every entry those commands logged renders within the
limits as the poster's embeds, in every locale."""

from __future__ import annotations

import itertools

import pytest

from rollbook.discord.commands import command_definitions
from rollbook.discord.embeds import entry_embeds, fit_all
from tests.discord.limits import problems
from tests.discord.signing import command, option
from tests.server.conftest import BACKENDS, V5_SHEET

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

LOCALES = ("fr", "es-ES", "en-US")
ST_USER, PLAYER_USER = "3100000000000000001", "3100000000000000002"
_users = itertools.count(3200000000000000001)

# what each command is sent with, and by whom (the Storyteller's commands by the Storyteller)
ARGUMENTS = {
    "link": lambda t: [option("code", t["invitation"])],
    "unlink": lambda t: [],
    "chronicle": lambda t: [{"name": "bind", "type": 1, "options": []}],
    "roll": lambda t: [option("trait", "dexterity"), option("trait2", "firearms")],
    "ask": lambda t: [option("trait", "wits"), option("trait2", "firearms"), option("difficulty", 4, 4)],
    "rouse": lambda t: [],
    "remorse": lambda t: [],
    "frenzy": lambda t: [option("difficulty", 2, 4)],
    "odds": lambda t: [option("trait", "dexterity"), option("trait2", "firearms")],
    "sheet": lambda t: [],
    "scene": lambda t: [option("action", "open"), option("name", "Le port " * 20)],
    "turn": lambda t: [],
    "verify": lambda t: [],
    "queue": lambda t: [],
    "character": lambda t: [{"name": "new", "type": 1, "options": []}],
    "contest": lambda t: [
        option("attacker", "Sasha"),
        option("trait", "dexterity"),
        option("defender", str(t["npc"])),
        option("defender_trait", "wits"),
    ],
    "extended": lambda t: [
        option("character", "Sasha"),
        option("trait", "wits"),
        option("trait2", "firearms"),
        option("successes", 5, 4),
    ],
    "willpower": lambda t: [],
    "virtue": lambda t: [option("virtue", "courage")],  # a V20 roll: refused at this V5 table, in words
    "power": lambda t: [option("power", "dominate/mesmerize")],
    "spell": lambda t: [option("spell", "Lumière")],  # a Tiers roll: refused here, in words
    # a Roll-under roll, the Storyteller's: refused at this V5 table, in words
    "opposed": lambda t: [option("action", "Bras de fer"), option("dice", "3d6"), option("threshold", 10, 4)],
    "spend": lambda t: [option("resource", "willpower")],
    "feed": lambda t: [option("character", "Sasha"), option("amount", 1, 4)],
    "compulsion": lambda t: [
        {"name": "call", "type": 1, "options": [option("character", "Sasha"), option("until", "ended")]}
    ],
}
BY_STORYTELLER = {
    "chronicle",
    "scene",
    "turn",
    "queue",
    "contest",
    "extended",
    "feed",
    "compulsion",
    "opposed",
}
BY_NEWCOMER = {"link", "unlink"}
_tables: dict[str, dict] = {}


def table_for(database_url, make_table, discord, channel: str) -> dict:
    """One V5 chronicle per store: its Storyteller linked and the channel bound, a player linked
    with a character (made once: every command of this module plays at it)."""
    if database_url not in _tables:
        table = make_table("v5")
        key = table.st["Authorization"].split()[1]
        discord.ok(command("link", [option("code", key)], user_id=ST_USER, channel=channel))
        discord.ok(
            command(
                "chronicle", [{"name": "bind", "type": 1, "options": []}], user_id=ST_USER, channel=channel
            )
        )
        joined = discord.ok(
            command("link", [option("code", table.invitation)], user_id=PLAYER_USER, channel=channel)
        )
        player = {"Authorization": "Bearer " + joined["data"]["content"].split("||")[1]}
        table.character(
            player,
            {
                **V5_SHEET,
                "attributes": {**V5_SHEET["attributes"], "manipulation": 2},
                "disciplines": {"dominate": 2},
                "powers": [{"discipline": "dominate", "level": 2, "power": "mesmerize"}],
                "humanity": 7,
                "stains": 2,
                "willpower": {"max": 4, "superficial": 0, "aggravated": 0},
            },
        )
        npc = table.character(table.st, {"name": "Guard", "attributes": {"wits": 2}})
        _tables[database_url] = {
            "table": table,
            "invitation": table.invitation,
            "channel": channel,
            "npc": npc["id"],
        }
    return _tables[database_url]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("name", [c["name"] for c in command_definitions()])
def test_every_command_in_every_locale_answers_within_discords_limits(
    database_url, make_table, discord, discord_api, name, locale
):
    channel = "4100000000000000001" if database_url.startswith("sqlite") else "4100000000000000002"
    played = table_for(database_url, make_table, discord, channel)
    user = ST_USER if name in BY_STORYTELLER else str(next(_users)) if name in BY_NEWCOMER else PLAYER_USER
    payload = command(name, ARGUMENTS[name](played), user_id=user, locale=locale, channel=channel)
    answer = discord.ok(payload)
    assert answer["type"] in (4, 5, 9), answer
    if answer["type"] == 9:  # a modal: its title and fields within Discord's limits
        form = answer["data"]
        assert 1 <= len(form["title"]) <= 45 and 1 <= len(form["components"]) <= 5, form
        assert all(len(row["components"][0]["label"]) <= 45 for row in form["components"]), form
        return
    if answer["type"] == 5:  # deferred: the work ran after the answer and edited the original message
        edited = discord_api.originals.get(payload["token"])
        assert edited is not None, discord_api.requests()
        assert problems(edited) == [], edited
        assert edited.get("embeds") or edited.get("content"), edited
        return
    data = answer["data"]
    assert data.get("content") or data.get("embeds"), answer
    assert problems(data) == [], (name, locale, problems(data))


@pytest.mark.parametrize("locale", LOCALES)
def test_every_entry_those_commands_logged_renders_within_limits(database_url, make_table, discord, locale):
    channel = "4100000000000000001" if database_url.startswith("sqlite") else "4100000000000000002"
    played = table_for(database_url, make_table, discord, channel)
    entries = played["table"].log(limit=500)["entries"]
    assert len(entries) >= 3
    for entry in entries:
        embeds = entry_embeds(entry, locale)
        assert problems({"embeds": embeds}) == [], (entry["kind"], problems({"embeds": embeds}))
        assert embeds[0]["title"]


def test_oversized_embeds_are_trimmed_to_the_limits(database_url):
    huge = {
        "title": "t" * 400,
        "description": "d" * 5000,
        "footer": {"text": "f" * 3000},
        "author": {"name": "a" * 300},
        "fields": [{"name": "n" * 300, "value": "v" * 2000} for _ in range(40)],
    }
    fitted = fit_all([huge, dict(huge), dict(huge)])
    assert problems({"embeds": fitted}) == []
    assert fitted[0]["title"].endswith("…") and len(fitted[0]["fields"]) <= 25
