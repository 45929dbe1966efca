"""Tiers in its own words beside a roll (``present.words``): a quick roll's skill and bonus, and the
effective skill a pool makes (T-1, T-7)."""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, percent_text, translate

WOUND_PENALTY = N_("wounds {n}")
ABILITY_GROUPS: tuple[tuple[str, str | None], ...] = (("skills", None),)
WEAPON_FROM_SHEET = False  # a shot may name a weapon or none


def quick(quick: dict, lang: str) -> str:
    return translate(N_("skill {s}, bonus {b}"), lang, s=quick.get("skill", 0), b=quick.get("bonus", 0))


def difficulty(action: dict, kind: object, result: dict, lang: str) -> str | None:
    return None  # a Tiers roll has no difficulty: its tier is the skill less the die


def pool_total(text: str, total: int | None, pool: dict, lang: str) -> str:
    if total is None:
        return text
    template = N_("{terms} = effective {n}") if text else N_("effective {n}")
    return translate(template, lang, terms=text, n=total)


def difficulty_help(lang: str) -> str | None:
    return None


def willpower_current(sheet: dict) -> int | None:
    return None  # no Willpower on the sheet


NO_ODDS_KINDS: frozenset[str] = frozenset()


def odds_words(request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]:
    """T-1, T-2: the chance of success (to dodge, to take no damage), and of a critical."""
    from fractions import Fraction

    from rollbook.odds import odds_for

    odds = odds_for("tiers", request)
    label = {"dodge": N_("Chance to dodge: {p}"), "soak": N_("Chance to take no damage: {p}")}.get(
        request.kind, N_("Chance of success: {p}")
    )
    headline = translate(label, lang, p=percent_text(Fraction(odds["outcomes"]["success"]), lang))
    critical = Fraction(odds["critical"])
    notes = (
        [translate(N_("Critical (a 1, roll again): {p}"), lang, p=percent_text(critical, lang))]
        if critical
        else []
    )
    return odds["outcomes"], headline, notes


def may_reroll(sheet: dict) -> bool:
    return True


REROLL_KINDS: frozenset[str] = frozenset()
POWERS_LISTED = False
ATTRIBUTES_BY_NAME = False
QUICK_STANDING_DIFFICULTY = False
# a roll's fields of which only one may be chosen, by kind (the rules refuse two: one_trait_only/required)
EXCLUSIVE: dict[str, tuple[str, ...]] = {}
# the fields that belong to one roll only: the next form starts without them (``forms.carry_over``)
ONE_OFF = frozenset({"bullets"})
# the odds box's outcomes in words (``present.preview``)
OUTCOMES = {"success": N_("Success"), "failure": N_("Failure")}
# the sheet's sections of ratings (``present.sheetview``): its key, its title's msgid, the top rating
RATING_GROUPS: tuple[tuple[str, str, int], ...] = (
    ("skills", N_("Skills"), 100),
    ("armor", N_("Armour"), 100),
)
BOOK_ATTRIBUTES: tuple[str, ...] = ()  # the sheet's own attributes
# the Disciplines the game knows (a sheet's and a power form's suggestions: ``labels.DISCIPLINES``)
DISCIPLINES: tuple[str, ...] = ()
KINDS = {"soak": N_("Soak")}  # a card's title: the seed's "Encaissement", not V20's "absorption"
SHORT_NAME = "Tiers"  # the game where room is short (Discord's choices)
