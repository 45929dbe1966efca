"""What ``check_log`` finds (SPEC F-1 to F-8): each problem as a code and its parameters, the verdict on
each nonce's dice, each seed's state, and the report that holds them. Codes and numbers only: the
sentences are ``rollbook.i18n.messages_fair``'s, put together by ``rollbook.fair.text``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.fair.seeds import MISMATCH, PENDING, PUBLIC, VERIFIED


@dataclass(frozen=True)
class FairProblem:
    """One finding, as a code and its parameters (``rollbook.i18n.messages_fair`` has the sentences)."""

    seq: int
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    reroll: int | None = None  # set when the problem is a follow-up's (index in receipt["rerolls"])


@dataclass(frozen=True)
class DrawCheck:
    """The verdict on one nonce's dice: VERIFIED, PENDING (seed not revealed yet) or MISMATCH."""

    seq: int
    part: str
    reroll: int | None
    member: int | None
    commitment: str | None
    client_seed: str | None
    nonce: int | None
    sizes: tuple[int, ...]
    faces: tuple[int, ...]
    expected: tuple[int, ...] | None  # recomputed under the revealed seed (None while pending)
    status: str
    problems: tuple[FairProblem, ...]
    stream: str = PUBLIC  # F-7: the stream the record names (none before F-7: the public one)


@dataclass(frozen=True)
class SeedState:
    commitment: str
    committed_at: int
    revealed_at: int | None
    seed: str | None  # lowercase hex, once revealed (and only if it matches the commitment)
    stream: str = PUBLIC  # F-7 (a seed committed before F-7 names none: the public stream)


@dataclass(frozen=True)
class FairReport:
    draws: tuple[DrawCheck, ...]
    problems: tuple[FairProblem, ...]  # every problem, the draws' included, in log order
    seeds: tuple[SeedState, ...]
    unproven: tuple[int, ...]  # rolls with no fairness record made while no seed was in use
    redacted: int

    @property
    def clean(self) -> bool:
        return not self.problems

    def counts(self) -> dict[str, int]:
        counts = {VERIFIED: 0, PENDING: 0, MISMATCH: 0}
        for draw in self.draws:
            counts[draw.status] += 1
        counts["unproven"] = len(self.unproven)
        return counts

    def status_of(self, seq: int) -> str | None:
        """The fairness state of one entry: MISMATCH if any of its draws is, else PENDING if any is,
        else VERIFIED; None for an entry with no fair draw of its own."""
        statuses = {draw.status for draw in self.draws if draw.seq == seq}
        for status in (MISMATCH, PENDING, VERIFIED):
            if status in statuses:
                return status
        return None
