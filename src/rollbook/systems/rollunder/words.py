"""Roll-under d20 in its own words beside a roll (``present.words``): a quick roll's action against its
level (R-1), and the target number a pool makes, or the dice rolled against it (R-4): a target-number
game's, the words a system without its own speaks too (``present.neutral_words``), and its own odds'
words, fields, outcomes and name."""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, percent_text, translate
from rollbook.present.neutral_words import (  # a target number, as the neutral words say
    ABILITY_GROUPS,
    ATTRIBUTES_BY_NAME,
    BOOK_ATTRIBUTES,
    DISCIPLINES,
    KINDS,
    NO_ODDS_KINDS,
    POWERS_LISTED,
    QUICK_STANDING_DIFFICULTY,
    RATING_GROUPS,
    REROLL_KINDS,
    WEAPON_FROM_SHEET,
    WOUND_PENALTY,
    difficulty,
    difficulty_help,
    may_reroll,
    pool_total,
    quick,
    willpower_current,
)


def odds_words(request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]:
    """R-1: the chance of success, criticals included (the odds' ``success``)."""
    from fractions import Fraction

    from rollbook.odds import odds_for

    odds = odds_for("rollunder", request)
    success = percent_text(Fraction(odds["success"]), lang)
    return odds["outcomes"], translate(N_("Chance of success: {p}"), lang, p=success), []


# a roll's fields of which only one may be chosen, by kind (the rules refuse two: one_trait_only/required)
EXCLUSIVE: dict[str, tuple[str, ...]] = {"check": ("skill", "attribute")}
# the fields that belong to one roll only: the next form starts without them (``forms.carry_over``)
ONE_OFF = frozenset({"advantage", "disadvantage", "cards"})
# the odds box's outcomes in words (``present.preview``)
OUTCOMES = {
    "critical_success": N_("Critical success"),
    "success": N_("Success"),
    "failure": N_("Failure"),
    "critical_failure": N_("Critical failure"),
}
SHORT_NAME = "Roll-under"  # the game where room is short (Discord's choices)

__all__ = [
    "ABILITY_GROUPS",
    "ATTRIBUTES_BY_NAME",
    "BOOK_ATTRIBUTES",
    "DISCIPLINES",
    "EXCLUSIVE",
    "KINDS",
    "NO_ODDS_KINDS",
    "ONE_OFF",
    "OUTCOMES",
    "POWERS_LISTED",
    "QUICK_STANDING_DIFFICULTY",
    "RATING_GROUPS",
    "REROLL_KINDS",
    "SHORT_NAME",
    "WEAPON_FROM_SHEET",
    "WOUND_PENALTY",
    "difficulty",
    "difficulty_help",
    "may_reroll",
    "odds_words",
    "pool_total",
    "quick",
    "willpower_current",
]
