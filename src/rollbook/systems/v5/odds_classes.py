"""V5 odds, the ground they stand on: the equivalence classes of faces read off ``systems.v5.rules``,
the choices and goals, and the result type ``V5Odds`` (see ``rollbook.systems.v5.odds``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rollbook.odds._exact import Distribution
from rollbook.rules.base import Faces, RuleError, to_plain
from rollbook.systems.v5.rules import (
    MAX_REROLL_DICE,
    OUTCOMES,
    REROLL_CHOICES,
    SIDES,
    V5Request,
    classify,
    count_successes,
)

MAX_ODDS_POOL = 30  # the range: pools 1–30
CHOICES = ("none", *REROLL_CHOICES, "optimal")
GOALS: dict[str, frozenset[str]] = {
    "win": frozenset({"critical", "messy_critical", "success"}),  # any winning outcome (V5-4)
    "clean": frozenset({"critical", "success"}),  # a win that is not a messy critical
    "crit": frozenset({"critical", "messy_critical"}),  # a critical or messy critical (V5-5)
}
REROLL_SCALE = SIDES**MAX_REROLL_DICE  # rerolls of 0–3 dice share the denominator 10**(pool + 3)
_OUT_INDEX = {outcome: index for index, outcome in enumerate(OUTCOMES)}
_BIG = 10**9  # a difficulty no roll reaches, to ask classify about a losing roll


# --- categories, read off the rules ---------------------------------------------------------------

# What a picker can tell apart (the categories): 1, 2–5, 6–9, 10.
FACE_CATEGORY_FACES: tuple[tuple[int, ...], ...] = ((1,), (2, 3, 4, 5), (6, 7, 8, 9), (10,))


def _group_faces(signature: Callable[[int], object]) -> tuple[tuple[int, ...], ...]:
    groups: dict[object, list[int]] = {}
    for face in range(1, SIDES + 1):
        groups.setdefault(signature(face), []).append(face)
    return tuple(tuple(faces) for faces in groups.values())


def _hunger_one(face: int) -> bool:
    """Does this Hunger face make a losing roll bestial? (asked of ``classify``, V5-6)"""
    return classify((), (face,), _BIG)[6]


def _hunger_ten(face: int) -> bool:
    """Does this Hunger face make a critical messy? (asked of ``classify``, V5-5)"""
    return classify((10, 10), (face,), 1)[5]


# What one die scores, and which Hunger faces are 1s and 10s for the rules (asked once).
_FACE_SCORE = {
    face: (lambda c: (c[0] - c[1], c[1]))(count_successes((face,))) for face in range(1, SIDES + 1)
}
_HUNGER_ONE_FACES = frozenset(face for face in range(1, SIDES + 1) if _hunger_one(face))
_HUNGER_TEN_FACES = frozenset(face for face in range(1, SIDES + 1) if _hunger_ten(face))

# Normal dice: faces ``count_successes`` counts alike are alike (V5-1, V5-3, V5-6).
NORMAL_CATEGORY_FACES = _group_faces(lambda face: count_successes((face,)))
# Hunger dice: also apart by their bestial and messy effect (V5-5, V5-6).
HUNGER_CATEGORY_FACES = _group_faces(
    lambda face: (count_successes((face,)), _hunger_one(face), _hunger_ten(face))
)


def _sizes(categories: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(len(faces) for faces in categories)


def _reps(categories: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple(faces[0] for faces in categories)


FACE_SIZES, FACE_REPS = _sizes(FACE_CATEGORY_FACES), _reps(FACE_CATEGORY_FACES)
NORMAL_SIZES, NORMAL_REPS = _sizes(NORMAL_CATEGORY_FACES), _reps(NORMAL_CATEGORY_FACES)
HUNGER_SIZES, HUNGER_REPS = _sizes(HUNGER_CATEGORY_FACES), _reps(HUNGER_CATEGORY_FACES)
_FACE_CATEGORY = {face: i for i, faces in enumerate(FACE_CATEGORY_FACES) for face in faces}
_NORMAL_CATEGORY = {face: i for i, faces in enumerate(NORMAL_CATEGORY_FACES) for face in faces}
# A face category lies inside one normal scoring category (1 and 2–5 both score nothing).
_FACE_TO_NORMAL = tuple(_NORMAL_CATEGORY[faces[0]] for faces in FACE_CATEGORY_FACES)
assert all(
    _NORMAL_CATEGORY[f] == _FACE_TO_NORMAL[i] for i, faces in enumerate(FACE_CATEGORY_FACES) for f in faces
)


def _faces_of(counts: tuple[int, ...], reps: tuple[int, ...]) -> Faces:
    out: list[int] = []
    for rep, count in zip(reps, counts, strict=False):
        out.extend((rep,) * count)
    return tuple(out)


@lru_cache(maxsize=1 << 17)
def _classified(normal: tuple[int, ...], hunger: tuple[int, ...], difficulty: int) -> tuple[int, int]:
    """``(outcome index, successes)`` of a class: normal scoring counts, Hunger counts (V5-3 … V5-7)."""
    result = classify(_faces_of(normal, NORMAL_REPS), _faces_of(hunger, HUNGER_REPS), difficulty)
    return _OUT_INDEX[result[7]], result[0]


class _Shifted(Mapping[int, int]):
    """A list of weights by K seen as a mapping K - offset -> weight (margins without copying)."""

    __slots__ = ("weights", "offset")

    def __init__(self, weights: list[int], offset: int) -> None:
        self.weights, self.offset = weights, offset

    def __getitem__(self, key: int) -> int:
        index = key + self.offset
        if not isinstance(key, int) or not 0 <= index < len(self.weights):
            raise KeyError(key)
        return self.weights[index]

    # ``get`` is Mapping's: ``self[key]``, or the default on KeyError

    def __iter__(self) -> Iterator[int]:
        return iter(range(-self.offset, len(self.weights) - self.offset))

    def __len__(self) -> int:
        return len(self.weights)


# --- results ----------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class V5Odds:
    """Exact odds of a V5 roll: the six outcomes and the margin (successes − difficulty)."""

    request: V5Request
    outcomes: Distribution[str]
    successes: Distribution[int]  # total successes (V5-3); the margins are these less the difficulty
    reroll: str = "none"
    goal: str | None = None
    goal_probability: Fraction | None = None  # the goal's probability under this choice
    extras: Mapping[str, Any] | None = None  # more named results (Remorse: humanity_loss)

    @property
    def margins(self) -> Distribution[int]:
        """margin = successes − difficulty (V5-4)."""
        successes = self.successes
        weights = successes.weights
        if isinstance(weights, _Shifted):
            return Distribution(_Shifted(weights.weights, self.request.difficulty), successes.denominator)
        return Distribution(
            {k - self.request.difficulty: w for k, w in weights.items()}, successes.denominator
        )

    def probability(self, outcome: str) -> Fraction:
        return self.outcomes.probability(outcome)

    def of_goal(self, goal: str) -> Fraction:
        return sum((self.outcomes.probability(o) for o in GOALS[goal]), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "system": "v5",
            "request": to_plain(self.request),
            "kind": self.request.kind,
            "reroll": self.reroll,
            "outcomes": self.outcomes.texts(),
            "floats": self.outcomes.float_texts(),
            "margins": self.margins.nonzero().texts(),
            "margins_floats": self.margins.nonzero().float_texts(),
        }
        if self.goal is not None:
            data["goal_name"] = self.goal
            data["goal"] = _text(self.goal_probability)
            data["goal_float"] = float(_present_probability(self.goal_probability))
        for name, value in (self.extras or {}).items():
            data[name] = value.texts() if isinstance(value, Distribution) else _text(value)
        return data


def _present_probability(value: Fraction | None) -> Fraction:
    """A goal's probability, which comes with its goal."""
    if value is None:
        raise TypeError("a goal without its probability")
    return value


def _text(value: Fraction | None) -> str | None:
    from rollbook.odds._exact import fraction_text

    return None if value is None else fraction_text(value)


def _check_pool(request: V5Request) -> None:
    if request.kind == "rouse":
        raise RuleError(
            "bad_choice", field="kind", value="rouse", choices=["test", "willpower", "remorse", "frenzy"]
        )
    if request.pool > MAX_ODDS_POOL:
        raise RuleError("out_of_range", field="pool", value=request.pool, low=1, high=MAX_ODDS_POOL)


def clear_caches() -> None:
    """Forget this module's memoised tables."""
    _classified.cache_clear()
