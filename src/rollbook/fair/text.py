"""Fair dice for people: dice lists typed as ``5d10`` or ``2d6,1d8`` and one translated line per
problem found (see ``rollbook.fair``)."""

from __future__ import annotations

import json
import re
from typing import Any

from rollbook.fair.report import FairProblem
from rollbook.i18n.messages import error_message
from rollbook.rules.base import RuleError

# --- for people: dice lists and problem lines ----------------------------------------------------

_DICE_TERM = re.compile(r"(\d*)d(\d+)")
MOST_HAND_DICE, MOST_SIDES = 1000, 1000


def parse_dice_list(text: str) -> tuple[int, ...]:
    """Die sizes in drawing order from ``5d10``, ``2d6,1d8``, ``2d6+1d8`` or ``d20 d6`` (a missing count
    is 1): what a player types to recompute a roll by hand. Refused with ``bad_dice_list``."""
    sizes: list[int] = []
    terms = re.split(r"[,+\s]+", text.strip().lower()) if isinstance(text, str) else []
    for term in terms:
        match = _DICE_TERM.fullmatch(term)
        count = int(match.group(1) or 1) if match else 0
        sides = int(match.group(2)) if match else 0
        if not 1 <= count <= MOST_HAND_DICE or not 2 <= sides <= MOST_SIDES:
            raise RuleError("bad_dice_list", value=text)
        sizes.extend([sides] * count)
    if not sizes or len(sizes) > MOST_HAND_DICE:
        raise RuleError("bad_dice_list", value=text)
    return tuple(sizes)


_SEED_PARAMS = ("commitment", "active", "current")
_TEXT_PARAMS = ("used", "expected")


def describe(problem: FairProblem, lang: str = "en") -> str:
    """One line a person reads, e.g. ``entry 12, reroll 1: The faces 4, 4 differ from …``: the entry and
    follow-up it concerns, then the translated message (long commitments shortened to 12 digits)."""
    params: dict[str, Any] = {}
    for name, value in problem.params.items():
        if name in _SEED_PARAMS and isinstance(value, str):
            value = value[:12] + "…"
        elif name in _TEXT_PARAMS and isinstance(value, str):
            value = json.dumps(value, ensure_ascii=False)
        params[name] = value
    where = f"entry {problem.seq}" + (f", reroll {problem.reroll + 1}" if problem.reroll is not None else "")
    return f"{where}: {error_message(problem.code, lang, params)}"
