"""The actions of the catalogue beyond tests, made on Discord through signed interactions, both roles,
on SQLite and PostgreSQL: a V5 Discipline power with its Rouse checks (``/power``, its autocomplete
from the sheet's powers), V20 blood and Willpower spent (``/spend``, V20-16, V20-18, V20-9), V20
Willpower and Virtue rolls (``/willpower``, ``/virtue``), feeding (``/feed``, the Storyteller's),
compulsions called and ended (``/compulsion``, and the one-tap call under a messy critical or a
bestial failure), the hunger frenzy test a failed Rouse at Hunger 5 offers (V5-10), a chronicle made
from Discord (``/chronicle new``), and an option a command does not declare refused."""

from __future__ import annotations

import pytest

from rollbook.discord.commands import command_definitions
from tests.conftest import wait_until
from tests.discord.helpers import ANNA, ST, faces, seated
from tests.discord.signing import autocomplete, command, component, option
from tests.server.conftest import BACKENDS

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

V5_VAMPIRE = {
    "name": "Sasha",
    "clan": "brujah",
    "attributes": {"dexterity": 3, "wits": 2, "manipulation": 2, "charisma": 2, "resolve": 2, "composure": 2},
    "skills": {"firearms": 3},
    "disciplines": {"dominate": 2},
    "powers": [
        {"discipline": "dominate", "level": 1, "power": "compel"},
        {"discipline": "dominate", "level": 2, "power": "mesmerize"},
    ],
    "hunger": 1,
}
V20_VAMPIRE = {
    "name": "Lucita",
    "generation": 8,
    "attributes": {"dexterity": 3, "wits": 2, "stamina": 2},
    "talents": {"alertness": 2},
    "virtues": {"conscience": 2, "self_control": 3, "courage": 3},
    "willpower": {"permanent": 4, "current": 4},
    "blood": {"current": 8},
    "health": {"bashing": 2},
}


def focused(name: str, typed: str) -> dict:
    return {**option(name, typed), "focused": True}


def ids(data: dict) -> list[str]:
    return [c["custom_id"] for row in data.get("components") or [] for c in row["components"]]


def last(table, kind: str | None = None) -> dict:
    entries = table.log(limit=500)["entries"]
    return [e for e in entries if kind is None or e["kind"] == kind][-1]


def test_V5_10_a_power_rolls_its_pool_and_pays_its_Rouse_checks_from_discord(app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_VAMPIRE))
    offered = discord.ok(
        autocomplete("power", [focused("power", "")], user_id=ANNA, channel=channel, locale="fr")
    )["data"]["choices"]
    assert [c["value"] for c in offered] == ["dominate/compel", "dominate/mesmerize"]
    assert offered[1]["name"].startswith("Hypnose")  # the power in the reader's words
    attributes = discord.ok(
        autocomplete(
            "power",
            [option("power", "dominate/mesmerize"), focused("attribute", "")],
            user_id=ANNA,
            channel=channel,
        )
    )["data"]["choices"]
    assert [c["value"] for c in attributes] == ["manipulation"]  # the book's pool of Mesmerize
    # Mesmerize: Manipulation + Dominate (4 dice, one of them Hunger), then its Rouse check (a 3: Hunger +1)
    with faces(app, 7, 7, 2, 9, 3):
        answer = discord.ok(
            command("power", [option("power", "dominate/mesmerize")], user_id=ANNA, channel=channel)
        )["data"]
    assert answer["embeds"] and "flags" not in answer
    entry = last(table, "roll")
    receipt = entry["receipt"]
    assert receipt["action"]["power"] == "mesmerize" and receipt["power"]["rouse_checks"] == 1
    assert [r["result"]["outcome"] for r in receipt["rouses"]] == ["failure"]
    assert (
        table.client.get(f"{table.base}/characters/{entry['character']}", headers=anna).json()["sheet"][
            "hunger"
        ]
        == 2
    )
    refused = discord.ok(
        command("power", [option("power", "dominate-mesmerize")], user_id=ANNA, channel=channel)
    )["data"]
    assert refused["flags"] == 64 and "dominate-mesmerize" in refused["content"]


def test_V20_16_V20_18_blood_spent_heals_and_its_per_turn_limit_refuses_on_discord(app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v20", ANNA)
    lucita = table.character(anna, dict(V20_VAMPIRE))
    spent = discord.ok(
        command(
            "spend",
            [option("resource", "blood"), option("amount", 2, 4), option("heal", "bashing")],
            user_id=ANNA,
            channel=channel,
            locale="fr",
        )
    )["data"]
    assert spent.get("embeds") and "flags" not in spent, spent
    sheet = table.client.get(f"{table.base}/characters/{lucita['id']}", headers=anna).json()["sheet"]
    assert sheet["blood"]["current"] == 6 and sheet["health"]["bashing"] == 0
    too_much = discord.ok(
        command("spend", [option("resource", "blood"), option("amount", 5, 4)], user_id=ANNA, channel=channel)
    )["data"]
    assert too_much["flags"] == 64  # V20-18: Generation 8 spends at most 3 a turn
    willpower = discord.ok(
        command("spend", [option("resource", "willpower")], user_id=ANNA, channel=channel)
    )["data"]
    assert willpower["embeds"]
    sheet = table.client.get(f"{table.base}/characters/{lucita['id']}", headers=anna).json()["sheet"]
    assert sheet["willpower"]["current"] == 3 and sheet["blood"]["current"] == 6


def test_V20_9_a_willpower_and_a_virtue_roll_from_discord_the_difficulty_the_storytellers(
    app, make_table, discord
):
    table, channel, (anna,) = seated(make_table, discord, "v20", ANNA)
    table.character(anna, dict(V20_VAMPIRE))
    with faces(app, 8, 8, 3, 2, 9, 9, 1):
        rolled = discord.ok(command("willpower", [], user_id=ANNA, channel=channel))["data"]
        assert rolled["embeds"]
        assert last(table, "roll")["receipt"]["action"]["kind"] == "willpower"
        virtue = discord.ok(
            command("virtue", [option("virtue", "self_control")], user_id=ANNA, channel=channel)
        )["data"]
    assert virtue["embeds"]
    assert last(table, "roll")["receipt"]["action"] == {"kind": "virtue", "virtue": "self_control"} | {
        k: v for k, v in last(table, "roll")["receipt"]["action"].items() if k not in ("kind", "virtue")
    }
    asked = discord.ok(
        command(
            "virtue", [option("virtue", "courage"), option("difficulty", 4, 4)], user_id=ANNA, channel=channel
        )
    )["data"]
    assert asked["flags"] == 64 and "/" in asked["content"]  # the difficulty is the Storyteller's


@pytest.mark.parametrize("system", ["v5", "v20"])
def test_feeding_is_the_storytellers_from_discord_its_player_told(app, make_table, discord, system):
    table, channel, (anna,) = seated(make_table, discord, system, ANNA)
    sheet = dict(V5_VAMPIRE, hunger=3) if system == "v5" else dict(V20_VAMPIRE, blood={"current": 3})
    made = table.character(anna, sheet)
    name = sheet["name"]
    refused = discord.ok(
        command("feed", [option("character", name), option("amount", 2, 4)], user_id=ANNA, channel=channel)
    )["data"]
    assert refused["flags"] == 64
    fed = discord.ok(
        command("feed", [option("character", name), option("amount", 2, 4)], user_id=ST, channel=channel)
    )["data"]
    assert fed["content"].startswith(f"<@{ANNA}>") and fed["embeds"], fed
    after = table.client.get(f"{table.base}/characters/{made['id']}", headers=anna).json()["sheet"]
    if system == "v5":
        assert after["hunger"] == 1
    else:
        assert after["blood"]["current"] == 5


def test_V5_14_a_compulsion_called_and_ended_from_discord_the_storytellers_alone(app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_VAMPIRE))
    offered = discord.ok(
        autocomplete(
            "compulsion",
            [
                {
                    "name": "call",
                    "type": 1,
                    "options": [option("character", "Sasha"), focused("compulsion", "rébel")],
                }
            ],
            user_id=ST,
            channel=channel,
            locale="fr",
        )
    )["data"]["choices"]
    assert [c["value"] for c in offered] == ["rebellion"]

    def sub(name: str, *options: dict, user: str) -> dict:
        return discord.ok(
            command(
                "compulsion",
                [{"name": name, "type": 1, "options": list(options)}],
                user_id=user,
                channel=channel,
            )
        )["data"]

    assert sub("call", option("character", "Sasha"), user=ANNA)["flags"] == 64
    called = sub("call", option("character", "Sasha"), option("until", "ended"), user=ST)
    assert called["content"].startswith(f"<@{ANNA}>") and called["embeds"]
    assert last(table)["kind"] == "compulsion" and last(table)["receipt"]["compulsion"] == "rebellion"
    assert sub("end", option("character", "Sasha"), user=ANNA)["flags"] == 64
    assert sub("end", option("character", "Sasha"), user=ST)["embeds"]
    assert last(table)["kind"] == "compulsion_end"


def test_V5_5_V5_6_a_bestial_failure_offers_the_storyteller_the_compulsion_in_one_press(
    app, make_table, discord
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_VAMPIRE))
    with faces(app, 2, 3, 4, 5, 2, 1):  # six dice, the Hunger die a 1, no success: a bestial failure
        rolled = discord.ok(
            command(
                "roll",
                [option("trait", "dexterity"), option("trait2", "firearms")],
                user_id=ANNA,
                channel=channel,
            )
        )["data"]
    assert last(table, "roll")["receipt"]["result"]["outcome"] == "bestial_failure"
    [call] = [c for c in ids(rolled) if c.startswith("rb:cc:")]
    assert discord.ok(component(call, user_id=ANNA, channel=channel))["data"]["flags"] == 64
    called = discord.ok(component(call, user_id=ST, channel=channel))["data"]
    assert called["embeds"] and last(table)["kind"] == "compulsion"
    assert last(table)["refers_to"] == int(call.split(":")[2])


def test_V5_10_a_failed_rouse_at_hunger_5_offers_the_hunger_frenzy_test_the_storyteller_calls(
    app, make_table, discord
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_VAMPIRE, hunger=5))
    with faces(app, 2):
        rouse = discord.ok(command("rouse", [], user_id=ANNA, channel=channel))["data"]
    [call] = [c for c in ids(rouse) if c.startswith("rb:hf:")]
    assert discord.ok(component(call, user_id=ANNA, channel=channel))["data"]["flags"] == 64
    with faces(app, *[8] * 10):
        test = discord.ok(component(call, user_id=ST, channel=channel))["data"]
    assert test["embeds"]
    frenzy = last(table, "roll")
    assert frenzy["receipt"]["action"]["kind"] == "frenzy" and frenzy["refers_to"] == int(call.split(":")[2])


def test_a_chronicle_made_from_discord_binds_its_channel_and_links_its_storyteller(app, make_table, discord):
    channel, user = "5700000000000000001", "5700000000000000002"
    made = discord.ok(
        command(
            "chronicle",
            [
                {
                    "name": "new",
                    "type": 1,
                    "options": [
                        option("name", "Nuits de Marseille"),
                        option("system", "v20"),
                        option("language", "fr"),
                    ],
                }
            ],
            user_id=user,
            channel=channel,
            locale="fr",
        )
    )["data"]
    assert made["flags"] == 64 and made["content"].startswith("« Nuits de Marseille »"), made
    invitation = made["content"].split("||")[1]
    joined = discord.ok(command("link", [option("code", invitation)], user_id=ANNA, channel=channel))["data"]
    assert "Nuits de Marseille" in joined["content"]
    opened = discord.ok(command("scene", [option("action", "open")], user_id=user, channel=channel))["data"]
    assert "flags" not in opened  # the maker is the Storyteller; the channel is the table
    taken = discord.ok(
        command(
            "chronicle",
            [{"name": "new", "type": 1, "options": [option("name", "Autre"), option("system", "v5")]}],
            user_id=ST,
            channel=channel,
        )
    )["data"]
    assert taken["flags"] == 64  # the channel is another chronicle's table: nothing made


def test_an_option_a_command_does_not_declare_is_refused_never_read(app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_VAMPIRE))
    before = table.log()["head"]["seq"]
    answer = discord.ok(command("rouse", [option("modifier", 3, 4)], user_id=ANNA, channel=channel))["data"]
    assert answer["flags"] == 64 and "modifier" in answer["content"]
    assert table.log()["head"]["seq"] == before
    declared = {c["name"]: c for c in command_definitions()}
    assert {o["name"] for o in declared["odds"]["options"]} >= {"weapon", "bullets"}  # Tiers' odds


def test_tiers_odds_name_the_weapon_and_the_bullets(app, make_table, discord, discord_api):
    table, channel, (anna,) = seated(make_table, discord, "tiers", ANNA)
    table.character(
        anna,
        {
            "name": "Ash",
            "skills": {"firearms": 40},
            "weapons": [{"name": "Pistol", "bonus": 5, "capacity": 3}],
        },
    )
    asked = command(
        "odds",
        [option("trait", "firearms"), option("weapon", "Pistol"), option("bullets", 2, 4)],
        user_id=ANNA,
        channel=channel,
    )
    assert discord.ok(asked)["type"] == 5
    edited = wait_until(lambda: discord_api.originals.get(asked["token"]), what="the odds edited")
    assert (
        edited["embeds"]
        and "Pistol"
        in edited["embeds"][0].get("footer", {}).get("text", "") + edited["embeds"][0]["description"]
    ), edited


def test_V5_14_a_clanless_compulsion_refused_names_the_choices_in_the_readers_words(app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_VAMPIRE, clan=""))
    refused = discord.ok(
        command(
            "compulsion",
            [{"name": "call", "type": 1, "options": [option("character", "Sasha")]}],
            user_id=ST,
            channel=channel,
            locale="fr",
        )
    )["data"]
    assert refused["flags"] == 64 and "(Soif, Domination, Nuire, Paranoïa)" in refused["content"], refused


def test_V5_5_V5_6_a_bestial_failure_made_on_the_web_is_posted_with_the_storytellers_call(
    app, make_table, discord, discord_api
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    sasha = table.character(anna, dict(V5_VAMPIRE))
    with faces(app, 2, 3, 4, 5, 2, 1):  # a bestial failure (V5-6), rolled on the web table
        rolled = table.roll(
            anna, sasha["id"], {"kind": "test", "attribute": "dexterity", "skill": "firearms"}
        )
    seq = rolled.json()["entry"]["seq"]
    posted = wait_until(
        lambda: [m for m in discord_api.posted(channel) if f"#{seq} " in m["embeds"][0]["footer"]["text"]],
        what="the web's roll posted",
    )
    call = f"rb:cc:{seq}:{sasha['id']}"
    assert call in ids(posted[0])
    assert discord.ok(component(call, user_id=ST, channel=channel))["data"]["embeds"]
    assert last(table)["kind"] == "compulsion"
