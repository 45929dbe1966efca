"""Exact arithmetic shared by the odds modules: integer weights over a common denominator.

The inner loops of the odds engine never touch ``Fraction``: a distribution is a mapping of
integer *weights* over one common denominator (10**n for n d10s). ``Fraction`` objects are made
only when a caller asks for probabilities, so a whole table costs integer additions.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterator, KeysView, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, factorial
from typing import Any, Generic, TypeVar

K = TypeVar("K")


def fraction_text(value: Fraction | int) -> str:
    """The odds contract's spelling: a reduced ``p/q``, or ``0`` and ``1`` (any integer) alone."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


class Distribution(Generic[K]):
    """Exact probabilities as integer weights over one denominator.

    The weights need not sum to the denominator: a sub-distribution (e.g. the degrees of the
    successful rolls) sums to the probability of its event. Keys keep the order given.
    ``Fraction`` objects are made only when asked for (and then remembered).
    """

    __slots__ = ("weights", "denominator", "_fractions")

    def __init__(self, weights: Mapping[K, int], denominator: int) -> None:
        self.weights = weights
        self.denominator = denominator
        self._fractions: dict[K, Fraction] | None = None

    def probability(self, key: K) -> Fraction:
        return Fraction(self.weights.get(key, 0), self.denominator)

    def __getitem__(self, key: K) -> Fraction:
        return self.probability(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.weights)

    def __len__(self) -> int:
        return len(self.weights)

    def keys(self) -> KeysView[K]:
        return self.weights.keys()

    def items(self) -> list[tuple[K, Fraction]]:
        return list(self.fractions().items())

    def fractions(self) -> dict[K, Fraction]:
        if self._fractions is None:
            self._fractions = {key: Fraction(w, self.denominator) for key, w in self.weights.items()}
        return self._fractions

    def floats(self) -> dict[K, float]:
        return {key: w / self.denominator for key, w in self.weights.items()}

    def total(self) -> Fraction:
        return Fraction(sum(self.weights.values()), self.denominator)

    def texts(self) -> dict[str, str]:
        """JSON-ready: string keys, ``p/q`` values."""
        return {str(key): fraction_text(p) for key, p in self.fractions().items()}

    def float_texts(self) -> dict[str, float]:
        return {str(key): value for key, value in self.floats().items()}

    def nonzero(self) -> Distribution[K]:
        return Distribution({k: w for k, w in self.weights.items() if w}, self.denominator)

    def __eq__(self, other: object) -> bool:  # equal as probabilities, whatever the denominators
        if not isinstance(other, Distribution):
            return NotImplemented
        return self.nonzero().fractions() == other.nonzero().fractions()

    __hash__ = None  # type: ignore[assignment]  # equal by value: unhashable, as Python asks of __eq__

    def __repr__(self) -> str:
        return f"Distribution({self.texts()})"


def distribution(weights: Mapping[K, int], denominator: int) -> Distribution[K]:
    return Distribution(dict(weights), denominator)


def scale_to(weights: Mapping[K, int], denominator: int, target: int) -> dict[K, int]:
    """Weights over ``denominator`` re-expressed over ``target`` (a multiple of it)."""
    factor, rest = divmod(target, denominator)
    if rest:
        raise ValueError("target is not a multiple of the denominator")
    return {key: w * factor for key, w in weights.items()}


# --- multinomial classes ------------------------------------------------------------------------


@cache
def compositions(n: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every way to put n identical dice into ``parts`` ordered categories (counts summing to n)."""
    if parts == 1:
        return ((n,),)
    return tuple((first, *rest) for first in range(n, -1, -1) for rest in compositions(n - first, parts - 1))


def multinomial(counts: tuple[int, ...]) -> int:
    result = factorial(sum(counts))
    for count in counts:
        result //= factorial(count)
    return result


@cache
def category_classes(n: int, sizes: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The equivalence classes of n dice whose faces fall into categories of ``sizes`` faces each:
    ``(counts, weight)`` where weight = multinomial(counts) * prod(size ** count). The weights sum
    to ``sum(sizes) ** n`` (10**n for d10s)."""
    out = []
    for counts in compositions(n, len(sizes)):
        weight = multinomial(counts)
        for size, count in zip(sizes, counts, strict=False):
            if count:
                weight *= size**count
        if weight:
            out.append((counts, weight))
    return tuple(out)


@cache
def binomial_row(n: int) -> tuple[int, ...]:
    return tuple(comb(n, k) for k in range(n + 1))


# --- 1-D polynomials as tuples of integer coefficients -----------------------------------------


def poly_mul(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The product of two polynomials with non-negative integer coefficients (lowest power first).
    Large products are done as one integer multiplication (Kronecker substitution)."""
    if not a or not b:
        return ()
    if len(a) * len(b) > 4096:
        width = slot_bytes(sum(a) * sum(b))
        product = _pack(a, width) * _pack(b, width)
        return tuple(unpack(product, len(a) + len(b) - 1, width))
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return tuple(out)


@lru_cache(maxsize=4096)
def poly_pow(base: tuple[int, ...], exponent: int) -> tuple[int, ...]:
    """``base ** exponent``, memoised and built one factor at a time from the previous power (so a
    whole range of pool sizes costs one multiplication by the small die polynomial each)."""
    if exponent == 0:
        return (1,)
    return poly_mul(poly_pow(base, exponent - 1), base)


# --- packed polynomials (Kronecker substitution): many coefficients in one Python integer --------


def slot_bytes(bound: int) -> int:
    """Bytes per coefficient slot able to hold any integer in [0, bound]."""
    return max(1, (bound.bit_length() + 8) // 8)


def _pack(coefficients: tuple[int, ...], width: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in coefficients), "little")


def unpack(value: int, slots: int, width: int) -> list[int]:
    """The ``slots`` coefficients (``width`` bytes each, least significant first) of a packed integer."""
    raw = value.to_bytes(slots * width, "little")
    from_bytes = int.from_bytes
    return [from_bytes(raw[i : i + width], "little") for i in range(0, slots * width, width)]


_NATIVE_WORDS = sys.byteorder == "little" and struct.calcsize("Q") == 8


def fast_width(bound: int) -> int:
    """A slot width (bytes) for coefficients up to ``bound``: 8 or 16 where ``unpack_fast`` runs in
    C, else the smallest that fits."""
    for width in (8, 16):
        if bound < 1 << (8 * width):
            return width
    return slot_bytes(bound)


def unpack_fast(value: int, slots: int, width: int) -> list[int]:
    """``unpack`` for a non-negative packed integer, with 8- and 16-byte slots read in C."""
    raw = value.to_bytes(slots * width, "little")
    if _NATIVE_WORDS and width in (8, 16):
        words = memoryview(raw).cast("Q")
        if width == 8:
            return words.tolist()
        return [
            low | high << 64 for low, high in zip(words[::2].tolist(), words[1::2].tolist(), strict=False)
        ]
    from_bytes = int.from_bytes
    return [from_bytes(raw[i : i + width], "little") for i in range(0, slots * width, width)]


def plain(value: Any) -> Any:
    """Fractions as ``p/q`` strings, recursively (for JSON)."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, Distribution):
        return value.texts()
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True)
class RollShape:
    """One roll of a contest or an extended action: P(the roll ends an extended action: a V20 botch,
    a V5 bestial failure), and the distribution of its successes when it does not end it."""

    ends: Fraction
    successes: dict[int, Fraction]  # over the rolls that do not end it; sums to 1 − ends
    totals: dict[int, Fraction]  # every roll's successes (a V20 botch counts 0), for contests


__all__ = [
    "RollShape",
    "Distribution",
    "binomial_row",
    "category_classes",
    "compositions",
    "distribution",
    "fraction_text",
    "multinomial",
    "plain",
    "poly_mul",
    "poly_pow",
    "scale_to",
    "slot_bytes",
    "unpack",
    "unpack_fast",
    "fast_width",
]


def no_reroll(system: str, reroll: str, goal: str | None) -> None:
    """A system without V5's Willpower reroll and goal (V5-8, V5-9) is given none (``odds_for``)."""
    if reroll != "none" or goal is not None:
        raise TypeError(f"reroll and goal are V5 options; {system} odds take none")


def expect(system: str, request: Any, kind: type) -> Any:
    """``request``, when it is of the system's own rules request type (``odds_for``)."""
    if not isinstance(request, kind):
        raise TypeError(f"{system} odds take a {kind.__name__}, not {type(request).__name__}")
    return request
