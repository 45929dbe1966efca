"""V5 in its own words beside a roll (``present.words``): a quick roll with its Hunger, the difficulty
(V5-2; a Rouse check has none), Impaired (V5-5) and a pool counted in dice."""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, normalize, percent_text, translate, translations
from rollbook.systems.v5.sheet import ATTRIBUTES

WOUND_PENALTY = N_("impaired {n}")  # a full Health or Willpower track
ABILITY_GROUPS: tuple[tuple[str, str | None], ...] = (("skills", None),)
WEAPON_FROM_SHEET = False


def quick(quick: dict, lang: str) -> str:
    text = translate(N_("pool of {n}, Hunger {h}"), lang, n=quick.get("pool", 1), h=quick.get("hunger", 0))
    if quick.get("difficulty"):
        text += " · " + translate(N_("difficulty {d}"), lang, d=quick["difficulty"])
    return text


def difficulty(action: dict, kind: object, result: dict, lang: str) -> str | None:
    if kind in ("rouse",):
        return None
    return translate(N_("difficulty {d}"), lang, d=result.get("difficulty", action.get("difficulty", 1)))


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
    return None


def willpower_current(sheet: dict) -> int | None:
    """V5-4: the track's boxes less its superficial and aggravated damage."""
    willpower = sheet.get("willpower")
    if not isinstance(willpower, dict):
        return None
    return (willpower.get("max") or 0) - willpower.get("superficial", 0) - willpower.get("aggravated", 0)


NO_ODDS_KINDS: frozenset[str] = frozenset()
MAX_OPTIMAL_POOL = 20  # the optimal-reroll table is exact but grows with the pool (20 dice: ~0.2 s cold)


def odds_words(request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]:
    """A Rouse check (V5-10): the chance that Hunger rises, or at Hunger 5 of a hunger frenzy test;
    any other roll: the chance to win, and with the best Willpower reroll afterwards (V5-8)."""
    from fractions import Fraction

    from rollbook.odds import odds_for

    if request.kind == "rouse":
        odds = odds_for("v5", request)
        if request.hunger >= 5:  # V5-10: Hunger cannot rise; the risk is the hunger frenzy test
            risk = percent_text(Fraction(odds["hunger_frenzy_risk"]), lang)
            return (
                odds["outcomes"],
                translate(N_("Hunger 5: chance of a hunger frenzy test: {p}"), lang, p=risk),
                [],
            )
        rises = percent_text(Fraction(odds["hunger_gain"].get("1", "0")), lang)
        return odds["outcomes"], translate(N_("Chance that Hunger rises: {p}"), lang, p=rises), []
    odds = odds_for("v5", request, goal="win")
    headline = translate(N_("Chance to win: {p}"), lang, p=percent_text(Fraction(odds["goal"]), lang))
    notes = []
    if request.kind == "test" and request.pool <= MAX_OPTIMAL_POOL:
        best = odds_for("v5", request, reroll="optimal", goal="win")
        notes.append(
            translate(
                N_("With the best Willpower reroll afterwards: {p}"),
                lang,
                p=percent_text(Fraction(best["goal"]), lang),
            )
        )
    return odds["outcomes"], headline, notes


def may_reroll(sheet: dict) -> bool:
    """V5-8: a Willpower reroll needs Willpower left (a sheet without its track is not refused here)."""
    track = sheet.get("willpower") or {}
    if not isinstance(track, dict) or not isinstance(track.get("max"), int):
        return True
    return track["max"] - int(track.get("superficial") or 0) - int(track.get("aggravated") or 0) > 0


REROLL_KINDS: frozenset[str] = frozenset({"test", "power"})  # V5-8: a power's roll is a test
POWERS_LISTED = True
ATTRIBUTES_BY_NAME = False
QUICK_STANDING_DIFFICULTY = False
# a roll's fields of which only one may be chosen, by kind (the rules refuse two: one_trait_only/required)
EXCLUSIVE: dict[str, tuple[str, ...]] = {"test": ("skill", "discipline", "second_attribute")}
# the fields that belong to one roll only: the next form starts without them (``forms.carry_over``)
ONE_OFF = frozenset({"specialty", "blood_surge"})
# the odds box's outcomes in words (``present.preview``)
OUTCOMES = {
    "critical": N_("Critical"),
    "messy_critical": N_("Messy Critical"),
    "success": N_("Success"),
    "failure": N_("Failure"),
    "total_failure": N_("Total Failure"),
    "bestial_failure": N_("Bestial Failure"),
}
# the sheet's sections of ratings (``present.sheetview``): its key, its title's msgid, the top rating
RATING_GROUPS: tuple[tuple[str, str, int], ...] = (
    ("attributes", N_("Attributes"), 5),
    ("skills", N_("Skills"), 5),
    ("disciplines", N_("Disciplines"), 5),
)
BOOK_ATTRIBUTES = ATTRIBUTES  # the book's order of the attributes (V5)
# the Disciplines the game knows (a sheet's and a power form's suggestions: ``labels.DISCIPLINES``)
DISCIPLINES: tuple[str, ...] = (
    "animalism",
    "auspex",
    "blood_sorcery",
    "celerity",
    "dominate",
    "fortitude",
    "obfuscate",
    "oblivion",
    "potence",
    "presence",
    "protean",
    "thin_blood_alchemy",
)
KINDS = {"test": N_("Test: Attribute + Skill")}  # a card's title: a test names a Skill (``labels.kind``)
SHORT_NAME = "V5"  # the game where room is short (Discord's choices)
