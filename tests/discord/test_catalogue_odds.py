"""The odds of every roll of the action catalogue are the odds of the roll made (SPEC A-1, TR-1), on
SQLite and PostgreSQL, at a table with a standing difficulty, the group's standing grant, a table rule
(V20) and a wounded character: ``POST …/characters/{id}/odds``, the web page's odds box and Discord's
``/odds`` (the tests it takes: named by traits) answer the same number as the receipt of the roll the
same request then makes (its own rules request, read back from the log).

Derived from ``rollbook.play.catalogue.ACTIONS``: every action a player rolls on its own (a step of
the combat chain has the exchange odds of ``POST …/odds/exchange``; the rolls without odds, a V20 soak,
are the catalogue's ``odds="none"``)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from rollbook.discord.commands import command_definitions
from rollbook.discord.handlers import TEST_KINDS
from rollbook.odds import odds_for
from rollbook.play import catalogue, quick
from rollbook.play.common import request_from_plain
from rollbook.present.preview import odds_view
from tests.catalogue_cases import STANDING
from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command, option
from tests.server.conftest import BACKENDS

HTMX = {"HX-Request": "true"}
ACTIONS = [
    action
    for action in catalogue.of_way("roll")
    if action.odds == "preview" and not action.follows and not action.storyteller_only
]
# What stands at the table besides the standing difficulty: the group's standing grant, the
# table rules (TR-1), the wounds (V20-14's penalty, V5's impairment).
GRANTS = {"v20": {"modifier": 1}, "v5": {"modifier": 1}, "rollunder": {"bonus": 1}}
TABLE_RULES = {"v20": ["v20.ones_do_not_cancel"]}
WOUNDS = {
    "v20": {"kind": "damage", "levels": 2, "damage_type": "bashing"},
    "v5": {"kind": "damage", "track": "health", "superficial": 4},
}


TRAITS = ("attribute", "ability", "skill")


def _discord_gaps() -> set[str]:
    """The actions Discord's ``/odds`` cannot name: not a test named by traits, or a field its
    options do not take (a Tiers shot's weapon and bullets)."""
    [odds] = [c for c in command_definitions() if c["name"] == "odds"]
    takes = {o["name"] for o in odds["options"]}
    gaps = set()
    for action in ACTIONS:
        needs = set(action.example) - {"kind", "action", *TRAITS}
        if action.kind != TEST_KINDS[action.system] or not needs <= takes:
            gaps.add(action.id)
    return gaps


def _words(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def _seated_table(make_table, discord, system: str):
    fields = {"difficulty": STANDING[system]} if system in STANDING else {}
    table, channel, (anna,) = seated(make_table, discord, system, ANNA, **fields)
    character = table.character(anna, dict(catalogue.EXAMPLE_SHEETS[system]))["id"]
    client = table.client
    if system in TABLE_RULES:
        ruled = client.put(
            f"{table.base}/table-rules", headers=table.st, json={"table_rules": TABLE_RULES[system]}
        )
        assert ruled.status_code == 200, ruled.text
    if system in GRANTS:
        granted = client.post(
            f"{table.base}/standing-grants", headers=table.st, json={"edges": GRANTS[system]}
        )
        assert granted.status_code == 201, granted.text
    if system in WOUNDS:
        hurt = client.post(
            f"{table.base}/characters/{character}/adjustments",
            headers=table.st,
            json={"change": WOUNDS[system]},
        )
        assert hurt.status_code == 201, hurt.text
    return table, channel, anna, character


@pytest.mark.parametrize("database_url", BACKENDS, indirect=True)
@pytest.mark.parametrize("action", ACTIONS, ids=lambda action: action.id)
def test_A1_TR1_every_faces_odds_are_the_odds_of_the_roll_made(action, make_table, discord, discord_api):
    system = action.system
    table, channel, anna, character = _seated_table(make_table, discord, system)
    request = dict(action.example)

    api = table.client.post(
        f"{table.base}/characters/{character}/odds", headers=anna, json={"action": request}
    )
    assert api.status_code == 200, api.text
    answered = api.json()
    assert answered["asked"] == {}, answered  # the example asks nothing: rolled at once, as it stands

    box = table.client.get(
        f"/chronicles/{table.id}/characters/{character}/odds",
        params={k: str(v) for k, v in request.items()},
        headers={**anna, **HTMX},
    )
    assert box.status_code == 200, box.text

    shown_on_discord = None
    if action.id not in _discord_gaps():
        traits = [v for k, v in request.items() if k in TRAITS]
        options = [option("character", str(character))]
        options += [option(name, trait) for name, trait in zip(("trait", "trait2"), traits, strict=False)]
        options += [  # the test's other fields, as /odds takes them (a Tiers shot's weapon and bullets)
            option(key, value, 4 if isinstance(value, int) else 3)
            for key, value in request.items()
            if key not in ("kind", "action", *TRAITS)
        ]
        asked = command("odds", options, user_id=ANNA, channel=channel)
        assert discord.ok(asked) == {"type": 5}
        shown_on_discord = discord_api.originals[asked["token"]]["embeds"][0]["description"]

    rolled = table.roll(anna, character, request)
    assert rolled.status_code == 201, rolled.text
    receipt = rolled.json()["entry"]["receipt"]
    made = odds_for(system, request_from_plain(quick.REQUESTS[system], receipt["request"]))

    assert answered["request"] == receipt["request"]
    assert answered["odds"]["outcomes"] == made["outcomes"]
    expected = odds_view(receipt, "en")
    assert expected is not None
    box_words = _words(box.text)
    assert expected.headline in box_words
    for row in expected.rows:
        assert f"{row.label}" in box_words and row.percent in box_words
    if shown_on_discord is not None:
        assert shown_on_discord.splitlines()[: 1 + len(expected.rows)] == [
            expected.headline,
            *[f"{row.label}: **{row.percent}** ({row.fraction})" for row in expected.rows],
        ]


def test_the_odds_cases_cover_every_roll_a_player_makes_alone_with_odds():
    # Discord's /odds names tests by traits, with a Tiers shot's weapon and bullets; a roll of its own
    # kind (/power, /willpower…) shows its odds on the web (the set may only shrink)
    assert _discord_gaps() <= {
        "v20.roll.willpower",
        "v20.roll.virtue",
        "v5.roll.rouse",
        "v5.roll.willpower",
        "v5.roll.remorse",
        "v5.roll.frenzy",
        "v5.roll.power",
        "tiers.roll.spell",
    }
    assert {a.id for a in ACTIONS} >= {"v5.roll.power", "v5.roll.test", "v20.roll.test", "tiers.roll.skill"}
    for action in catalogue.ACTIONS:
        if action.way == "roll" and action.odds == "none":
            assert (action.system, action.kind) in catalogue.NO_ODDS
