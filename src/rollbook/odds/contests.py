"""Exact odds of contested and extended rolls (SPEC TR-5), V20 and V5, under the table rules the
requests carry (TR-1): pure, ``fractions.Fraction`` throughout.

- ``contest_odds(system, attacker, defender)``: the chance the attacker wins (more successes), of a
  tie (the defender's, TR-3), the distribution of the margin (attacker − defender), and each side's
  chance of a V20 botch.
- ``extended_odds(system, request, target, max_rolls)``: TR-4 — the chance to reach the target
  within k rolls for k = 1 … the maximum (or ``horizon`` rolls when there is none), the expected
  number of rolls the action takes (until it reaches its target, ends on a V20 botch or a V5
  bestial failure, or runs out of rolls), and the chance it ever reaches the target.

One roll's distribution is the system's own part, its odds module's ``contest_shape`` found by name
(``play.systems.part``: V20's total successes and botch read off its resolver, V5's joint of successes
and a bestial failure counted by die classes, each checked against brute force in ``tests/odds``);
a system registered from outside declares its ``CONTEST_SHAPE``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, cast

from rollbook.odds import admitted
from rollbook.odds._exact import RollShape, fraction_text
from rollbook.play import systems
from rollbook.rules.base import RuleError
from rollbook.rules.contests import PARTS, check_extended, check_system

DEFAULT_HORIZON = 10  # rolls shown for an extended action with no maximum

SideOdds = Callable[[Any], Mapping[str, Fraction]]


class ContestOdds(Protocol):
    """A system's part of the contests' odds (TR-5), what ``play.systems.part`` finds, the one way to a
    system's parts: a shipped system's odds module (``systems/<id>/odds.py``), or what a system registered from
    outside declares on its play module (``CONTEST_SHAPE``, ``CONTEST_SIDE_ODDS``: ``_declared``)."""

    def contest_shape(self, request: Any) -> RollShape: ...  # its roll as a contest sees it (TR-3, TR-4)

    @property
    def contest_side_odds(self) -> SideOdds | None: ...  # what a side says beyond its successes, or None


@dataclass(frozen=True)
class _Declared:
    """The contests' odds a system registered from outside declares, under a shipped module's names."""

    contest_shape: Callable[[Any], RollShape]
    contest_side_odds: SideOdds | None


def _declared(module: systems.OutsideParts) -> _Declared | None:
    """A registered system's part (``play.systems.OutsideParts``); None when it declares no shape."""
    shape, said = module.CONTEST_SHAPE, module.CONTEST_SIDE_ODDS
    if shape is None:
        return None
    return _Declared(cast("Callable[[Any], RollShape]", shape), cast("SideOdds | None", said))


def _part(system: str) -> ContestOdds | None:
    """The system's part of the contests' odds, through the one door of every system's parts. Read
    only for a system with contests (``rules.contests.PARTS``, TR-3): a shipped system's odds module
    holds more than its contests' (the Tiers' has none of them)."""
    return cast("ContestOdds | None", systems.part(system, "odds", _declared))


def _side_odds(part: ContestOdds) -> SideOdds | None:
    """The chance a side says more than its successes (TR-3: a V20 botch), None: nothing (V5's
    ``systems/v5/odds.py`` declares None; a registered system, ``CONTEST_SIDE_ODDS``)."""
    return part.contest_side_odds


def _contest_part(system: str) -> ContestOdds:
    check_system(system)
    part = _part(system)
    if part is None:
        with_odds = [s for s in PARTS if _part(s) is not None]
        raise RuleError("contest_not_for_system", system=system, systems=with_odds)
    return part


def shape_of(system: str, request: Any) -> RollShape:
    """The roll as a contest sees it, of a request the roll takes (``odds.admitted``: else refused as
    the roll is)."""
    part = _contest_part(system)
    admitted(system, request)
    return part.contest_shape(request)


# --- TR-3 -----------------------------------------------------------------------------------------


def contest_odds(system: str, attacker: Any, defender: Any) -> dict[str, Any]:
    """TR-5 for TR-3: the attacker wins with more successes; a tie is the defender's."""
    part = _contest_part(system)
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
    said = _side_odds(part)
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
]
