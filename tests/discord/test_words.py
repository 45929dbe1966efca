"""No English word in a French or Spanish Discord message: the embeds and components of the common
actions (a V5 test with its Hunger dice and reroll, an ask and its buttons, a grant refused to a
player, an edge refused without asking), on both stores."""

from __future__ import annotations

import json
import re

import pytest

from tests.discord.helpers import ANNA, ST, faces, seated
from tests.discord.signing import command, component, option
from tests.server.conftest import BACKENDS, V5_SHEET, V20_SHEET

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

ENGLISH = ("normal", "hunger", "difficulty", "grant", "refuse", "reroll", "willpower", "dice")


def _texts(answer: dict) -> str:
    """Every word a user reads in an answer: content, embeds, component labels and placeholders."""
    data = answer.get("data") or answer
    read = [data.get("content") or ""]
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
    return "\n".join(read)


def _english(text: str) -> list[str]:
    return [word for word in ENGLISH if re.search(rf"\b{word}\b", text, re.IGNORECASE)]


@pytest.mark.parametrize("locale", ["fr", "es-ES"])
def test_V5_the_common_actions_read_in_french_and_spanish_without_an_english_word(
    app, make_table, discord, discord_api, locale
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA, difficulty=6)
    table.character(anna, {**V5_SHEET, "hunger": 2})
    seen = {}
    named = [option("trait", "dexterity"), option("trait2", "firearms")]
    with faces(app, 6, 6, 6, 1, 2, 6):
        rolled = discord.ok(command("roll", named, user_id=ANNA, channel=channel, locale=locale))
    seen["roll"] = rolled
    seen["edge refused"] = discord.ok(
        command("roll", [*named, option("difficulty", 2, 4)], user_id=ANNA, channel=channel, locale=locale)
    )
    asked = discord.ok(
        command("ask", [*named, option("difficulty", 2, 4)], user_id=ANNA, channel=channel, locale=locale)
    )
    seen["ask"] = asked
    grant = next(
        c["custom_id"]
        for row in asked["data"]["components"]
        for c in row["components"]
        if c["custom_id"].startswith("rb:g:")
    )
    seen["grant refused"] = discord.ok(component(grant, user_id=ANNA, channel=channel, locale=locale))
    with faces(app, 6, 6, 6, 6, 6, 6):
        seen["granted"] = discord.ok(component(grant, user_id=ST, channel=channel, locale=locale))
    odds = command("odds", named, user_id=ANNA, channel=channel, locale=locale)
    discord.ok(odds)
    seen["odds"] = {"data": discord_api.originals[odds["token"]]}
    seen["sheet"] = discord.ok(command("sheet", [], user_id=ANNA, channel=channel, locale=locale))
    seen["scene"] = discord.ok(
        command("scene", [option("action", "open")], user_id=ST, channel=channel, locale=locale)
    )
    seen["rouse"] = discord.ok(command("rouse", [], user_id=ANNA, channel=channel, locale=locale))
    found = {what: _english(_texts(answer)) for what, answer in seen.items()}
    assert all(not words for words in found.values()), (found, json.dumps(seen, ensure_ascii=False)[:3000])


@pytest.mark.parametrize("locale", ["fr", "es-ES"])
def test_V20_the_common_actions_read_in_french_and_spanish_without_an_english_word(
    make_table, discord, discord_api, locale
):
    table, channel, (anna,) = seated(make_table, discord, "v20", ANNA, difficulty=7)
    table.character(anna, dict(V20_SHEET))
    named = [option("trait", "dexterity"), option("trait2", "firearms")]
    seen = {"roll": discord.ok(command("roll", named, user_id=ANNA, channel=channel, locale=locale))}
    seen["edge refused"] = discord.ok(
        command("roll", [*named, option("difficulty", 4, 4)], user_id=ANNA, channel=channel, locale=locale)
    )
    seen["ask"] = discord.ok(
        command("ask", [*named, option("difficulty", 4, 4)], user_id=ANNA, channel=channel, locale=locale)
    )
    odds = command("odds", named, user_id=ANNA, channel=channel, locale=locale)
    discord.ok(odds)
    seen["odds"] = {"data": discord_api.originals[odds["token"]]}
    seen["sheet"] = discord.ok(command("sheet", [], user_id=ANNA, channel=channel, locale=locale))
    found = {what: _english(_texts(answer)) for what, answer in seen.items()}
    assert all(not words for words in found.values()), (found, json.dumps(seen, ensure_ascii=False)[:3000])
