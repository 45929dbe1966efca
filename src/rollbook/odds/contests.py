"""Exact odds of contested and extended rolls (SPEC TR-5), V20 and V5, under the table rules the
requests carry (TR-1): pure, ``fractions.Fraction`` throughout.

- ``contest_odds(system, attacker, defender)``: the chance the attacker wins (more successes), of a
  tie (the defender's, TR-3), the distribution of the margin (attacker − defender), and each side's
  chance of a V20 botch.
- ``extended_odds(system, request, target, max_rolls)``: TR-4 — the chance to reach the target
  within k rolls for k = 1 … the maximum (or ``horizon`` rolls when there is none), the expected
  number of rolls the action takes (until it reaches its target, ends on a V20 botch or a V5
  bestial failure, or runs out of rolls), and the chance it ever reaches the target.

One roll's distribution comes from the system's odds engine (V20: ``odds.v20``, whose total
successes and botch are read off the resolver); V5's joint (successes, bestial failure) is counted
here by die classes (a normal die: fail, success, 10; a Hunger die: 1, fail, success, 10) and checked
against brute force through ``rules.v5.resolve`` in ``tests/odds``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rollbook.odds._exact import fraction_text
from rollbook.odds.v20 import v20_odds
from rollbook.rules.contests import check_extended, check_system
from rollbook.rules.v5 import V5Request
from rollbook.rules.v20 import V20Request

DEFAULT_HORIZON = 10  # rolls shown for an extended action with no maximum


@dataclass(frozen=True)
class RollShape:
    """One roll of a contest or an extended action: P(the roll ends an extended action: a V20 botch,
    a V5 bestial failure), and the distribution of its successes when it does not end it."""

    ends: Fraction
    successes: dict[int, Fraction]  # over the rolls that do not end it; sums to 1 − ends
    totals: dict[int, Fraction]  # every roll's successes (a V20 botch counts 0), for contests


def v20_shape(request: V20Request) -> RollShape:
    odds = v20_odds(request)
    botch = odds.botch
    totals = {t: p for t, p in odds.successes.fractions().items() if p}
    kept = dict(totals)
    if botch:  # V20-11: a botch has no rolled success and no automatic one: its total is 0
        kept[0] = kept.get(0, Fraction(0)) - botch
        if not kept[0]:
            del kept[0]
    return RollShape(botch, kept, totals)


def v5_shape(request: V5Request) -> RollShape:
    """V5-3, V5-6: the joint (successes, a Hunger 1 on a losing roll) by die classes."""
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


# Each system's roll as a contest or an extended action sees it (``rules.contests.PARTS``' systems),
# and the chance each side says more than its successes (TR-3: a V20 botch is said).
SHAPES: dict[str, Callable[[Any], RollShape]] = {"v20": v20_shape, "v5": v5_shape}
SIDE_ODDS: dict[str, Callable[[Any], dict[str, Fraction]]] = {
    "v20": lambda request: {"botch": v20_odds(request).botch},
}


def shape_of(system: str, request: Any) -> RollShape:
    check_system(system)
    return SHAPES[system](request)


# --- TR-3 -----------------------------------------------------------------------------------------


def contest_odds(system: str, attacker: Any, defender: Any) -> dict[str, Any]:
    """TR-5 for TR-3: the attacker wins with more successes; a tie is the defender's."""
    a, d = shape_of(system, attacker), shape_of(system, defender)
    margins: dict[int, Fraction] = {}
    for sa, pa in a.totals.items():
        for sd, pd in d.totals.items():
            margins[sa - sd] = margins.get(sa - sd, Fraction(0)) + pa * pd
    win = sum((p for m, p in margins.items() if m > 0), Fraction(0))
    tie = margins.get(0, Fraction(0))
    answer: dict[str, Any] = {
        "system": system,
        "kind": "contest",
        "outcomes": {"attacker": fraction_text(win), "defender": fraction_text(1 - win)},
        "tie": fraction_text(tie),
        "margins": {str(m): fraction_text(margins[m]) for m in sorted(margins) if margins[m]},
    }
    said = SIDE_ODDS.get(system)
    if said is not None:  # TR-3: a V20 botch on either side
        sides = {"attacker": said(attacker), "defender": said(defender)}
        for name in sides["attacker"]:
            answer[name] = {side: fraction_text(odds[name]) for side, odds in sides.items()}
    return answer


# --- TR-4 -----------------------------------------------------------------------------------------


def extended_odds(
    system: str, request: Any, target: int, max_rolls: int | None = None, horizon: int = DEFAULT_HORIZON
) -> dict[str, Any]:
    """TR-5 for TR-4: P(the total reaches ``target`` within k rolls), k = 1 … ``max_rolls`` (or
    ``horizon``, then named in the answer as ``horizon``: ``outcomes`` is within that many rolls), the
    expected number of rolls, and P(ever reached)."""
    check_extended(target, max_rolls)
    shape = shape_of(system, request)
    rolls = max_rolls if max_rolls is not None else horizon
    going = {0: Fraction(1)}  # total so far -> P(still going with it)
    reached = Fraction(0)
    within = []
    expected = Fraction(0)
    for _ in range(rolls):
        expected += sum(going.values(), Fraction(0))  # one more roll is made while the action goes on
        after: dict[int, Fraction] = {}
        for total, p in going.items():
            for successes, q in shape.successes.items():
                new = total + successes
                if new >= target:
                    reached += p * q
                else:
                    after[new] = after.get(new, Fraction(0)) + p * q
        going = after
        within.append(reached)
    answer: dict[str, Any] = {
        "system": system,
        "kind": "extended",
        "target": target,
        "max_rolls": max_rolls,
        "outcomes": {"reached": fraction_text(reached), "not_reached": fraction_text(1 - reached)},
        "within": {str(k + 1): fraction_text(p) for k, p in enumerate(within)},
        "ends_per_roll": fraction_text(shape.ends),
    }
    if max_rolls is not None:
        answer["expected_rolls"] = fraction_text(expected)
    else:  # TR-5: with no maximum, ``outcomes`` and ``within`` stop at the horizon: the answer says so
        answer["horizon"] = rolls
        ever, rolls_expected = _unbounded(shape, target)
        answer["ever"] = fraction_text(ever)
        answer["expected_rolls"] = None if rolls_expected is None else fraction_text(rolls_expected)
    return answer


def _unbounded(shape: RollShape, target: int) -> tuple[Fraction, Fraction | None]:
    """With no maximum: P(ever reached) and the expected rolls until it ends (None: it may never)."""
    stay = shape.successes.get(0, Fraction(0))
    if stay == 1:
        return Fraction(0), None
    reach = {target: Fraction(1)}
    rolls = {target: Fraction(0)}
    for total in range(target - 1, -1, -1):  # from the top: each total needs only higher ones
        r = sum((q * reach[min(total + s, target)] for s, q in shape.successes.items() if s > 0), Fraction(0))
        e = 1 + sum(
            (q * rolls[min(total + s, target)] for s, q in shape.successes.items() if s > 0), Fraction(0)
        )
        reach[total] = r / (1 - stay)
        rolls[total] = e / (1 - stay)
    return reach[0], rolls[0]


__all__ = [
    "DEFAULT_HORIZON",
    "RollShape",
    "contest_odds",
    "extended_odds",
    "shape_of",
    "v20_shape",
    "v5_shape",
]
