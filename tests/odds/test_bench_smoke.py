"""bench/run.py stays runnable and its three libraries agree on small tables (the full bench is not run here)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "run.py"


def load_bench():
    pytest.importorskip("icepool")
    pytest.importorskip("dyce")
    spec = importlib.util.spec_from_file_location("rollbook_bench_run", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_V20_15_and_V5_small_tables_agree_with_icepool_and_dyce():
    bench = load_bench()
    rows = bench.run_tables(repeat=1, small=True)
    assert [name for name, *_ in rows] == ["V20", "V5"]
    for name, cells, _times, bad in rows:
        assert cells > 0
        assert bad == {"icepool": [], "dyce": []}, name


def test_bench_advice_counts_every_first_roll_class():
    """One decision per class of first roll: (fail, success, 10) normal counts × Hunger face counts."""
    from math import comb

    bench = load_bench()
    expected = 0
    for pool in (1, 2):
        for hunger in range(6):
            hunger_dice = min(hunger, pool)
            expected += comb(pool - hunger_dice + 2, 2) * comb(hunger_dice + 3, 3)
    assert bench.rollbook_advice(range(1, 3), goals=("win",)) == expected == 81
