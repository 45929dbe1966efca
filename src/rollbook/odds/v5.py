"""Exact V5 odds (SPEC V5-1 … V5-15), in agreement with ``rules.v5`` by construction.

Dice are grouped into equivalence classes and each class is classified with the rules' own
functions on representative faces:

- *Face categories* (what a reroll picker can tell apart): 1, 2–5, 6–9, 10. The named pickers
  (``rules.v5.REROLL_CHOICES``) run on representative faces of each class and only the
  categories of the dice they pick matter.
- *Scoring categories* are read off ``rules.v5.count_successes`` and ``rules.v5.classify``:
  two normal faces are alike when ``count_successes`` counts them alike (so a normal 1 is a
  2–5, V5-6); Hunger faces also keep apart the faces that make a bestial failure (a 1) or a
  messy critical (a 10), found by asking ``classify`` about one Hunger die.
- *Whole rolls without a reroll* are summarised by (successes, a pair of 10s?, a Hunger 10?,
  a Hunger 1?) and each such key is classified by ``rules.v5.classify`` on faces built for it
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

import struct
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, groupby, pairwise
from typing import Any, Callable, Iterable, NamedTuple, Sequence

from rollbook.odds._exact import Distribution, category_classes, unpack_fast
from rollbook.rules.base import Faces, RuleError, check_faces, check_range, to_plain
from rollbook.rules.v5 import (
    MAX_REROLL_DICE,
    OUTCOMES,
    REROLL_CHOICES,
    SIDES,
    V5Request,
    classify,
    count_successes,
    frenzy_pool,
    remorse_dice,
    remorse_humanity_loss,
    resolve,
    rouse_request,
)

MAX_ODDS_POOL = 30  # the range: pools 1–30
CHOICES = ("none", *REROLL_CHOICES, "optimal")
GOALS: dict[str, frozenset[str]] = {
    "win": frozenset({"critical", "messy_critical", "success"}),  # any winning outcome (V5-4)
    "clean": frozenset({"critical", "success"}),  # a win that is not a messy critical
    "crit": frozenset({"critical", "messy_critical"}),  # a critical or messy critical (V5-5)
}
REROLL_SCALE = SIDES ** MAX_REROLL_DICE  # rerolls of 0–3 dice share the denominator 10**(pool + 3)
_OUT_INDEX = {outcome: index for index, outcome in enumerate(OUTCOMES)}
_BIG = 10 ** 9  # a difficulty no roll reaches, to ask classify about a losing roll


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
_FACE_SCORE = {face: (lambda c: (c[0] - c[1], c[1]))(count_successes((face,))) for face in range(1, SIDES + 1)}
_HUNGER_ONE_FACES = frozenset(face for face in range(1, SIDES + 1) if _hunger_one(face))
_HUNGER_TEN_FACES = frozenset(face for face in range(1, SIDES + 1) if _hunger_ten(face))

# Normal dice: faces ``count_successes`` counts alike are alike (V5-1, V5-3, V5-6).
NORMAL_CATEGORY_FACES = _group_faces(lambda face: count_successes((face,)))
# Hunger dice: also apart by their bestial and messy effect (V5-5, V5-6).
HUNGER_CATEGORY_FACES = _group_faces(lambda face: (count_successes((face,)), _hunger_one(face), _hunger_ten(face)))


def _sizes(categories) -> tuple[int, ...]:
    return tuple(len(faces) for faces in categories)


def _reps(categories) -> tuple[int, ...]:
    return tuple(faces[0] for faces in categories)


FACE_SIZES, FACE_REPS = _sizes(FACE_CATEGORY_FACES), _reps(FACE_CATEGORY_FACES)
NORMAL_SIZES, NORMAL_REPS = _sizes(NORMAL_CATEGORY_FACES), _reps(NORMAL_CATEGORY_FACES)
HUNGER_SIZES, HUNGER_REPS = _sizes(HUNGER_CATEGORY_FACES), _reps(HUNGER_CATEGORY_FACES)
_FACE_CATEGORY = {face: i for i, faces in enumerate(FACE_CATEGORY_FACES) for face in faces}
_NORMAL_CATEGORY = {face: i for i, faces in enumerate(NORMAL_CATEGORY_FACES) for face in faces}
# A face category lies inside one normal scoring category (1 and 2–5 both score nothing).
_FACE_TO_NORMAL = tuple(_NORMAL_CATEGORY[faces[0]] for faces in FACE_CATEGORY_FACES)
assert all(_NORMAL_CATEGORY[f] == _FACE_TO_NORMAL[i] for i, faces in enumerate(FACE_CATEGORY_FACES) for f in faces)


def _faces_of(counts: tuple[int, ...], reps: tuple[int, ...]) -> Faces:
    out: list[int] = []
    for rep, count in zip(reps, counts):
        out.extend((rep,) * count)
    return tuple(out)


@lru_cache(maxsize=1 << 17)
def _classified(normal: tuple[int, ...], hunger: tuple[int, ...], difficulty: int) -> tuple[int, int]:
    """``(outcome index, successes)`` of a class: normal scoring counts, Hunger counts (V5-3 … V5-7)."""
    result = classify(_faces_of(normal, NORMAL_REPS), _faces_of(hunger, HUNGER_REPS), difficulty)
    return _OUT_INDEX[result[7]], result[0]


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
            weights = weights.weights
            return Distribution(_Shifted(weights, self.request.difficulty), successes.denominator)
        return Distribution({k - self.request.difficulty: w for k, w in weights.items()}, successes.denominator)

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
            data["goal_float"] = float(self.goal_probability)
        for name, value in (self.extras or {}).items():
            data[name] = value.texts() if isinstance(value, Distribution) else _text(value)
        return data


def _text(value: Fraction | None) -> str | None:
    from rollbook.odds._exact import fraction_text

    return None if value is None else fraction_text(value)


def _check_pool(request: V5Request) -> None:
    if request.kind == "rouse":
        raise RuleError("bad_choice", field="kind", value="rouse", choices=["test", "willpower", "remorse", "frenzy"])
    if request.pool > MAX_ODDS_POOL:
        raise RuleError("out_of_range", field="pool", value=request.pool, low=1, high=MAX_ODDS_POOL)


# --- no reroll: whole-roll keys with packed polynomials ------------------------------------------


@lru_cache(maxsize=None)
def _tens_successes(tens: int) -> tuple[int, bool]:
    """What t tens score (V5-3) and whether they make a pair, according to ``count_successes``."""
    successes, _, pairs = count_successes((10,) * tens)
    return successes, pairs >= 1


# A flag group: 4 = a pair of 10s, 2 = a Hunger 10, 1 = a Hunger 1 (V5-5, V5-6).
_PAIR, _HUNGER_TEN, _HUNGER_ONE = 4, 2, 1


def _key_faces(group: int, successes: int) -> tuple[Faces, Faces] | None:
    """(normal, Hunger) faces built for a key (as few dice as can make it: pairs of 10s where a pair
    is in the key), or None when none can be built; ``classify`` checks them (``_FACES``)."""
    pair, hunger_ten, hunger_one = group & _PAIR, bool(group & _HUNGER_TEN), bool(group & _HUNGER_ONE)
    tens = max(2, 2 * (successes // 4)) if pair else int(hunger_ten)  # t tens score 2t for even t
    normal_tens = tens - hunger_ten
    plain = successes - _tens_successes(tens)[0]
    if plain < 0 or normal_tens < 0:
        return None
    return (10,) * normal_tens + (6,) * plain, (10,) * hunger_ten + (1,) * hunger_one


@lru_cache(maxsize=1 << 16)
def _key_outcome(successes: int, pair: bool, hunger_ten: bool, hunger_one: bool, difficulty: int) -> int | None:
    """``classify`` on faces built for the key; None when no roll has that key."""
    group = _PAIR * pair | _HUNGER_TEN * hunger_ten | _HUNGER_ONE * hunger_one
    faces = _key_faces(group, successes)
    if faces is None:
        return None
    got, _, pairs, *_rest, outcome = classify(faces[0], faces[1], difficulty)
    if got != successes or (pairs >= 1) != bool(pair):
        return None
    return _OUT_INDEX[outcome]


# The faces built for each key, by flag group then successes K (shared by every difficulty).
_FACES: dict[int, list[tuple[Faces, Faces] | None]] = {}


def _key_faces_upto(group: int, length: int) -> list[tuple[Faces, Faces] | None]:
    faces = _FACES.get(group)
    if faces is None:
        faces = _FACES[group] = []
    for k in range(len(faces), length):
        faces.append(_key_faces(group, k))
    return faces


_NO_ROLL = len(OUTCOMES)  # the "outcome" of a key no roll has (its weight must be 0)
# How each key classifies: (flag group, difficulty) -> outcome index by successes K, grown as
# longer rolls ask. Every key is classified once by ``rules.v5.classify`` on the faces built for it.
_OUTCOMES: dict[tuple[int, int], list[int]] = {}


def _outcomes(group: int, difficulty: int, length: int) -> list[int]:
    """The outcome index of the keys K = 0 … length − 1 (at least) of a flag group at a difficulty;
    ``_NO_ROLL`` where no roll has the key (the faces cannot be built, or ``classify`` counts them
    otherwise)."""
    found = _OUTCOMES.get((group, difficulty))
    if found is None:
        if len(_OUTCOMES) > 4096:  # difficulties are unbounded: keep the memo small
            _OUTCOMES.clear()
        found = _OUTCOMES[(group, difficulty)] = []
    start = len(found)
    if start < length:
        pair = bool(group & _PAIR)
        out_index, append, classify_ = _OUT_INDEX, found.append, classify
        for k, built in enumerate(_key_faces_upto(group, length)[start:length], start):
            if built is None:
                append(_NO_ROLL)
            else:
                result = classify_(built[0], built[1], difficulty)
                append(out_index[result[7]] if result[0] == k and (result[2] >= 1) == pair else _NO_ROLL)
    return found


def _lanes(most: int, lanes: int):
    """(flag group, first slot, length) of each lane of a ``roll_keys`` layout for pools up to
    ``most``: without a pair K ≤ pool, with a pair K ≤ 2 · pool."""
    for pair in (0, _PAIR):
        reach = 2 * most + 1 if pair else most + 1
        for flags in range(lanes):
            yield pair | flags, (lanes * (most + 1) if pair else 0) + flags * reach, reach


# What t tens score, read off ``count_successes``: 2t − (t mod 2), and a pair from t = 2 on (V5-3).
# ``roll_keys`` moves the 10s to successes with that algebra; it is checked here, at import, for
# every pool the odds engine takes.
assert all(_tens_successes(t) == (2 * t - t % 2, t >= 2) for t in range(2 * MAX_ODDS_POOL + 2))
assert all(tens in (0, 1) for _, tens in _FACE_SCORE.values())


def _pack(coefficients: dict[int, int], bits: int) -> int:
    value = 0
    for power, c in coefficients.items():
        value += c << (bits * power)
    return value


# Packed layouts: 8-byte slots while 10**pool fits (pools ≤ 19), else 16-byte slots (both read
# back in C); the packed powers of one width are shared by every pool. Only the slots read back
# must fit (each a count of rolls, ≤ 10**pool): the integers in between (signed coefficients,
# doubled counts) are exact integers whatever their slots hold, and every step is linear.
_LAYOUTS = ((19, 8), (MAX_ODDS_POOL, 16))
assert all(SIDES ** most < 1 << (8 * width) for most, width in _LAYOUTS)


def _width(pool: int) -> int:
    """The slot width in bytes for a pool."""
    for most, width in _LAYOUTS:
        if pool <= most:
            return width
    raise RuleError("out_of_range", field="pool", value=pool, low=1, high=MAX_ODDS_POOL)


_EVERY = tuple(range(1, SIDES + 1))
_HUNGER_VARIANTS = (  # inclusion–exclusion over the Hunger flags: faces a Hunger die may show
    tuple(f for f in _EVERY if f not in _HUNGER_ONE_FACES and f not in _HUNGER_TEN_FACES),  # neither
    tuple(f for f in _EVERY if f not in _HUNGER_TEN_FACES),  # no Hunger 10
    tuple(f for f in _EVERY if f not in _HUNGER_ONE_FACES),  # no Hunger 1
    _EVERY,  # any
)


@lru_cache(maxsize=None)
def _die_forms(faces: tuple[int, ...], width: int) -> tuple[int, int, int, int]:
    """One die showing one of ``faces``: packed P(x, x²), P(x, −x²), [y⁰]P, [y¹]P, where
    P = Σ x^plain y^ten over the faces (what ``count_successes`` counts)."""
    plus: dict[int, int] = {}
    minus: dict[int, int] = {}
    zero: dict[int, int] = {}
    one: dict[int, int] = {}
    for face in faces:
        plain, tens = _FACE_SCORE[face]
        plus[plain + 2 * tens] = plus.get(plain + 2 * tens, 0) + 1
        minus[plain + 2 * tens] = minus.get(plain + 2 * tens, 0) + (-1) ** tens
        target = one if tens else zero
        target[plain] = target.get(plain, 0) + 1
    bits = 8 * width
    return _pack(plus, bits), _pack(minus, bits), _pack(zero, bits), _pack(one, bits)


@lru_cache(maxsize=None)
def _powers(faces: tuple[int, ...], n: int, width: int) -> tuple[int, int, int, int]:
    """n such dice: packed Q(x, x²), Q(x, −x²), [y⁰]Q, [y¹]Q of Q = P**n, one factor at a time."""
    if n == 0:
        return 1, 1, 1, 0
    plus, minus, zero, one = _powers(faces, n - 1, width)
    d_plus, d_minus, d_zero, d_one = _die_forms(faces, width)
    return plus * d_plus, minus * d_minus, zero * d_zero, one * d_zero + zero * d_one


@lru_cache(maxsize=None)
def _hunger_groups(hunger: int, width: int) -> tuple[tuple[int, int, int, int], ...]:
    """The four Hunger flag groups' packed forms, by inclusion–exclusion over the variants:
    no Hunger 10 nor 1; a Hunger 1, no 10; a Hunger 10, no 1; both."""
    neither, no_ten, no_one, every = (_powers(faces, hunger, width) for faces in _HUNGER_VARIANTS)
    return (
        neither,
        tuple(a - b for a, b in zip(no_ten, neither)),
        tuple(a - b for a, b in zip(no_one, neither)),
        tuple(a - b - c + d for a, b, c, d in zip(every, no_one, no_ten, neither)),
    )


@lru_cache(maxsize=None)
def _hunger_forms(hunger: int, width: int) -> tuple[tuple[int, int, int, int], ...]:
    """The Hunger dice's packed forms per flag group (one group without Hunger dice), as
    ``roll_keys`` multiplies them: P(x, x²), P(x, −x²), [y⁰]P and [y⁰]P + x·[y¹]P."""
    if not hunger:
        return ((1, 1, 1, 1),)
    bits = 8 * width
    return tuple((h_plus, h_minus, h_zero, h_zero + (h_one << bits))
                 for h_plus, h_minus, h_zero, h_one in _hunger_groups(hunger, width))


_NATIVE_WORDS = sys.byteorder == "little" and struct.calcsize("Q") == 8


def _words(raw: bytes, width: int) -> Sequence[int]:
    """The little-endian unsigned slots of ``width`` bytes in ``raw``: 8-byte slots are read in C,
    one at a time as asked (a ``memoryview``), others all at once (a list)."""
    if width == 8 and _NATIVE_WORDS:
        return memoryview(raw).cast("Q")
    return unpack_fast(int.from_bytes(raw, "little"), len(raw) // width, width)


class _Keys(NamedTuple):
    """The distribution of (successes K, flag group) for n normal and h Hunger dice, over 10**(n+h),
    laid flat in lanes, K = 0, 1, … in each: first the rolls without a pair of 10s (K ≤ pool, lanes
    of ``most + 1`` slots), one lane per Hunger flag group (``lanes`` of them: 1 without Hunger dice,
    else 4), then the rolls with a pair (K ≤ 2 · pool, lanes of ``2 · most + 1`` slots), likewise.
    """

    slots: Sequence[int]
    lanes: int
    most: int  # the largest pool of the layout (one layout is shared by every pool up to it)
    denominator: int
    distribution: Distribution[int]  # of successes (shared by every difficulty)


@lru_cache(maxsize=2048)
def roll_keys(normal: int, hunger: int, most: int | None = None) -> _Keys:
    """The distribution of (successes K, flag group) with packed polynomials (Kronecker
    substitution: every multiplication is one integer product, done in C).

    One die is ``Σ x^plain y^ten`` over its faces (what ``count_successes`` counts for it). The
    Hunger dice are split by inclusion–exclusion into four flag groups (no Hunger 1 / any, no
    Hunger 10 / any), side by side in "lanes" of the same integers. Since t tens score 2t − (t mod
    2) (checked above), substituting y = ±x² and taking half the sum and half the difference gives
    the even-t and odd-t parts with K as the power of x; the rolls with t = 0 or 1 (no pair) are the
    y⁰ and y¹ coefficients, and the pair rolls are the rest."""
    pool = normal + hunger
    most = pool if most is None else most
    if not 0 < pool <= most:
        raise ValueError("a roll_keys layout holds pools 1 … most")
    width = _width(pool)
    bits = 8 * width
    short, long = width * (most + 1), width * (2 * most + 1)  # lanes in bytes: K ≤ most, K ≤ 2 · most
    n_plus, n_minus, n_zero, n_one = _powers(_EVERY, normal, width)
    n_one <<= bits  # t = 1 scores its 10: K = plain + 1
    no_pairs, pairs = [], []
    total = any_pair = 0
    # Each flag group multiplied on its own (small operands), then written to its lane (``to_bytes``
    # refuses a product that would not fit its lane, or a negative one).
    for h_plus, h_minus, h_zero, h_zero_one in _hunger_forms(hunger, width):
        s_plus, s_minus = n_plus * h_plus, n_minus * h_minus
        # every t: the even t in the sum, the odd t (2t − 1) in the difference one slot down; every
        # slot is then even (twice a count), so halving the integer halves each slot
        every = (s_plus + s_minus + ((s_plus - s_minus) >> bits)) >> 1
        no_pair = n_zero * h_zero_one + n_one * h_zero  # t = 0 and t = 1: [y⁰] + x·[y¹] of the product
        pair = every - no_pair
        no_pairs.append(no_pair.to_bytes(short, "little"))
        pairs.append(pair.to_bytes(long, "little"))
        total += every
        any_pair |= pair
    weights = _words(b"".join(no_pairs + pairs), width)
    successes = unpack_fast(total, 2 * pool + 1 if any_pair else pool + 1, width)  # K ≤ 2 · pool, or ≤ pool
    denominator = SIDES ** pool
    return _Keys(weights, len(pairs), most, denominator, Distribution(_Shifted(successes, 0), denominator))


Plan = tuple[tuple[int, int, int], ...]
_PLANS: dict[tuple[int, int, int], Plan] = {}


def _plan(most: int, lanes: int, difficulty: int) -> Plan:
    """``(low, high, outcome index)``: the slots ``low … high − 1`` of a ``roll_keys`` layout (for
    pools up to ``most``) that classify alike at this difficulty, lane by lane; a roll's outcome
    weights are the sums of its slots there (keys no roll has are left out)."""
    key = (most, lanes, difficulty)
    found = _PLANS.get(key)
    if found is not None:
        return found
    plan: list[tuple[int, int, int]] = []
    for group, base, reach in _lanes(most, lanes):
        slot = base
        for outcome, keys in groupby(_outcomes(group, difficulty, reach)[:reach]):
            low, slot = slot, slot + len(tuple(keys))
            if outcome == _NO_ROLL:
                continue
            if plan and plan[-1][1] == low and plan[-1][2] == outcome:
                low = plan.pop()[0]
            plan.append((low, slot, outcome))
    if len(_PLANS) > 4096:  # difficulties are unbounded: keep the memo small
        _PLANS.clear()
    found = _PLANS[key] = tuple(plan)
    return found


def _changes(most: int, lanes: int, before: int, after: int) -> tuple[tuple[int, int, int], ...]:
    """``(slot, outcome before, outcome after)`` for every slot of a ``roll_keys`` layout whose key
    classifies otherwise at difficulty ``after`` than at ``before`` (``_NO_ROLL``: a key no roll has)."""
    changes = []
    for group, base, reach in _lanes(most, lanes):
        was, now = _outcomes(group, before, reach), _outcomes(group, after, reach)
        changes += [(base + k, a, b) for k, a, b in zip(range(reach), was, now) if a != b]
    return tuple(changes)


def _outcome_weights(keys: _Keys, difficulty: int) -> list[int]:
    weights = [0, 0, 0, 0, 0, 0]
    slots = keys.slots
    for low, high, outcome in _plan(keys.most, keys.lanes, difficulty):
        weights[outcome] += sum(slots[low:high])
    return weights


assert len(OUTCOMES) == 6


class _Shifted(Mapping):
    """A list of weights by K seen as a mapping K - offset -> weight (margins without copying)."""

    __slots__ = ("weights", "offset")

    def __init__(self, weights: list[int], offset: int) -> None:
        self.weights, self.offset = weights, offset

    def __getitem__(self, key: int) -> int:
        index = key + self.offset
        if not isinstance(key, int) or not 0 <= index < len(self.weights):
            raise KeyError(key)
        return self.weights[index]

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __iter__(self):
        return iter(range(-self.offset, len(self.weights) - self.offset))

    def __len__(self) -> int:
        return len(self.weights)


def plain_odds(request: V5Request) -> V5Odds:
    """The six outcomes and the margins of a V5 roll without a Willpower reroll."""
    _check_pool(request)
    hunger = request.hunger_dice
    keys = roll_keys(request.pool - hunger, hunger)
    weights = _outcome_weights(keys, request.difficulty)
    if sum(weights) != keys.denominator:  # every class of dice was classified
        raise AssertionError(f"V5 odds lost weight at {request}")
    return V5Odds(request, Distribution(dict(zip(OUTCOMES, weights)), keys.denominator), keys.distribution)


def v5_table(pools: Iterable[int], hungers: Iterable[int], difficulties: Iterable[int],
             **options: Any) -> dict[tuple[int, int, int], V5Odds]:
    """``{(pool, hunger, difficulty): V5Odds}`` without rerolls (the same as ``plain_odds`` cell by
    cell). The dice's distribution is computed once per pool and Hunger, in one layout shared by
    every pool of the table; the first difficulty's outcomes are read off it with its plan, and
    each next difficulty's by moving the weight of the few keys that classify otherwise there
    (``_changes``: both sides classified by the rules, key by key)."""
    pools, hungers, difficulties = tuple(pools), tuple(hungers), tuple(difficulties)
    table: dict[tuple[int, int, int], V5Odds] = {}
    if not pools:
        return table
    most = min(max(pools), MAX_ODDS_POOL)  # a larger pool is refused when its turn comes
    chains: dict[int, tuple] = {}  # lanes -> (the first difficulty's plan, changes to each next one)
    critical, messy, success, failure, total_failure, bestial = OUTCOMES
    for pool in pools:
        for hunger in hungers:
            requests = ([V5Request(pool, hunger, difficulty, **options) for difficulty in difficulties] if options
                        else [V5Request(pool, hunger, difficulty) for difficulty in difficulties])
            first = requests[0] if requests else V5Request(pool, hunger, 1, **options)
            _check_pool(first)
            if not requests:
                continue
            dice = first.hunger_dice
            slots, lanes, _, denominator, distribution = roll_keys(pool - dice, dice, most)
            chain = chains.get(lanes)
            if chain is None:
                chain = chains[lanes] = (_plan(most, lanes, difficulties[0]), ((), *(
                    _changes(most, lanes, before, after) for before, after in pairwise(difficulties))))
            weights = [0, 0, 0, 0, 0, 0, 0]  # the six outcomes, then keys no roll has (weight 0)
            for low, high, outcome in chain[0]:
                weights[outcome] += sum(slots[low:high])
            if sum(weights) != denominator:  # every class of dice was classified
                raise AssertionError(f"V5 odds lost weight at {first}")
            for request, changes in zip(requests, chain[1]):
                for slot, before, after in changes:  # the total stays: check the keys no roll has
                    weight = slots[slot]
                    weights[before] -= weight
                    weights[after] += weight
                if weights[_NO_ROLL]:
                    raise AssertionError(f"V5 odds lost weight at {request}")
                table[(pool, hunger, request.difficulty)] = V5Odds(request, Distribution(
                    {critical: weights[0], messy: weights[1], success: weights[2], failure: weights[3],
                     total_failure: weights[4], bestial: weights[5]}, denominator), distribution)
    return table


# --- Willpower rerolls (V5-8) ----------------------------------------------------------------------


def _hunger_classes(request: V5Request):
    """Hunger dice by face category (what a picker sees); ``_face_to_hunger_counts`` scores them."""
    return category_classes(request.hunger_dice, FACE_SIZES)


@lru_cache(maxsize=None)
def _reroll_expansion(r: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The classes of r fresh normal dice, weighted over 10**3 (the rerolls' common scale)."""
    scale = SIDES ** (MAX_REROLL_DICE - r)
    return tuple((counts, weight * scale) for counts, weight in category_classes(r, NORMAL_SIZES))


def _expand(groups: dict[tuple, int], difficulty: int, pool: int) -> tuple[Distribution, Distribution]:
    """Kept normal counts + r rerolled dice + Hunger counts -> outcomes and successes over 10**(pool+3)."""
    outcomes = [0] * len(OUTCOMES)
    by_successes: dict[int, int] = {}
    for (kept, r, hunger), weight in groups.items():
        for fresh, fresh_weight in _reroll_expansion(r):
            final = tuple(a + b for a, b in zip(kept, fresh))
            index, successes = _classified(final, hunger, difficulty)
            w = weight * fresh_weight
            outcomes[index] += w
            by_successes[successes] = by_successes.get(successes, 0) + w
    denominator = SIDES ** pool * REROLL_SCALE
    return (Distribution(dict(zip(OUTCOMES, outcomes)), denominator),
            Distribution({k: by_successes[k] for k in sorted(by_successes)}, denominator))


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
    groups: dict[tuple, int] = {}
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


@lru_cache(maxsize=None)
def _face_to_hunger_counts(face_counts: tuple[int, ...]) -> tuple[int, ...]:
    """Hunger face-category counts as Hunger scoring-category counts."""
    out = [0] * len(HUNGER_SIZES)
    index = {face: i for i, faces in enumerate(HUNGER_CATEGORY_FACES) for face in faces}
    for rep, count in zip(FACE_REPS, face_counts):
        out[index[rep]] += count
    return tuple(out)


# Hunger classes are enumerated over the picker's face categories; they must refine the Hunger
# scoring categories (each face category inside one scoring category) for that to be exact.
assert all(len({next(i for i, fs in enumerate(HUNGER_CATEGORY_FACES) if f in fs) for f in faces}) == 1
           for faces in FACE_CATEGORY_FACES)


@lru_cache(maxsize=None)
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


@lru_cache(maxsize=None)
def _hunger_state(hunger: tuple[int, ...]) -> tuple[int, int, bool, bool]:
    """(plain successes, 10s, any Hunger 10, any Hunger 1) of Hunger scoring counts."""
    plain = sum(c * sc[0] for c, sc in zip(hunger, _HUNGER_SCORE))
    tens = sum(c * sc[1] for c, sc in zip(hunger, _HUNGER_SCORE))
    ten = any(c and fl[0] for c, fl in zip(hunger, _HUNGER_FLAGS))
    one = any(c and fl[1] for c, fl in zip(hunger, _HUNGER_FLAGS))
    return plain, tens, ten, one


class _Search:
    """The optimal reroll for one (difficulty, goal), memoised over score states (shared by all pools)."""

    def __init__(self, difficulty: int, goal: str) -> None:
        self.difficulty = difficulty
        self.mask = _goal_mask(goal)
        self.values: dict[tuple, int] = {}  # (r, plain, tens, ten, one) -> goal weight over 10**r
        self.best: dict[tuple, tuple[tuple[int, ...], int]] = {}

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
            found = sum(size * self.value(r - 1, plain + dp, tens + dt, ten, one)
                        for size, (dp, dt) in zip(NORMAL_SIZES, _NORMAL_SCORE))
        self.values[key] = found
        return found

    def choose(self, plain: int, tens: int, ten: bool, one: bool,
               available: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
        """(counts to reroll, goal weight over 10**3) for the first roll's score and the dice
        available in each category (at most three count)."""
        key = (plain, tens, ten, one, available)
        found = self.best.get(key)
        if found is not None:
            return found
        best, best_k = -1, None
        for r in range(MAX_REROLL_DICE + 1):
            scale = SIDES ** (MAX_REROLL_DICE - r)
            for k in _k_vectors(len(available), r):
                if any(a > b for a, b in zip(k, available)):
                    continue
                dp = sum(c * sc[0] for c, sc in zip(k, _NORMAL_SCORE))
                dt = sum(c * sc[1] for c, sc in zip(k, _NORMAL_SCORE))
                value = self.value(r, plain - dp, tens - dt, ten, one) * scale
                if value > best:
                    best, best_k = value, k
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
    entries = []
    append = entries.append
    (fp, ft), (sp, st), (tp, tt) = _NORMAL_SCORE
    for hunger_face_counts, hunger_weight in _hunger_classes(request):
        hunger = _face_to_hunger_counts(hunger_face_counts)
        h_plain, h_tens, ten, one = _hunger_state(hunger)
        for counts, weight in category_classes(request.normal_dice, NORMAL_SIZES):
            f, s, t = counts
            k, value = search.choose(h_plain + f * fp + s * sp + t * tp, h_tens + f * ft + s * st + t * tt,
                                     ten, one, (min(f, 3), min(s, 3), min(t, 3)))
            append(PolicyEntry(counts, hunger, weight * hunger_weight, (f - k[0], s - k[1], t - k[2]), k, value))
    return entries


assert len(NORMAL_SIZES) == 3, "the optimal search unpacks three normal scoring categories"


def optimal_odds(request: V5Request, goal: str) -> V5Odds:
    """The odds when, for every first roll, the reroll (possibly none) best for the goal is taken."""
    groups: dict[tuple, int] = {}
    goal_weight = 0
    for entry in optimal_policy(request, goal):
        key = (entry.kept, sum(entry.rerolled), entry.hunger)
        groups[key] = groups.get(key, 0) + entry.weight
        goal_weight += entry.weight * entry.goal
    outcomes, successes = _expand(groups, request.difficulty, request.pool)
    probability = Fraction(goal_weight, outcomes.denominator)
    assert probability == sum((outcomes.probability(o) for o in GOALS[goal]), Fraction(0))
    return V5Odds(request, outcomes, successes, reroll="optimal", goal=goal, goal_probability=probability)


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
    return V5Odds(odds.request, odds.outcomes, odds.successes, odds.reroll, goal, odds.of_goal(goal), odds.extras)


def odds(pool: int, hunger: int = 0, difficulty: int = 1, reroll: str = "none", goal: str | None = None,
         **options: Any) -> V5Odds:
    """Shorthand: ``odds(6, 2, 3, reroll="optimal", goal="clean")``."""
    return v5_odds(V5Request(pool=pool, hunger=hunger, difficulty=difficulty, **options), reroll, goal)


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

        return {"dice": list(self.dice), "faces": list(self.faces), "goal": fraction_text(self.probability),
                "goal_float": float(self.probability), "outcomes": self.outcomes.texts()}


def advise(normal_faces: Iterable[int], hunger_faces: Iterable[int], difficulty: int, goal: str = "win") -> list[Advice]:
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
                final = tuple(a + b for a, b in zip(kept, fresh))
                weights[_classified(final, hunger_counts, difficulty)[0]] += fresh_weight
            outcomes = Distribution(dict(zip(OUTCOMES, weights)), SIDES ** r)
            hit = sum(w for w, m in zip(weights, mask) if m)
            advice.append(Advice(dice, tuple(normal[i] for i in dice), Fraction(hit, SIDES ** r), outcomes))
    advice.sort(key=lambda a: (-a.probability, len(a.dice), sorted(a.faces)))
    return advice


def _counts(faces: Faces, categories) -> tuple[int, ...]:
    index = {face: i for i, fs in enumerate(categories) for face in fs}
    out = [0] * len(categories)
    for face in faces:
        out[index[face]] += 1
    return tuple(out)


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
    request = rouse_request(hunger, blood_potency_reroll, creature)  # type: ignore[arg-type]
    dice = 2 if blood_potency_reroll else 1
    outcomes: Counter[str] = Counter({"success": 0, "failure": 0})
    gains: Counter[int] = Counter({0: 0, 1: 0})
    risk = 0
    for faces in _all_faces(dice):
        receipt = resolve(request, faces)
        outcomes[receipt.outcome] += 1
        gains[receipt.hunger_gain] += 1
        risk += receipt.hunger_frenzy_risk
    denominator = SIDES ** dice
    return RouseOdds(request, Distribution(dict(outcomes), denominator), Distribution(dict(gains), denominator),
                     Fraction(risk, denominator))


def _all_faces(dice: int):
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
    extras = {"humanity_loss": Distribution({0: SIDES ** pool - loss, 1: loss}, SIDES ** pool)}
    return V5Odds(request, odds.outcomes, odds.successes, extras=extras)


def frenzy_odds(pool: int | None = None, difficulty: int = 1, *, willpower_current: int | None = None,
                humanity: int | None = None) -> V5Odds:
    """Frenzy resistance: ordinary dice, no Hunger (V5-9); the pool given, or Willpower + Humanity/3."""
    if pool is None:
        if willpower_current is None or humanity is None:
            raise RuleError("field_required", field="pool", kind="frenzy")
        pool = frenzy_pool(willpower_current, humanity)
    return plain_odds(V5Request(pool=pool, kind="frenzy", difficulty=difficulty))


def clear_caches() -> None:
    """Forget every memoised table (for benchmarks that must start cold)."""
    _OUTCOMES.clear()
    _FACES.clear()
    _PLANS.clear()
    for cached in (roll_keys, _hunger_forms, _key_outcome, _classified, _reroll_expansion, _k_vectors,
                   _face_to_hunger_counts, _tens_successes, _search, _hunger_state, _die_forms, _powers,
                   _hunger_groups):
        cached.cache_clear()


__all__ = [
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
