"""One receipt's fairness state for the table (SPEC F-6), from the seeds revealed so far: what the log's
cards show beside a roll. The log-wide checks are ``rollbook.fair.check``'s."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollbook.dice import FAIR_ALGORITHM
from rollbook.fair.replay import receipt_draws, recompute
from rollbook.fair.seeds import MISMATCH, PENDING, VERIFIED, seed_matches
from rollbook.rules.base import RuleError


def fair_status(
    receipt: Mapping[str, Any], chronicle: int | None, revealed: Mapping[str, bytes]
) -> str | None:
    """One receipt's state for the table (F-6), given the seeds revealed so far (by commitment):
    MISMATCH when a draw under a revealed seed does not recompute to its stored faces, else PENDING
    while a draw's seed is unrevealed, else VERIFIED; None for a receipt with no fairness record (the
    caller shows its source instead). The log-wide checks (nonces, order) are ``check_log``'s."""
    try:
        draws = [draw for draw in receipt_draws(receipt) if draw.record is not None]
    except RuleError:
        return MISMATCH if "fair" in receipt else None
    if not draws:
        return None
    status = VERIFIED
    for draw in draws:
        record = draw.record
        commitment = record.get("commitment") if isinstance(record, Mapping) else None
        if not isinstance(commitment, str):
            status = PENDING
            continue
        seed = revealed.get(commitment)
        if seed is None:
            status = PENDING
            continue
        try:
            if (
                record.get("algorithm") != FAIR_ALGORITHM
                or not seed_matches(seed, commitment)
                or chronicle is None  # no chronicle: the dice cannot be recomputed (FairDice refuses it)
                or recompute(receipt, draw, seed, chronicle) != draw.faces
            ):
                return MISMATCH
        except (RuleError, KeyError, TypeError):
            return MISMATCH
    return status
