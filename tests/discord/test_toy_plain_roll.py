"""Discord's derived ``kind`` names every roll of a registered system that follows none, those that take
no trait of the sheet too (``discord.commands.derived_kinds``): shown with a variant of the toy
(``tests.toy_system.variant``) with a plain pool of its own (``plain``: a number of dice, no trait) and a
step that follows its push (``again``, in ``CHAINS``). ``/roll`` and ``/odds`` offer the plain pool,
``/roll`` rolls it for the character, ``/odds`` answers ``POST …/odds``' number for it, on both stores;
``/ask`` names the kinds that take a trait (an ask names its traits) and no command offers the step."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import Field

from rollbook.discord.commands import command_definitions, derived_kinds
from rollbook.play.common import JsonObject, Mode, Model, Prepared, Recorded, by_kind
from rollbook.play.systems import system_module
from rollbook.present.preview import odds_view
from rollbook.rules import get_system
from rollbook.rules.base import RuleError
from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command, option
from tests.toy_system import registered, toy, variant


class PlainAction(Model):
    """A pool of dice without a trait (its number the player's), each 5 or 6 a success (Toy-1)."""

    kind: Literal["plain"]
    pool: int = Field(ge=1, le=toy.MAX_POOL)


class AgainAction(Model):
    """A step that follows a push (``CHAINS``): never made on its own."""

    kind: Literal["again"]
    trait: str


def prepare(
    sheet: toy.Sheet, action: Model, *, mode: Mode, role: str, follows: JsonObject | None = None
) -> Prepared:
    if isinstance(action, PlainAction):
        request = toy.ToyRequest(pool=action.pool)
        pool: JsonObject = {"parts": [], "modifiers": [], "wound_penalty": 0, "total": action.pool}
        return Prepared(request, pool, get_system(toy.SYSTEM), {})
    if isinstance(action, AgainAction):
        raise RuleError("bad_choice", field="kind", value="again", choices=["pool", "push", "plain"])
    return toy.prepare(sheet, action, mode=mode, role=role, follows=follows)  # type: ignore[arg-type]


PLAIN_POOL = variant(
    "plain_pool",
    ACTIONS=by_kind(toy.PoolAction, toy.PushAction, PlainAction, AgainAction),
    CHAINS={"again": ("push",)},
    ROLL_RECORDS={
        **toy.ROLL_RECORDS,
        "plain": Recorded(toy.ToyRequest, toy.ToyReceipt),
        "again": Recorded(toy.ToyRequest, toy.ToyReceipt),
    },
    ACTION_PLAYER_FIELDS={
        **toy.ACTION_PLAYER_FIELDS,
        "plain": frozenset({"kind", "pool"}),
        "again": frozenset({"kind", "trait"}),
    },
    EDGE_FIELDS={**toy.EDGE_FIELDS, "plain": frozenset(), "again": frozenset()},
    EXAMPLES={
        **toy.EXAMPLES,
        "plain": {"kind": "plain", "pool": 3},
        "again": {"kind": "again", "trait": "might"},
    },
    prepare=prepare,
)


@pytest.fixture()
def plain():
    with registered(PLAIN_POOL) as system:
        assert system_module(system) is PLAIN_POOL
        yield system


def _options(name: str) -> dict[str, dict]:
    found = {definition["name"]: definition for definition in command_definitions()}[name]
    return {option["name"]: option for option in found["options"]}


def test_roll_and_odds_offer_the_plain_pool_ask_the_kinds_of_a_trait_none_the_step(plain):
    assert derived_kinds(plain) == ("pool", "push", "plain")
    for name in ("roll", "odds"):
        options = _options(name)
        assert [choice["value"] for choice in options["kind"]["choices"]] == ["pool", "push", "plain"]
        assert options["pool"]["type"] == 4  # the plain pool's number: the command's own pool (INTEGER)
        assert len(options) <= 25
    asked = _options("ask")
    assert [choice["value"] for choice in asked["kind"]["choices"]] == ["pool", "push"]
    assert "pool" not in asked


def test_the_plain_pool_rolled_on_discord_and_its_odds_the_apis(make_table, discord, discord_api, plain):
    table, channel, (anna,) = seated(make_table, discord, plain, ANNA)
    character = table.character(anna, {"system": plain, "name": "Ann", "traits": {"might": 3}})["id"]
    chosen = [option("kind", "plain"), option("pool", 4, 4)]

    answer = discord.ok(command("roll", chosen, user_id=ANNA, channel=channel))
    [roll] = [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
    receipt = roll["receipt"]
    assert receipt["kind"] == "plain" and receipt["action"]["pool"] == 4, answer
    assert roll["character"] == character and len(receipt["faces"]) == 4
    assert receipt["result"]["successes"] == sum(1 for face in receipt["faces"] if face >= toy.SUCCESS_AT)

    # /odds of the plain pool: POST …/odds' for the same action
    api = table.client.post(
        f"{table.base}/characters/{character}/odds",
        headers=anna,
        json={"action": {"kind": "plain", "pool": 3}},
    )
    assert api.status_code == 200, api.text
    assert api.json()["odds"]["outcomes"] == {"success": "19/27", "failure": "8/27"}
    asked = command("odds", [option("kind", "plain"), option("pool", 3, 4)], user_id=ANNA, channel=channel)
    assert discord.ok(asked) == {"type": 5}
    shown = discord_api.originals[asked["token"]]["embeds"][0]["description"].splitlines()
    expected = odds_view({"system": plain, "kind": "plain", "request": api.json()["request"]}, "en")
    assert expected is not None and shown[0] == expected.headline, shown


def test_a_step_that_follows_a_roll_is_refused_as_a_kind(make_table, discord, plain):
    table, channel, _ = seated(make_table, discord, plain, ANNA)
    table.character(_[0], {"system": plain, "name": "Ann", "traits": {"might": 3}})
    refused = discord.ok(
        command("roll", [option("trait", "might"), option("kind", "again")], user_id=ANNA, channel=channel)
    )
    assert refused["data"]["flags"] == 64, refused
    assert not [entry for entry in table.log()["entries"] if entry["kind"] == "roll"]
