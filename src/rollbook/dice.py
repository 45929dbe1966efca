"""Dice sources: where faces come from. They sit outside the rules core and feed it.

The interface is one method, ``draw(n, sides)``. Every source maps its bits to faces
without modulo bias (rejection sampling), so a d10 is exactly uniform.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol

from rollbook.rules.base import Faces, RuleError


class DiceSource(Protocol):
    def draw(self, n: int, sides: int) -> Faces: ...


class SecureDice:
    """Real rolls: the operating system's secure source."""

    name = "secure"

    def draw(self, n: int, sides: int) -> Faces:
        _check_die(n, sides)
        return tuple(secrets.randbelow(sides) + 1 for _ in range(n))


class HmacDice:
    """A deterministic, unbiased stream: HMAC-SHA256(seed, counter) read 8 bytes at a time.

    With a seed committed beforehand (its SHA-256 published) it is a provably-fair source:
    anyone given the seed can regenerate every face. With a fixed seed it is the seeded
    source for tests and reproducible simulations.
    """

    name = "hmac"

    def __init__(self, seed: bytes | str, counter: int = 0) -> None:
        self.seed = seed.encode() if isinstance(seed, str) else seed
        self.counter = counter
        self._buffer = b""

    def commitment(self) -> str:
        return hashlib.sha256(self.seed).hexdigest()

    def _next_u64(self) -> int:
        if len(self._buffer) < 8:
            block = hmac.new(self.seed, self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self.counter += 1
            self._buffer += block
        value, self._buffer = int.from_bytes(self._buffer[:8], "big"), self._buffer[8:]
        return value

    def _face(self, sides: int) -> int:
        limit = (1 << 64) - ((1 << 64) % sides)  # reject the biased tail
        while True:
            value = self._next_u64()
            if value < limit:
                return value % sides + 1

    def draw(self, n: int, sides: int) -> Faces:
        _check_die(n, sides)
        return tuple(self._face(sides) for _ in range(n))


def SeededDice(seed: int | str) -> HmacDice:  # noqa: N802 - a named constructor
    return HmacDice(f"rollbook-seeded:{seed}")


class GivenFaces:
    """Faces typed in from physical dice, or replayed from a receipt, in order."""

    name = "given"

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._position = 0

    def draw(self, n: int, sides: int) -> Faces:
        _check_die(n, sides)
        taken = self._faces[self._position : self._position + n]
        if len(taken) < n:
            raise RuleError("not_enough_faces", needed=self._position + n, given=len(self._faces))
        for index, face in enumerate(taken, start=self._position):
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
                raise RuleError("face_out_of_range", field="faces", index=index, face=face, sides=sides)
        self._position += n
        return tuple(taken)

    @property
    def unused(self) -> int:
        return len(self._faces) - self._position


def roll(system, request, source: DiceSource) -> tuple[Faces, object]:
    """Draw exactly the dice a request needs (asking the rules after each draw), then resolve."""
    faces: Faces = ()
    while sides := system.needed(request, faces):
        faces += _draw_mixed(source, sides)
    return faces, system.resolve(request, faces)


def _draw_mixed(source: DiceSource, sides: Sequence[int]) -> Faces:
    drawn: list[int] = []
    start = 0
    while start < len(sides):  # group runs of equal sizes into one draw
        end = start
        while end < len(sides) and sides[end] == sides[start]:
            end += 1
        drawn.extend(source.draw(end - start, sides[start]))
        start = end
    return tuple(drawn)


def _check_die(n: int, sides: int) -> None:
    if n < 0 or sides < 1:
        raise RuleError("bad_die", n=n, sides=sides)
