"""Exact odds for every roll, reusing the rules' own definitions (pure: no I/O).

Probabilities are exact (``fractions.Fraction``); internally a distribution is integer weights
over one common denominator (``Distribution``), so whole tables cost integer additions. Each
system module classifies the equivalence classes of dice with the rules' own functions, so the
odds agree with the resolvers by construction (``tests/odds`` checks it by brute force).

- ``rollbook.systems.v20.odds``: ``v20_odds``, ``v20_table``, ``source_table`` (SPEC V20-15)
- ``rollbook.systems.v5.odds``: ``v5_odds``, ``reroll_odds``, ``optimal_odds``, ``advise``, ``rouse_odds``,
  ``remorse_odds``, ``frenzy_odds``, ``v5_table``
- ``rollbook.systems.tiers.odds``: ``tiers_odds`` (chained criticals summed in closed form)
- ``rollbook.systems.rollunder.odds``: ``check_odds``, ``opposed_odds``
- ``rollbook.systems.v20.odds_exchange``, ``rollbook.systems.tiers.odds_exchange``: a whole exchange before the attack
  (attack → dodge → damage → soak → health track; shot → dodge → soak → wounds), composed from the above
- ``rollbook.odds.chart``: matplotlib pictures (imported lazily)

``odds_for(system, request)`` is the one entry point for a rules request of any system: it picks
the system's own ``request_odds`` (each shipped system's package's ``odds`` module, found by name, ``play.systems.own_module``;
a system defined outside the package: ``register``) and answers the JSON-ready dict ``rollbook odds
--json`` prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from rollbook.odds._exact import Distribution, fraction_text
from rollbook.rules.base import RuleError

_ADDED: dict[str, Callable[[Any], dict[str, Any]]] = {}


class SystemOdds(Protocol):
    """A shipped system's odds module (``systems/<id>/odds.py``), found by its name
    (``play.systems.own_module``): the odds contract's dict of one of its rules requests, and its
    memoised tables forgotten (``clear_caches``: none is an empty function)."""

    def request_odds(self, request: Any, reroll: str = "none", goal: str | None = None) -> dict[str, Any]: ...

    def clear_caches(self) -> None: ...


def _own(system: object) -> SystemOdds | None:
    """A shipped system's odds module, or None (not shipped)."""
    from rollbook.play import systems

    return cast("SystemOdds | None", systems.own_module(system, "odds"))


def register(system: str, odds: Callable[[Any], dict[str, Any]]) -> None:
    """The odds of a system defined outside the package: ``odds(request)`` -> the odds contract's dict
    (the extension point ``odds_for`` reads; a shipped system cannot be replaced)."""
    from rollbook.play.systems import SYSTEM_IDS

    if system in SYSTEM_IDS:
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
    from rollbook.play import systems

    admitted(system, request)
    if system in _ADDED and reroll == "none" and goal is None:
        return _ADDED[system](request)
    own = _own(system)
    if own is None:
        raise RuleError(
            "unknown_system",
            system=system if isinstance(system, str) else repr(system),
            known=list(systems.SYSTEM_IDS),
        )
    return own.request_odds(request, reroll, goal)


# How many times ``admitted`` asks the rules for more dice before it stops asking (a chain of
# criticals ends on a real roll; the fixed face below may never end one).
ADMIT_ROUNDS = 100


def admitted(system: str, request: Any) -> None:
    """The request as the roll takes it, or the roll's refusal: the rules' own bounds checked by the
    rules themselves (their ``needed`` and ``resolve``, the one way a roll goes through, ``dice.roll``),
    over fixed faces (each die its middle face), so that no face gives the odds of a request the roll
    refuses (a registered system's pool of 0 dice, ``out_of_range``). A ``RuleError`` when refused;
    a request of no system of the rules registry (a V20 soak's pair, ``systems.v20.rules``) is the odds' own."""
    from rollbook.rules import get_system

    try:
        rules = get_system(system)
    except RuleError:
        return  # ``odds_for`` refuses the system
    faces: tuple[int, ...] = ()
    try:
        for _ in range(ADMIT_ROUNDS):
            sides = rules.needed(request, faces)
            if not sides:
                rules.resolve(request, faces)
                return
            faces += tuple((size + 1) // 2 for size in sides)
    except (AttributeError, TypeError):
        return  # another of the system's rules requests than its rolls' (``odds_for``'s TypeError)


def clear_caches() -> None:
    """Forget every memoised table of every system (benchmarks start cold with this)."""
    from rollbook.odds import _exact
    from rollbook.play.systems import SYSTEM_IDS

    for system in SYSTEM_IDS:
        own = _own(system)
        if own is not None:
            own.clear_caches()
    for cached in (_exact.poly_pow, _exact.category_classes, _exact.compositions, _exact.binomial_row):
        cached.cache_clear()


__all__ = [
    "Distribution",
    "SystemOdds",
    "admitted",
    "clear_caches",
    "fraction_text",
    "odds_for",
    "register",
    "unregister",
]
