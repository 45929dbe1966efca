"""Contests and extended actions from Discord (SPEC TR-3, TR-4), on both stores: the Storyteller
declares them with ``/contest`` and ``/extended``; each side's roll is a button under the contest,
its player (an NPC's: the Storyteller) mentioned; an extended action's next roll is a button under
it and under each of its rolls until it is over. The use cases check who presses."""

from __future__ import annotations

import pytest

from tests.discord.helpers import ANNA, BRUNO, ST, faces, seated
from tests.discord.signing import command, component, option, snowflake
from tests.server.conftest import BACKENDS, V5_SHEET
from tests.server.helpers import V20_ATTACKER, V20_DEFENDER

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def custom_ids(answer: dict) -> list[str]:
    return [c["custom_id"] for row in answer["data"].get("components", []) for c in row["components"]]


def labels(answer: dict) -> list[str]:
    return [c["label"] for row in answer["data"].get("components", []) for c in row["components"]]


def test_a_contest_offers_each_side_its_roll_and_logs_the_result(
    database_url, make_table, discord, discord_api
):
    table, channel, (anna, _bruno) = seated(make_table, discord, "v20", ANNA, BRUNO)
    nia = table.character(anna, dict(V20_ATTACKER))
    table.character(table.st, {"name": "Guard", "attributes": {"wits": 2}, "talents": {"alertness": 2}})
    declared = discord.ok(
        command(
            "contest",
            [
                option("attacker", str(nia["id"])),
                option("trait", "dexterity"),
                option("trait2", "melee"),
                option("difficulty", 6, 4),
                option("defender", "guard"),
                option("defender_trait", "wits"),
                option("defender_trait2", "alertness"),
                option("defender_difficulty", 7, 4),
            ],
            user_id=ST,
            channel=channel,
            locale="fr",
        )
    )
    data = declared["data"]
    seq = int(data["embeds"][0]["footer"]["text"].split()[0].lstrip("#"))
    assert custom_ids(declared) == [f"rb:cs:{seq}:a", f"rb:cs:{seq}:d"]
    assert labels(declared) == ["Lancer pour Nia", "Lancer pour Guard"]
    # the attacker's player and the NPC's Storyteller, mentioned and only they
    assert data["content"].split() == [f"<@{ANNA}>", f"<@{ST}>"]
    assert data["allowed_mentions"] == {"parse": [], "users": [ANNA, ST]}
    assert table.log()["entries"][-1]["receipt"]["attacker"]["action"]["ability"] == "melee"

    shown = {**data, "id": snowflake()}  # the answer, as Discord sends it back with a press
    refused = discord.ok(component(f"rb:cs:{seq}:a", user_id=BRUNO, channel=channel, on=shown))
    assert refused["data"]["flags"] == 64 and "embeds" not in refused["data"]
    assert shown["id"] not in discord_api.edits  # refused: the message is left as it was
    rolled = discord.ok(component(f"rb:cs:{seq}:a", user_id=ANNA, channel=channel, on=shown))
    assert rolled["type"] == 4 and rolled["data"]["embeds"], rolled
    # the message stays true: the side that rolled has no button any more (the bot's own message)
    [edit] = discord_api.edits[shown["id"]]
    assert [c["custom_id"] for row in edit["components"] for c in row["components"]] == [f"rb:cs:{seq}:d"]
    assert discord_api.requests(f"PATCH /channels/{channel}/messages/{shown['id']}")
    again = discord.ok(component(f"rb:cs:{seq}:a", user_id=ANNA, channel=channel))
    assert again["data"]["flags"] == 64  # that side has rolled
    assert "embeds" not in discord.ok(component(f"rb:cs:{seq}:d", user_id=ANNA, channel=channel))["data"]
    discord.ok(component(f"rb:cs:{seq}:d", user_id=ST, channel=channel))
    result = table.log()["entries"][-1]
    assert result["kind"] == "contest_result" and result["refers_to"] == seq
    assert result["receipt"]["winner"] in ("attacker", "defender")


def test_an_extended_actions_next_roll_is_offered_until_it_is_over(database_url, app, make_table, discord):
    table, channel, (anna,) = seated(make_table, discord, "v5", ANNA)
    sasha = table.character(anna, dict(V5_SHEET))
    declared = discord.ok(
        command(
            "extended",
            [
                option("character", "sasha"),
                option("trait", "wits"),
                option("trait2", "firearms"),
                option("successes", 4, 4),
                option("rolls", 3, 4),
            ],
            user_id=ST,
            channel=channel,
        )
    )
    seq = int(declared["data"]["embeds"][0]["footer"]["text"].split()[0].lstrip("#"))
    assert custom_ids(declared) == [f"rb:ex:{seq}"]
    assert labels(declared) == ["Next roll for Sasha"]
    assert declared["data"]["content"] == f"<@{ANNA}>"
    # Wits 2 + Firearms 3 = 5 dice, one of them Hunger: two successes a roll, then four (reached)
    with faces(app, 7, 8, 2, 3, 4, 7, 8, 2, 3, 4):
        first = discord.ok(component(f"rb:ex:{seq}", user_id=ANNA, channel=channel))
        # going on: the next roll under this one (beside the V5 Willpower reroll of that roll)
        assert custom_ids(first)[-1] == f"rb:ex:{seq}"
        second = discord.ok(component(f"rb:ex:{seq}", user_id=ANNA, channel=channel))
    assert not [c for c in custom_ids(second) if c.startswith("rb:ex:")]  # reached: nothing more
    rolls = [e for e in table.log()["entries"] if e["refers_to"] == seq]
    assert [r["receipt"]["extended"]["status"] for r in rolls] == ["going", "reached"]
    over = discord.ok(component(f"rb:ex:{seq}", user_id=ANNA, channel=channel))
    assert over["data"]["flags"] == 64 and "embeds" not in over["data"]
    assert sasha["id"] == rolls[0]["character"]


def test_an_npc_attack_offers_the_defence_to_the_defenders_player_mentioned(
    database_url, app, make_table, discord
):
    """V20-17, V20-20: the Storyteller's NPC attacks a player's character; the dodge (and, after the
    damage, the soak) is offered to that player, mentioned, with the attacker, the weapon and the
    attack's successes (then the damage's levels)."""
    table, channel, (anna,) = seated(make_table, discord, "v20", ANNA)
    bran = table.character(anna, dict(V20_DEFENDER))
    table.character(table.st, dict(V20_ATTACKER))
    with faces(app, 8, 8, 8, 2, 3, *[8] * 20):  # Dexterity 3 + Melee 2: three successes
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
                channel=channel,
                locale="fr",
            )
        )
        data = attack["data"]
        assert data["content"] == f"<@{ANNA}> Nia attaque Bran avec knife (réussites\u202f: 3)"
        assert data["allowed_mentions"] == {"parse": [], "users": [ANNA]}
        steps = {c.split(":")[3]: c for c in custom_ids(attack) if c.startswith("rb:st:")}
        assert steps["dodge"].endswith(f":{bran['id']}")
        damage = discord.ok(component(steps["damage"], user_id=ST, channel=channel))
    assert damage["data"]["content"].startswith(f"<@{ANNA}> Nia attacks Bran with knife (")
    assert "levels of lethal damage" in damage["data"]["content"]
    soak = [c for c in custom_ids(damage) if c.startswith("rb:st:") and ":soak:" in c]
    assert soak and soak[0].endswith(f":{bran['id']}")
    soaked = discord.ok(component(soak[0], user_id=ANNA, channel=channel))
    assert soaked["type"] == 4 and table.log()["entries"][-1]["receipt"]["kind"] == "soak"
    assert not soaked["data"]["content"]  # nothing more is offered to anyone


@pytest.mark.parametrize(
    "system, sheet, spend",
    [
        ("v20", dict(V20_ATTACKER, willpower={"permanent": 5, "current": 5}), "willpower"),
        ("v5", dict(V5_SHEET, blood_potency=2), "blood_surge"),
    ],
    ids=["v20-willpower", "v5-blood-surge"],
)
def test_a_roll_spends_willpower_or_surges_from_discord(
    database_url, make_table, discord, system, sheet, spend
):
    """V20-9: a Willpower point for an automatic success; V5-11: a Blood Surge and its Rouse check."""
    table, channel, (anna,) = seated(make_table, discord, system, ANNA)
    table.character(anna, sheet)
    answer = discord.ok(
        command(
            "roll",
            [option("trait", "dexterity"), option("trait2", "firearms"), option(spend, True, 5)],
            user_id=ANNA,
            channel=channel,
        )
    )
    assert answer["type"] == 4 and answer["data"].get("embeds"), answer
    rolled = [e for e in table.log()["entries"] if e["kind"] == "roll"][-1]
    assert rolled["receipt"]["action"][spend] is True
    if spend == "willpower":
        assert {"resource": "willpower", "before": 5, "after": 4} in rolled["effects"]
    else:  # Dexterity 3 + Firearms 3, and Blood Potency 2's surge: two dice more
        assert rolled["receipt"]["request"]["pool"] == 8
