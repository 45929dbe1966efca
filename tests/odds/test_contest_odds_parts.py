"""The contests' odds (TR-5) reach every system's part through one door, ``play.systems.part``: a
shipped system's odds module (``odds/<id>.py``) and what a system registered from outside declares
(``CONTEST_SHAPE``, ``CONTEST_SIDE_ODDS`` on its play module, the toy of ``tests/toy_system``) alike;
a system without contests, or without a roll's shape, has no odds of them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rollbook.odds.contests import contest_odds, extended_odds
from rollbook.play import systems
from rollbook.rules.base import RuleError
from rollbook.systems.tiers.rules import TiersRequest
from rollbook.systems.v5.rules import V5Request
from rollbook.systems.v20.rules import V20Request
from tests.toy_system import registered, toy


@pytest.fixture()
def doors(monkeypatch):
    """Each (system, name) the odds asked ``play.systems.part`` for, the part still found by it."""
    asked: list[tuple[object, str]] = []
    door = systems.part

    def spy(system, name, member):
        asked.append((system, name))
        return door(system, name, member)

    monkeypatch.setattr(systems, "part", spy)
    return asked


def test_a_shipped_and_a_registered_system_go_through_the_same_door(doors):
    with registered() as system:
        contest_odds("v20", V20Request(pool=3, difficulty=6), V20Request(pool=2, difficulty=6))
        extended_odds("v5", V5Request(pool=3, difficulty=1), 2, 2)
        contest_odds(system, toy.ToyRequest(2), toy.ToyRequest(1))
        extended_odds(system, toy.ToyRequest(2), 2, 2)
    assert {asked[0] for asked in doors} == {"v20", "v5", system}
    assert {asked[1:] for asked in doors} == {("odds",)}


def test_a_registered_system_s_side_odds_are_the_ones_it_declares(monkeypatch):
    """TR-3: what a side says beyond its successes, declared by the system (the toy declares none)."""
    with registered() as system:
        plain = contest_odds(system, toy.ToyRequest(2), toy.ToyRequest(1))
        assert set(plain) == {"system", "kind", "outcomes", "tie", "margins"}
        monkeypatch.setattr(
            toy, "CONTEST_SIDE_ODDS", lambda request: {"blunder": Fraction(1, request.pool + 5)}
        )
        said = contest_odds(system, toy.ToyRequest(2), toy.ToyRequest(1))
    assert said["blunder"] == {"attacker": "1/7", "defender": "1/6"}
    assert {k: v for k, v in said.items() if k != "blunder"} == plain


def test_a_shipped_system_s_side_odds_are_its_odds_module_s():
    """V20's botch on either side (``systems/v20/odds.py``'s ``contest_side_odds``); V5 says nothing more."""
    v20 = contest_odds("v20", V20Request(pool=2, difficulty=6), V20Request(pool=1, difficulty=6))
    assert set(v20["botch"]) == {"attacker", "defender"} and Fraction(v20["botch"]["defender"]) > 0
    v5 = contest_odds("v5", V5Request(pool=2, difficulty=1), V5Request(pool=1, difficulty=1))
    assert set(v5) == {"system", "kind", "outcomes", "tie", "margins"}


def test_a_registered_system_with_contests_but_no_shape_has_no_contest_odds(monkeypatch):
    with registered() as system:
        monkeypatch.setattr(toy, "CONTEST_SHAPE", None)
        for ask in (
            lambda: contest_odds(system, toy.ToyRequest(2), toy.ToyRequest(1)),
            lambda: extended_odds(system, toy.ToyRequest(2), 2, 2),
        ):
            with pytest.raises(RuleError) as refused:
                ask()
            assert refused.value.code == "contest_not_for_system"
            assert refused.value.params["systems"] == ["v20", "v5"]


def test_a_shipped_system_without_contests_has_no_contest_odds():
    with registered():
        with pytest.raises(RuleError) as refused:
            contest_odds("tiers", TiersRequest(skill=3), TiersRequest(skill=2))
    assert refused.value.code == "contest_not_for_system"
    assert "tiers" not in refused.value.params["systems"] and "toy" in refused.value.params["systems"]
