"""Exact V5 odds (SPEC V5-1 … V5-15), in agreement with ``systems.v5.rules`` by construction.

Dice are grouped into equivalence classes and each class is classified with the rules' own
functions on representative faces:

- *Face categories* (what a reroll picker can tell apart): 1, 2–5, 6–9, 10. The named pickers
  (``systems.v5.rules.REROLL_CHOICES``) run on representative faces of each class and only the
  categories of the dice they pick matter.
- *Scoring categories* are read off ``systems.v5.rules.count_successes`` and ``systems.v5.rules.classify``:
  two normal faces are alike when ``count_successes`` counts them alike (so a normal 1 is a
  2–5, V5-6); Hunger faces also keep apart the faces that make a bestial failure (a 1) or a
  messy critical (a 10), found by asking ``classify`` about one Hunger die.
- *Whole rolls without a reroll* are summarised by (successes, a pair of 10s?, a Hunger 10?,
  a Hunger 1?) and each such key is classified by ``systems.v5.rules.classify`` on faces built for it
  (checked with ``count_successes``), once per difficulty. The distribution of those keys is
  computed with packed integer polynomials (Kronecker substitution: the multiplications run in C)
  and inclusion–exclusion over the Hunger flags; a whole table costs integer additions, never
  ``Fraction``: ``v5_table`` reads its first difficulty as sums over runs of keys that classify
  alike, and each next one by moving the weight of the keys that classify otherwise there.

Willpower rerolls (V5-8): a named choice picks dice on each class's representative faces;
``optimal`` searches, for every first roll, every count of each scoring category to reroll
(none allowed; up to three normal dice) and keeps the best for the goal. Ties keep the
earlier choice in the order: no reroll, then fewer dice, then failures before successes
before 10s. ``advise`` lists every distinct choice of dice for given faces, best first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rollbook.odds._exact import Distribution, RollShape, category_classes, expect
from rollbook.rules.base import Faces, RuleError, check_choice, to_plain
from rollbook.systems.v5 import odds_classes as v5_classes
from rollbook.systems.v5 import odds_plain as v5_plain
from rollbook.systems.v5 import odds_rerolls as v5_rerolls
from rollbook.systems.v5.odds_classes import CHOICES, FACE_REPS, FACE_SIZES, GOALS, V5Odds, _faces_of
from rollbook.systems.v5.odds_plain import plain_odds, roll_keys, v5_table
from rollbook.systems.v5.odds_rerolls import (
    Advice,
    PolicyEntry,
    _goal_mask,
    advise,
    named_reroll_odds,
    optimal_odds,
    optimal_policy,
)
from rollbook.systems.v5.rules import (
    CREATURES,
    SIDES,
    V5Request,
    frenzy_pool,
    remorse_dice,
    remorse_humanity_loss,
    resolve,
    rouse_request,
)


def v5_odds(request: V5Request, reroll: str = "none", goal: str | None = None) -> V5Odds:
    """The exact odds of a V5 roll, after an optional Willpower reroll: ``none``, a named choice
    (``failures``, ``crits``, ``avoid-messy``, ``risky``) or ``optimal`` for a goal."""
    if reroll not in CHOICES:
        raise RuleError("bad_choice", field="reroll", value=reroll, choices=list(CHOICES))
    if goal is not None:
        _goal_mask(goal)
    if reroll == "optimal":
        return optimal_odds(request, goal or "win")
    odds = plain_odds(request) if reroll == "none" else named_reroll_odds(request, reroll)
    if goal is None:
        return odds
    return V5Odds(
        odds.request, odds.outcomes, odds.successes, odds.reroll, goal, odds.of_goal(goal), odds.extras
    )


def odds(
    pool: int,
    hunger: int = 0,
    difficulty: int = 1,
    reroll: str = "none",
    goal: str | None = None,
    **options: Any,
) -> V5Odds:
    """Shorthand: ``odds(6, 2, 3, reroll="optimal", goal="clean")``."""
    return v5_odds(V5Request(pool=pool, hunger=hunger, difficulty=difficulty, **options), reroll, goal)


# --- rolls without Hunger (V5-9): Rouse, Remorse, frenzy -----------------------------------------------


@dataclass(frozen=True, eq=False)
class RouseOdds:
    request: V5Request
    outcomes: Distribution[str]  # success / failure
    hunger_gain: Distribution[int]
    hunger_frenzy_risk: Fraction

    def to_json(self) -> dict[str, Any]:
        from rollbook.odds._exact import fraction_text

        return {
            "system": "v5",
            "kind": "rouse",
            "request": to_plain(self.request),
            "outcomes": self.outcomes.texts(),
            "floats": self.outcomes.float_texts(),
            "hunger_gain": self.hunger_gain.texts(),
            "hunger_frenzy_risk": fraction_text(self.hunger_frenzy_risk),
        }


def rouse_odds(hunger: int = 0, blood_potency_reroll: bool = False, creature: str = "vampire") -> RouseOdds:
    """V5-10: every face (or pair of faces, for Blood Potency's reroll) through the resolver."""
    request = rouse_request(hunger, blood_potency_reroll, check_choice("creature", creature, CREATURES))
    dice = 2 if blood_potency_reroll else 1
    outcomes: Counter[str] = Counter({"success": 0, "failure": 0})
    gains: Counter[int] = Counter({0: 0, 1: 0})
    risk = 0
    for faces in _all_faces(dice):
        receipt = resolve(request, faces)
        outcomes[receipt.outcome] += 1
        gains[receipt.hunger_gain] += 1
        risk += receipt.hunger_frenzy_risk
    denominator = SIDES**dice
    return RouseOdds(
        request,
        Distribution(dict(outcomes), denominator),
        Distribution(dict(gains), denominator),
        Fraction(risk, denominator),
    )


def _all_faces(dice: int) -> Iterator[Faces]:
    if dice == 0:
        yield ()
        return
    for rest in _all_faces(dice - 1):
        for face in range(1, SIDES + 1):
            yield rest + (face,)


def remorse_odds(humanity: int, stains: int) -> V5Odds:
    """V5-15 Book: one die per empty, unstained Humanity box; any success keeps Humanity.
    Each class of dice is resolved and judged by ``remorse_humanity_loss``."""
    pool = remorse_dice(humanity, stains)
    request = V5Request(pool=pool, kind="remorse")
    odds = plain_odds(request)
    loss = 0
    for counts, weight in category_classes(pool, FACE_SIZES):
        loss += weight * remorse_humanity_loss(resolve(request, _faces_of(counts, FACE_REPS)))
    extras = {"humanity_loss": Distribution({0: SIDES**pool - loss, 1: loss}, SIDES**pool)}
    return V5Odds(request, odds.outcomes, odds.successes, extras=extras)


def frenzy_odds(
    pool: int | None = None,
    difficulty: int = 1,
    *,
    willpower_current: int | None = None,
    humanity: int | None = None,
) -> V5Odds:
    """Frenzy resistance: ordinary dice, no Hunger (V5-9); the pool given, or Willpower + Humanity/3."""
    if pool is None:
        if willpower_current is None or humanity is None:
            raise RuleError("field_required", field="pool", kind="frenzy")
        pool = frenzy_pool(willpower_current, humanity)
    return plain_odds(V5Request(pool=pool, kind="frenzy", difficulty=difficulty))


def clear_caches() -> None:
    """Forget every memoised table (for benchmarks that must start cold)."""
    for module in (v5_classes, v5_plain, v5_rerolls):
        module.clear_caches()


def request_odds(request: Any, reroll: str = "none", goal: str | None = None) -> dict[str, Any]:
    """``odds_for``'s answer for a V5 rules request (SPEC "The odds contract"): a test, Willpower or
    frenzy roll's (``v5_odds``, with the Willpower reroll and goal), a Rouse check's (``rouse_odds``), a
    Remorse roll's (adding ``humanity_loss`` from ``remorse_odds``)."""
    from rollbook.rules.base import RuleError, check_range
    from rollbook.systems.v5.rules import V5Request

    expect("v5", request, V5Request)
    if request.kind == "rouse":  # V5-10: one die (two with Blood Potency's reroll), no Willpower reroll
        if reroll != "none":
            raise RuleError("reroll_not_allowed", kind=request.kind)
        if goal is not None:
            raise RuleError("field_not_for_kind", field="goal", kind=request.kind)
        rouse = rouse_odds(request.hunger, request.blood_potency_reroll, request.creature)
        return replace(rouse, request=request).to_json()  # mode and difficulty play no part in a Rouse check
    if request.kind != "remorse":
        return v5_odds(request, reroll, goal).to_json()
    # V5-15: one die per empty unstained Humanity box (a pool of 1–10), and the Humanity lost depends
    # on the pool alone (any success keeps it): Humanity 10 − pool with no stains rolls the same dice.
    check_range("pool", request.pool, 1, 10)
    odds = v5_odds(request, reroll, goal)  # the request's own difficulty, mode and creature
    remorse = remorse_odds(10 - request.pool, 0)
    return replace(odds, extras={**(odds.extras or {}), **(remorse.extras or {})}).to_json()


# TR-3: a V5 side says nothing beyond its successes in a contest (a V20 side's botch is
# ``systems.v20.odds.contest_side_odds``); declared, so that the contests' odds read no default.
contest_side_odds = None


def contest_shape(request: V5Request) -> RollShape:
    """A V5 roll as a contest or an extended action sees it (TR-3, TR-4: ``odds.contests``). V5-3, V5-6: the joint (successes, a Hunger 1 on a losing roll) by die classes."""
    states: dict[tuple[int, int, bool], int] = {(0, 0, False): 1}
    normal = ((0, 0, False, 5), (1, 0, False, 4), (1, 1, False, 1))  # faces 1–5, 6–9, 10
    hunger = ((0, 0, True, 1), (0, 0, False, 4), (1, 0, False, 4), (1, 1, False, 1))  # 1, 2–5, 6–9, 10
    for classes, count in ((normal, request.normal_dice), (hunger, request.hunger_dice)):
        for _ in range(count):
            after: dict[tuple[int, int, bool], int] = {}
            for (s, t, one), weight in states.items():
                for ds, dt, done, ways in classes:
                    key = (s + ds, t + dt, one or done)
                    after[key] = after.get(key, 0) + weight * ways
            states = after
    denominator = 10 ** (request.normal_dice + request.hunger_dice)
    ends = Fraction(0)
    kept: dict[int, Fraction] = {}
    totals: dict[int, Fraction] = {}
    for (s, t, one), weight in states.items():
        successes = s + 2 * (t // 2)  # V5-3: each pair of 10s adds two
        p = Fraction(weight, denominator)
        totals[successes] = totals.get(successes, Fraction(0)) + p
        if one and successes < request.difficulty:  # V5-6: a bestial failure
            ends += p
        else:
            kept[successes] = kept.get(successes, Fraction(0)) + p
    return RollShape(ends, kept, totals)


__all__ = [
    "contest_shape",
    "request_odds",
    "Advice",
    "CHOICES",
    "GOALS",
    "PolicyEntry",
    "RouseOdds",
    "V5Odds",
    "advise",
    "frenzy_odds",
    "named_reroll_odds",
    "odds",
    "optimal_odds",
    "optimal_policy",
    "plain_odds",
    "remorse_odds",
    "roll_keys",
    "rouse_odds",
    "v5_odds",
    "v5_table",
]
