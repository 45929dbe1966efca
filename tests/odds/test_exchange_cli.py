"""`rollbook odds v20 exchange …` and `rollbook odds tiers exchange …` as a user meets them: JSON
under the odds contract, the tables, a chart, one-line refusals."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rollbook.odds.exchange_tiers import TiersDefender
from rollbook.odds.exchange_tiers import exchange_odds as tiers_exchange
from rollbook.odds.exchange_v20 import Defender, Weapon, exchange_odds
from rollbook.rules.tiers import TiersRequest
from rollbook.rules.v20 import V20Request

from .cli import run as run_odds


def run(monkeypatch, capsys, *args):
    return run_odds(monkeypatch, capsys, *args, columns=140)


def test_v20_exchange_json_is_the_engines_exact_odds(monkeypatch, capsys):
    code, out, err = run(
        monkeypatch,
        capsys,
        "v20",
        "exchange",
        "--pool",
        "6",
        "--strength",
        "3",
        "--weapon-damage",
        "2",
        "--stamina",
        "3",
        "--fortitude",
        "1",
        "--health",
        "0,1,0",
        "--dodge-pool",
        "4",
        "--table-rule",
        "v20.ones_do_not_cancel",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    expected = exchange_odds(
        V20Request(pool=6, table_rules=("v20.ones_do_not_cancel",)),
        Weapon(2, strength=3),
        Defender(
            stamina=3,
            fortitude=1,
            health=(0, 1, 0),
            dodge=V20Request(pool=4, table_rules=("v20.ones_do_not_cancel",)),
        ),
    )
    assert data["outcomes"] == expected.outcomes.texts()
    assert sum(Fraction(p) for p in data["outcomes"].values()) == 1
    assert data["wounds"] == expected.wounds.nonzero().texts() and data["defender"]["soak_pool"] == 4
    assert data["table_rules"] == ["v20.ones_do_not_cancel"]


def test_v20_exchange_table(monkeypatch, capsys):
    code, out, _ = run(
        monkeypatch,
        capsys,
        "v20",
        "exchange",
        "--pool",
        "5",
        "--firearm",
        "--weapon-damage",
        "4",
        "--stamina",
        "2",
        "--mortal",
        "--armour",
        "lethal=1",
    )
    assert code == 0
    assert "V20 exchange odds: 5 dice" in out and "a mortal soaking 1 dice against lethal" in out
    assert "The defender after the exchange" in out and "Out of the fight" in out


def test_tiers_exchange_json_and_table(monkeypatch, capsys):
    code, out, err = run(
        monkeypatch,
        capsys,
        "tiers",
        "exchange",
        "--skill",
        "6",
        "--bonus",
        "2",
        "--bullets",
        "2",
        "--endurance",
        "3",
        "--armor",
        "2",
        "--dodge",
        "4",
        "--wounds",
        "1",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    expected = tiers_exchange(
        TiersRequest(kind="skill", skill=6, bonus=2, bullets=2),
        TiersDefender(endurance=3, armor=2, level=1, dodge=4),
    )
    assert data["outcomes"] == expected.outcomes.texts() and data["track"] == expected.track.nonzero().texts()
    code, out, _ = run(monkeypatch, capsys, "tiers", "exchange", "--skill", "6", "--endurance", "3")
    assert code == 0 and "Wound level after the exchange" in out and "The track full after it" in out


def test_exchange_chart(monkeypatch, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "exchange.svg"
    code, _, err = run(
        monkeypatch, capsys, "v20", "exchange", "--pool", "5", "--stamina", "2", "--chart", str(path)
    )
    assert code == 0, err
    assert path.read_text().startswith("<?xml")
    path = tmp_path / "tiers.png"
    code, _, err = run(
        monkeypatch, capsys, "tiers", "exchange", "--skill", "5", "--endurance", "2", "--chart", str(path)
    )
    assert code == 0, err
    assert path.stat().st_size > 1000


@pytest.mark.parametrize(
    "args, message",
    [
        (("v20", "exchange", "--pool", "5", "--stamina", "11"), "stamina"),
        (
            ("v20", "exchange", "--pool", "5", "--stamina", "2", "--hunger", "2"),
            "--hunger does not apply to v20 exchange",
        ),
        (
            ("v20", "exchange", "--pool", "5", "--stamina", "2", "--armour", "lethal"),
            "--armour takes TYPE=DICE",
        ),
        (
            ("v20", "exchange", "--pool", "5", "--stamina", "2", "--health", "1,2"),
            "--health takes three numbers",
        ),
        (("v20", "exchange", "--pool", "5", "--stamina", "2", "--damage-type", "fire"), "damage_type"),
        (("tiers", "exchange", "--skill", "5", "--endurance", "2", "--wounds", "9"), "level"),
    ],
)
def test_exchange_refusals_are_one_line_and_status_2(monkeypatch, capsys, args, message):
    code, out, err = run(monkeypatch, capsys, *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
