"""A Discord-only evening, V5 and V20, on both stores: after the chronicle is made, the Storyteller and
two players use nothing but signed interactions (link, bind, a sheet through the form, a scene and
its turn, rolls, a hidden ask granted from the queue, a contest, an extended action, an NPC's attack
soaked by its target's player, the scene closed); then the log exported is verified clean by
``rollbook log verify``, and the table's log read over the API holds each kind of entry made."""

from __future__ import annotations

import pytest

from tests.discord.helpers import ANNA, BRUNO, ST
from tests.discord.signing import command, component, modal, option
from tests.server.conftest import BACKENDS, run_cli

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

SHEETS = {  # what each player types in the new character's form
    "v5": {"attributes": "Dexterity 3, Wits 2, Stamina 2", "skills": "Firearms 2, Melee 2, Awareness 2"},
    "v20": {
        "attributes": "Dexterity 3, Wits 2, Stamina 2, Strength 2",
        "talents": "Alertness 2, Dodge 1",
        "skills": "Melee 2, Firearms 2",
    },
}
CHANNELS = iter(range(5600000000000000001, 5600000000000000999))  # no other test's channels


def ids(data: dict) -> list[str]:
    return [c["custom_id"] for row in data.get("components") or [] for c in row["components"]]


def seq_of(data: dict) -> int:
    return int(data["embeds"][0]["footer"]["text"].split()[0].lstrip("#"))


@pytest.mark.parametrize("system", ["v5", "v20"])
def test_an_evening_played_on_discord_alone_verifies_clean(
    database_url, make_table, discord, discord_api, tmp_path, system
):
    table = make_table(system)
    channel = str(next(CHANNELS))

    def ok(payload: dict) -> dict:
        answer = discord.ok(payload)
        assert answer["type"] == 4, answer
        return answer

    def run(name: str, options: list, user: str) -> dict:
        return ok(command(name, options, user_id=user, channel=channel, locale="fr"))

    def press(custom_id: str, user: str) -> dict:
        answer = ok(component(custom_id, user_id=user, channel=channel))
        assert answer["data"].get("embeds"), answer  # the step made, not refused
        return answer

    run("link", [option("code", table.st["Authorization"].split()[1])], ST)
    run("chronicle", [{"name": "bind", "type": 1, "options": []}], ST)
    names = {ANNA: "Inès", BRUNO: "Olek"}
    for user in (ANNA, BRUNO):
        joined = run("link", [option("code", table.invitation)], user)
        assert "/personnage nouveau" in joined["data"]["content"]
        made = discord.ok(
            modal("rb:cn", {"name": names[user], **SHEETS[system]}, user_id=user, channel=channel)
        )
        assert made["data"]["content"].startswith(f"{names[user]} is yours now"), made
    npc = discord.ok(modal("rb:cn", {"name": "Guard", **SHEETS[system]}, user_id=ST, channel=channel))
    assert npc["data"]["content"].startswith("Guard")

    run("scene", [option("action", "open"), option("name", "Les docks")], ST)
    run("turn", [], ST)
    assert run("roll", [option("trait", "dexterity"), option("trait2", "firearms")], ANNA)["data"]["embeds"]

    asked = discord.ok(
        command(
            "ask",
            [option("trait", "wits"), option("difficulty", 3, 4), option("hidden", True, 5)],
            user_id=BRUNO,
            channel=channel,
        )
    )
    ask = next(c for c in ids(asked["data"]) if c.startswith("rb:g:"))
    queue = discord.ok(command("queue", [], user_id=ST, channel=channel))["data"]
    assert ask in ids(queue)
    granted = discord.ok(component(ask, user_id=ST, channel=channel))
    assert granted["data"]["flags"] == 64 and granted["data"]["embeds"]  # the hidden roll, to the Storyteller

    contest = run(
        "contest",
        [
            option("attacker", "Inès"),
            option("trait", "dexterity"),
            option("defender", "Guard"),
            option("defender_trait", "wits"),
        ],
        ST,
    )["data"]
    first, second = ids(contest)
    press(first, ANNA)
    press(second, ST)

    extended = run(
        "extended",
        [
            option("character", "Olek"),
            option("trait", "wits"),
            option("successes", 3, 4),
            option("rolls", 2, 4),
        ],
        ST,
    )["data"]
    step = ids(extended)
    while step:
        rolled = press(step[-1], BRUNO)["data"]
        step = [c for c in ids(rolled) if c.startswith("rb:ex:")]

    if system == "v20":  # the Guard attacks Inès until a hit deals damage (the table's dice); she soaks

        def hit() -> dict:
            for _ in range(40):
                attack = run(
                    "roll",
                    [
                        option("character", "Guard"),
                        option("trait", "dexterity"),
                        option("trait2", "melee"),
                        option("target", "Inès"),
                    ],
                    ST,
                )["data"]
                if any(":damage:" in c for c in ids(attack)):
                    return attack
            raise AssertionError("the Guard never hit in 40 attacks")

        soak: list[str] = []
        for _ in range(40):
            attack = hit()
            assert attack["content"].startswith(f"<@{ANNA}> Guard attaque Inès"), attack
            damage = press(next(c for c in ids(attack) if ":damage:" in c), ST)["data"]
            soak = [c for c in ids(damage) if ":soak:" in c]
            if soak:
                break
        press(soak[0], ANNA)

    run("scene", [option("action", "close")], ST)

    exported = tmp_path / "log.jsonl"
    exported.write_text(table.export(), encoding="utf-8")
    done = run_cli("log", "verify", str(exported), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    kinds = [entry["kind"] for entry in table.log(limit=500)["entries"]]
    for kind in ("scene_open", "ask", "grant", "contest", "contest_result", "extended", "roll"):
        assert any(k.startswith(kind) for k in kinds), (kind, kinds)
    if system == "v20":
        soaks = [e for e in table.log(limit=500)["entries"] if (e.get("receipt") or {}).get("kind") == "soak"]
        assert soaks
