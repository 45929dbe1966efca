"""The toy's own words beside a roll (``rollbook.present.words.SystemWords``), declared by its play
module (``toy.WORDS``) and read from there by the faces: a pool counted in dice ("Might 3 = 3 dice", not
roll-under's target), a quick roll's pool, and the chance of at least one success. The shipped msgids,
so the toy speaks each language the catalogues hold, and its own ("Push") in its catalogue domain
(``locale/<lang>/LC_MESSAGES/toy.po``, registered with it: ``rollbook.i18n.register_domain``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rollbook.i18n import N_, percent_text, translate, translate_n
from rollbook.odds import odds_for

SYSTEM = "toy"
WOUND_PENALTY = N_("wounds {n}")
ABILITY_GROUPS: tuple[tuple[str, str | None], ...] = (("traits", None),)
WEAPON_FROM_SHEET = False
NO_ODDS_KINDS: frozenset[str] = frozenset()
REROLL_KINDS: frozenset[str] = frozenset()
POWERS_LISTED = False
ATTRIBUTES_BY_NAME = True
QUICK_STANDING_DIFFICULTY = False
EXCLUSIVE: dict[str, tuple[str, ...]] = {}  # one trait a pool
OUTCOMES = {"success": N_("Success"), "failure": N_("Failure")}  # the odds box's, and the card's
ONE_OFF: frozenset[str] = frozenset()
RATING_GROUPS = (("traits", N_("Traits"), 10),)  # its sheet's one section: each trait's dice
BOOK_ATTRIBUTES: tuple[str, ...] = ()
DISCIPLINES: tuple[str, ...] = ()
# its cards' titles: its own words, not the package's "Pool" ("Push" a msgid of its own domain, ``toy``)
KINDS = {"pool": N_("Dice"), "push": N_("Push")}
SHORT_NAME = "Toy"  # the trait and the extra dice carry over to the next roll


def quick(quick: dict, lang: str) -> str:
    return translate_n("{n} die", "{n} dice", int(quick.get("pool", 3)), lang)


def difficulty(action: dict, kind: object, result: dict, lang: str) -> str | None:
    return None  # Toy-1: a 5 or a 6 is a success, whatever the roll


def pool_total(text: str, total: int | None, pool: dict, lang: str) -> str:
    if total is None:
        return text
    if text:
        return translate_n("{terms} = {n} die", "{terms} = {n} dice", total, lang, terms=text)
    return translate_n("{n} die", "{n} dice", total, lang)


def difficulty_help(lang: str) -> str | None:
    return None


def willpower_current(sheet: dict) -> int | None:
    return None  # no Willpower on the sheet


def odds_words(request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]:
    odds = odds_for(SYSTEM, request)
    success = percent_text(Fraction(odds["outcomes"]["success"]), lang)
    return odds["outcomes"], translate(N_("Chance of success: {p}"), lang, p=success), []


def may_reroll(sheet: dict) -> bool:
    return False  # no Willpower to spend
