"""V20 in its own words beside a roll (``present.words``): a quick roll, the difficulty (V20-2, V20-15:
the one asked), the wound penalty (V20-11) and a pool counted in dice."""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, normalize, percent_text, translate, translations
from rollbook.systems.v20.sheet import ATTRIBUTES

WOUND_PENALTY = N_("wounds {n}")
ABILITY_GROUPS: tuple[tuple[str, str | None], ...] = (
    ("talents", N_("Talents")),
    ("skills", N_("Skills")),
    ("knowledges", N_("Knowledges")),
)
WEAPON_FROM_SHEET = True  # V20-17: an attack is declared with one of the sheet's weapons


def quick(quick: dict, lang: str) -> str:
    return translate(
        N_("pool of {n}, difficulty {d}"), lang, n=quick.get("pool", 1), d=quick.get("difficulty", 6)
    )


def difficulty(action: dict, kind: object, result: dict, lang: str) -> str | None:
    if "difficulty" not in result or kind == "soak":  # V20-16: a soak has no difficulty
        return None
    return translate(N_("difficulty {d}"), lang, d=result.get("requested_difficulty", result["difficulty"]))


def pool_total(text: str, total: int | None, pool: dict, lang: str) -> str:
    """1 die, 5 dice (and 0/1 "dé" in French): the catalogue's plural forms."""
    if total is None:
        return text
    catalogue = translations(normalize(lang))
    if text:
        return catalogue.ngettext("{terms} = {n} die", "{terms} = {n} dice", total).format(
            terms=text, n=total
        )
    return catalogue.ngettext("{n} die", "{n} dice", total).format(terms=text, n=total)


def difficulty_help(lang: str) -> str | None:
    """V20-15: the source names each difficulty."""
    from rollbook.systems.v20.render import DIFFICULTY_NAMES, difficulty_name

    return " · ".join(f"{d} {difficulty_name(d, lang)}" for d in DIFFICULTY_NAMES)


def willpower_current(sheet: dict) -> int | None:
    willpower = sheet.get("willpower")
    return willpower.get("current") if isinstance(willpower, dict) else None


NO_ODDS_KINDS = frozenset({"soak"})  # V20-16: a soak's odds are the exchange's (``present.exchange``)


def odds_words(request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]:
    from fractions import Fraction

    from rollbook.odds import odds_for

    odds = odds_for("v20", request)
    success = percent_text(Fraction(odds["outcomes"]["success"]), lang)
    return odds["outcomes"], translate(N_("Chance of success: {p}"), lang, p=success), []


def may_reroll(sheet: dict) -> bool:
    return True


REROLL_KINDS: frozenset[str] = frozenset()
POWERS_LISTED = False
ATTRIBUTES_BY_NAME = False
QUICK_STANDING_DIFFICULTY = True  # V20-2: the standing difficulty, else 6
# a roll's fields of which only one may be chosen, by kind (the rules refuse two: one_trait_only/required)
EXCLUSIVE: dict[str, tuple[str, ...]] = {"test": ("ability", "discipline")}
# the fields that belong to one roll only: the next form starts without them (``forms.carry_over``)
ONE_OFF = frozenset({"specialty", "willpower", "auto_successes", "knowledge_allowed", "aimed_at_head"})
# the odds box's outcomes in words (``present.preview``)
OUTCOMES = {"success": N_("Success"), "failure": N_("Failure"), "botch": N_("Botch")}
# the sheet's sections of ratings (``present.sheetview``): its key, its title's msgid, the top rating
RATING_GROUPS: tuple[tuple[str, str, int], ...] = (
    ("attributes", N_("Attributes"), 5),
    ("talents", N_("Talents"), 5),
    ("skills", N_("Skills"), 5),
    ("knowledges", N_("Knowledges"), 5),
    ("disciplines", N_("Disciplines"), 5),
    ("virtues", N_("Virtues"), 5),
)
BOOK_ATTRIBUTES = ATTRIBUTES  # the book's order of the attributes (V20)
# the Disciplines the game knows (a sheet's and a power form's suggestions: ``labels.DISCIPLINES``)
DISCIPLINES: tuple[str, ...] = (
    "animalism",
    "auspex",
    "celerity",
    "chimerstry",
    "dementation",
    "dominate",
    "fortitude",
    "necromancy",
    "obfuscate",
    "obtenebration",
    "potence",
    "presence",
    "protean",
    "quietus",
    "serpentis",
    "thaumaturgy",
    "vicissitude",
)
KINDS: dict[str, str] = {}  # a card's title: the package's words (``labels.KINDS``)
SHORT_NAME = "V20"  # the game where room is short (Discord's choices)
