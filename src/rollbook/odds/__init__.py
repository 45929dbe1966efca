"""Exact odds for every roll, reusing the rules' own definitions (pure: no I/O).

Probabilities are exact (``fractions.Fraction``); internally a distribution is integer weights
over one common denominator (``Distribution``), so whole tables cost integer additions. Each
system module classifies the equivalence classes of dice with the rules' own functions, so the
odds agree with the resolvers by construction (``tests/odds`` checks it by brute force).

- ``rollbook.odds.v20``: ``v20_odds``, ``v20_table``, ``source_table`` (SPEC V20-15)
- ``rollbook.odds.v5``: ``v5_odds``, ``reroll_odds``, ``optimal_odds``, ``advise``, ``rouse_odds``,
  ``remorse_odds``, ``frenzy_odds``, ``v5_table``
- ``rollbook.odds.tiers``: ``tiers_odds`` (chained criticals summed in closed form)
- ``rollbook.odds.rollunder``: ``check_odds``, ``opposed_odds``
- ``rollbook.odds.chart``: matplotlib pictures (imported lazily)
"""

from rollbook.odds._exact import Distribution, fraction_text


def clear_caches() -> None:
    """Forget every memoised table of every system (benchmarks start cold with this)."""
    from rollbook.odds import _exact, v5, v20

    v20.clear_caches()
    v5.clear_caches()
    for cached in (_exact.poly_pow, _exact.category_classes, _exact.compositions, _exact.binomial_row):
        cached.cache_clear()


__all__ = ["Distribution", "clear_caches", "fraction_text"]
