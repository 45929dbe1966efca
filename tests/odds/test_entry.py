"""``rollbook.odds.odds_for(system, request)``: one entry point for a rules request of any system,
answering the dict ``rollbook odds --json`` prints (SPEC "The odds contract")."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rollbook.odds import odds_for
from rollbook.rules.base import RuleError
from rollbook.systems.rollunder.odds import ODDS_ACTION, rollunder_odds
from rollbook.systems.rollunder.rules import RollUnderRequest
from rollbook.systems.tiers.odds import tiers_odds
from rollbook.systems.tiers.rules import TiersRequest
from rollbook.systems.v5.odds import remorse_odds, rouse_odds, v5_odds
from rollbook.systems.v5.rules import V5Request
from rollbook.systems.v20.odds import v20_odds
from rollbook.systems.v20.rules import SoakRequest, V20Request

from .cli import run

# (system, request, options, what the per-system function answers)
CASES = [
    (
        "v20",
        V20Request(pool=5, difficulty=7, willpower=True),
        {},
        lambda: v20_odds(V20Request(pool=5, difficulty=7, willpower=True)).to_json(),
    ),
    (
        "v5",
        V5Request(pool=6, hunger=2, difficulty=3),
        {},
        lambda: v5_odds(V5Request(pool=6, hunger=2, difficulty=3)).to_json(),
    ),
    (
        "v5",
        V5Request(pool=5, hunger=3, difficulty=3),
        {"reroll": "optimal", "goal": "clean"},
        lambda: v5_odds(V5Request(pool=5, hunger=3, difficulty=3), "optimal", "clean").to_json(),
    ),
    (
        "v5",
        V5Request(pool=1, hunger=4, kind="rouse", blood_potency_reroll=True),
        {},
        lambda: rouse_odds(4, True).to_json(),
    ),
    ("v5", V5Request(pool=3, kind="remorse"), {}, lambda: remorse_odds(7, 0).to_json()),
    (
        "v5",
        V5Request(pool=4, difficulty=2, kind="frenzy"),
        {},
        lambda: v5_odds(V5Request(pool=4, difficulty=2, kind="frenzy")).to_json(),
    ),
    (
        "tiers",
        TiersRequest(skill=5, bonus=2, bullets=3),
        {},
        lambda: tiers_odds(TiersRequest(skill=5, bonus=2, bullets=3)).to_json(),
    ),
    (
        "tiers",
        TiersRequest(kind="soak", endurance=3, armor=1, attack_tier=5),
        {},
        lambda: tiers_odds(TiersRequest(kind="soak", endurance=3, armor=1, attack_tier=5)).to_json(),
    ),
    (
        "rollunder",
        RollUnderRequest(action="Climb", level=12, bonus=1, malus=3, advantage=True),
        {},
        lambda: rollunder_odds(
            RollUnderRequest(action="Climb", level=12, bonus=1, malus=3, advantage=True)
        ).to_json(),
    ),
    (
        "rollunder",
        RollUnderRequest(action="Wrestle", kind="opposed", dice="2d8+1d4", threshold=9),
        {},
        lambda: rollunder_odds(
            RollUnderRequest(action="Wrestle", kind="opposed", dice="2d8+1d4", threshold=9)
        ).to_json(),
    ),
]


def _id(case) -> str:
    system, request, options, _ = case
    return "-".join([system, getattr(request, "kind", "test"), *options.values()])


@pytest.mark.parametrize("case", CASES, ids=[_id(case) for case in CASES])
def test_odds_for_agrees_with_the_per_system_functions(case):
    system, request, options, expected = case
    data = odds_for(system, request, **options)
    assert data == expected()
    assert data["system"] == system
    assert json.loads(json.dumps(data)) == data  # JSON-ready


@pytest.mark.parametrize("case", CASES, ids=[_id(case) for case in CASES])
def test_odds_for_outcomes_are_exact_and_sum_to_one(case):
    system, request, options, _ = case
    data = odds_for(system, request, **options)
    total = Fraction(0)
    for code, text in data["outcomes"].items():
        value = Fraction(text)
        assert 0 <= value <= 1 and data["floats"][code] == pytest.approx(float(value))
        total += value
    assert total == 1


def test_a_rouse_check_keeps_the_request_given():
    """Mode plays no part in a Rouse check (V5-10): the odds are rouse_odds', the request the caller's."""
    request = V5Request(pool=1, hunger=2, kind="rouse", mode="casual", creature="thin_blood")
    data = odds_for("v5", request)
    assert data["request"]["mode"] == "casual" and data["request"]["creature"] == "thin_blood"
    assert data["outcomes"] == rouse_odds(2, False, "thin_blood").to_json()["outcomes"]


def test_a_remorse_roll_keeps_its_own_difficulty_and_adds_the_humanity_lost():
    request = V5Request(pool=4, kind="remorse", difficulty=2)
    data = odds_for("v5", request)
    assert data["outcomes"] == v5_odds(request).to_json()["outcomes"]
    assert (
        data["humanity_loss"] == remorse_odds(6, 0).to_json()["humanity_loss"]
    )  # V5-15: the pool alone decides


@pytest.mark.parametrize(
    "args,system,request_",
    [
        (
            ["v20", "--pool", "5", "--difficulty", "7", "--willpower"],
            "v20",
            V20Request(pool=5, difficulty=7, willpower=True),
        ),
        (
            [
                "v5",
                "--pool",
                "6",
                "--hunger",
                "2",
                "--difficulty",
                "3",
                "--reroll",
                "optimal",
                "--goal",
                "win",
            ],
            "v5",
            V5Request(pool=6, hunger=2, difficulty=3),
        ),
        (
            ["v5", "--kind", "remorse", "--humanity", "6", "--stains", "1"],
            "v5",
            V5Request(pool=3, kind="remorse"),
        ),
        (
            ["tiers", "--kind", "dodge", "--skill", "4", "--attack-tier", "5"],
            "tiers",
            TiersRequest(kind="dodge", skill=4, attack_tier=5),
        ),
        (
            ["rollunder", "--dice", "3d6", "--threshold", "10"],
            "rollunder",
            RollUnderRequest(action=ODDS_ACTION, kind="opposed", dice="3d6", threshold=10),
        ),
    ],
)
def test_odds_for_is_what_the_cli_prints(monkeypatch, capsys, args, system, request_):
    code, out, err = run(monkeypatch, capsys, *args, "--json")
    assert code == 0, err
    options = {"reroll": "optimal", "goal": "win"} if "--reroll" in args else {}
    assert json.loads(out) == odds_for(system, request_, **options)


def test_odds_for_refusals():
    with pytest.raises(RuleError) as unknown:
        odds_for("d6", V20Request(pool=3))
    assert unknown.value.code == "unknown_system"
    with pytest.raises(TypeError):
        odds_for("v5", V20Request(pool=3))  # another system's request
    with pytest.raises(TypeError):
        odds_for("v20", SoakRequest(damage=3, damage_type="lethal", stamina=2))  # no odds for a soak
    with pytest.raises(TypeError):
        odds_for("tiers", TiersRequest(skill=3), reroll="optimal")  # V5's options only
    with pytest.raises(RuleError) as rouse:
        odds_for("v5", V5Request(pool=1, kind="rouse"), reroll="failures")
    assert rouse.value.code == "reroll_not_allowed"  # V5-8, V5-10
    with pytest.raises(RuleError) as remorse:
        odds_for("v5", V5Request(pool=11, kind="remorse"))
    assert remorse.value.code == "out_of_range"  # V5-15: at most ten empty boxes
    with pytest.raises(RuleError) as frenzy:
        odds_for("v5", V5Request(pool=4, kind="frenzy"), reroll="optimal")
    assert frenzy.value.code == "reroll_not_allowed"  # V5-9
