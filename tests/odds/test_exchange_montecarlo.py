"""Larger pools: the exact exchange odds against simulated exchanges (bench/exchange.py, numpy),
within 4 standard errors. The suite runs 10**5 exchanges per case (the error bound scales with it);
``python bench/run.py --exchange`` runs 10**6 beside the exact odds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rollbook.systems.tiers import odds_exchange as exchange_tiers
from rollbook.systems.tiers.rules import TiersRequest
from rollbook.systems.v20 import odds_exchange as exchange_v20
from rollbook.systems.v20.rules import V20Request

BENCH = Path(__file__).resolve().parents[2] / "bench" / "exchange.py"
N = 100_000


@pytest.fixture(scope="module")
def simulation():
    pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location("rollbook_bench_exchange", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


V20_CASES = [
    (
        V20Request(pool=12, difficulty=7, specialty=True, specialty_rating=5),
        exchange_v20.Weapon(3, "lethal", strength=5),
        exchange_v20.Defender(stamina=4, fortitude=3, health=(1, 2, 0), dodge=V20Request(pool=8)),
    ),
    (
        V20Request(pool=20, difficulty=6, willpower=True),
        exchange_v20.Weapon(8, "lethal", firearm=True),
        exchange_v20.Defender(stamina=3, vampire=False, armour={"lethal": 2}),
    ),
    (
        V20Request(pool=15, difficulty=5),
        exchange_v20.Weapon(2, "aggravated", strength=6),
        exchange_v20.Defender(stamina=6, fortitude=2, health=(0, 3, 1)),
    ),
]


@pytest.mark.parametrize("attack, weapon, defender", V20_CASES, ids=["melee-dodge", "rifle-mortal", "claws"])
def test_V20_exchange_agrees_with_simulated_exchanges(simulation, attack, weapon, defender):
    exact = exchange_v20.exchange_odds(attack, weapon, defender)
    counts = simulation.simulate_v20(attack, weapon, defender, N)
    assert simulation.agreement(exact.outcomes.fractions(), counts["outcomes"], N) == []
    assert simulation.agreement(exact.levels.fractions(), counts["levels"], N) == []
    assert simulation.agreement(exact.wounds.fractions(), counts["wounds"], N) == []


TIERS_CASES = [
    (
        TiersRequest(kind="skill", skill=14, bonus=3, bullets=3),
        exchange_tiers.TiersDefender(endurance=8, armor=4, level=1, length=8, dodge=12),
    ),
    (TiersRequest(kind="skill", skill=20), exchange_tiers.TiersDefender(endurance=15, armor=5, length=6)),
]


@pytest.mark.parametrize("shot, defender", TIERS_CASES, ids=["burst-dodge", "single"])
def test_tiers_exchange_agrees_with_simulated_exchanges(simulation, shot, defender):
    exact = exchange_tiers.exchange_odds(shot, defender)
    counts = simulation.simulate_tiers(shot, defender, N)
    assert simulation.agreement(exact.outcomes.fractions(), counts["outcomes"], N) == []
    assert simulation.agreement(exact.track.fractions(), counts["track"], N) == []


def test_the_simulation_can_disagree(simulation):
    """The yardstick is not blind: a defender with one more soak die is told apart."""
    attack, weapon, defender = V20_CASES[2]
    other = exchange_v20.Defender(stamina=6, fortitude=3, health=(0, 3, 1))  # Fortitude soaks aggravated
    exact = exchange_v20.exchange_odds(attack, weapon, other)
    counts = simulation.simulate_v20(attack, weapon, defender, N)
    assert simulation.agreement(exact.levels.fractions(), counts["levels"], N) != []


def test_bench_exchange_section_runs_and_agrees():
    """bench/run.py --exchange stays runnable (a small grid, 10**4 simulated exchanges): every number agrees."""
    pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location("rollbook_bench_run", BENCH.with_name("run.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    grid, rows = bench.run_exchange(repeat=1, small=True, simulated=10_000)
    assert {system: count for system, (count, _, _) in grid.items()} == {"v20": 4, "tiers": 4}
    assert [(system, bad) for system, _, _, bad in rows] == [("v20", []), ("tiers", [])]
