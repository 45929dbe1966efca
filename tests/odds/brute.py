"""Brute force through the resolvers: the yardstick the exact odds are checked against.

Nothing here knows the odds engine's categories: faces are enumerated (ordered tuples, or
sorted multisets weighted by their number of orderings where noted) and every roll goes
through ``rules.*.resolve`` (and ``systems.v5.rules.reroll`` with the named pickers). The only
shortcut is memoising a pure function of a multiset of faces.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, product
from math import factorial

from rollbook.systems.rollunder import rules as ru
from rollbook.systems.tiers import rules as t
from rollbook.systems.v5 import rules as v5
from rollbook.systems.v20 import rules as v20

D10 = range(1, 11)


def orderings(multiset: tuple[int, ...]) -> int:
    count = factorial(len(multiset))
    for times in Counter(multiset).values():
        count //= factorial(times)
    return count


def multisets(n: int, sides: int = 10):
    """Sorted face tuples of n dice with how many ordered rolls each stands for."""
    for faces in combinations_with_replacement(range(1, sides + 1), n):
        yield faces, orderings(faces)


def normalise(counter: Counter, total: int) -> dict:
    return {k: Fraction(v, total) for k, v in counter.items() if v}


# --- V20 ----------------------------------------------------------------------------------------


def v20_brute(request: v20.V20Request, ordered: bool | None = None) -> tuple[dict, dict]:
    """(outcome -> P, total successes -> P): every face tuple (or multiset) through resolve."""
    if ordered is None:
        ordered = request.pool <= 4
    outcomes: Counter = Counter()
    totals: Counter = Counter()
    rolls = (
        ((faces, 1) for faces in product(D10, repeat=request.pool)) if ordered else multisets(request.pool)
    )
    for faces, weight in rolls:
        receipt = v20.resolve(request, faces)
        outcomes[receipt.outcome] += weight
        totals[receipt.successes] += weight
    return normalise(outcomes, 10**request.pool), normalise(totals, 10**request.pool)


def v20_finished(request: v20.V20Request):
    """Every finished face sequence the rules ask for (``systems.v20.rules.needed`` after each die: TR-2's
    rerolled tens included)."""
    stack: list[tuple[int, ...]] = [()]
    while stack:
        faces = stack.pop()
        sizes = v20.needed(request, faces)
        if sizes:
            stack.extend(faces + (face,) for face in range(1, sizes[0] + 1))
            continue
        yield faces


def v20_chain_brute(request: v20.V20Request) -> tuple[dict, dict]:
    """(outcome -> P, total successes -> P) over every finished face sequence the rules ask for
    (``systems.v20.rules.needed`` after each die: TR-2's rerolled tens included), each through resolve."""
    outcomes: Counter = Counter()
    totals: Counter = Counter()
    for faces in v20_finished(request):
        receipt = v20.resolve(request, faces)
        mass = Fraction(1, 10 ** len(faces))
        outcomes[receipt.outcome] += mass
        totals[receipt.successes] += mass
    return {k: v for k, v in outcomes.items() if v}, {k: v for k, v in totals.items() if v}


# --- V5 -----------------------------------------------------------------------------------------


def v5_first_rolls(request: v5.V5Request, ordered: bool = False):
    """Flat faces (normal, then Hunger) with their weights over 10**pool."""
    if ordered:
        for faces in product(D10, repeat=request.pool):
            yield faces, 1
        return
    for normal, wn in multisets(request.normal_dice):
        for hunger, wh in multisets(request.hunger_dice):
            yield normal + hunger, wn * wh


def v5_brute(request: v5.V5Request, ordered: bool | None = None) -> tuple[dict, dict]:
    """(outcome -> P, margin -> P) without a reroll."""
    if ordered is None:
        ordered = request.pool <= 4
    outcomes: Counter = Counter()
    margins: Counter = Counter()
    for faces, weight in v5_first_rolls(request, ordered):
        receipt = v5.resolve(request, faces)
        outcomes[receipt.outcome] += weight
        margins[receipt.margin] += weight
    return normalise(outcomes, 10**request.pool), normalise(margins, 10**request.pool)


class Rerolls:
    """Outcomes after rerolling given normal dice, over every ordered tuple of new faces through
    ``systems.v5.rules.reroll``; memoised by (kept faces, how many rerolled, Hunger faces) as multisets."""

    def __init__(self, request: v5.V5Request) -> None:
        self.request = request
        self.memo: dict[tuple, Counter] = {}

    def after(self, receipt, dice: tuple[int, ...]) -> Counter:
        """Counter of (outcome, margin) over 10**3 (each of the 10**r new-face tuples weighs 10**(3-r))."""
        kept = tuple(sorted(f for i, f in enumerate(receipt.normal) if i not in dice))
        key = (kept, len(dice), tuple(sorted(receipt.hunger)))
        found = self.memo.get(key)
        if found is None:
            found = Counter()
            if not dice:
                found[(receipt.outcome, receipt.margin)] = 1000
            else:
                scale = 10 ** (3 - len(dice))
                for new in product(D10, repeat=len(dice)):
                    final = v5.reroll(self.request, receipt, dice, new)
                    found[(final.outcome, final.margin)] += scale
            self.memo[key] = found
        return found


def v5_named_brute(request: v5.V5Request, choice: str) -> tuple[dict, dict]:
    """(outcome -> P, margin -> P) when the named picker chooses the dice to reroll."""
    picker = v5.REROLL_CHOICES[choice]
    rerolls = Rerolls(request)
    outcomes: Counter = Counter()
    margins: Counter = Counter()
    for faces, weight in v5_first_rolls(request):
        receipt = v5.resolve(request, faces)
        dice = tuple(picker(receipt.normal, receipt.hunger))
        for (outcome, margin), w in rerolls.after(receipt, dice).items():
            outcomes[outcome] += weight * w
            margins[margin] += weight * w
    total = 10**request.pool * 1000
    return normalise(outcomes, total), normalise(margins, total)


GOALS = {
    "win": {"critical", "messy_critical", "success"},
    "clean": {"critical", "success"},
    "crit": {"critical", "messy_critical"},
}
SCORING = {face: (0 if face < 6 else 1 if face < 10 else 2) for face in D10}  # fail / success / 10, for ties


def v5_optimal_brute(request: v5.V5Request, goal: str) -> tuple[Fraction, dict]:
    """(P(goal), outcome -> P) when every first roll takes the best subset (none allowed, ≤ 3 normal dice).
    Ties keep the fewest dice, then the most failures, then the most successes (the engine's order)."""
    rerolls = Rerolls(request)
    wanted = GOALS[goal]
    goal_weight = 0
    outcomes: Counter = Counter()
    for faces, weight in v5_first_rolls(request):
        receipt = v5.resolve(request, faces)
        best = None
        for r in range(0, min(3, len(receipt.normal)) + 1):
            for dice in combinations(range(len(receipt.normal)), r):
                after = rerolls.after(receipt, dice)
                value = sum(w for (outcome, _), w in after.items() if outcome in wanted)
                kinds = Counter(SCORING[receipt.normal[i]] for i in dice)
                rank = (-value, r, -kinds[0], -kinds[1])
                if best is None or rank < best[0]:
                    best = (rank, after)
        (neg_value, *_), after = best
        goal_weight += weight * -neg_value
        for (outcome, _), w in after.items():
            outcomes[outcome] += weight * w
    total = 10**request.pool * 1000
    return Fraction(goal_weight, total), normalise(outcomes, total)


def advise_brute(normal: tuple[int, ...], hunger: tuple[int, ...], difficulty: int, goal: str) -> dict:
    """sorted faces rerolled -> P(goal), over every subset of ≤ 3 normal dice."""
    request = v5.V5Request(pool=len(normal) + len(hunger), hunger=len(hunger), difficulty=difficulty)
    receipt = v5.resolve(request, normal + hunger)
    rerolls = Rerolls(request)
    out = {}
    for r in range(0, min(3, len(normal)) + 1):
        for dice in combinations(range(len(normal)), r):
            after = rerolls.after(receipt, dice)
            out[tuple(sorted(normal[i] for i in dice))] = Fraction(
                sum(w for (o, _), w in after.items() if o in GOALS[goal]), 1000
            )
    return out


# --- Tiers --------------------------------------------------------------------------------------


def tiers_finished(
    request: t.TiersRequest, depth: int
) -> tuple[list[tuple[tuple[int, ...], Fraction]], Fraction]:
    """(faces, P) of every finished chain of at most ``depth`` faces (``systems.tiers.rules.needed``), and the
    probability of the chains left unexplored."""
    finished = []
    left = Fraction(0)
    stack = [()]
    while stack:
        prefix = stack.pop()
        for face in D10:
            faces = prefix + (face,)
            mass = Fraction(1, 10 ** len(faces))
            if t.needed(request, faces):
                if len(faces) >= depth:
                    left += mass
                else:
                    stack.append(faces)
                continue
            finished.append((faces, mass))
    return finished, left


def tiers_brute(request: t.TiersRequest, depth: int) -> tuple[dict, dict, dict, Fraction]:
    """Every finished face sequence of length ≤ depth through resolve: (outcome -> P, tier -> P,
    damage -> P, the probability left unexplored)."""
    outcomes: Counter = Counter()
    tiers: Counter = Counter()
    damage: Counter = Counter()
    finished, left = tiers_finished(request, depth)
    for faces, mass in finished:
        receipt = t.resolve(request, faces)
        outcomes[receipt.outcome] += mass
        tiers[receipt.soak_tier if receipt.kind == "soak" else receipt.tier] += mass
        if receipt.kind == "soak":
            damage[receipt.damage] += mass
    return dict(outcomes), dict(tiers), dict(damage), left


# --- roll-under ---------------------------------------------------------------------------------


def rollunder_brute(request: ru.RollUnderRequest) -> dict:
    sizes = ru.dice_needed(request)
    outcomes: Counter = Counter()
    for faces in product(*(range(1, s + 1) for s in sizes)):
        outcomes[ru.resolve(request, faces).outcome] += 1
    total = 1
    for s in sizes:
        total *= s
    return normalise(outcomes, total)
