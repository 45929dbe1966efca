"""Exact Tiers odds (SPEC T-1 … T-5), in agreement with ``systems.tiers.rules`` by construction.

A Tiers roll is a chain of d10s: the first die, then one more after every 1 (T-2). The odds
walk that tree with the rules' own ``needed`` (does the chain go on after these faces?) and
``resolve`` (tier, success, dodge, damage of a finished chain), so the classes are the finished
face sequences, each of probability 10**-length.

The tree is infinite along 1, 1, 1, …: P(another 1) = 1/10 at every step. It is walked to a
depth J where every outcome has settled (the receipts' outcome, dodge and damage agree for
k = 0, 1, 2 and "many" more 1s — past every threshold of the request — and the tier grows by a
constant step, all checked on the resolver; the verdicts are monotone in the tier), and
the rest is summed in closed form: the sequences 1^(J+k) g weigh 10**-(J+k+1) and
``Σ_k 10**-k = 10/9``. The tier distribution is exact up to a cutoff, and ``tail`` is the exact
probability of every tier above it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import Any

from rollbook.odds._exact import Distribution, K, expect, fraction_text, no_reroll
from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.tiers.rules import OUTCOMES, SIDES, TiersReceipt, TiersRequest, needed, resolve

MAX_DEPTH = 10_000  # the walk settles long before this for any legal request
SHOWN_CRITICAL_STEPS = 2  # tiers of the geometric tail listed explicitly past the settled depth


def distribution_of(fractions: Mapping[K, Fraction]) -> Distribution[K]:
    """Fractions as integer weights over their least common denominator."""
    denominator = 1
    for value in fractions.values():
        denominator = lcm(denominator, Fraction(value).denominator)
    return Distribution({k: int(Fraction(v) * denominator) for k, v in fractions.items()}, denominator)


@dataclass(frozen=True, eq=False)
class TiersOdds:
    """Exact odds of a Tiers roll (skill, dodge or soak)."""

    request: TiersRequest
    outcomes: Distribution[str]  # success / failure (a soak succeeds when it takes no damage)
    tiers: Distribution[int]  # the receipt's tier (skill: after bullets; soak: soak tier), up to ``cutoff``
    cutoff: int
    tail: Fraction  # P(tier > cutoff): the chain's geometric tail, exact
    critical: Fraction  # P(the first face is a critical), T-2
    damage: Distribution[int] | None = None  # soak only (T-5)

    @property
    def success(self) -> Fraction:
        return self.outcomes.probability("success")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "system": "tiers",
            "kind": self.request.kind,
            "request": to_plain(self.request),
            "outcomes": self.outcomes.texts(),
            "floats": self.outcomes.float_texts(),
            "tiers": self.tiers.nonzero().texts(),
            "tiers_floats": self.tiers.nonzero().float_texts(),
            "tail": {"above": self.cutoff, "p": fraction_text(self.tail), "float": float(self.tail)},
            "critical": fraction_text(self.critical),
        }
        if self.request.kind == "dodge":
            data["dodged"] = fraction_text(self.success)
        if self.damage is not None:
            data["damage"] = self.damage.nonzero().texts()
            data["damage_floats"] = self.damage.nonzero().float_texts()
        return data


def _tier(receipt: TiersReceipt) -> int:
    return receipt.soak_tier if receipt.kind == "soak" else receipt.tier


def _verdict(receipt: TiersReceipt) -> tuple[str, int | None]:
    """What the odds report of a finished chain besides its tier."""
    return (receipt.outcome, receipt.damage if receipt.kind == "soak" else None)


def tiers_odds(request: TiersRequest) -> TiersOdds:
    """The exact odds of a Tiers request (skill with bonus and bullets, dodge, soak)."""
    tiers: dict[int, Fraction] = {}
    outcomes: dict[str, Fraction] = dict.fromkeys(OUTCOMES, Fraction(0))
    damage: dict[int, Fraction] = {}
    critical = Fraction(0)

    def add(receipt: TiersReceipt, mass: Fraction) -> None:
        tiers[_tier(receipt)] = tiers.get(_tier(receipt), Fraction(0)) + mass
        outcomes[receipt.outcome] += mass
        if receipt.kind == "soak":
            damage[receipt.damage] = damage.get(receipt.damage, Fraction(0)) + mass

    # Walk the tree of face sequences: one open prefix per depth (the chain of 1s).
    open_prefix: tuple[int, ...] = ()
    depth = 0
    while True:
        if depth > 0 and _settled(request, open_prefix):
            break
        if depth >= MAX_DEPTH:
            raise RuleError("out_of_range", field="depth", value=depth, low=0, high=MAX_DEPTH)
        continuing = []
        for face in range(1, SIDES + 1):
            faces = open_prefix + (face,)
            mass = Fraction(1, SIDES ** len(faces))
            if needed(request, faces):  # T-2: a critical asks for another die
                continuing.append(faces)
                if depth == 0:
                    critical += mass
            else:
                add(resolve(request, faces), mass)
        if len(continuing) != 1:  # a Tiers chain never branches (T-2)
            raise AssertionError(f"the chain branches after {open_prefix}: {continuing}")
        open_prefix = continuing[0]
        depth += 1

    # The tail: 1^(J+k) g for every finishing face g and k >= 0, summed in closed form.
    open_mass = Fraction(1, SIDES ** len(open_prefix))
    seen_max = max(tiers)
    tail_terms = []  # (first tier, step, mass of the first term) of each geometric series
    for face in range(1, SIDES + 1):
        faces = open_prefix + (face,)
        if needed(request, faces):
            continue
        first = resolve(request, faces)
        step = _tier(resolve(request, open_prefix + (open_prefix[-1],) + (face,))) - _tier(first)
        mass = open_mass / SIDES  # then each further 1 multiplies by 1/10
        outcomes[first.outcome] += mass * Fraction(SIDES, SIDES - 1)  # settled: the same all along
        if first.kind == "soak":
            damage[first.damage] = damage.get(first.damage, Fraction(0)) + mass * Fraction(SIDES, SIDES - 1)
        tail_terms.append((_tier(first), step, mass))
    cutoff = max([seen_max] + [t + SHOWN_CRITICAL_STEPS * s for t, s, _ in tail_terms])
    tail = Fraction(0)
    for first_tier, step, mass in tail_terms:
        if step == 0:  # the same tier all along: the whole series at once
            tiers[first_tier] = tiers.get(first_tier, Fraction(0)) + mass * Fraction(SIDES, SIDES - 1)
            continue
        k = 0
        while first_tier + k * step <= cutoff:
            tier = first_tier + k * step
            tiers[tier] = tiers.get(tier, Fraction(0)) + mass / SIDES**k
            k += 1
        tail += mass / SIDES**k * Fraction(SIDES, SIDES - 1)  # Σ_{k' >= k} mass / 10**k'

    ordered = {t: tiers[t] for t in sorted(tiers)}
    return TiersOdds(
        request=request,
        outcomes=distribution_of(outcomes),
        tiers=distribution_of(ordered),
        cutoff=cutoff,
        tail=tail,
        critical=critical,
        damage=distribution_of({d: damage[d] for d in sorted(damage)}) if request.kind == "soak" else None,
    )


def _far(request: TiersRequest) -> int:
    """More critical steps than it takes the tier to pass every threshold of the request
    (0 for success, the attack's tier for a dodge or soak: T-1, T-4, T-5)."""
    return abs(request.attack_tier or 0) + request.effective + 12


def _settled(request: TiersRequest, prefix: tuple[int, ...]) -> bool:
    """After ``prefix`` (a chain of 1s), do 0, 1, 2 and many more 1s before each finishing face
    give the same verdict, with the tier growing by a constant step? The verdicts are monotone in
    the tier (T-1, T-4, T-5), so then every longer chain gives that verdict too."""
    one = prefix[-1]
    for face in range(1, SIDES + 1):
        if needed(request, prefix + (face,)):
            continue
        receipts = [resolve(request, prefix + (one,) * k + (face,)) for k in (0, 1, 2, _far(request))]
        verdicts = {_verdict(r) for r in receipts}
        tiers = [_tier(r) for r in receipts[:3]]
        if len(verdicts) != 1 or tiers[2] - tiers[1] != tiers[1] - tiers[0] or tiers[1] < tiers[0]:
            return False
    return True


def odds(skill: int, bonus: int = 0, bullets: int | None = None, **options: Any) -> TiersOdds:
    """Shorthand for a skill roll: ``odds(6, bonus=2, bullets=3)``."""
    return tiers_odds(
        TiersRequest(kind=options.pop("kind", "skill"), skill=skill, bonus=bonus, bullets=bullets, **options)
    )


def dodge_odds(skill: int, attack_tier: int, bonus: int = 0) -> TiersOdds:
    """T-4: the chance that a dodge beats the attack's tier (strictly)."""
    return tiers_odds(TiersRequest(kind="dodge", skill=skill, bonus=bonus, attack_tier=attack_tier))


def soak_odds(endurance: int, armor: int, attack_tier: int) -> TiersOdds:
    """T-5: the distribution of damage (wound levels) after a soak roll."""
    return tiers_odds(TiersRequest(kind="soak", endurance=endurance, armor=armor, attack_tier=attack_tier))


def success_by_skill(skills: range | tuple[int, ...], **options: Any) -> dict[int, Fraction]:
    """P(success) of a skill roll for each skill (for charts)."""
    base = TiersRequest(kind="skill", skill=0, **options)
    return {skill: tiers_odds(replace(base, skill=skill)).success for skill in skills}


def clear_caches() -> None:
    """Tiers odds keep no memoised table: nothing to forget (``odds.clear_caches``)."""


def request_odds(request: Any, reroll: str = "none", goal: str | None = None) -> dict[str, Any]:
    """``odds_for``'s answer for a Tiers rules request (SPEC "The odds contract")."""
    no_reroll("tiers", reroll, goal)
    return tiers_odds(expect("tiers", request, TiersRequest)).to_json()


# V5-8 is V5's: no Willpower reroll to advise on (``present.preview.reroll_advice``); declared, so that
# the advice reads no default.
advise = None


__all__ = [
    "advise",
    "clear_caches",
    "request_odds",
    "TiersOdds",
    "distribution_of",
    "dodge_odds",
    "odds",
    "soak_odds",
    "success_by_skill",
    "tiers_odds",
]
