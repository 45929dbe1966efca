"""What the table sees on Discord, on both stores: the advised Willpower reroll's button rerolls
exactly the dice it names (V5-8), each entry is posted to the channel once, a revealed hidden roll
reaches the channel, ``/odds`` answers the roll's own request's odds, a removed member's dice are
never posted publicly, and ``/roll specialty:`` reads the sheet's specialties."""

from __future__ import annotations

import pytest

from rollbook.present.preview import preview
from tests.conftest import wait_until
from tests.discord.helpers import ANNA, ST, faces, posted_seqs, seated
from tests.discord.signing import autocomplete, command, component, option
from tests.server.conftest import BACKENDS, V5_SHEET

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def _buttons(answer: dict) -> list[str]:
    return [
        c["custom_id"]
        for row in answer["data"].get("components", [])
        for c in row["components"]
        if c.get("type") == 2
    ]


@pytest.mark.parametrize(
    "normal, advised",
    [([6, 6, 6, 6, 1], [4]), ([6, 6, 6, 1, 2], [3, 4]), ([6, 6, 1, 2, 3], [2, 3, 4])],
    ids=["one", "two", "three"],
)
def test_V5_8_the_advised_reroll_button_rerolls_exactly_the_dice_it_names(
    app, make_table, discord, normal, advised
):
    # standing difficulty 6: five successes of six, one short, so a reroll is advised
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA, difficulty=6)
    table.character(anna, dict(V5_SHEET))  # Dexterity 3 + Firearms 3, Hunger 1: five normal dice
    with faces(app, *normal, 6, *[10] * len(advised)):
        answer = discord.ok(
            command(
                "roll",
                [option("trait", "dexterity"), option("trait2", "firearms")],
                user_id=ANNA,
                channel=channel,
            )
        )
        [reroll] = [c for c in _buttons(answer) if c.startswith("rb:rr:")]
        seq = answer["data"]["embeds"][0]["footer"]["text"].split()[0].lstrip("#")
        assert reroll == f"rb:rr:{seq}:" + ".".join(map(str, advised))
        pressed = discord.ok(component(reroll, user_id=ANNA, channel=channel))
    assert pressed["type"] == 4 and pressed["data"].get("embeds"), pressed
    last = table.log()["entries"][-1]
    assert last["kind"] == "reroll" or last["receipt"].get("rerolls"), last
    rerolls = last["receipt"]["rerolls"]
    assert rerolls[-1]["dice"] == advised and rerolls[-1]["faces"] == [10] * len(advised)


def _seq_of(answer: dict) -> int:
    return int(answer["data"]["embeds"][0]["footer"]["text"].split()[0].lstrip("#"))


def test_a_scene_opened_and_closed_from_discord_is_posted_once(make_table, discord, discord_api, client):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    sasha = table.character(anna, dict(V5_SHEET))
    after = table.log()["head"]["seq"]
    opened = discord.ok(
        command("scene", [option("action", "open"), option("name", "Elysium")], user_id=ST, channel=channel)
    )
    closed = discord.ok(command("scene", [option("action", "close")], user_id=ST, channel=channel))
    assert opened["type"] == 4 and "flags" not in opened["data"]  # the answer is the channel's message
    assert closed["type"] == 4 and "flags" not in closed["data"]
    scene_seqs = [e["seq"] for e in table.log()["entries"] if e["seq"] > after and "scene" in e["kind"]]
    assert len(scene_seqs) == 2, table.log()["entries"]
    # a roll made on the web afterwards: once it is posted, the poster has passed the scene's entries
    on_web = table.roll(anna, sasha["id"], {"kind": "test", "attribute": "wits", "skill": "firearms"})
    web_seq = on_web.json()["entry"]["seq"]
    wait_until(lambda: web_seq in posted_seqs(discord_api.posted(channel)), 15, what="the web roll posted")
    posted = posted_seqs(discord_api.posted(channel))
    assert [seq for seq in posted if seq in scene_seqs] == [] and posted.count(web_seq) == 1


def test_a_revealed_hidden_roll_reaches_the_channel_in_full(make_table, discord, discord_api, client):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    sasha = table.character(anna, dict(V5_SHEET))
    hidden = discord.ok(
        command(
            "roll",
            [option("character", str(sasha["id"])), option("trait", "wits"), option("hidden", True, 5)],
            user_id=ST,
            channel=channel,
        )
    )
    hidden_seq = _seq_of(hidden)
    revealed = client.post(f"{table.base}/log/{hidden_seq}/reveal", headers=table.st)
    assert revealed.status_code == 201, revealed.text
    reveal_seq = revealed.json()["entry"]["seq"]
    wait_until(lambda: reveal_seq in posted_seqs(discord_api.posted(channel)), 15, what="the reveal posted")
    [message] = [m for m in discord_api.posted(channel) if posted_seqs([m]) == [reveal_seq]]
    footers = [embed["footer"]["text"] for embed in message["embeds"]]
    assert len(footers) == 2 and footers[1].startswith(f"#{hidden_seq} "), footers
    shown = message["embeds"][1]
    assert shown["description"].startswith("**") and any(ch.isdigit() for ch in shown["description"]), shown
    assert hidden_seq not in posted_seqs(
        discord_api.posted(channel)
    )  # the hidden roll was never posted alone


def test_an_unlinked_or_removed_user_rolls_nothing_publicly_at_a_bound_table(
    make_table, discord, discord_api, client
):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    before = len(table.log()["entries"])
    stranger = discord.ok(
        command("roll", [option("pool", 3, 4)], user_id="5100000000000000077", channel=channel)
    )
    assert stranger["data"]["flags"] == 64 and "embeds" not in stranger["data"], stranger
    # Anna removed from the chronicle: her link ends with her membership
    members = client.get(f"{table.base}/members", headers=table.st).json()
    [anna_member] = [
        m for m in (members.get("members") if isinstance(members, dict) else members) if m["name"] == "U02"
    ]
    removed = client.delete(f"{table.base}/members/{anna_member['id']}", headers=table.st)
    assert removed.status_code in (200, 204), removed.text
    gone = discord.ok(command("roll", [option("pool", 3, 4)], user_id=ANNA, channel=channel))
    assert gone["data"]["flags"] == 64 and "embeds" not in gone["data"], gone
    assert [e["kind"] for e in table.log()["entries"][before:]] == ["member_removed"]
    # elsewhere (no chronicle's table), the same dice are rolled for the user, logged nowhere
    elsewhere = discord.ok(
        command("roll", [option("pool", 3, 4)], user_id="5100000000000000077", channel="5300000000000000001")
    )
    assert elsewhere["data"].get("embeds") and "flags" not in elsewhere["data"]


@pytest.mark.parametrize(
    "system, sheet, traits, standing",
    [
        ("v5", V5_SHEET, ("dexterity", "firearms"), 4),
        (
            "v20",
            {"name": "Lucita", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}},
            ("dexterity", "firearms"),
            8,
        ),
    ],
    ids=["v5", "v20"],
)
def test_A_1_odds_are_those_of_the_request_the_roll_makes_under_the_standing_difficulty(
    make_table, discord, discord_api, system, sheet, traits, standing
):
    table, channel, (anna,) = seated(make_table, discord, system, ANNA, difficulty=standing)
    table.character(anna, dict(sheet))
    named = [option("trait", traits[0]), option("trait2", traits[1])]
    asked = command("odds", named, user_id=ANNA, channel=channel)
    assert discord.ok(asked) == {"type": 5}
    shown = discord_api.originals[asked["token"]]["embeds"][0]["description"]
    rolled = discord.ok(command("roll", named, user_id=ANNA, channel=channel))
    receipt = table.log()["entries"][-1]["receipt"]
    assert _seq_of(rolled) == table.log()["entries"][-1]["seq"]
    assert receipt["action"]["difficulty"] == standing  # the roll honours the standing difficulty
    expected, _pool = preview(
        system,
        dict(sheet),
        receipt["action"],
        mode=table.created["chronicle"]["mode"],
        role="player",
        lang="en",
    )
    assert expected is not None
    assert shown.splitlines()[: 1 + len(expected.rows)] == [
        expected.headline,
        *[f"{row.label}: **{row.percent}** ({row.fraction})" for row in expected.rows],
    ]
    # and not the odds at the rules' default difficulty
    default, _ = preview(
        system,
        dict(sheet),
        {k: v for k, v in receipt["action"].items() if k != "difficulty"},
        mode=table.created["chronicle"]["mode"],
        role="player",
        lang="en",
    )
    assert default is not None and default.headline != expected.headline or default.rows != expected.rows


def test_V5_specialty_is_matched_without_case_or_accents_and_offered_by_autocomplete(make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    table.character(anna, {**V5_SHEET, "specialties": {"firearms": ["Tir précis"]}})
    offered = discord.ok(
        autocomplete(
            "roll",
            [
                option("trait", "dexterity"),
                option("trait2", "firearms"),
                option("specialty", "TIR PREC", focused=True),
            ],
            user_id=ANNA,
            channel=channel,
        )
    )
    assert offered == {
        "type": 8,
        "data": {"choices": [{"name": "Tir précis (Firearms)", "value": "Tir précis"}]},
    }
    fr = discord.ok(
        autocomplete(
            "roll", [option("specialty", "", focused=True)], user_id=ANNA, channel=channel, locale="fr"
        )
    )
    assert fr["data"]["choices"] == [{"name": "Tir précis (Armes à feu)", "value": "Tir précis"}]
    rolled = discord.ok(
        command(
            "roll",
            [option("trait", "dexterity"), option("trait2", "firearms"), option("specialty", "TIR PRECIS")],
            user_id=ANNA,
            channel=channel,
        )
    )
    assert rolled["type"] == 4 and rolled["data"].get("embeds"), rolled
    receipt = table.log()["entries"][-1]["receipt"]
    assert receipt["action"]["specialty"] == "Tir précis"
    assert len(receipt["faces"]) == 3 + 3 + 1  # Dexterity 3 + Firearms 3 + the specialty's die
