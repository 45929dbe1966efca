"""Samples of what every command answers on Discord, for docs/discord.md §9: each command
sent, signed as Discord signs it, to a real app on a temporary SQLite store whose Discord REST calls
go to the stand-in (``standin.py``); a roll made on the web table, as the channel poster posts it.

A helper module: ``scripts/discord-samples`` writes ``markdown(play())`` into the doc between its
markers; ``tests/discord/test_samples.py`` checks that the doc shows every command of
``command_definitions()``.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from fastapi.testclient import TestClient
from pydantic import SecretStr

from rollbook.app.app import create_app
from rollbook.discord.commands import command_definitions
from rollbook.settings import load
from tests.conftest import wait_until
from tests.discord.signing import APPLICATION, Discord, Key, command, component, option
from tests.discord.standin import BOT_TOKEN, StandIn
from tests.server.conftest import V5_TEST

BEGIN = "<!-- discord-samples: begin (scripts/discord-samples writes what is between) -->"
END = "<!-- discord-samples: end -->"
CHANNEL = "1200000000000000009"
STORYTELLER, PLAYER, NEWCOMER = "2900000000000000001", "2900000000000000002", "2900000000000000003"
SHEET = {
    "name": "Sasha",
    "clan": "brujah",
    "attributes": {"dexterity": 3, "wits": 2, "composure": 2, "resolve": 2, "manipulation": 3},
    "skills": {"firearms": 3, "awareness": 2},
    "disciplines": {"dominate": 2},
    "powers": [{"discipline": "dominate", "level": 2, "power": "mesmerize"}],
    "hunger": 2,
    "humanity": 7,
    "stains": 2,
    "willpower": {"max": 4, "superficial": 0, "aggravated": 0},
}

# the other games' tables, for the commands of their own rolls (a V20 Virtue, a Tiers spell)
OTHER_SHEETS = {
    "v20": {
        "name": "Lucita",
        "generation": 9,
        "attributes": {"dexterity": 3, "wits": 2, "stamina": 2},
        "virtues": {"conscience": 2, "self_control": 3, "courage": 3},
        "willpower": {"permanent": 4, "current": 4},
        "blood": {"current": 10},
        "health": {"bashing": 1},
    },
    "tiers": {"name": "Ash", "skills": {"arcanes": 3, "firearms": 40}},
    "rollunder": {"name": "Lock", "skills": {"lockpicking": 12}},
}
OTHER_CHANNELS = {
    "v20": "1200000000000000019",
    "tiers": "1200000000000000029",
    "rollunder": "1200000000000000039",
}

# (command, its options, who sends it, the Discord client's locale, what the sample shows[, the game])
PLAYS: list[tuple] = [
    (
        "link",
        lambda keys: [option("code", keys["invitation"])],
        NEWCOMER,
        "en-US",
        "A newcomer joins with the chronicle's invitation (a member links with their key the same way).",
    ),
    (
        "chronicle",
        lambda keys: [{"name": "bind", "type": 1, "options": []}],
        STORYTELLER,
        "en-US",
        "The Storyteller binds the channel to the chronicle.",
    ),
    (
        "roll",
        lambda keys: [option("trait", "dexterity"), option("trait2", "firearms")],
        PLAYER,
        "en-US",
        "A linked player rolls traits of their character's sheet (a V5 test: the Willpower reroll "
        "is offered under it).",
    ),
    (
        "roll",
        lambda keys: [option("trait", "wits"), option("trait2", "awareness")],
        PLAYER,
        "fr",
        "The same command from a Discord client in French (`/jet`).",
    ),
    (
        "ask",
        lambda keys: [option("trait", "wits"), option("trait2", "firearms"), option("difficulty", 4, 4)],
        PLAYER,
        "en-US",
        "A roll with an edge only the Storyteller grants: it waits in their queue.",
    ),
    ("rouse", lambda keys: [], PLAYER, "en-US", "A Rouse check (V5)."),
    ("remorse", lambda keys: [], PLAYER, "en-US", "A Remorse check (V5)."),
    (
        "frenzy",
        lambda keys: [option("character", str(keys["character"])), option("difficulty", 3, 4)],
        STORYTELLER,
        "en-US",
        "A frenzy test (V5), its difficulty the Storyteller's.",
    ),
    (
        "odds",
        lambda keys: [option("trait", "dexterity"), option("trait2", "firearms"), option("difficulty", 3, 4)],
        PLAYER,
        "en-US",
        "The exact odds of a roll before it is made (deferred, then edited).",
    ),
    ("sheet", lambda keys: [], PLAYER, "en-US", "The character's sheet, for its player only."),
    (
        "scene",
        lambda keys: [option("action", "open"), option("name", "The docks at midnight")],
        STORYTELLER,
        "en-US",
        "The Storyteller opens a scene.",
    ),
    ("turn", lambda keys: [], STORYTELLER, "en-US", "The Storyteller starts the next turn."),
    (
        "verify",
        lambda keys: [],
        PLAYER,
        "en-US",
        "The chronicle's fairness status and where to verify its log.",
    ),
    (
        "queue",
        lambda keys: [],
        STORYTELLER,
        "en-US",
        "The Storyteller's queue, to them alone: every pending ask, hidden ones included, oldest first, "
        "with its buttons. A hidden ask is also told to the Storyteller alone, once, at their next "
        "interaction in the channel; an ask made on the web is posted with the same buttons.",
    ),
    (
        "contest",
        lambda keys: [
            option("attacker", "Sasha"),
            option("trait", "dexterity"),
            option("trait2", "firearms"),
            option("defender", "Guard"),
            option("defender_trait", "wits"),
        ],
        STORYTELLER,
        "en-US",
        "The Storyteller declares a contest (TR-3): each side's roll is a button under it, its player "
        "(an NPC's: the Storyteller) mentioned; the second roll brings the result.",
    ),
    (
        "extended",
        lambda keys: [
            option("character", "Sasha"),
            option("trait", "wits"),
            option("trait2", "awareness"),
            option("successes", 6, 4),
            option("rolls", 4, 4),
        ],
        STORYTELLER,
        "en-US",
        "The Storyteller declares an extended action (TR-4): its next roll is a button under it, and "
        "under each of its rolls until it is over.",
    ),
    (
        "character",
        lambda keys: [
            {"name": "import", "type": 1, "options": [option("file", keys["attachment"]["id"], 11)]}
        ],
        NEWCOMER,
        "en-US",
        "The newcomer, told by `/link` that they have no character, imports a sheet of another tool "
        "(here Progeny's JSON file, attached to the command): read from the URL Discord gives, by the "
        "web's importers, with the same report, to them alone (deferred, then edited). "
        "`/character new` opens a form instead: the name, then each section's traits typed as "
        "“Dexterity 3, Wits 2”.",
    ),
    (
        "power",
        lambda keys: [option("power", "dominate/mesmerize")],
        PLAYER,
        "en-US",
        "A Discipline power of the sheet (V5), picked from its autocomplete: its own pool rolled and "
        "its Rouse checks paid in one step.",
    ),
    ("willpower", lambda keys: [], PLAYER, "en-US", "A Willpower roll (V5 here; V20 alike)."),
    (
        "spend",
        lambda keys: [option("resource", "willpower")],
        PLAYER,
        "en-US",
        "Willpower spent from the sheet, without a roll.",
    ),
    (
        "feed",
        lambda keys: [option("character", "Sasha"), option("amount", 1, 4)],
        STORYTELLER,
        "en-US",
        "The Storyteller says a character fed (V5: Hunger slaked; V20: blood regained); its player is "
        "mentioned.",
    ),
    (
        "compulsion",
        lambda keys: [
            {"name": "call", "type": 1, "options": [option("character", "Sasha"), option("until", "ended")]}
        ],
        STORYTELLER,
        "en-US",
        "The Storyteller calls a compulsion (the clan's unless named) until they end it; "
        "`/compulsion end` ends it. Under a messy critical or a bestial failure, "
        "`[ Call the compulsion ]` does it in one press.",
    ),
    (
        "roll",
        lambda keys: [option("character", "Sasha"), option("trait", "wits"), option("hidden", True, 5)],
        STORYTELLER,
        "en-US",
        "The Storyteller's hidden roll, shown to them alone with its **Reveal** button.",
    ),
    (
        "virtue",
        lambda keys: [option("virtue", "self_control")],
        PLAYER,
        "en-US",
        "A Virtue roll (V20), at a V20 table.",
        "v20",
    ),
    (
        "spend",
        lambda keys: [option("resource", "blood"), option("amount", 1, 4), option("heal", "bashing")],
        PLAYER,
        "en-US",
        "Blood spent (V20-16), here to heal a level of bashing damage; more than the Generation's blood "
        "per turn is refused (V20-18).",
        "v20",
    ),
    (
        "spell",
        lambda keys: [option("spell", "Light")],
        PLAYER,
        "en-US",
        "A spell cast (Tiers, T-6), one Essence.",
        "tiers",
    ),
    (
        "opposed",
        lambda keys: [
            option("action", "Arm wrestling"),
            option("dice", "3d6"),
            option("threshold", 10, 4),
            option("character", "Lock"),
        ],
        STORYTELLER,
        "en-US",
        "The Storyteller's opposed roll (Roll-under, R-7): any dice against a threshold; a player is "
        "refused, and dice the rules cannot read are told in one line.",
        "rollunder",
    ),
    ("unlink", lambda keys: [], NEWCOMER, "en-US", "The newcomer ends their link in this channel."),
]


# the buttons (and select) pressed under the commands' answers: (the command whose answer holds it, who
# presses, its custom_id (a regular expression), what the sample shows)
PRESSES = [
    (
        "roll",
        PLAYER,
        "rb:rs:",
        "The player rerolls normal dice with Willpower (V5-8), picked from the select under their test "
        "(the advised dice are a button beside it when the odds engine advises a reroll).",
    ),
    (
        "ask",
        STORYTELLER,
        "rb:g:",
        "The Storyteller grants the ask as asked (Grant changed opens a form of the edges asked; "
        "Refuse logs the refusal). Anyone else's press is refused to them alone.",
    ),
    (
        "contest",
        PLAYER,
        r"rb:cs:\d+:a",
        "The attacker's player rolls their side of the contest; the button leaves the contest's message.",
    ),
    (
        "contest",
        STORYTELLER,
        r"rb:cs:\d+:d",
        "The Storyteller rolls the NPC's side; the contest's result follows in the channel.",
    ),
    (
        "roll",
        STORYTELLER,
        "rb:rv:",
        "The Storyteller reveals their hidden roll: told to them alone; the channel poster posts the "
        "reveal with the roll under it, as the web's live feed shows it.",
    ),
    (
        "extended",
        PLAYER,
        "rb:ex:",
        "The player makes the extended action's next roll; the next is offered under it until it is over.",
    ),
]


@dataclass(frozen=True)
class Sample:
    name: str  # the command (or "poster")
    typed: str  # how it was typed
    caption: str
    answer: dict  # what Discord shows: content, embeds, components, flags


def _typed(name: str, options: list[dict]) -> str:
    words = [f"/{name}"]
    for item in options:
        if item.get("type") == 1:
            words.append(item["name"])
            words += [f"{sub['name']}:{sub['value']}" for sub in item.get("options", [])]
        else:
            words.append(f"{item['name']}:{item['value']}")
    return " ".join(words)


def seat(client, discord, system: str, sheet: dict) -> None:
    """Another game's chronicle at a channel of its own: its Storyteller linked, the player joined
    with ``sheet``'s character."""
    channel = OTHER_CHANNELS[system]
    created = client.post("/api/chronicles", json={"name": sheet["name"], "system": system}).json()
    discord.ok(command("link", [option("code", created["token"])], user_id=STORYTELLER, channel=channel))
    joined = discord.ok(
        command(
            "link", [option("code", created["invitation"])], user_id=PLAYER, name="Bruno", channel=channel
        )
    )
    player = {"Authorization": "Bearer " + joined["data"]["content"].split("||")[1]}
    made = client.post(
        f"/api/chronicles/{created['chronicle']['id']}/characters",
        headers=player,
        json={"name": sheet["name"], "sheet": sheet},
    )
    assert made.status_code == 201, made.text


def play() -> list[Sample]:
    """Every command of ``PLAYS`` sent to a fresh app, then a roll made on the web table and posted."""
    samples: list[Sample] = []
    key = Key()
    with tempfile.TemporaryDirectory() as folder, StandIn(application_id=APPLICATION) as standin:
        settings = load().model_copy(
            update={
                "discord_public_key": key.public_hex,
                "discord_application_id": APPLICATION,
                "discord_api_base": standin.base,
                "discord_bot_token": SecretStr(BOT_TOKEN),
                "secret_key": SecretStr("discord samples, not for production"),
                "secret_key_file": str(Path(folder) / "secret.key"),
            }
        )
        app = create_app(f"sqlite:///{Path(folder) / 'samples.sqlite3'}", settings=settings)
        with TestClient(app, base_url="https://table.example.org") as client:
            discord = Discord(client, key)
            created = client.post(
                "/api/chronicles", json={"name": "Nights of Marseille", "system": "v5"}
            ).json()
            st_key, chronicle = created["token"], created["chronicle"]["id"]
            discord.ok(
                command("link", [option("code", st_key)], user_id=STORYTELLER, name="Anna", channel=CHANNEL)
            )
            joined = discord.ok(
                command(
                    "link",
                    [option("code", created["invitation"])],
                    user_id=PLAYER,
                    name="Bruno",
                    channel=CHANNEL,
                )
            )
            player = {"Authorization": "Bearer " + joined["data"]["content"].split("||")[1]}
            made = client.post(
                f"/api/chronicles/{chronicle}/characters",
                headers=player,
                json={"name": "Sasha", "sheet": SHEET},
            )
            character = made.json()["id"]
            npc = client.post(
                f"/api/chronicles/{chronicle}/characters",
                headers={"Authorization": f"Bearer {st_key}"},
                json={"name": "Guard", "sheet": {"name": "Guard", "attributes": {"wits": 3}}},
            )
            assert npc.status_code == 201, npc.text
            progeny = (
                Path(__file__).resolve().parents[1] / "interop" / "fixtures" / "progeny_test_vampire.json"
            )
            keys = {
                "invitation": created["invitation"],
                "character": character,
                "attachment": standin.attach("sheet.json", progeny.read_bytes()),
            }
            for system, sheet in OTHER_SHEETS.items():
                seat(client, discord, system, sheet)
            for name, options, user, locale, caption, *game in PLAYS:
                given = options(keys)
                payload = command(
                    name,
                    given,
                    user_id=user,
                    locale=locale,
                    channel=OTHER_CHANNELS[game[0]] if game else CHANNEL,
                    name={STORYTELLER: "Anna", PLAYER: "Bruno"}.get(user, "Chloé"),
                )
                if name == "character":  # the attached file, as Discord describes it
                    attached = keys["attachment"]
                    payload["data"]["resolved"] = {"attachments": {attached["id"]: attached}}
                answer = discord.ok(payload)
                if answer["type"] == 5:  # deferred: what the original message was edited into
                    data = wait_until(
                        lambda payload=payload: standin.originals.get(payload["token"]),
                        what=f"/{name} edited",
                    )
                else:
                    data = answer.get("data") or {}
                samples.append(Sample(name, _typed(name, given), caption, data))
            for command_name, user, wanted, caption in PRESSES:
                shown = next(  # the first answer of that command offering it
                    (
                        sample.answer
                        for sample in samples
                        if sample.name == command_name
                        and any(
                            re.match(wanted, str(part.get("custom_id", "")))
                            for row in sample.answer.get("components") or []
                            for part in row.get("components") or []
                        )
                    ),
                    {},
                )
                found = [
                    part
                    for row in shown.get("components") or []
                    for part in row.get("components") or []
                    if re.match(wanted, str(part.get("custom_id", "")))
                ]
                if not found:  # the dice offered nothing to press (a reroll not advised)
                    continue
                part = found[0]
                values = [part["options"][0]["value"]] if part.get("type") == 3 else None
                payload = component(
                    part["custom_id"],
                    values,
                    on={**shown, "id": "1000000000000000001"},
                    user_id=user,
                    channel=CHANNEL,
                    name={STORYTELLER: "Anna", PLAYER: "Bruno"}[user],
                )
                answer = discord.ok(payload)
                label = part.get("label") or part.get("placeholder", "")
                samples.append(Sample("button", f"[ {label} ]", caption, answer.get("data") or {}))
            rolled = client.post(
                f"/api/chronicles/{chronicle}/characters/{character}/rolls",
                headers=player,
                json={"action": V5_TEST},
            )
            assert rolled.status_code == 201, rolled.text
            seq = rolled.json()["entry"]["seq"]
            posted = wait_until(
                lambda: [m for m in standin.posted(CHANNEL) if f"#{seq} " in json.dumps(m)],
                what="the web roll posted to the channel",
            )
            samples.append(
                Sample(
                    "poster",
                    "(a roll made on the web table)",
                    "What the channel poster posts of an entry made elsewhere.",
                    posted[0],
                )
            )
    return samples


def _quote(text: str) -> list[str]:
    return [f"> {line}" if line else ">" for line in str(text).splitlines()]


def render(data: dict) -> list[str]:
    """One message as Discord shows it, in Markdown (Discord's own markup kept)."""
    lines: list[str] = []
    if data.get("flags", 0) & 64:
        lines.append("> *Only you can see this*")
    if data.get("content"):
        lines += _quote(data["content"])
    for embed in data.get("embeds") or []:
        if lines:
            lines.append(">")
        if embed.get("author"):
            lines.append(f"> {embed['author']['name']}")
        if embed.get("title"):
            lines.append(f"> **{embed['title']}**")
        if embed.get("description"):
            lines += _quote(embed["description"])
        inline = [
            f"**{item['name']}** {item['value']}" for item in embed.get("fields") or [] if item.get("inline")
        ]
        if inline:
            lines.append("> " + " · ".join(inline))
        for item in embed.get("fields") or []:
            if not item.get("inline"):
                lines.append(f"> **{item['name']}**")
                lines += _quote(item["value"])
        if embed.get("footer"):
            lines.append(f"> <sub>{embed['footer']['text']}</sub>")
    controls = []
    for row in data.get("components") or []:
        for part in row.get("components") or []:
            if part.get("type") == 2:
                controls.append(f"`[ {part.get('label', '')} ]`")
            elif part.get("type") == 3:
                controls.append(f"`[ {part.get('placeholder', '…')} ▾ ]`")
    if controls:
        lines += [">", "> " + " ".join(controls)]
    return lines


def markdown(samples: list[Sample]) -> str:
    described = {item["name"]: item["description"] for item in command_definitions()}
    out = [BEGIN, ""]
    for sample in samples:
        title = (
            "The channel poster"
            if sample.name == "poster"
            else f"The button `{sample.typed}`"
            if sample.name == "button"
            else f"`/{sample.name}`"
        )
        heading = f"### {title}"
        if sample.name in described and f"### {title}" not in "\n".join(out):
            heading += f": {described[sample.name]}"
        typed = "" if sample.name == "button" else f" `{sample.typed}`"
        out += [heading, "", f"{sample.caption}{typed}", "", *render(sample.answer), ""]
    out.append(END)
    return "\n".join(out)


def write_into(document: Path, samples: list[Sample]) -> None:
    text = document.read_text(encoding="utf-8")
    before, rest = text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    document.write_text(before + markdown(samples) + after, encoding="utf-8")
