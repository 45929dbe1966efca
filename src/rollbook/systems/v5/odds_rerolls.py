"""V5 odds after a Willpower reroll (V5-8): the named choices, the optimal policy for a goal,
and ``advise`` for faces on the table (see ``rollbook.systems.v5.odds``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, NamedTuple

from rollbook.odds._exact import Distribution, category_classes
from rollbook.rules.base import Faces, RuleError, check_faces, check_range
from rollbook.systems.v5.odds_classes import (
    _FACE_TO_NORMAL,
    _NORMAL_CATEGORY,
    CHOICES,
    FACE_CATEGORY_FACES,
    FACE_REPS,
    FACE_SIZES,
    GOALS,
    HUNGER_CATEGORY_FACES,
    HUNGER_REPS,
    HUNGER_SIZES,
    MAX_ODDS_POOL,
    NORMAL_CATEGORY_FACES,
    NORMAL_REPS,
    NORMAL_SIZES,
    REROLL_SCALE,
    V5Odds,
    _check_pool,
    _classified,
    _faces_of,
    _hunger_one,
    _hunger_ten,
)
from rollbook.systems.v5.odds_plain import _key_outcome, _tens_successes
from rollbook.systems.v5.rules import (
    MAX_REROLL_DICE,
    OUTCOMES,
    REROLL_CHOICES,
    SIDES,
    V5Request,
    count_successes,
)

# --- Willpower rerolls (V5-8) ----------------------------------------------------------------------


def _hunger_classes(request: V5Request) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Hunger dice by face category (what a picker sees); ``_face_to_hunger_counts`` scores them."""
    return category_classes(request.hunger_dice, FACE_SIZES)


@cache
def _reroll_expansion(r: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The classes of r fresh normal dice, weighted over 10**3 (the rerolls' common scale)."""
    scale = SIDES ** (MAX_REROLL_DICE - r)
    return tuple((counts, weight * scale) for counts, weight in category_classes(r, NORMAL_SIZES))


# (kept normal scoring counts, dice rerolled, Hunger scoring counts) -> weight
RerollGroups = dict[tuple[tuple[int, ...], int, tuple[int, ...]], int]


def _expand(groups: RerollGroups, difficulty: int, pool: int) -> tuple[Distribution[str], Distribution[int]]:
    """Kept normal counts + r rerolled dice + Hunger counts -> outcomes and successes over 10**(pool+3)."""
    outcomes = [0] * len(OUTCOMES)
    by_successes: dict[int, int] = {}
    for (kept, r, hunger), weight in groups.items():
        for fresh, fresh_weight in _reroll_expansion(r):
            final = tuple(a + b for a, b in zip(kept, fresh, strict=False))
            index, successes = _classified(final, hunger, difficulty)
            w = weight * fresh_weight
            outcomes[index] += w
            by_successes[successes] = by_successes.get(successes, 0) + w
    denominator = SIDES**pool * REROLL_SCALE
    return (
        Distribution(dict(zip(OUTCOMES, outcomes, strict=False)), denominator),
        Distribution({k: by_successes[k] for k in sorted(by_successes)}, denominator),
    )


def _check_reroll(request: V5Request) -> None:
    _check_pool(request)
    if request.kind != "test":
        raise RuleError("reroll_not_allowed", kind=request.kind)  # V5-8, V5-9


def named_reroll_odds(request: V5Request, choice: str) -> V5Odds:
    """The odds after one Willpower reroll of the dice a named picker chooses (``REROLL_CHOICES``)."""
    _check_reroll(request)
    if choice not in REROLL_CHOICES:
        raise RuleError("bad_choice", field="reroll", value=choice, choices=list(CHOICES))
    picker = REROLL_CHOICES[choice]
    groups: RerollGroups = {}
    for hunger, hunger_weight in _hunger_classes(request):
        hunger_faces = _faces_of(hunger, FACE_REPS)
        hunger_scoring = _face_to_hunger_counts(hunger)
        for counts, weight in category_classes(request.normal_dice, FACE_SIZES):
            faces = _faces_of(counts, FACE_REPS)
            picked = tuple(picker(faces, hunger_faces))
            if len(picked) > MAX_REROLL_DICE or len(set(picked)) != len(picked):
                raise RuleError("reroll_dice_count", given=len(picked), most=MAX_REROLL_DICE)
            kept = [0] * len(NORMAL_SIZES)
            for category, count in enumerate(counts):
                kept[_FACE_TO_NORMAL[category]] += count
            for index in picked:
                kept[_NORMAL_CATEGORY[faces[index]]] -= 1
            key = (tuple(kept), len(picked), hunger_scoring)
            groups[key] = groups.get(key, 0) + weight * hunger_weight
    outcomes, successes = _expand(groups, request.difficulty, request.pool)
    return V5Odds(request, outcomes, successes, reroll=choice)


@cache
def _face_to_hunger_counts(face_counts: tuple[int, ...]) -> tuple[int, ...]:
    """Hunger face-category counts as Hunger scoring-category counts."""
    out = [0] * len(HUNGER_SIZES)
    index = {face: i for i, faces in enumerate(HUNGER_CATEGORY_FACES) for face in faces}
    for rep, count in zip(FACE_REPS, face_counts, strict=False):
        out[index[rep]] += count
    return tuple(out)


# Hunger classes are enumerated over the picker's face categories; they must refine the Hunger
# scoring categories (each face category inside one scoring category) for that to be exact.
assert all(
    len({next(i for i, fs in enumerate(HUNGER_CATEGORY_FACES) if f in fs) for f in faces}) == 1
    for faces in FACE_CATEGORY_FACES
)


@cache
def _k_vectors(parts: int, r: int) -> tuple[tuple[int, ...], ...]:
    from rollbook.odds._exact import compositions

    return compositions(r, parts)  # first category first: failures before successes before 10s


def _goal_mask(goal: str) -> tuple[bool, ...]:
    if goal not in GOALS:
        raise RuleError("bad_choice", field="goal", value=goal, choices=list(GOALS))
    return tuple(outcome in GOALS[goal] for outcome in OUTCOMES)


class PolicyEntry(NamedTuple):
    """One first roll's class and the best reroll for the goal."""

    normal: tuple[int, ...]  # scoring-category counts of the normal dice (fail, success, 10)
    hunger: tuple[int, ...]  # Hunger scoring-category counts
    weight: int  # over 10**pool
    kept: tuple[int, ...]  # counts kept after the best reroll
    rerolled: tuple[int, ...]  # counts rerolled (all zero: keep the roll)
    goal: int  # the goal's weight after it, over 10**3


# The search works on score states: what the kept dice score, read off ``count_successes`` one
# category at a time (successes short of the 10s, 10s), plus the Hunger flags. Failures score
# nothing, so first rolls that differ only in failures beyond the three a reroll can take share
# one decision.
_NORMAL_SCORE = tuple((lambda c: (c[0] - c[1], c[1]))(count_successes((rep,))) for rep in NORMAL_REPS)
_HUNGER_SCORE = tuple((lambda c: (c[0] - c[1], c[1]))(count_successes((rep,))) for rep in HUNGER_REPS)
_HUNGER_FLAGS = tuple((_hunger_ten(rep), _hunger_one(rep)) for rep in HUNGER_REPS)


@cache
def _hunger_state(hunger: tuple[int, ...]) -> tuple[int, int, bool, bool]:
    """(plain successes, 10s, any Hunger 10, any Hunger 1) of Hunger scoring counts."""
    plain = sum(c * sc[0] for c, sc in zip(hunger, _HUNGER_SCORE, strict=False))
    tens = sum(c * sc[1] for c, sc in zip(hunger, _HUNGER_SCORE, strict=False))
    ten = any(c and fl[0] for c, fl in zip(hunger, _HUNGER_FLAGS, strict=False))
    one = any(c and fl[1] for c, fl in zip(hunger, _HUNGER_FLAGS, strict=False))
    return plain, tens, ten, one


class _Search:
    """The optimal reroll for one (difficulty, goal), memoised over score states (shared by all pools)."""

    def __init__(self, difficulty: int, goal: str) -> None:
        self.difficulty = difficulty
        self.mask = _goal_mask(goal)
        self.values: dict[
            tuple[int, int, int, bool, bool], int
        ] = {}  # (r, plain, tens, ten, one) -> goal weight over 10**r
        # (plain, tens, ten, one, available) -> (counts to reroll, goal weight over 10**3)
        self.best: dict[tuple[int, int, bool, bool, tuple[int, ...]], tuple[tuple[int, ...], int]] = {}

    def value(self, r: int, plain: int, tens: int, ten: bool, one: bool) -> int:
        key = (r, plain, tens, ten, one)
        found = self.values.get(key)
        if found is not None:
            return found
        if r == 0:
            score, pair = _tens_successes(tens)
            outcome = _key_outcome(plain + score, pair, ten, one, self.difficulty)
            if outcome is None:
                raise AssertionError(f"no roll has the score state {key}")
            found = int(self.mask[outcome])
        else:  # one more fresh die, then r - 1 (V5-8: the rerolled dice are fresh normal dice)
            found = sum(
                size * self.value(r - 1, plain + dp, tens + dt, ten, one)
                for size, (dp, dt) in zip(NORMAL_SIZES, _NORMAL_SCORE, strict=False)
            )
        self.values[key] = found
        return found

    def choose(
        self, plain: int, tens: int, ten: bool, one: bool, available: tuple[int, ...]
    ) -> tuple[tuple[int, ...], int]:
        """(counts to reroll, goal weight over 10**3) for the first roll's score and the dice
        available in each category (at most three count)."""
        key = (plain, tens, ten, one, available)
        found = self.best.get(key)
        if found is not None:
            return found
        best = -1
        best_k: tuple[int, ...] | None = None
        for r in range(MAX_REROLL_DICE + 1):
            scale = SIDES ** (MAX_REROLL_DICE - r)
            for k in _k_vectors(len(available), r):
                if any(a > b for a, b in zip(k, available, strict=False)):
                    continue
                dp = sum(c * sc[0] for c, sc in zip(k, _NORMAL_SCORE, strict=False))
                dt = sum(c * sc[1] for c, sc in zip(k, _NORMAL_SCORE, strict=False))
                value = self.value(r, plain - dp, tens - dt, ten, one) * scale
                if value > best:
                    best, best_k = value, k
        if best_k is None:  # r = 0 (keep the roll) is always weighed
            raise AssertionError(f"no reroll weighed for {key}")
        found = (best_k, best)
        self.best[key] = found
        return found


@lru_cache(maxsize=64)
def _search(difficulty: int, goal: str) -> _Search:
    return _Search(difficulty, goal)


def optimal_policy(request: V5Request, goal: str) -> list[PolicyEntry]:
    """For every first roll (class), the reroll that maximises the goal (V5-8)."""
    _check_reroll(request)
    _goal_mask(goal)  # refuses an unknown goal
    search = _search(request.difficulty, goal)
    entries: list[PolicyEntry] = []
    append = entries.append
    (fp, ft), (sp, st), (tp, tt) = _NORMAL_SCORE
    for hunger_face_counts, hunger_weight in _hunger_classes(request):
        hunger = _face_to_hunger_counts(hunger_face_counts)
        h_plain, h_tens, ten, one = _hunger_state(hunger)
        for counts, weight in category_classes(request.normal_dice, NORMAL_SIZES):
            f, s, t = counts
            k, value = search.choose(
                h_plain + f * fp + s * sp + t * tp,
                h_tens + f * ft + s * st + t * tt,
                ten,
                one,
                (min(f, 3), min(s, 3), min(t, 3)),
            )
            append(
                PolicyEntry(counts, hunger, weight * hunger_weight, (f - k[0], s - k[1], t - k[2]), k, value)
            )
    return entries


assert len(NORMAL_SIZES) == 3, "the optimal search unpacks three normal scoring categories"


def optimal_odds(request: V5Request, goal: str) -> V5Odds:
    """The odds when, for every first roll, the reroll (possibly none) best for the goal is taken."""
    groups: RerollGroups = {}
    goal_weight = 0
    for entry in optimal_policy(request, goal):
        key = (entry.kept, sum(entry.rerolled), entry.hunger)
        groups[key] = groups.get(key, 0) + entry.weight
        goal_weight += entry.weight * entry.goal
    outcomes, successes = _expand(groups, request.difficulty, request.pool)
    probability = Fraction(goal_weight, outcomes.denominator)
    assert probability == sum((outcomes.probability(o) for o in GOALS[goal]), Fraction(0))
    return V5Odds(request, outcomes, successes, reroll="optimal", goal=goal, goal_probability=probability)


# --- advice for a roll on the table ------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """One choice of normal dice to reroll and what it gives."""

    dice: tuple[int, ...]  # indices into the normal dice (one choice per distinct set of faces)
    faces: Faces  # their faces
    probability: Fraction  # of the goal after rerolling them
    outcomes: Distribution[str]

    def to_json(self) -> dict[str, Any]:
        from rollbook.odds._exact import fraction_text

        return {
            "dice": list(self.dice),
            "faces": list(self.faces),
            "goal": fraction_text(self.probability),
            "goal_float": float(self.probability),
            "outcomes": self.outcomes.texts(),
        }


def advise(
    normal_faces: Iterable[int], hunger_faces: Iterable[int], difficulty: int, goal: str = "win"
) -> list[Advice]:
    """Every distinct choice of up to three normal dice to reroll (none included), with the
    probability of the goal after it, best first (ties: fewer dice first, then lower faces)."""
    normal = check_faces(tuple(normal_faces), SIDES, field="normal")
    hunger = check_faces(tuple(hunger_faces), SIDES, field="hunger")
    check_range("difficulty", difficulty, 1, None)
    mask = _goal_mask(goal)
    if len(hunger) > 5:
        raise RuleError("too_many_hunger_dice", given=len(hunger))
    check_range("pool", len(normal) + len(hunger), 1, MAX_ODDS_POOL)  # V5-1: a roll has dice
    hunger_counts = _counts(hunger, HUNGER_CATEGORY_FACES)
    seen: set[tuple[int, ...]] = set()
    advice = []
    for r in range(0, min(MAX_REROLL_DICE, len(normal)) + 1):
        for dice in combinations(range(len(normal)), r):
            faces = tuple(sorted(normal[i] for i in dice))
            if faces in seen:
                continue
            seen.add(faces)
            kept = _counts(tuple(f for i, f in enumerate(normal) if i not in dice), NORMAL_CATEGORY_FACES)
            weights = [0] * len(OUTCOMES)
            for fresh, fresh_weight in category_classes(r, NORMAL_SIZES):
                final = tuple(a + b for a, b in zip(kept, fresh, strict=False))
                weights[_classified(final, hunger_counts, difficulty)[0]] += fresh_weight
            outcomes: Distribution[str] = Distribution(dict(zip(OUTCOMES, weights, strict=False)), SIDES**r)
            hit = sum(w for w, m in zip(weights, mask, strict=False) if m)
            advice.append(Advice(dice, tuple(normal[i] for i in dice), Fraction(hit, SIDES**r), outcomes))
    advice.sort(key=lambda a: (-a.probability, len(a.dice), sorted(a.faces)))
    return advice


def _counts(faces: Faces, categories: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    index = {face: i for i, fs in enumerate(categories) for face in fs}
    out = [0] * len(categories)
    for face in faces:
        out[index[face]] += 1
    return tuple(out)


def clear_caches() -> None:
    """Forget this module's memoised tables."""
    for cached in (_reroll_expansion, _k_vectors, _face_to_hunger_counts, _search, _hunger_state):
        cached.cache_clear()
