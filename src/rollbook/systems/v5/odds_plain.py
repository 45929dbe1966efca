"""V5 odds without a reroll: whole-roll keys counted with packed integer polynomials and
classified once per difficulty (``plain_odds``, ``v5_table``; see ``rollbook.systems.v5.odds``)."""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import groupby, pairwise
from typing import Any, NamedTuple

from rollbook.odds._exact import Distribution, unpack_fast
from rollbook.rules.base import Faces, RuleError
from rollbook.systems.v5.odds_classes import (
    _FACE_SCORE,
    _HUNGER_ONE_FACES,
    _HUNGER_TEN_FACES,
    _OUT_INDEX,
    MAX_ODDS_POOL,
    V5Odds,
    _check_pool,
    _Shifted,
)
from rollbook.systems.v5.rules import OUTCOMES, SIDES, V5Request, classify, count_successes

# --- no reroll: whole-roll keys with packed polynomials ------------------------------------------


@cache
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
def _key_outcome(
    successes: int, pair: bool, hunger_ten: bool, hunger_one: bool, difficulty: int
) -> int | None:
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
# longer rolls ask. Every key is classified once by ``systems.v5.rules.classify`` on the faces built for it.
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


def _lanes(most: int, lanes: int) -> Iterator[tuple[int, int, int]]:
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
assert all(SIDES**most < 1 << (8 * width) for most, width in _LAYOUTS)


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


@cache
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


@cache
def _powers(faces: tuple[int, ...], n: int, width: int) -> tuple[int, int, int, int]:
    """n such dice: packed Q(x, x²), Q(x, −x²), [y⁰]Q, [y¹]Q of Q = P**n, one factor at a time."""
    if n == 0:
        return 1, 1, 1, 0
    plus, minus, zero, one = _powers(faces, n - 1, width)
    d_plus, d_minus, d_zero, d_one = _die_forms(faces, width)
    return plus * d_plus, minus * d_minus, zero * d_zero, one * d_zero + zero * d_one


@cache
def _hunger_groups(hunger: int, width: int) -> tuple[tuple[int, int, int, int], ...]:
    """The four Hunger flag groups' packed forms, by inclusion–exclusion over the variants:
    no Hunger 10 nor 1; a Hunger 1, no 10; a Hunger 10, no 1; both."""
    neither, no_ten, no_one, every = (_powers(faces, hunger, width) for faces in _HUNGER_VARIANTS)
    return (
        neither,
        _minus(no_ten, neither),
        _minus(no_one, neither),
        _minus(_minus(every, no_one), _minus(no_ten, neither)),  # every − no_one − no_ten + neither
    )


def _minus(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Packed forms taken one from the other, form by form."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


@cache
def _hunger_forms(hunger: int, width: int) -> tuple[tuple[int, int, int, int], ...]:
    """The Hunger dice's packed forms per flag group (one group without Hunger dice), as
    ``roll_keys`` multiplies them: P(x, x²), P(x, −x²), [y⁰]P and [y⁰]P + x·[y¹]P."""
    if not hunger:
        return ((1, 1, 1, 1),)
    bits = 8 * width
    return tuple(
        (h_plus, h_minus, h_zero, h_zero + (h_one << bits))
        for h_plus, h_minus, h_zero, h_one in _hunger_groups(hunger, width)
    )


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
    denominator = SIDES**pool
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
        changes += [(base + k, a, b) for k, a, b in zip(range(reach), was, now, strict=False) if a != b]
    return tuple(changes)


def _outcome_weights(keys: _Keys, difficulty: int) -> list[int]:
    weights = [0, 0, 0, 0, 0, 0]
    slots = keys.slots
    for low, high, outcome in _plan(keys.most, keys.lanes, difficulty):
        weights[outcome] += sum(slots[low:high])
    return weights


assert len(OUTCOMES) == 6


def plain_odds(request: V5Request) -> V5Odds:
    """The six outcomes and the margins of a V5 roll without a Willpower reroll."""
    _check_pool(request)
    hunger = request.hunger_dice
    keys = roll_keys(request.pool - hunger, hunger)
    weights = _outcome_weights(keys, request.difficulty)
    if sum(weights) != keys.denominator:  # every class of dice was classified
        raise AssertionError(f"V5 odds lost weight at {request}")
    return V5Odds(
        request, Distribution(dict(zip(OUTCOMES, weights, strict=False)), keys.denominator), keys.distribution
    )


def v5_table(
    pools: Iterable[int], hungers: Iterable[int], difficulties: Iterable[int], **options: Any
) -> dict[tuple[int, int, int], V5Odds]:
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
    chains: dict[
        int, tuple[Plan, tuple[tuple[tuple[int, int, int], ...], ...]]
    ] = {}  # lanes -> (the first difficulty's plan, changes to each next one)
    critical, messy, success, failure, total_failure, bestial = OUTCOMES
    for pool in pools:
        for hunger in hungers:
            requests = (
                [V5Request(pool, hunger, difficulty, **options) for difficulty in difficulties]
                if options
                else [V5Request(pool, hunger, difficulty) for difficulty in difficulties]
            )
            first = requests[0] if requests else V5Request(pool, hunger, 1, **options)
            _check_pool(first)
            if not requests:
                continue
            dice = first.hunger_dice
            slots, lanes, _, denominator, distribution = roll_keys(pool - dice, dice, most)
            chain = chains.get(lanes)
            if chain is None:
                chain = chains[lanes] = (
                    _plan(most, lanes, difficulties[0]),
                    ((), *(_changes(most, lanes, before, after) for before, after in pairwise(difficulties))),
                )
            weights = [0, 0, 0, 0, 0, 0, 0]  # the six outcomes, then keys no roll has (weight 0)
            for low, high, outcome in chain[0]:
                weights[outcome] += sum(slots[low:high])
            if sum(weights) != denominator:  # every class of dice was classified
                raise AssertionError(f"V5 odds lost weight at {first}")
            for request, changes in zip(requests, chain[1], strict=False):
                for slot, before, after in changes:  # the total stays: check the keys no roll has
                    weight = slots[slot]
                    weights[before] -= weight
                    weights[after] += weight
                if weights[_NO_ROLL]:
                    raise AssertionError(f"V5 odds lost weight at {request}")
                table[(pool, hunger, request.difficulty)] = V5Odds(
                    request,
                    Distribution(
                        {
                            critical: weights[0],
                            messy: weights[1],
                            success: weights[2],
                            failure: weights[3],
                            total_failure: weights[4],
                            bestial: weights[5],
                        },
                        denominator,
                    ),
                    distribution,
                )
    return table


def clear_caches() -> None:
    """Forget this module's memoised tables."""
    _OUTCOMES.clear()
    _FACES.clear()
    _PLANS.clear()
    for cached in (
        roll_keys,
        _hunger_forms,
        _key_outcome,
        _tens_successes,
        _die_forms,
        _powers,
        _hunger_groups,
    ):
        cached.cache_clear()
