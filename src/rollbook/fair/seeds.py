"""Provably fair dice by hand (SPEC F-1, F-2, F-4): the log's entry kinds and states, one roll's
faces from its seed, seeds, commitments and client seeds (see ``rollbook.fair``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeGuard

from rollbook.dice import SEED_BYTES, FairDice, commitment_of
from rollbook.rules.base import RuleError

CLIENT_SEED_MAX = 64  # F-2
SEED_COMMIT, SEED_REVEAL, CLIENT_SEED = "seed_commit", "seed_reveal", "client_seed"
SEED_ABANDON = "seed_abandon"  # F-1: a seed the server can no longer open, given up unrevealed
ROLL, REROLL = "roll", "reroll"
# F-7: visible rolls draw from the public stream, hidden rolls (and their follow-ups) from the hidden one;
# an entry written before F-7 names no stream and is the public stream's
PUBLIC, HIDDEN = "public", "hidden"
STREAMS = (PUBLIC, HIDDEN)
VERIFIED, PENDING, MISMATCH = "verified", "pending", "mismatch"
MOST_DICE = 10_000  # a replay that asks for more dice than this is not a roll of these rules

_HEX64 = re.compile(r"[0-9a-f]{64}")


# --- one roll's faces, by hand ---------------------------------------------------------------------


def faces_for(
    seed: bytes, chronicle: int, client_seed: str, nonce: int, sizes: Iterable[int]
) -> tuple[int, ...]:
    """F-4: the faces of dice of these sizes, in order, under one seed, chronicle, client seed and nonce."""
    source = FairDice(seed, chronicle, client_seed, nonce)
    return tuple(face for sides in sizes for face in source.draw(1, sides))


def parse_seed(text: str) -> bytes:
    """A revealed seed as given by a person or an export: 64 hexadecimal digits (32 bytes)."""
    cleaned = text.strip().lower() if isinstance(text, str) else ""
    if not _HEX64.fullmatch(cleaned):
        raise RuleError("bad_seed_hex", length=len(cleaned))
    return bytes.fromhex(cleaned)


def is_commitment(text: object) -> TypeGuard[str]:
    """F-1: a commitment is 64 lowercase hexadecimal digits."""
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def seed_matches(seed: bytes, commitment: str) -> bool:
    """F-6: a revealed seed is the committed one when its SHA-256 is the commitment."""
    return len(seed) == SEED_BYTES and commitment_of(seed) == commitment


def check_client_seed(value: Any) -> str:
    """F-2: a client seed is text of at most 64 characters (``""`` is the default); refused otherwise."""
    if not isinstance(value, str):
        raise RuleError("wrong_type", field="client_seed", detail="text")
    if len(value) > CLIENT_SEED_MAX:
        raise RuleError("client_seed_too_long", most=CLIENT_SEED_MAX, given=len(value))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RuleError("client_seed_not_text") from None
    return value
