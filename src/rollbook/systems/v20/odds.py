"""Exact V20 odds (SPEC V20-1 … V20-15), in agreement with ``systems.v20.rules`` by construction.

How a roll is counted here is read off the resolver itself, never restated:

1. *One die.* Each face 1–10 is resolved as a one-die pool of the same request
   (``systems.v20.rules.resolve``), giving the success units it rolls (V20-6, V20-7: a specialty 10 is
   two) and whether it is a 1 (V20-8). Faces with the same pair are one category.
2. *The pool.* n dice fall into those categories multinomially; since a die is a 1 or not,
   the classes are "o ones, and a units polynomial for the other n − o dice":
   ``C(n, o) · P1^o · P0^(n−o)`` with integer coefficients over 10**n (memoised powers).
3. *The verdict.* Every (rolled, ones) class is classified with the request's own
   ``systems.v20.rules.Counting`` (``systems.v20.rules.counting``: the table rules in force included, TR-1) and
   ``systems.v20.rules.degree_of``; the applied difficulty comes from resolving the same request with no
   dice (V20-4, V20-5, V20-9).

No table rule is named here: the resolver and its ``Counting`` honour them, and these odds read both.

So a change to the rules changes these odds with it; ``tests/odds`` check them against
brute-force enumeration of faces through ``systems.v20.rules.resolve``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from functools import lru_cache
from operator import attrgetter
from typing import Any

from rollbook.odds._exact import (
    Distribution,
    RollShape,
    binomial_row,
    expect,
    fast_width,
    fraction_text,
    no_reroll,
    poly_mul,
    poly_pow,
    unpack_fast,
)
from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.v20.rules import (
    DEGREES,
    Counting,
    Outcome,
    V20Receipt,
    V20Request,
    counting,
    degree_of,
    needed,
    resolve,
)

OUTCOMES: tuple[Outcome, ...] = ("success", "failure", "botch")
MAX_ODDS_POOL = 50  # the range: pools 0–50

# SPEC V20-15: the source's table (pools 3–5, difficulties 3–9, one success required).
SOURCE_POOLS = (3, 4, 5)
SOURCE_DIFFICULTIES = tuple(range(3, 10))


@dataclass(frozen=True, eq=False)
class V20Odds:
    """Exact odds of one V20 request: outcomes, total successes, degrees of success."""

    request: V20Request
    difficulty: int  # applied (V20-5)
    required: int  # after V20-4
    auto_successes: int  # V20-9: Willpower + powers
    outcomes: Distribution[str]  # success / failure / botch, summing to 1
    successes: Distribution[int]  # total successes (V20-10), summing to 1
    degrees: Distribution[str]  # V20-12 Book: degree of the successful rolls, summing to P(success)

    def probability(self, outcome: str) -> Fraction:
        return self.outcomes.probability(outcome)

    @property
    def success(self) -> Fraction:
        return self.outcomes.probability("success")

    @property
    def botch(self) -> Fraction:
        return self.outcomes.probability("botch")

    def to_json(self) -> dict[str, Any]:
        return {
            "system": "v20",
            "request": to_plain(self.request),
            "difficulty": self.difficulty,
            "required": self.required,
            "auto_successes": self.auto_successes,
            "outcomes": self.outcomes.texts(),
            "floats": self.outcomes.float_texts(),
            "successes": self.successes.nonzero().texts(),
            "successes_floats": self.successes.nonzero().float_texts(),
            "degrees": self.degrees.texts(),
            "degrees_floats": self.degrees.float_texts(),
        }


# --- step 1: one die, read off the resolver -------------------------------------------------------


# ``(units, ones, weight)`` for each category of one die (``die_categories``)
DieCategories = tuple[tuple[int, int, int], ...]
# ``(by_net, cancelled, empty)``: the codes of the diagonal shape (``_Classifier.diagonal``); a code is
# None where the checked range holds no such cell
DiagonalShape = tuple[list[int], int | None, int | None]


def _die_probe(request: V20Request) -> V20Request:
    """The same request for one die, stripped of what does not depend on the dice."""
    return replace(request, pool=1, required=1, willpower=False, willpower_current=None, auto_successes=0)


@lru_cache(maxsize=512)
def die_categories(probe: V20Request) -> tuple[tuple[int, int, int], ...]:
    """``(units, ones, weight)`` for one die: what ``systems.v20.rules.resolve`` counts for each finished
    sequence of faces that die starts (one face, or under TR-2 ``v20.specialty_reroll_tens`` the
    chain of rerolls its tens ask for, as ``systems.v20.rules.needed`` asks). The weights are over one
    denominator, the die's own (10 for a plain die; 10 to the longest chain's length otherwise)."""
    finished: list[tuple[tuple[int, ...], int]] = []
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        sizes = needed(probe, prefix)
        if not sizes:
            finished.append((prefix, len(prefix)))
            continue
        sides = sizes[0]
        stack.extend(prefix + (face,) for face in range(1, sides + 1))
    longest = max(length for _, length in finished)
    tally: Counter[tuple[int, int]] = Counter()
    for faces, length in finished:
        receipt = resolve(probe, faces)
        tally[(receipt.rolled_successes, receipt.ones)] += 10 ** (longest - length)
    return tuple(sorted((units, ones, count) for (units, ones), count in tally.items()))


@lru_cache(maxsize=1024)
def _zero_dice(request: V20Request) -> V20Receipt:
    """The request resolved with no dice: applied difficulty, required (V20-4) and auto successes.
    Called with the request's pool already set to 0, so every pool shares one entry."""
    return resolve(request, ())


def _die_total(die: tuple[tuple[int, int, int], ...]) -> int:
    """The denominator of one die's weights (10, or 10**k with TR-2's rerolls)."""
    return sum(count for _, _, count in die)


# --- step 2: the pool's (rolled, ones) classes -----------------------------------------------------


@lru_cache(maxsize=4096)
def pool_rows(die: tuple[tuple[int, int, int], ...], n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The classes of n dice as rows ``(ones, multiplier, units polynomial)``: the weight of
    (rolled = u, ones = o) is ``multiplier * polynomial[u]``, over 10**n."""
    if any(ones not in (0, 1) for _, ones, _ in die):  # never for d10 faces; kept general
        return _general_rows(die, n)
    one_poly = _units_poly((u, c) for u, ones, c in die if ones == 1)
    other_poly = _units_poly((u, c) for u, ones, c in die if ones == 0)
    binomials = binomial_row(n)
    rows = []
    for ones in range(n + 1):
        if ones and not one_poly:
            break
        if n - ones and not other_poly:
            continue
        rest = poly_pow(other_poly, n - ones)
        if len(one_poly) == 1:  # a 1 rolls no units (every difficulty ≥ 2): a scaled row
            rows.append((ones, binomials[ones] * one_poly[0] ** ones, rest))
        else:
            rows.append((ones, binomials[ones], poly_mul(poly_pow(one_poly, ones), rest)))
    return tuple(rows)


def _units_poly(pairs: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    coefficients: dict[int, int] = {}
    for units, count in pairs:
        coefficients[units] = coefficients.get(units, 0) + count
    if not coefficients:
        return ()
    return tuple(coefficients.get(u, 0) for u in range(max(coefficients) + 1))


def _general_rows(die: DieCategories, n: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    cells: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(n):
        nxt: dict[tuple[int, int], int] = {}
        for (u, o), w in cells.items():
            for du, do, c in die:
                key = (u + du, o + do)
                nxt[key] = nxt.get(key, 0) + w * c
        cells = nxt
    by_ones: dict[int, dict[int, int]] = {}
    for (u, o), w in cells.items():
        by_ones.setdefault(o, {})[u] = w
    return tuple(
        (o, 1, tuple(row.get(u, 0) for u in range(max(row) + 1))) for o, row in sorted(by_ones.items())
    )


# --- step 3: classify each class with the rules' own functions -------------------------------------


class _Classifier:
    """A request's ``Counting`` over (rolled, ones), remembered row by row."""

    __slots__ = ("counts", "rows", "shapes", "meanings")

    def __init__(self, counts: Counting) -> None:
        self.counts = counts
        self.rows: dict[int, list[int]] = {}
        self.shapes: dict[tuple[int, int], DiagonalShape | None] = {}
        self.meanings: dict[int, tuple[int, int, int | None]] = {}

    def meaning(self, code: int) -> tuple[int, int, int | None]:
        """(outcome index, total, degree index or None) of a code (V20-12 Book for the degree)."""
        found = self.meanings.get(code)
        if found is None:
            total, index = divmod(code, _N_OUT)
            degree = degree_of(OUTCOMES[index], total)
            found = (index, total, None if degree is None else DEGREES.index(degree))
            self.meanings[code] = found
        return found

    def row(self, ones: int, length: int) -> list[int]:
        """For each rolled = 0..length-1: the class code ``total * 3 + outcome_index``."""
        row = self.rows.setdefault(ones, [])
        for rolled in range(len(row), length):
            outcome = self.counts.outcome(rolled, ones)  # V20-11, V20-12
            total = self.counts.total(rolled, ones)  # V20-8, V20-10 (the receipt's total)
            row.append(total * _N_OUT + OUTCOMES.index(outcome))
        return row

    def diagonal(self, max_rolled: int, max_ones: int) -> DiagonalShape | None:
        """The shape that lets whole diagonals be summed at once, *checked cell by cell* on the
        codes above for every rolled ≤ max_rolled and ones ≤ max_ones:

        - rolled ≥ ones: the code depends on rolled − ones only (``by_net[rolled − ones]``);
        - 1 ≤ rolled < ones: one code (successes cancelled to zero);
        - rolled = 0 < ones: one code (no success and a 1).

        None when the rules' codes do not have that shape (the odds then go cell by cell)."""
        key = (max_rolled, max_ones)
        if key in self.shapes:
            return self.shapes[key]
        rows = [self.row(ones, max_rolled + 1) for ones in range(max_ones + 1)]
        by_net = rows[0][:]
        cancelled = rows[2][1] if max_ones >= 2 and max_rolled >= 1 else None
        empty = rows[1][0] if max_ones >= 1 else None
        shape: DiagonalShape | None = (by_net, cancelled, empty)
        for ones, row in enumerate(rows):
            for rolled, code in enumerate(row):
                if rolled >= ones:
                    expected: int | None = by_net[rolled - ones]
                elif rolled >= 1:
                    expected = cancelled
                else:
                    expected = empty
                if code != expected:
                    shape = None
                    break
            if shape is None:
                break
        self.shapes[key] = shape
        return shape


_N_OUT = len(OUTCOMES)


_ALL_BUT_POOL = attrgetter(*(f.name for f in fields(V20Request) if f.name != "pool"))
# the request's fields but its pool -> (the request resolved with no dice, its one die's categories)
_PER_REQUEST: dict[tuple[object, ...], tuple[V20Receipt, DieCategories]] = {}


def clear_caches() -> None:
    """Forget every memoised table (for benchmarks that must start cold)."""
    _PER_REQUEST.clear()
    for cached in (die_categories, _zero_dice, pool_rows, _classifier, _diagonal_base, _diagonals):
        getattr(cached, "cache_clear", lambda: None)()


@lru_cache(maxsize=256)
def _classifier(counts: Counting) -> _Classifier:
    return _Classifier(counts)


def v20_odds(request: V20Request) -> V20Odds:
    """The exact odds of a V20 request (any pool 0–50, difficulty, mode, options)."""
    if request.pool > MAX_ODDS_POOL:
        raise RuleError("out_of_range", field="pool", value=request.pool, low=0, high=MAX_ODDS_POOL)
    key = _ALL_BUT_POOL(request)
    found = _PER_REQUEST.get(key)
    if found is None:  # what does not depend on the pool, once per request shape
        if len(_PER_REQUEST) > 4096:
            _PER_REQUEST.clear()
        found = _PER_REQUEST[key] = (
            _zero_dice(replace(request, pool=0)),
            die_categories(_die_probe(request)),
        )
    base, die = found
    auto, required, n = base.auto_successes, base.required, request.pool
    denominator = _die_total(die) ** n
    classifier = _classifier(counting(request))  # the request's own count (TR-1: its table rules)
    joint: dict[int, int] = {}
    if n == 0:
        joint[base.successes * _N_OUT + OUTCOMES.index(base.outcome)] = 1
    else:
        fast = _by_diagonals(request, base, classifier, die, n)
        if fast is not None:
            return fast
        for ones, multiplier, poly in pool_rows(die, n):  # cell by cell
            for code, weight in zip(classifier.row(ones, len(poly)), poly, strict=False):
                joint[code] = joint.get(code, 0) + multiplier * weight
    return _assemble(request, base.difficulty, required, auto, classifier, joint, denominator)


@lru_cache(maxsize=512)
def _diagonal_base(die: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, ...], int, int] | None:
    """``(P1 + x·P0, P1(0), P0(0))`` for one die: P1 the units polynomial of its 1s, P0 of the rest.
    Summing (y·P1 + P0)**n along rolled − ones = k is the coefficient of x**(n+k) in (P1 + x·P0)**n."""
    if any(ones not in (0, 1) for _, ones, _ in die):
        return None
    one_poly = _units_poly((u, c) for u, ones, c in die if ones == 1)
    other_poly = _units_poly((u, c) for u, ones, c in die if ones == 0)
    length = max(len(one_poly), len(other_poly) + 1)
    base = [0] * length
    for u, c in enumerate(one_poly):
        base[u] += c
    for u, c in enumerate(other_poly):
        base[u + 1] += c
    return tuple(base), (one_poly[0] if one_poly else 0), (other_poly[0] if other_poly else 0)


@lru_cache(maxsize=4096)
def _diagonals(base: tuple[int, ...], n: int, width: int) -> tuple[int, list[int]]:
    """(packed, coefficients) of ``base ** n``, built one factor at a time (Kronecker substitution)."""
    packed_base = 0
    for power, c in enumerate(base):
        packed_base += c << (8 * width * power)
    packed = packed_base if n == 1 else _diagonals(base, n - 1, width)[0] * packed_base
    return packed, unpack_fast(packed, n * (len(base) - 1) + 1, width)


def _by_diagonals(
    request: V20Request, base_receipt: V20Receipt, classifier: _Classifier, die: DieCategories, n: int
) -> V20Odds | None:
    """The odds by whole diagonals rolled − ones = k, when the codes have the checked shape."""
    found = _diagonal_base(die)
    if found is None:
        return None
    base, one_at_zero, other_at_zero = found
    max_units = max(u for u, _, _ in die)
    shape = classifier.diagonal(max_units * n, n)
    if shape is None:
        return None
    by_net, cancelled, empty = shape
    denominator = _die_total(die) ** n
    diagonals = _diagonals(base, n, fast_width(denominator))[1]  # index n + k: cells with rolled − ones = k
    no_success = (one_at_zero + other_at_zero) ** n - other_at_zero**n  # rolled 0, ones ≥ 1
    below = sum(diagonals[:n])  # every cell with rolled < ones
    joint: dict[int, int] = {}
    for code, weight in (
        *zip(by_net, diagonals[n:], strict=False),
        (empty, no_success),
        (cancelled, below - no_success),
    ):
        if weight:
            assert code is not None  # a shape leaves a code out only where no cell lies
            joint[code] = joint.get(code, 0) + weight
    return _assemble(
        request,
        base_receipt.difficulty,
        base_receipt.required,
        base_receipt.auto_successes,
        classifier,
        joint,
        denominator,
    )


def _assemble(
    request: V20Request,
    difficulty: int,
    required: int,
    auto: int,
    classifier: _Classifier,
    joint: Mapping[int, int],
    denominator: int,
) -> V20Odds:
    outcomes = [0] * _N_OUT
    totals: dict[int, int] = {}
    degrees = [0] * len(DEGREES)
    meaning = classifier.meaning
    for code, weight in joint.items():
        index, total, degree = meaning(code)
        outcomes[index] += weight
        totals[total] = totals.get(total, 0) + weight
        if degree is not None:
            degrees[degree] += weight
    return V20Odds(
        request=request,
        difficulty=difficulty,
        required=required,
        auto_successes=auto,
        outcomes=Distribution(dict(zip(OUTCOMES, outcomes, strict=False)), denominator),
        successes=Distribution({t: totals[t] for t in sorted(totals)}, denominator),
        degrees=Distribution(dict(zip(DEGREES, degrees, strict=False)), denominator),
    )


def odds(pool: int, difficulty: int = 6, **options: Any) -> V20Odds:
    """Shorthand: ``odds(5, 6, specialty=True, specialty_rating=4)``."""
    return v20_odds(V20Request(pool=pool, difficulty=difficulty, **options))


def v20_table(
    pools: Iterable[int], difficulties: Iterable[int], **options: Any
) -> dict[tuple[int, int], V20Odds]:
    """``{(pool, difficulty): V20Odds}`` for every pair (the other request fields shared)."""
    pools = tuple(pools)
    return {
        (pool, difficulty): v20_odds(V20Request(pool=pool, difficulty=difficulty, **options))
        for difficulty in difficulties
        for pool in pools
    }


# --- SPEC V20-15: the source's table ---------------------------------------------------------------


def percent_one_decimal(p: Fraction) -> str:
    """A probability as a percentage with one decimal, rounded half up, exactly."""
    tenths = p * 1000
    rounded = (tenths.numerator * 2 + tenths.denominator) // (2 * tenths.denominator)
    return f"{rounded // 10}.{rounded % 10}"


@dataclass(frozen=True)
class SourceRow:
    difficulty: int
    success_low: Fraction
    success_high: Fraction
    botch_low: Fraction
    botch_high: Fraction

    @property
    def success_text(self) -> str:
        return f"{percent_one_decimal(self.success_low)}–{percent_one_decimal(self.success_high)}%"

    @property
    def botch_text(self) -> str:
        return f"{percent_one_decimal(self.botch_low)}–{percent_one_decimal(self.botch_high)}%"


def source_table(
    pools: Iterable[int] = SOURCE_POOLS, difficulties: Iterable[int] = SOURCE_DIFFICULTIES
) -> list[SourceRow]:
    """SPEC V20-15: per difficulty, min–max over the pools of success and botch (one success
    required, no specialty, no Willpower)."""
    pools = tuple(pools)
    rows = []
    for difficulty in difficulties:
        all_odds = [v20_odds(V20Request(pool=pool, difficulty=difficulty)) for pool in pools]
        successes = [o.success for o in all_odds]
        botches = [o.botch for o in all_odds]
        rows.append(SourceRow(difficulty, min(successes), max(successes), min(botches), max(botches)))
    return rows


def source_table_markdown(rows: list[SourceRow] | None = None) -> str:
    rows = source_table() if rows is None else rows
    lines = ["| difficulty | success (3–5 dice) | botch (3–5 dice) |", "|---|---|---|"]
    lines += [f"| {row.difficulty} | {row.success_text} | {row.botch_text} |" for row in rows]
    return "\n".join(lines)


def request_odds(request: Any, reroll: str = "none", goal: str | None = None) -> dict[str, Any]:
    """``odds_for``'s answer for a V20 rules request (SPEC "The odds contract"): no Willpower reroll."""
    no_reroll("v20", reroll, goal)
    return v20_odds(expect("v20", request, V20Request)).to_json()


def contest_shape(request: V20Request) -> RollShape:
    """A V20 roll as a contest or an extended action sees it (TR-3, TR-4: ``odds.contests``)."""
    odds = v20_odds(request)
    botch = odds.botch
    totals = {t: p for t, p in odds.successes.fractions().items() if p}
    kept = dict(totals)
    if botch:  # V20-11: a botch has no rolled success and no automatic one: its total is 0
        kept[0] = kept.get(0, Fraction(0)) - botch
        if not kept[0]:
            del kept[0]
    return RollShape(botch, kept, totals)


def contest_side_odds(request: V20Request) -> dict[str, Fraction]:
    """What a side of a contest says beyond its successes (TR-3): the chance of a botch."""
    return {"botch": v20_odds(request).botch}


# V5-8 is V5's: no Willpower reroll to advise on (``present.preview.reroll_advice``); declared, so that
# the advice reads no default.
advise = None


__all__ = [
    "advise",
    "contest_side_odds",
    "contest_shape",
    "request_odds",
    "OUTCOMES",
    "SourceRow",
    "V20Odds",
    "die_categories",
    "fraction_text",
    "odds",
    "percent_one_decimal",
    "pool_rows",
    "source_table",
    "source_table_markdown",
    "v20_odds",
    "v20_table",
]
