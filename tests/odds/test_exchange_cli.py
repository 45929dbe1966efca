"""`rollbook odds v20 exchange …` and `rollbook odds tiers exchange …` as a user meets them: JSON
under the odds contract, the tables, a chart, one-line refusals."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rollbook.systems.tiers.odds_exchange import TiersDefender
from rollbook.systems.tiers.odds_exchange import exchange_odds as tiers_exchange
from rollbook.systems.tiers.rules import TiersRequest
from rollbook.systems.v20.odds_exchange import Defender, Weapon, exchange_odds
from rollbook.systems.v20.rules import V20Request

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


def test_V20_20_exchange_cli_casual_halves_the_dodge_and_the_track_is_json(monkeypatch, capsys):
    code, out, err = run(
        monkeypatch,
        capsys,
        "v20",
        "exchange",
        "--pool",
        "4",
        "--mode",
        "casual",
        "--strength",
        "2",
        "--weapon-damage",
        "1",
        "--stamina",
        "2",
        "--dodge-pool",
        "3",
        "--dodge-difficulty",
        "8",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    # V20-20: the dodge halves in Casual like any test (V20-5): 8 → 4, as the chain's dodge does
    assert data["defender"]["dodge"]["mode"] == "casual"
    expected = exchange_odds(
        V20Request(pool=4, mode="casual"),
        Weapon(1, strength=2),
        Defender(stamina=2, dodge=V20Request(pool=3, difficulty=8, mode="casual")),
    )
    assert data["outcomes"] == expected.outcomes.texts()
    strict = exchange_odds(
        V20Request(pool=4, mode="casual"),
        Weapon(1, strength=2),
        Defender(stamina=2, dodge=V20Request(pool=3, difficulty=8)),
    )
    assert data["outcomes"] != strict.outcomes.texts()
    # the track after the exchange: one object per track, its levels by type and its probability
    rows = data["track"]
    assert isinstance(rows, list) and rows
    assert {tuple(row) for row in rows} == {("bashing", "lethal", "aggravated", "probability", "float")}
    expected_track = expected.track.nonzero()
    assert {(r["bashing"], r["lethal"], r["aggravated"]): r["probability"] for r in rows} == dict(
        zip(expected_track.fractions(), expected_track.texts().values(), strict=True)
    )
    assert sum(Fraction(r["probability"]) for r in rows) == 1


def test_V20_21_exchange_cli_potence(monkeypatch, capsys):
    code, out, err = run(
        monkeypatch,
        capsys,
        "v20",
        "exchange",
        "--pool",
        "3",
        "--strength",
        "2",
        "--potence",
        "2",
        "--stamina",
        "2",
        "--json",
    )
    assert code == 0, err
    expected = exchange_odds(V20Request(pool=3), Weapon(0, strength=2, potence=2), Defender(stamina=2))
    assert (
        json.loads(out)["outcomes"] == expected.outcomes.texts() and json.loads(out)["weapon"]["potence"] == 2
    )
    code, _, err = run(
        monkeypatch,
        capsys,
        "v20",
        "exchange",
        "--pool",
        "3",
        "--firearm",
        "--weapon-damage",
        "4",
        "--potence",
        "1",
        "--stamina",
        "2",
    )
    assert code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("what", ["contest", "extended"])
def test_V20_3_V20_4_contest_and_extended_cli_honour_the_untrained_difficulty(monkeypatch, capsys, what):
    from rollbook.odds.contests import contest_odds, extended_odds

    more = ["--against-pool", "3"] if what == "contest" else ["--target", "2", "--max-rolls", "3"]
    code, out, err = run(
        monkeypatch,
        capsys,
        "v20",
        what,
        "--pool",
        "4",
        "--difficulty",
        "6",
        "--untrained",
        "skill",
        *more,
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    attacker = V20Request(pool=4, untrained="skill")  # evaluated difficulty 7
    if what == "contest":
        expected = contest_odds("v20", attacker, V20Request(pool=3))
        trained = contest_odds("v20", V20Request(pool=4), V20Request(pool=3))
    else:
        expected = extended_odds("v20", attacker, 2, 3)
        trained = extended_odds("v20", V20Request(pool=4), 2, 3)
    assert data == json.loads(json.dumps(expected)) != json.loads(json.dumps(trained))
    # an untrained Knowledge needs the Storyteller's leave (V20-3 Book)
    code, _, err = run(monkeypatch, capsys, "v20", what, "--pool", "4", "--untrained", "knowledge", *more)
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = run(
        monkeypatch,
        capsys,
        "v20",
        what,
        "--pool",
        "4",
        "--untrained",
        "knowledge",
        "--knowledge-allowed",
        *more,
    )
    assert code == 0, err
