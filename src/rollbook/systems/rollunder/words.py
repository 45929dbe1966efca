"""Roll-under d20 in its own words beside a roll (``present.words``): a quick roll's action against its
level (R-1), and the target number a pool makes, or the dice rolled against it (R-4)."""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, percent_text, translate

WOUND_PENALTY = N_("wounds {n}")
ABILITY_GROUPS: tuple[tuple[str, str | None], ...] = (("skills", None),)
WEAPON_FROM_SHEET = False


def quick(quick: dict, lang: str) -> str:
    return translate(
        N_("“{action}” against {level}"), lang, action=quick.get("action", ""), level=quick.get("level", 10)
    )


def difficulty(action: dict, kind: object, result: dict, lang: str) -> str | None:
    return None  # the target is the pool's (``pool_total``)


def pool_total(text: str, total: int | None, pool: dict, lang: str) -> str:
    if total is not None:
        template = N_("{terms} = target {n}") if text else N_("target {n}")
        text = translate(template, lang, terms=text, n=total)
    if pool.get("dice"):
        text = translate(N_("{dice} against {n}"), lang, dice=pool["dice"], n=total)
    return text


def difficulty_help(lang: str) -> str | None:
    return None


def willpower_current(sheet: dict) -> int | None:
    return None  # no Willpower on the sheet


NO_ODDS_KINDS: frozenset[str] = frozenset()


def odds_words(request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]:
    """R-1: the chance of success, criticals included (the odds' ``success``)."""
    from fractions import Fraction

    from rollbook.odds import odds_for

    odds = odds_for("rollunder", request)
    success = percent_text(Fraction(odds["success"]), lang)
    return odds["outcomes"], translate(N_("Chance of success: {p}"), lang, p=success), []


def may_reroll(sheet: dict) -> bool:
    return True


REROLL_KINDS: frozenset[str] = frozenset()
POWERS_LISTED = False
ATTRIBUTES_BY_NAME = True  # the sheet's own attributes
QUICK_STANDING_DIFFICULTY = False
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
# the sheet's sections of ratings (``present.sheetview``): its key, its title's msgid, the top rating
RATING_GROUPS: tuple[tuple[str, str, int], ...] = (
    ("attributes", N_("Attributes"), 20),
    ("skills", N_("Skills"), 20),
)
BOOK_ATTRIBUTES: tuple[str, ...] = ()  # the sheet's own attributes
# the Disciplines the game knows (a sheet's and a power form's suggestions: ``labels.DISCIPLINES``)
DISCIPLINES: tuple[str, ...] = ()
KINDS: dict[str, str] = {}  # a card's title: the package's words (``labels.KINDS``)
SHORT_NAME = "Roll-under"  # the game where room is short (Discord's choices)
