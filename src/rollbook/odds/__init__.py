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
- ``rollbook.odds.exchange_v20``, ``rollbook.odds.exchange_tiers``: a whole exchange before the attack
  (attack → dodge → damage → soak → health track; shot → dodge → soak → wounds), composed from the above
- ``rollbook.odds.chart``: matplotlib pictures (imported lazily)

``odds_for(system, request)`` is the one entry point for a rules request of any system: it picks
the function above and answers the JSON-ready dict ``rollbook odds --json`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rollbook.odds._exact import Distribution, fraction_text
from rollbook.rules.base import RuleError, check_range

SYSTEMS = ("v20", "v5", "tiers", "rollunder")  # the shipped systems'
_ADDED: dict[str, Callable[[Any], dict[str, Any]]] = {}


def register(system: str, odds: Callable[[Any], dict[str, Any]]) -> None:
    """The odds of a system defined outside the package: ``odds(request)`` -> the odds contract's dict
    (the extension point ``odds_for`` reads; a shipped system cannot be replaced)."""
    if system in SYSTEMS:
        raise ValueError(f"{system} is a shipped system")
    _ADDED[system] = odds


def unregister(system: str) -> None:
    """Remove what ``register`` added."""
    _ADDED.pop(system, None)


def odds_for(system: str, request: Any, *, reroll: str = "none", goal: str | None = None) -> dict[str, Any]:
    """The exact odds of one rules request, as the JSON-ready dict ``rollbook odds --json`` prints
    (SPEC "The odds contract"): ``{"system", "request", "outcomes": {code: "p/q"}, "floats": {code:
    float}, ...}`` with each system's further fields.

    ``request`` is the rules request object: ``V20Request`` (``v20_odds``); ``V5Request``
    (``v5_odds`` for a test, Willpower or frenzy roll; ``rouse_odds`` for a Rouse check; a Remorse
    roll adds ``humanity_loss`` from ``remorse_odds``); ``TiersRequest`` (``tiers_odds``);
    ``RollUnderRequest`` (``rollunder_odds``). ``reroll`` and ``goal`` are V5's Willpower reroll
    (``v5.CHOICES``) and goal (``v5.GOALS``), refused where the rules allow no reroll (V5-8, V5-9).
    An unknown system is a ``RuleError("unknown_system")``; a request of another system's type,
    or V5 options given to another system, a ``TypeError``.
    """
    if system in _ADDED and reroll == "none" and goal is None:
        return _ADDED[system](request)
    if not isinstance(system, str) or system not in _SHIPPED:
        raise RuleError(
            "unknown_system", system=system if isinstance(system, str) else repr(system), known=list(SYSTEMS)
        )
    return _SHIPPED[system](request, reroll, goal)


def _no_reroll(system: str, reroll: str, goal: str | None) -> None:
    if reroll != "none" or goal is not None:
        raise TypeError(f"reroll and goal are V5 options; {system} odds take none")


def _v20(request: Any, reroll: str, goal: str | None) -> dict[str, Any]:
    from rollbook.odds.v20 import v20_odds
    from rollbook.rules.v20 import V20Request

    _no_reroll("v20", reroll, goal)
    return v20_odds(_expect("v20", request, V20Request)).to_json()


def _tiers(request: Any, reroll: str, goal: str | None) -> dict[str, Any]:
    from rollbook.odds.tiers import tiers_odds
    from rollbook.rules.tiers import TiersRequest

    _no_reroll("tiers", reroll, goal)
    return tiers_odds(_expect("tiers", request, TiersRequest)).to_json()


def _rollunder(request: Any, reroll: str, goal: str | None) -> dict[str, Any]:
    from rollbook.odds.rollunder import rollunder_odds
    from rollbook.rules.rollunder import RollUnderRequest

    _no_reroll("rollunder", reroll, goal)
    return rollunder_odds(_expect("rollunder", request, RollUnderRequest)).to_json()


def _expect(system: str, request: Any, kind: type) -> Any:
    if not isinstance(request, kind):
        raise TypeError(f"{system} odds take a {kind.__name__}, not {type(request).__name__}")
    return request


def _v5(request: Any, reroll: str, goal: str | None) -> dict[str, Any]:
    from rollbook.odds import v5
    from rollbook.rules.v5 import V5Request

    _expect("v5", request, V5Request)
    if request.kind == "rouse":  # V5-10: one die (two with Blood Potency's reroll), no Willpower reroll
        if reroll != "none":
            raise RuleError("reroll_not_allowed", kind=request.kind)
        if goal is not None:
            raise RuleError("field_not_for_kind", field="goal", kind=request.kind)
        rouse = v5.rouse_odds(request.hunger, request.blood_potency_reroll, request.creature)
        return replace(rouse, request=request).to_json()  # mode and difficulty play no part in a Rouse check
    if request.kind != "remorse":
        return v5.v5_odds(request, reroll, goal).to_json()
    # V5-15: one die per empty unstained Humanity box (a pool of 1–10), and the Humanity lost depends
    # on the pool alone (any success keeps it): Humanity 10 − pool with no stains rolls the same dice.
    check_range("pool", request.pool, 1, 10)
    odds = v5.v5_odds(request, reroll, goal)  # the request's own difficulty, mode and creature
    remorse = v5.remorse_odds(10 - request.pool, 0)
    return replace(odds, extras={**(odds.extras or {}), **(remorse.extras or {})}).to_json()


# The shipped systems' odds of a rules request (``odds_for``), each with V5's reroll and goal options.
_SHIPPED: dict[str, Callable[[Any, str, str | None], dict[str, Any]]] = {
    "v20": _v20,
    "v5": _v5,
    "tiers": _tiers,
    "rollunder": _rollunder,
}


def clear_caches() -> None:
    """Forget every memoised table of every system (benchmarks start cold with this)."""
    from rollbook.odds import _exact, v5, v20

    v20.clear_caches()
    v5.clear_caches()
    for cached in (_exact.poly_pow, _exact.category_classes, _exact.compositions, _exact.binomial_row):
        cached.cache_clear()


__all__ = ["SYSTEMS", "Distribution", "clear_caches", "fraction_text", "odds_for", "register", "unregister"]
