"""Dice sources: where faces come from. They sit outside the rules core and feed it.

The interface is one method, ``draw(n, sides)``. Every source maps its bits to faces
without modulo bias (rejection sampling), so a d10 is exactly uniform.

``FairDice`` is the provably fair source of online rolls (SPEC F-1 to F-6): faces from a committed
server seed, a chronicle id, the member's client seed and a nonce, by the exact algorithm
``hmac-sha256-v1`` of F-4, so that anyone holding the revealed seed recomputes every face.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, TypeVar

from rollbook.rules import RulesSystem
from rollbook.rules.base import Faces, RuleError

Receipt = TypeVar("Receipt")  # what the system resolves a request to


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
        while True:
            face = face_for_value(self._next_u64(), sides)
            if face is not None:
                return face

    def draw(self, n: int, sides: int) -> Faces:
        _check_die(n, sides)
        return tuple(self._face(sides) for _ in range(n))


# --- provably fair dice (SPEC F-1 to F-6) ---------------------------------------------------------

FAIR_ALGORITHM = "hmac-sha256-v1"  # F-4: the algorithm id every fair receipt names
SEED_BYTES = 32  # F-1
VALUE_SPACE = 1 << 64  # F-4: each value is an 8-byte big-endian unsigned integer
VALUES_PER_BLOCK = 4  # F-4: a 32-byte HMAC-SHA256 block holds four values
LARGEST_ID = (1 << 53) - 1  # chronicle ids and nonces stay exact in every JSON reader (JavaScript too)


def acceptance_limit(sides: int) -> int:
    """F-4: the values below ``2**64 - (2**64 mod sides)`` are kept; the biased tail above is discarded.

    The kept range holds exactly ``(2**64 - 2**64 mod sides) / sides`` values of each residue, so every
    face is equally likely."""
    return VALUE_SPACE - VALUE_SPACE % sides


def face_for_value(value: int, sides: int) -> int | None:
    """F-4: the face a 64-bit value gives on a die of ``sides`` sides, or None when it is discarded."""
    if value < acceptance_limit(sides):
        return value % sides + 1
    return None


def new_seed() -> bytes:
    """F-1: a fresh server seed, 32 bytes from the operating system's secure source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment_of(seed: bytes) -> str:
    """F-1: the commitment published before a seed is used: the lowercase hex SHA-256 of its bytes."""
    return hashlib.sha256(seed).hexdigest()


_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False
)  # one, not one per call


def fair_message(block: int, chronicle: int, client_seed: str, nonce: int) -> bytes:
    """F-4: the HMAC message of one block, the canonical JSON (keys sorted, separators ``,`` and ``:``,
    UTF-8, non-ASCII characters as themselves) of ``{"block", "chronicle", "client", "nonce"}``."""
    body = {"block": block, "chronicle": chronicle, "client": client_seed, "nonce": nonce}
    return _CANONICAL.encode(body).encode("utf-8")


def fair_values(seed: bytes, chronicle: int, client_seed: str, nonce: int) -> Iterator[int]:
    """F-4: the endless stream of 64-bit values of one roll: blocks 0, 1, 2, … of
    HMAC-SHA256(key = seed, message = C), each read as four big-endian unsigned integers in order."""
    block = 0
    while True:
        # the one-shot HMAC (``hmac.digest``): the same bytes as ``hmac.new(...).digest()``
        digest = hmac.digest(seed, fair_message(block, chronicle, client_seed, nonce), "sha256")
        for offset in range(0, 8 * VALUES_PER_BLOCK, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


def faces_from_values(values: Iterator[int], sizes: Iterable[int]) -> tuple[int, ...]:
    """F-4: one face per die size, in order, each taking the next value that is not discarded."""
    faces = []
    for sides in sizes:
        _check_die(1, sides)
        while (face := face_for_value(next(values), sides)) is None:
            pass
        faces.append(face)
    return tuple(faces)


class FairDice:
    """Provably fair dice (F-4, ``hmac-sha256-v1``): one roll's faces from the server seed, the
    chronicle id, the client seed of the member rolling and the roll's nonce.

    One instance is one nonce: every die the rules ask for, in the order they ask (the roll's dice,
    then a V5 Rouse die of the same action), comes from its one stream, so
    ``roll(system, request, FairDice(...))`` works like any other source. ``record()`` is the
    ``"fair"`` object the receipt carries (F-6); it never holds the seed.
    """

    name = "fair"
    algorithm = FAIR_ALGORITHM

    def __init__(self, seed: bytes, chronicle: int, client_seed: str, nonce: int) -> None:
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise RuleError("bad_seed", length=len(seed) if isinstance(seed, bytes) else 0)
        _check_whole("chronicle", chronicle, 0)
        _check_whole("nonce", nonce, 1)  # F-3: nonces run 1, 2, 3, …
        if not isinstance(client_seed, str):
            raise RuleError("wrong_type", field="client_seed", detail="text")
        _check_encodable(client_seed)
        self._seed = seed
        self.chronicle = chronicle
        self.client_seed = client_seed
        self.nonce = nonce
        self.commitment = commitment_of(seed)
        self._values = fair_values(seed, chronicle, client_seed, nonce)

    def draw(self, n: int, sides: int) -> Faces:
        _check_die(n, sides)
        return faces_from_values(self._values, [sides] * n)

    def record(self) -> dict:
        """F-6: ``{"algorithm", "commitment", "client_seed", "nonce"}`` for the receipt."""
        return {
            "algorithm": FAIR_ALGORITHM,
            "commitment": self.commitment,
            "client_seed": self.client_seed,
            "nonce": self.nonce,
        }

    def __repr__(self) -> str:  # never the seed, not even in a traceback
        return (
            f"FairDice(commitment={self.commitment[:12]}…, chronicle={self.chronicle}, "
            f"client_seed={self.client_seed!r}, nonce={self.nonce})"
        )


def _check_whole(field: str, value: object, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("not_an_integer", field=field, value=value)
    if not low <= value <= LARGEST_ID:
        raise RuleError("out_of_range", field=field, low=low, high=LARGEST_ID, value=value)


def _check_encodable(text: str) -> None:
    """A client seed must be UTF-8 text (a lone surrogate cannot be, nor be hashed the same in a browser)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleError("client_seed_not_text") from None


def SeededDice(seed: int | str) -> HmacDice:
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


def roll(system: RulesSystem[Receipt], request: object, source: DiceSource) -> tuple[Faces, Receipt]:
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
