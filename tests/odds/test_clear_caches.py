"""``rollbook.odds.clear_caches`` (the benchmarks start cold with it) forgets the tables of every
shipped system's odds part, each found by name, and the shared ones; the odds after it are the same."""

from __future__ import annotations

from rollbook import odds
from rollbook.play.systems import SYSTEM_IDS, own_module
from rollbook.systems.v5.odds import odds as v5_odds
from rollbook.systems.v20.odds import die_categories
from rollbook.systems.v20.odds import odds as v20_odds


def test_every_shipped_systems_odds_forget_their_tables(monkeypatch):
    cleared = []
    for system in SYSTEM_IDS:
        part = own_module(system, "odds")
        monkeypatch.setattr(part, "clear_caches", lambda system=system: cleared.append(system))
    odds.clear_caches()
    assert cleared == list(SYSTEM_IDS)


def test_the_odds_after_a_cold_start_are_the_same():
    warm = (v20_odds(5, 6).success, v5_odds(6, 2, 3).probability("success"))
    assert die_categories.cache_info().currsize  # V20's one-die table holds the request just asked
    odds.clear_caches()
    assert die_categories.cache_info().currsize == 0
    assert (v20_odds(5, 6).success, v5_odds(6, 2, 3).probability("success")) == warm
