"""Discord at the table, on both stores: a roll made on Discord reaches the web table's
live feed (another app process's), a Storyteller's hidden roll is shown to them alone, autocomplete
reads the linked character's sheet, and the exchange's next step is a button under the attack."""

from __future__ import annotations

import pytest

from rollbook.app.app import create_app
from rollbook.discord.rest import DiscordRest
from tests.conftest import wait_until
from tests.discord.helpers import ANNA, BRUNO, ST, posted_seqs, seated
from tests.discord.signing import APPLICATION, autocomplete, command, component, option
from tests.server.conftest import BACKENDS, V5_SHEET, ThreadedServer
from tests.server.feed_helpers import EventReader
from tests.server.helpers import V20_ATTACKER, V20_DEFENDER

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def test_a_roll_made_on_discord_reaches_the_web_tables_live_feed(database_url, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_SHEET))
    after = table.log()["head"]["seq"]
    # The feed ends after `quiet` seconds without an entry: one that streams until its client leaves kept
    # the reader's join (30 s) and then the server's stop (10 s) waiting. `quiet` is well above the
    # roll's way from Discord to the feed (well under a second).
    quiet = 10
    with (
        ThreadedServer(create_app(database_url)) as web,
        EventReader(
            web.url, f"{table.base}/events", table.st, {"after": after, "idle_timeout": quiet}
        ) as feed,
    ):
        answer = discord.ok(
            command(
                "roll",
                [option("trait", "dexterity"), option("trait2", "firearms")],
                user_id=ANNA,
                channel=channel,
            )
        )
        seq = int(answer["data"]["embeds"][0]["footer"]["text"].split()[0].lstrip("#"))
        wait_until(lambda: seq in feed.seqs(), 15, what="the Discord roll on the web table's live feed")
        assert feed.ended.wait(quiet + 10), "the feed did not end after its quiet seconds"
    assert [e for e in feed.named("entry") if e["data"]["seq"] == seq][0]["data"]["actor"]["name"] == "U02"


def test_a_hidden_roll_is_shown_to_the_storyteller_alone(database_url, make_table, discord, client):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    sasha = table.character(anna, dict(V5_SHEET))
    answer = discord.ok(
        command(
            "roll",
            [option("character", str(sasha["id"])), option("trait", "wits"), option("hidden", True, 5)],
            user_id=ST,
            channel=channel,
        )
    )
    assert answer["type"] == 4 and answer["data"]["flags"] == 64, (
        answer
    )  # ephemeral: the Storyteller's eyes only
    hidden = [e for e in table.log()["entries"] if e["kind"] == "roll"]
    assert hidden and hidden[-1]["visibility"] == "hidden"
    # a player may not roll hidden (the Storyteller's edge): refused, ephemerally, nothing logged
    before = len(table.log()["entries"])
    refused = discord.ok(
        command("roll", [option("trait", "wits"), option("hidden", True, 5)], user_id=ANNA, channel=channel)
    )
    assert refused["data"]["flags"] == 64 and "embeds" not in refused["data"]
    assert len(table.log()["entries"]) == before


def test_autocomplete_reads_the_linked_characters_sheet_in_the_users_language(make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_SHEET))
    answer = discord.ok(
        autocomplete(
            "roll", [option("trait", "arm", focused=True)], user_id=ANNA, channel=channel, locale="fr"
        )
    )
    assert answer["type"] == 8
    assert answer["data"]["choices"] == [{"name": "Armes à feu 3", "value": "firearms"}]
    everything = discord.ok(
        autocomplete("roll", [option("trait", "", focused=True)], user_id=ANNA, channel=channel)
    )
    assert {c["value"] for c in everything["data"]["choices"]} >= {"dexterity", "wits", "firearms"}
    stranger = discord.ok(
        autocomplete(
            "roll", [option("trait", "", focused=True)], user_id="5199999999999999999", channel=channel
        )
    )
    assert stranger == {"type": 8, "data": {"choices": []}}


def test_the_exchange_goes_on_with_buttons_each_pressed_by_whoever_may(make_table, discord):
    table, channel, (anna, bruno) = seated(make_table, discord, "v20", ANNA, BRUNO)
    nia = table.character(anna, dict(V20_ATTACKER))
    bran = table.character(bruno, dict(V20_DEFENDER))
    attack = None
    for _ in range(30):  # the server's own dice: until the attack hits
        answer = discord.ok(
            command(
                "roll",
                [option("trait", "dexterity"), option("trait2", "melee"), option("target", str(bran["id"]))],
                user_id=ANNA,
                channel=channel,
            )
        )
        steps = [
            c["custom_id"]
            for row in answer["data"].get("components", [])
            for c in row["components"]
            if c["custom_id"].startswith("rb:st:")
        ]
        if steps:
            attack = next(s for s in steps if s.split(":")[3] == "damage")
            # V20-20: the defender's dodge is offered beside the attacker's damage
            seq = attack.split(":")[2]
            assert [s for s in steps if s.split(":")[3] == "dodge"] == [f"rb:st:{seq}:dodge:{bran['id']}"]
            break
    assert attack is not None and attack.endswith(f":{nia['id']}")
    # the defender may not take the attacker's step: refused to them, ephemerally
    refused = discord.ok(component(attack, user_id=BRUNO, channel=channel))
    assert refused["data"]["flags"] == 64 and "embeds" not in refused["data"]
    damage = discord.ok(component(attack, user_id=ANNA, channel=channel))
    assert damage["type"] == 4 and damage["data"]["embeds"], damage
    entries = table.log()["entries"]
    assert entries[-1]["kind"] == "roll" and entries[-1]["receipt"]["kind"] == "damage"
    assert entries[-1]["refers_to"] is not None
    soak = [
        c["custom_id"]
        for row in damage["data"].get("components", [])
        for c in row["components"]
        if c["custom_id"].startswith("rb:st:")
    ]
    if entries[-1]["receipt"]["result"].get("levels"):  # a hit that did damage: the defender soaks it
        assert soak and soak[0].split(":")[3] == "soak" and soak[0].endswith(f":{bran['id']}")
        soaked = discord.ok(component(soak[0], user_id=BRUNO, channel=channel))
        assert soaked["type"] == 4 and table.log()["entries"][-1]["receipt"]["kind"] == "soak"


def test_the_poster_skips_what_an_interaction_showed_there_and_posts_the_rest(
    make_table, discord, discord_api
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    sasha = table.character(anna, dict(V5_SHEET))
    answer = discord.ok(
        command(
            "roll",
            [option("trait", "dexterity"), option("trait2", "firearms")],
            user_id=ANNA,
            channel=channel,
        )
    )
    on_discord = int(answer["data"]["embeds"][0]["footer"]["text"].split()[0].lstrip("#"))
    on_web = table.roll(anna, sasha["id"], {"kind": "test", "attribute": "wits", "skill": "firearms"})
    assert on_web.status_code == 201, on_web.text
    web_seq = on_web.json()["entry"]["seq"]
    wait_until(lambda: web_seq in posted_seqs(discord_api.posted(channel)), 15, what="the web roll posted")
    assert on_discord not in posted_seqs(discord_api.posted(channel))  # answered there already: not twice


def test_a_deferred_answer_edits_the_original_and_survives_discord_being_down(
    app, make_table, discord, discord_api
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, dict(V5_SHEET))
    odds = [option("trait", "dexterity"), option("trait2", "firearms")]
    payload = command("odds", odds, user_id=ANNA, channel=channel, locale="es-ES")
    assert discord.ok(payload) == {"type": 5}  # "thinking…" at once, the odds after
    edited = discord_api.originals[payload["token"]]
    assert (
        "%" in edited["embeds"][0]["description"] and edited["embeds"][0]["title"] == "Probabilidades exactas"
    )
    previous = app.state.discord_rest
    app.state.discord_rest = DiscordRest(
        discord_api.base, discord_api.bot_token, application_id=APPLICATION, budget=0.5
    )
    discord_api.down("messages/@original")
    try:
        late = command("odds", odds, user_id=ANNA, channel=channel)
        assert discord.ok(late) == {"type": 5}  # the edit failed after the answer: logged, nothing raised
        assert late["token"] not in discord_api.originals
    finally:
        discord_api.up("messages/@original")
        app.state.discord_rest = previous


@pytest.mark.parametrize(
    "system, sheet, traits",
    [
        (
            "v20",
            {"name": "Lucita", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}},
            ("dexterity", "firearms"),
        ),
        ("tiers", {"name": "Ash", "skills": {"stealth": 40}}, ("stealth",)),
        (
            "tiers",
            {
                "name": "Ash",
                "skills": {"firearms": 40},
                "weapons": [{"name": "Pistol", "bonus": 5, "capacity": 3, "spare": 24}],
            },
            ("firearms", "Pistol"),
        ),
        (
            "rollunder",
            {"name": "Mara", "attributes": {"agility": 12}, "skills": {"lockpicking": 14}},
            ("lockpicking",),
        ),
    ],
)
def test_every_game_rolls_a_sheets_traits_from_discord(make_table, discord, system, sheet, traits):
    table, channel, (anna,) = seated(make_table, discord, system, ANNA)
    made = table.character(anna, dict(sheet))
    names = ("trait", "weapon") if "weapons" in sheet else ("trait", "trait2")
    extra = [option("bullets", 1, 4)] if "weapons" in sheet else []
    answer = discord.ok(
        command(
            "roll",
            [option(n, t) for n, t in zip(names, traits)] + extra,
            user_id=ANNA,
            channel=channel,
            locale="fr",
        )
    )
    assert answer["type"] == 4 and answer["data"].get("embeds"), answer
    rolled = [e for e in table.log()["entries"] if e["kind"] == "roll"][-1]
    assert rolled["character"] == made["id"]
    action = rolled["receipt"]["action"]
    assert set(traits) <= {v for v in action.values() if isinstance(v, str)}, action


@pytest.mark.parametrize("system, sheet", [("v5", V5_SHEET), ("v20", V20_DEFENDER)], ids=["v5", "v20"])
def test_sheet_shows_the_tracks_a_player_checks_between_rolls(make_table, discord, system, sheet):
    """``/sheet`` (ephemeral) shows the resources the rules spend — V5 Hunger, Willpower, Health and
    Humanity; V20 Willpower, blood and health — before the ratings, in the user's language."""
    table, channel, (anna,) = seated(make_table, discord, system, ANNA)
    table.character(anna, dict(sheet))
    answer = discord.ok(command("sheet", [], user_id=ANNA, channel=channel, locale="fr"))
    assert answer["data"]["flags"] == 64
    names = [f["name"] for f in answer["data"]["embeds"][0]["fields"]]
    expected = (
        ["Soif", "Volonté", "Santé", "Puissance du Sang", "Humanité"]
        if system == "v5"
        else ["Volonté", "Réserve de sang", "Santé"]
    )
    assert names[: len(expected)] == expected
    values = {f["name"]: f["value"] for f in answer["data"]["embeds"][0]["fields"]}
    if system == "v20":
        assert values["Santé"] == "Indemne" and "par tour" in values["Réserve de sang"]
    else:
        assert values["Soif"] == f"{sheet.get('hunger', 1)}/5"
