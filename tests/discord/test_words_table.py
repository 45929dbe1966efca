"""No English word in a French or Spanish Discord message, over what the table's commands and buttons
answer beyond the common actions: a contest and each side's roll, an extended action and its rolls,
an NPC's attack with the defence offered (dodge, damage, soak), the Storyteller's queue and a hidden
ask told to them, a sheet imported with its report, a new character's form, ``/link``'s next step.
Every message is also read by the web's words check (plurals, decimal signs, the French colon,
elision: ``tests/web/words.py``), on both stores."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.discord.helpers import ANNA, ST, faces, seated
from tests.discord.signing import command, component, option
from tests.server.conftest import BACKENDS, V5_SHEET
from tests.server.helpers import V20_ATTACKER, V20_DEFENDER
from tests.web.words import word_problems

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

# words of the English catalogue ids that showed through before (a French or Spanish reader's message
# holds none of them)
ENGLISH = (
    "attacks",
    "with",
    "successes",
    "roll",
    "next",
    "asks",
    "waiting",
    "hidden",
    "sheet",
    "imported",
    "mapped",
    "contest",
    "extended",
    "grant",
    "refuse",
    "difficulty",
    "yours",
    "name",
    "character",
    "blood",
    "spent",
    "feed",
    "reveal",
    "virtue",
    "power",
    "call",
)
V5_VAMPIRE = {
    "name": "Sasha",
    "clan": "brujah",
    "attributes": {"dexterity": 3, "wits": 2, "manipulation": 2, "resolve": 2, "composure": 2},
    "skills": {"firearms": 3},
    "disciplines": {"dominate": 2},
    "powers": [{"discipline": "dominate", "level": 2, "power": "mesmerize"}],
    "willpower": {"max": 4, "superficial": 0, "aggravated": 0},
}
V20_VAMPIRE = {
    "name": "Lucita",
    "generation": 8,
    "attributes": {"dexterity": 3, "wits": 2, "stamina": 2},
    "virtues": {"conscience": 2, "self_control": 3, "courage": 3},
    "willpower": {"permanent": 4, "current": 4},
    "blood": {"current": 8},
    "health": {"bashing": 2},
}
PROGENY = Path(__file__).resolve().parents[1] / "interop" / "fixtures" / "progeny_test_vampire.json"


def texts(data: dict) -> str:
    """Every word a user reads in a message: content, embeds, components, a modal's title and fields."""
    read = [data.get("content") or "", data.get("title") or ""]
    for embed in data.get("embeds") or []:
        read += [embed.get("title", ""), embed.get("description", "")]
        read += [
            (embed.get(k) or {}).get("text" if k == "footer" else "name", "") for k in ("footer", "author")
        ]
        read += [f["name"] + " " + f["value"] for f in embed.get("fields") or []]
    for row in data.get("components") or []:
        for item in row.get("components") or []:
            read += [item.get("label", ""), item.get("placeholder", "")]
            read += [o.get("label", "") for o in item.get("options") or []]
    text = "\n".join(read)
    return re.sub(r"<@\d+>|/\w+|`[^`]*`|\$\.[\w.\[\]]+", "", text)  # mentions, commands, file paths


def english(text: str) -> list[str]:
    return [word for word in ENGLISH if re.search(rf"\b{word}\b", text, re.IGNORECASE)]


def ids(data: dict) -> list[str]:
    return [c["custom_id"] for row in data.get("components") or [] for c in row["components"]]


def check(seen: dict[str, dict], lang: str) -> None:
    found = {what: english(texts(data)) + word_problems(texts(data), lang) for what, data in seen.items()}
    assert all(not problems for problems in found.values()), (
        {what: problems for what, problems in found.items() if problems},
        json.dumps(seen, ensure_ascii=False)[:3000],
    )


@pytest.mark.parametrize("locale", ["fr", "es-ES"])
def test_V20_a_contest_and_an_npc_attack_read_without_an_english_word(app, make_table, discord, locale):
    table, channel, (anna,) = seated(make_table, discord, "v20", ANNA)
    bran = table.character(anna, dict(V20_DEFENDER, attributes={"stamina": 2, "dexterity": 2, "wits": 2}))
    table.character(table.st, dict(V20_ATTACKER))
    who = {"channel": channel, "locale": locale}
    seen: dict[str, dict] = {}
    contest = discord.ok(
        command(
            "contest",
            [
                option("attacker", "Nia"),
                option("trait", "dexterity"),
                option("trait2", "melee"),
                option("defender", "Bran"),
                option("defender_trait", "wits"),
            ],
            user_id=ST,
            **who,
        )
    )["data"]
    seen["contest"] = contest
    for custom_id in ids(contest):
        user = ST if custom_id.endswith(":a") else ANNA
        seen[custom_id] = discord.ok(component(custom_id, user_id=user, **who))["data"]
    with faces(app, 8, 8, 8, 2, 3, *[8] * 20):
        attack = discord.ok(
            command(
                "roll",
                [
                    option("character", "Nia"),
                    option("trait", "dexterity"),
                    option("trait2", "melee"),
                    option("target", str(bran["id"])),
                    option("weapon", "knife"),
                ],
                user_id=ST,
                **who,
            )
        )["data"]
        seen["attack"] = attack
        damage = next(c for c in ids(attack) if ":damage:" in c)
        seen["damage"] = discord.ok(component(damage, user_id=ST, **who))["data"]
    soak = next(c for c in ids(seen["damage"]) if ":soak:" in c)
    seen["soak"] = discord.ok(component(soak, user_id=ANNA, **who))["data"]
    check(seen, locale[:2])


@pytest.mark.parametrize("locale", ["fr", "es-ES"])
def test_V5_the_queue_an_extended_action_and_a_sheet_read_without_an_english_word(
    app, make_table, discord, discord_api, locale
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    who = {"channel": channel, "locale": locale}
    seen: dict[str, dict] = {}
    seen["link"] = discord.ok(
        command("link", [option("code", table.invitation)], user_id="5100000000000000077", **who)
    )["data"]
    attached = discord_api.attach("sheet.json", PROGENY.read_bytes())
    imported = command("character", [], user_id="5100000000000000077", **who)
    imported["data"]["options"] = [
        {"name": "import", "type": 1, "options": [option("file", attached["id"], 11)]}
    ]
    imported["data"]["resolved"] = {"attachments": {attached["id"]: attached}}
    discord.ok(imported)
    seen["import"] = discord_api.originals[imported["token"]]
    form = command("character", [], user_id=ANNA, **who)
    form["data"]["options"] = [{"name": "new", "type": 1, "options": []}]
    modal = discord.ok(form)["data"]
    seen["form"] = {
        "title": modal["title"],
        "components": [{"components": [field]} for row in modal["components"] for field in row["components"]],
    }
    table.character(anna, dict(V5_SHEET))
    extended = discord.ok(
        command(
            "extended",
            [option("character", "Sasha"), option("trait", "wits"), option("successes", 6, 4)],
            user_id=ST,
            **who,
        )
    )["data"]
    seen["extended"] = extended
    seen["extended roll"] = discord.ok(component(ids(extended)[0], user_id=ANNA, **who))["data"]
    seen["ask"] = discord.ok(
        command(
            "ask",
            [option("trait", "wits"), option("difficulty", 3, 4), option("hidden", True, 5)],
            user_id=ANNA,
            **who,
        )
    )["data"]
    told = command("verify", [], user_id=ST, **who)
    discord.ok(told)
    [seen["hidden ask told"]] = discord_api.followups[told["token"]]
    seen["queue"] = discord.ok(command("queue", [], user_id=ST, **who))["data"]
    check(seen, locale[:2])


@pytest.mark.parametrize("locale", ["fr", "es-ES"])
def test_V5_a_power_spent_willpower_feeding_a_compulsion_and_a_reveal_read_without_an_english_word(
    app, make_table, discord, locale
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_VAMPIRE, hunger=5))
    who = {"channel": channel, "locale": locale}
    seen: dict[str, dict] = {}

    def run(name: str, options: list, user: str) -> dict:
        return discord.ok(command(name, options, user_id=user, **who))["data"]

    with faces(app, 7, 7, 2, 9, 3, 2, 3, 4, 5, 2, 1, 2):
        seen["power"] = run("power", [option("power", "dominate/mesmerize")], ANNA)
        seen["bestial"] = run("roll", [option("trait", "dexterity"), option("trait2", "firearms")], ANNA)
        seen["rouse"] = run("rouse", [], ANNA)
    seen["willpower spent"] = run("spend", [option("resource", "willpower")], ANNA)
    seen["fed"] = run("feed", [option("character", "Sasha"), option("amount", 1, 4)], ST)
    for what in ("bestial", "rouse"):
        for custom_id in ids(seen[what]):
            if custom_id.startswith(("rb:cc:", "rb:hf:")):
                with faces(app, *[8] * 10):
                    seen[custom_id] = discord.ok(component(custom_id, user_id=ST, **who))["data"]
    seen["ended"] = run(
        "compulsion", [{"name": "end", "type": 1, "options": [option("character", "Sasha")]}], ST
    )
    hidden = run(
        "roll", [option("character", "Sasha"), option("trait", "wits"), option("hidden", True, 5)], ST
    )
    seen["hidden"] = hidden
    [reveal] = [c for c in ids(hidden) if c.startswith("rb:rv:")]
    seen["revealed"] = discord.ok(component(reveal, user_id=ST, **who))["data"]
    seen["refused option"] = run("rouse", [option("modifier", 2, 4)], ANNA)
    made = command(
        "chronicle",
        [{"name": "new", "type": 1, "options": [option("name", "Nuits"), option("system", "v5")]}],
        user_id="5100000000000000088",
        channel=str(int(channel) + 500),
        locale=locale,
    )
    seen["chronicle made"] = discord.ok(made)["data"]
    assert {"rb:cc:", "rb:hf:"} <= {c[:6] for c in seen if c.startswith("rb:")}, list(seen)
    check(seen, locale[:2])


@pytest.mark.parametrize("locale", ["fr", "es-ES"])
def test_V20_blood_spent_a_virtue_and_a_willpower_roll_read_without_an_english_word(
    app, make_table, discord, locale
):
    table, channel, (anna,) = seated(make_table, discord, "v20", ANNA)
    table.character(anna, dict(V20_VAMPIRE))
    who = {"channel": channel, "locale": locale}
    seen = {
        "blood": discord.ok(
            command("spend", [option("resource", "blood"), option("heal", "bashing")], user_id=ANNA, **who)
        )["data"],
        "virtue": discord.ok(command("virtue", [option("virtue", "self_control")], user_id=ANNA, **who))[
            "data"
        ],
        "willpower": discord.ok(command("willpower", [], user_id=ANNA, **who))["data"],
        "fed": discord.ok(command("feed", [option("character", "Lucita")], user_id=ST, **who))["data"],
    }
    check(seen, locale[:2])


@pytest.mark.parametrize("locale", ["fr", "es-ES"])
def test_R7_the_storytellers_opposed_roll_and_its_refusals_read_without_an_english_word(
    app, make_table, discord, locale
):
    table, channel, (anna,) = seated(make_table, discord, "rollunder", ANNA)
    lock = table.character(anna, {"name": "Lock", "skills": {"lockpicking": 12}})["id"]
    who = {"channel": channel, "locale": locale}

    def opposed(dice: str, user: str) -> dict:
        given = [option("action", "Bras de fer"), option("dice", dice), option("threshold", 10, 4)]
        return discord.ok(command("opposed", [*given, option("character", str(lock))], user_id=user, **who))[
            "data"
        ]

    with faces(app, 4, 3, 6):
        seen = {"opposed": opposed("3d6", ST)}
    seen["bad dice"] = opposed("3x6", ST)
    seen["player refused"] = opposed("1d20", ANNA)
    assert seen["opposed"].get("embeds") and seen["bad dice"]["flags"] == 64, seen
    check(seen, locale[:2])
