"""A Discord-only evening, V5 and V20, on both stores: the Storyteller and two players use nothing but
signed interactions, from the chronicle made (``/chronicle new``) to the scene closed: sheets through
the form and an import, a scene and its turn, rolls, a Willpower reroll, a Blood Surge, a power with
its Rouse checks, V20 blood and Willpower spent, Willpower and Virtue rolls, feeding, a compulsion
called and ended, a frenzy test the Storyteller calls, a hidden ask granted from the queue and
revealed, a contest, an extended action, an NPC's attack soaked by its target's player.

Then the log exported is verified clean by ``rollbook log verify``, and what Discord showed in the
channel (the answers and the poster's posts) is the web page's view of the same log: every public
entry shown once, each with the web card's title and outcome (each entry's page, read by the
Storyteller through the web app)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from tests.conftest import wait_until
from tests.discord.helpers import ANNA, BRUNO, ST
from tests.discord.signing import autocomplete, command, component, modal, option
from tests.server.conftest import BACKENDS, Table, run_cli

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)

SHEETS = {  # what each player types in the new character's form
    "v5": {"attributes": "Dexterity 3, Wits 2, Stamina 2", "skills": "Firearms 2, Melee 2, Awareness 2"},
    "v20": {
        "attributes": "Dexterity 3, Wits 2, Stamina 2, Strength 2",
        "talents": "Alertness 2, Dodge 1",
        "skills": "Melee 2, Firearms 2",
    },
}
PROGENY = Path(__file__).resolve().parents[1] / "interop" / "fixtures" / "progeny_test_vampire.json"
CHANNELS = iter(range(5600000000000000001, 5600000000000000999))  # no other test's channels


def ids(data: dict) -> list[str]:
    return [c["custom_id"] for row in data.get("components") or [] for c in row["components"]]


def seq_of(embed: dict) -> int:
    return int(embed["footer"]["text"].split()[0].lstrip("#"))


def words(html: str) -> str:
    return re.sub(r"[ \t\r\n]+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()  # U+202F kept


def web_card(html: str, seq: int) -> tuple[str, str]:
    """(title, outcome) of the card of entry ``seq`` on its page, as the web app draws it."""
    found = re.search(rf'<li id="entry-{seq}" class="card .*?</li>', html, re.S)
    assert found, seq
    card = found.group(0)
    title = re.search(r'<p class="card-title">(.*?)(<span class="badge|</p>)', card, re.S)
    outcome = re.search(r'<p class="verdict"><span class="outcome[^>]*>(.*?)</span>', card, re.S)
    return words(title.group(1)) if title else "", words(outcome.group(1)) if outcome else ""


def discord_card(embed: dict) -> tuple[str, str]:
    """(title, outcome) of an entry's embed, as Discord shows it."""
    first = (embed.get("description") or "").split("\n", 1)[0]
    outcome = first[2:-2] if first.startswith("**") and first.endswith("**") else ""
    return embed.get("title", ""), outcome


@pytest.mark.parametrize("system", ["v5", "v20"])
def test_an_evening_played_on_discord_alone_verifies_clean_and_reads_as_the_web_page(
    database_url, client, discord, discord_api, tmp_path, system
):
    channel = str(next(CHANNELS))
    answered: dict[int, list[dict]] = {}  # seq -> the embeds Discord's answers showed in the channel

    def keep(data: dict) -> dict:
        if not int(data.get("flags") or 0) & 64:
            for embed in data.get("embeds") or []:
                answered.setdefault(seq_of(embed), []).append(embed)
        return data

    def run(name: str, options: list, user: str) -> dict:
        answer = discord.ok(command(name, options, user_id=user, channel=channel, locale="fr"))
        assert answer["type"] == 4, answer
        return keep(answer["data"])

    def sub(name: str, subcommand: str, options: list, user: str) -> dict:
        return run(name, [{"name": subcommand, "type": 1, "options": options}], user)

    def done(data: dict) -> dict:
        assert data.get("embeds") and not int(data.get("flags") or 0) & 64, data  # made, in the channel
        return data

    def press(custom_id: str, user: str, values: list[str] | None = None) -> dict:
        answer = discord.ok(component(custom_id, values, user_id=user, channel=channel, locale="fr"))
        assert answer["data"].get("embeds"), answer  # the step made, not refused
        return keep(answer["data"])

    # the Storyteller makes the chronicle here: this channel its table, its key and invitation told
    made = sub(
        "chronicle",
        "new",
        [option("name", "Les docks"), option("system", system), option("language", "fr")],
        ST,
    )
    invitation, key = made["content"].split("||")[1], made["content"].split("||")[3]
    verify = run("verify", [], ST)["content"]
    chronicle = int(re.search(r"/chronicles/(\d+)/log\.jsonl", verify).group(1))
    table = Table(
        client, {"chronicle": {"id": chronicle, "system": system}, "token": key, "invitation": invitation}
    )

    names = {ANNA: "Inès", BRUNO: "Olek"}
    for user in (ANNA, BRUNO):
        joined = run("link", [option("code", invitation)], user)
        assert "/personnage nouveau" in joined["content"]
    made = discord.ok(modal("rb:cn", {"name": "Inès", **SHEETS[system]}, user_id=ANNA, channel=channel))
    assert made["data"]["content"].startswith("Inès is yours now"), made
    if system == "v5":  # Olek's sheet imported from Progeny: a vampire with his Disciplines' powers
        attached = discord_api.attach("olek.json", PROGENY.read_bytes())
        imported = command("character", [], user_id=BRUNO, channel=channel, locale="fr")
        imported["data"]["options"] = [
            {"name": "import", "type": 1, "options": [option("file", attached["id"], 11)]}
        ]
        imported["data"]["resolved"] = {"attachments": {attached["id"]: attached}}
        assert discord.ok(imported)["type"] == 5
        wait_until(lambda: discord_api.originals.get(imported["token"]), what="the import's report")
        names[BRUNO] = "Test Vampire"
    else:
        discord.ok(modal("rb:cn", {"name": "Olek", **SHEETS[system]}, user_id=BRUNO, channel=channel))
    npc = discord.ok(modal("rb:cn", {"name": "Guard", **SHEETS[system]}, user_id=ST, channel=channel))
    assert npc["data"]["content"].startswith("Guard")

    run("scene", [option("action", "open"), option("name", "Les docks")], ST)
    run("turn", [], ST)
    rolled = done(run("roll", [option("trait", "dexterity"), option("trait2", "firearms")], ANNA))

    if system == "v5":
        press(next(c for c in ids(rolled) if c.startswith("rb:rs:")), ANNA, ["0"])  # V5-8
        done(
            run(
                "roll",
                [option("trait", "dexterity"), option("trait2", "melee"), option("blood_surge", True, 5)],
                ANNA,
            )
        )  # V5-11
        powers = discord.ok(
            autocomplete("power", [{**option("power", ""), "focused": True}], user_id=BRUNO, channel=channel)
        )["data"]["choices"]
        assert powers, "the imported sheet's powers offered"
        done(run("power", [option("power", powers[0]["value"])], BRUNO))  # V5-10, its Rouse checks
        done(run("rouse", [], ANNA))
        done(run("willpower", [], ANNA))
        done(run("spend", [option("resource", "willpower")], ANNA))
        # a kill slakes even the last Hunger, whatever the dice left (Book)
        done(run("feed", [option("character", "Inès"), option("amount", 1, 4), option("kill", True, 5)], ST))
        called = done(
            sub(
                "compulsion",
                "call",
                [option("character", "Inès"), option("compulsion", "hunger"), option("until", "ended")],
                ST,
            )
        )
        assert called["content"].startswith(f"<@{ANNA}>")
        done(sub("compulsion", "end", [option("character", "Inès")], ST))
        frenzy = done(run("frenzy", [option("character", "Inès"), option("difficulty", 2, 4)], ST))
        assert frenzy["content"].startswith(f"<@{ANNA}>")  # the Storyteller's call, its player told
    else:
        done(run("feed", [option("character", "Inès"), option("amount", 3, 4)], ST))  # blood regained
        done(run("spend", [option("resource", "blood")], ANNA))  # V20-16
        done(run("spend", [option("resource", "willpower")], ANNA))
        done(
            run(
                "roll",
                [option("trait", "wits"), option("trait2", "alertness"), option("willpower", True, 5)],
                BRUNO,  # V20-9: Olek's one Willpower (Inès spent hers)
            )
        )
        done(run("willpower", [], ANNA))
        done(run("virtue", [option("virtue", "courage")], ANNA))
        frenzy = done(
            run(
                "virtue",
                [option("character", "Inès"), option("virtue", "self_control"), option("difficulty", 7, 4)],
                ST,
            )
        )  # the Storyteller's frenzy call: a Self-Control roll at their difficulty, its player told
        assert frenzy["content"].startswith(f"<@{ANNA}>")

    asked = discord.ok(
        command(
            "ask",
            [option("trait", "wits"), option("difficulty", 3, 4), option("hidden", True, 5)],
            user_id=ANNA,
            channel=channel,
        )
    )
    ask = next(c for c in ids(asked["data"]) if c.startswith("rb:g:"))
    queue = discord.ok(command("queue", [], user_id=ST, channel=channel))["data"]
    assert ask in ids(queue)
    granted = discord.ok(component(ask, user_id=ST, channel=channel))["data"]
    assert granted["flags"] == 64 and granted["embeds"]  # the hidden roll, to the Storyteller
    [reveal] = [c for c in ids(granted) if c.startswith("rb:rv:")]
    revealed = discord.ok(component(reveal, user_id=ST, channel=channel))["data"]
    assert revealed["flags"] == 64 and revealed["embeds"]  # the reveal is the poster's to post

    contest = done(
        run(
            "contest",
            [
                option("attacker", "Inès"),
                option("trait", "dexterity"),
                option("defender", "Guard"),
                option("defender_trait", "wits"),
            ],
            ST,
        )
    )
    first, second = ids(contest)
    press(first, ANNA)
    press(second, ST)

    extended = done(
        run(
            "extended",
            [
                option("character", names[BRUNO]),
                option("trait", "wits"),
                option("successes", 3, 4),
                option("rolls", 2, 4),
            ],
            ST,
        )
    )
    step = ids(extended)
    while step:
        step = [c for c in ids(press(step[-1], BRUNO)) if c.startswith("rb:ex:")]

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
                )
                if any(":damage:" in c for c in ids(attack)):
                    return attack
            raise AssertionError("the Guard never hit in 40 attacks")

        soak: list[str] = []
        for _ in range(40):
            attack = hit()
            assert attack["content"].startswith(f"<@{ANNA}> Guard attaque Inès"), attack
            damage = press(next(c for c in ids(attack) if ":damage:" in c), ST)
            soak = [c for c in ids(damage) if ":soak:" in c]
            if soak:
                break
        press(soak[0], ANNA)

    run("scene", [option("action", "close")], ST)

    # rollbook log verify, on the export
    exported = tmp_path / "log.jsonl"
    exported.write_text(table.export(), encoding="utf-8")
    verified = run_cli("log", "verify", str(exported), timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    entries = table.log(limit=500)["entries"]
    kinds = {entry["kind"] for entry in entries}
    wanted = {
        "scene_open",
        "ask",
        "grant",
        "reveal",
        "contest",
        "contest_result",
        "extended",
        "roll",
        "adjust",
    }
    assert wanted | ({"compulsion", "compulsion_end"} if system == "v5" else set()) <= kinds, kinds
    made_kinds = {(e.get("receipt") or {}).get("kind") for e in entries if e["kind"] == "roll"}
    assert (
        {"power", "rouse", "willpower", "frenzy"} <= made_kinds
        if system == "v5"
        else {
            "willpower",
            "virtue",
            "soak",
        }
        <= made_kinds
    ), made_kinds

    # what the channel showed: the answers, and the poster's posts of the rest (the contest's result,
    # the reveal and the roll it reveals…), each public entry once
    public = [e["seq"] for e in entries if e["visibility"] == "public"]

    def channel_shown() -> dict[int, list[dict]]:
        shown = {seq: list(embeds) for seq, embeds in answered.items()}
        for message in discord_api.posted(channel):
            for embed in message.get("embeds") or []:
                shown.setdefault(seq_of(embed), []).append(embed)
        return shown

    def all_shown() -> dict[int, list[dict]] | None:
        shown = channel_shown()
        return shown if set(public) <= set(shown) else None

    try:
        # the poster drains the channel at its pace (PostgreSQL polls every 2 s; a loaded machine is slower)
        shown = wait_until(all_shown, 60, what="every public entry shown in the channel")
    except AssertionError:
        missing = [(e["seq"], e["kind"]) for e in entries if e["seq"] in set(public) - set(channel_shown())]
        raise AssertionError(f"not shown in the channel: {missing}") from None
    revealed_seq = next(e["refers_to"] for e in entries if e["kind"] == "reveal")
    for seq in public:  # once, but the roll a reveal reveals, shown again under the reveal
        assert len([e for e in shown[seq] if e.get("footer")]) == 1, (seq, shown[seq])
    assert revealed_seq in shown  # the hidden roll, revealed, reached the channel

    # the web page's view of the same log: each entry's card, its title and outcome
    for seq in public + [revealed_seq]:
        page = client.get(f"/chronicles/{chronicle}/entries/{seq}", headers=table.st)
        assert page.status_code == 200, page.text
        web_title, web_outcome = web_card(page.text, seq)
        discord_title, discord_outcome = discord_card(shown[seq][-1])
        assert (discord_title, discord_outcome) == (web_title, web_outcome), seq
