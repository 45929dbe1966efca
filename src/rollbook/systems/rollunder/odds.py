"""Exact roll-under odds (SPEC R-1 … R-8), in agreement with ``systems.rollunder.rules`` by construction.

- *Checks* (R-1 … R-4): one d20, or two with advantage or disadvantage (R-3): every face
  tuple the rules ask for (``dice_needed``: 20 or 400 of them) goes through ``resolve``.
- *Opposed rolls* (R-7): the total of any ``NdS+…`` expression is distributed by convolution
  (memoised powers of each die's polynomial, integer counts over the product of the sides).
  The classes are the totals: a total is made by all 1s exactly when it is the minimum and by
  all highest faces exactly when it is the maximum, so every roll with the same total gets the
  same verdict; each total is classified by ``resolve`` on faces that make it.
- Absurd and trivial tasks (R-8) roll nothing: their one receipt is the whole distribution.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from math import prod
from typing import Any

from rollbook.odds._exact import Distribution, expect, fraction_text, no_reroll, poly_mul, poly_pow
from rollbook.rules.base import RuleError, present, to_plain
from rollbook.systems.rollunder.rules import (
    OUTCOMES,
    RollUnderReceipt,
    RollUnderRequest,
    dice_needed,
    parse_dice,
    resolve,
)

ODDS_ACTION = "odds"  # R-5 wants a declared action; the odds of a roll describe no particular one
MAX_TOTALS = 20_000  # totals classified one by one through the resolver


@dataclass(frozen=True, eq=False)
class RollUnderOdds:
    """Exact odds of a roll-under check or opposed roll."""

    request: RollUnderRequest
    outcomes: Distribution[str]  # critical_success / success / failure / critical_failure
    values: Distribution[int]  # the kept d20 (check) or the total (opposed)
    at_or_under: Fraction  # P(kept or total ≤ target), criticals aside

    @property
    def success(self) -> Fraction:
        return self.outcomes.probability("critical_success") + self.outcomes.probability("success")

    def to_json(self) -> dict[str, Any]:
        name = "totals" if self.request.kind == "opposed" else "kept"
        return {
            "system": "rollunder",
            "kind": self.request.kind,
            "request": to_plain(self.request),
            "target": self.request.target,
            "outcomes": self.outcomes.texts(),
            "floats": self.outcomes.float_texts(),
            "success": fraction_text(self.success),
            "at_or_under": fraction_text(self.at_or_under),
            name: self.values.nonzero().texts(),
            f"{name}_floats": self.values.nonzero().float_texts(),
        }


def _value(receipt: RollUnderReceipt) -> int | None:
    return receipt.total if receipt.kind == "opposed" else receipt.kept


def _kept(receipt: RollUnderReceipt) -> int:
    """The die a rolled check keeps (R-1, R-3)."""
    if receipt.kind != "check" or receipt.kept is None:
        raise TypeError("not a rolled check")
    return receipt.kept


def rollunder_odds(request: RollUnderRequest) -> RollUnderOdds:
    """The exact odds of a roll-under request (check or opposed; any task)."""
    if not request.rolled:  # no dice, one receipt
        receipt = resolve(request, ())
        outcomes: dict[str, int] = {o: int(o == receipt.outcome) for o in OUTCOMES}
        return RollUnderOdds(request, Distribution(outcomes, 1), Distribution({}, 1), Fraction(0))
    if request.kind == "opposed":
        return _opposed(request)
    sizes = dice_needed(request)
    outcomes = dict.fromkeys(OUTCOMES, 0)
    values: dict[int, int] = {}
    under = 0
    for faces in product(*(range(1, s + 1) for s in sizes)):  # every face tuple, each equally likely
        receipt = resolve(request, faces)
        outcomes[receipt.outcome] += 1
        kept = _kept(receipt)
        values[kept] = values.get(kept, 0) + 1
        under += kept <= receipt.target
    denominator = prod(sizes)
    return RollUnderOdds(
        request,
        Distribution(outcomes, denominator),
        Distribution({k: values[k] for k in sorted(values)}, denominator),
        Fraction(under, denominator),
    )


def _opposed(request: RollUnderRequest) -> RollUnderOdds:
    expression = parse_dice(present(request.dice, "dice"))
    low, high = expression.minimum, expression.maximum
    if high - low + 1 > MAX_TOTALS:
        raise RuleError("out_of_range", field="totals", value=high - low + 1, low=1, high=MAX_TOTALS)
    totals: tuple[int, ...] = (1,)  # coefficient of x**t = ways to make total t
    for term in expression.terms:
        totals = poly_mul(totals, poly_pow((0,) + (1,) * term.sides, term.count))
    sizes = expression.sizes
    outcomes: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
    values: dict[int, int] = {}
    under = 0
    shift = expression.modifier  # a number added to (or taken from) the dice's total
    for total in range(low, high + 1):
        ways = totals[total - shift]
        if not ways:
            continue
        receipt = resolve(request, _faces_for(total - shift, sizes))
        assert receipt.kind == "opposed" and receipt.total == total
        outcomes[receipt.outcome] += ways
        values[total] = ways
        under += ways if total <= request.target else 0
    denominator = prod(sizes)
    return RollUnderOdds(
        request,
        Distribution(outcomes, denominator),
        Distribution(values, denominator),
        Fraction(under, denominator),
    )


def _faces_for(total: int, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Faces of the given dice summing to ``total`` (lowest first, raised greedily in order)."""
    faces = [1] * len(sizes)
    extra = total - len(sizes)
    for index, sides in enumerate(sizes):
        step = min(extra, sides - 1)
        faces[index] += step
        extra -= step
    return tuple(faces)


def check_odds(
    level: int,
    bonus: int = 0,
    malus: int = 0,
    advantage: bool = False,
    disadvantage: bool = False,
    **options: Any,
) -> RollUnderOdds:
    """A check (R-1 … R-4)."""
    return rollunder_odds(
        RollUnderRequest(
            action=options.pop("action", ODDS_ACTION),
            kind="check",
            level=level,
            bonus=bonus,
            malus=malus,
            advantage=advantage,
            disadvantage=disadvantage,
            **options,
        )
    )


def opposed_odds(dice: str, threshold: int, **options: Any) -> RollUnderOdds:
    """An opposed roll (R-7): ``opposed_odds("2d8+1d4", 9)``."""
    return rollunder_odds(
        RollUnderRequest(
            action=options.pop("action", ODDS_ACTION),
            kind="opposed",
            dice=dice,
            threshold=threshold,
            **options,
        )
    )


def success_by_level(levels: Iterable[int], **options: Any) -> dict[int, Fraction]:
    """P(success, criticals included) of a check for each level (for charts)."""
    base = RollUnderRequest(action=ODDS_ACTION, kind="check", level=0, **options)
    return {level: rollunder_odds(replace(base, level=level)).success for level in levels}


def clear_caches() -> None:
    """roll-under odds keep no memoised table: nothing to forget (``odds.clear_caches``)."""


def request_odds(request: Any, reroll: str = "none", goal: str | None = None) -> dict[str, Any]:
    """``odds_for``'s answer for a roll-under rules request (SPEC "The odds contract")."""
    no_reroll("rollunder", reroll, goal)
    return rollunder_odds(expect("rollunder", request, RollUnderRequest)).to_json()


# V5-8 is V5's: no Willpower reroll to advise on (``present.preview.reroll_advice``); declared, so that
# the advice reads no default.
advise = None


__all__ = [
    "advise",
    "clear_caches",
    "request_odds",
    "ODDS_ACTION",
    "RollUnderOdds",
    "check_odds",
    "opposed_odds",
    "rollunder_odds",
    "success_by_level",
]
