"""Dice statistics anyone can read: from a chronicle's log (an export's
entries, or the entries a member may see), how often each face came up, per die size, for the whole
table and per member, the count a fair die would give, and Pearson's chi-square test of that fit.

"The bot hates me" is answered by counting, not by trust: every die a receipt drew is counted once
(a follow-up's receipt repeats its roll's dice: only its own new draw counts, as ``check_log`` reads
it, F-3). A redacted (hidden) entry has no receipt: its dice are not counted, so a player's statistics
hold only the faces that player may see. Pure: no database, no translation; the reading is a code
(``READINGS``) that ``rollbook.render.fair_stats`` puts in words.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rollbook.entries import DiceReceipt, Logged, ValidationError
from rollbook.fair.replay import receipt_draws
from rollbook.fair.seeds import REROLL
from rollbook.play import quick
from rollbook.rules.base import RuleError

QUICK_ROLL = "quick_roll"
MIN_EXPECTED = 5  # Pearson's rule of thumb: below 5 expected per face the test says little
UNUSUAL, VERY_UNUSUAL = 0.05, 0.01
TOO_FEW, FAIR, UNUSUAL_READING, VERY_UNUSUAL_READING = "too_few", "as_expected", "unusual", "very_unusual"
READINGS = (TOO_FEW, FAIR, UNUSUAL_READING, VERY_UNUSUAL_READING)


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with ``dof`` (a positive integer) degrees of freedom, exactly from the
    closed forms of the regularised upper gamma function Q(dof/2, x/2): a finite sum for an even
    ``dof``; erfc and a finite sum for an odd one."""
    if not isinstance(dof, int) or isinstance(dof, bool) or dof < 1:
        raise ValueError("dof must be a positive integer")
    if x <= 0:
        return 1.0
    half = x / 2.0
    if dof % 2 == 0:  # Q(k, h) = e^-h * sum_{i<k} h^i / i!
        term, total = 1.0, 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    # Q(k + 1/2, h) = erfc(sqrt h) + e^-h / sqrt(pi h) * sum_{i=1..k} h^i / ((1/2)(3/2)…(i - 1/2))
    total, term = 0.0, 1.0
    for i in range(1, (dof - 1) // 2 + 1):
        term *= half / (i - 0.5)
        total += term
    return min(1.0, math.erfc(math.sqrt(half)) + math.exp(-half) / math.sqrt(math.pi * half) * total)


@dataclass(frozen=True)
class FaceStats:
    """One die size's faces: counts by face (1 … sides), their total, the fair expectation and the test."""

    sides: int
    counts: tuple[int, ...]
    total: int
    expected: float
    chi_square: float
    dof: int
    p_value: float | None  # None: no die of this size (or a one-sided die)
    reading: str

    @property
    def mean(self) -> float | None:
        if not self.total:
            return None
        return sum(face * n for face, n in enumerate(self.counts, start=1)) / self.total


def face_stats(sides: int, counts: Mapping[int, int] | Iterable[int]) -> FaceStats:
    """The statistics of one die size from its counts (a mapping face -> count, or counts in face order)."""
    if isinstance(counts, Mapping):
        row = tuple(int(counts.get(face, 0)) for face in range(1, sides + 1))
    else:
        row = tuple(int(n) for n in counts)
        if len(row) != sides:
            raise ValueError("one count per face")
    total = sum(row)
    expected = total / sides if sides else 0.0
    dof = sides - 1
    chi = sum((n - expected) ** 2 / expected for n in row) if expected else 0.0
    if dof < 1 or not total:
        return FaceStats(sides, row, total, expected, chi, dof, None, TOO_FEW)
    p = chi_square_sf(chi, dof)
    if expected < MIN_EXPECTED:  # the p-value is shown, but read as "too few to tell"
        return FaceStats(sides, row, total, expected, chi, dof, p, TOO_FEW)
    reading = VERY_UNUSUAL_READING if p < VERY_UNUSUAL else UNUSUAL_READING if p < UNUSUAL else FAIR
    return FaceStats(sides, row, total, expected, chi, dof, p, reading)


@dataclass
class Tally:
    """Faces counted so far: by die size, for the table and for each member (by id, with their name)."""

    table: dict[int, dict[int, int]] = field(default_factory=dict)
    members: dict[int, dict[int, dict[int, int]]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    rolls: int = 0
    unreadable: int = 0  # entries whose dice cannot be read (a redacted entry is simply skipped)

    def add(self, member: int | None, sizes: Iterable[int], faces: Iterable[int]) -> None:
        for sides, face in zip(sizes, faces, strict=False):
            if not (isinstance(sides, int) and isinstance(face, int) and 1 <= face <= sides):
                continue
            table = self.table.setdefault(sides, {})
            table[face] = table.get(face, 0) + 1
            if member is not None:
                mine = self.members.setdefault(member, {}).setdefault(sides, {})
                mine[face] = mine.get(face, 0) + 1

    def by_size(self) -> list[FaceStats]:
        return [face_stats(sides, counts) for sides, counts in sorted(self.table.items())]

    def of_member(self, member: int) -> list[FaceStats]:
        return [face_stats(sides, counts) for sides, counts in sorted(self.members.get(member, {}).items())]


def _rules_receipt(entry: Logged) -> Mapping[str, Any] | None:
    stored = entry.stored
    if not isinstance(stored, Mapping):
        return None
    if entry.kind == QUICK_ROLL:
        return quick.rules_receipt(stored)
    try:
        made = DiceReceipt.of(stored)
    except ValidationError:  # no rules receipt: no system it was rolled under
        return None
    return stored if "request" in made.model_fields_set else None


def tally(entries: Iterable[Mapping[str, Any] | None]) -> Tally:
    """Every die drawn in these log entries (oldest first, as exported), counted once."""
    out = Tally()
    for line in entries:
        try:
            entry = Logged.of(line)
        except ValidationError:  # no log entry (a header of another type): ``log verify`` says so
            continue
        if entry.redacted:
            continue
        try:
            receipt = _rules_receipt(entry)
            if receipt is None:
                continue
            draws = receipt_draws(receipt)
        except RuleError:
            out.unreadable += 1
            continue
        actor = entry.actor or {}
        member = actor.get("member")
        if not isinstance(member, int) or isinstance(member, bool):
            member = None
        elif isinstance(actor.get("name"), str):
            out.names.setdefault(member, actor["name"])
        new_from = len(draws) - 1 if entry.kind == REROLL else 0  # a follow-up repeats its roll's draws
        for draw in draws[new_from:]:
            out.add(member, draw.sizes, draw.faces)
        out.rolls += 1
    return out
