"""The words of a system that declares none of its own (``present.words.words``: a system registered
from outside without ``WORDS``): a quick roll's action against its level, a pool's total as the target
number it makes, or the dice rolled against it; no Willpower, no Discipline, the sheet's attributes by
name. Declared here, in the presentation room, so that no system's words stand in for another's."""

from __future__ import annotations

from typing import Any

from rollbook.i18n import N_, translate

WOUND_PENALTY = N_("wounds {n}")
ABILITY_GROUPS: tuple[tuple[str, str | None], ...] = (("skills", None),)
WEAPON_FROM_SHEET = False


def quick(quick: dict, lang: str) -> str:
    return translate(
        N_("“{action}” against {level}"), lang, action=quick.get("action", ""), level=quick.get("level", 10)
    )


def difficulty(action: dict, kind: object, result: dict, lang: str) -> str | None:
    return None  # a target, not a difficulty: the pool's (``pool_total``)


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
    return None  # no Willpower the words know of


NO_ODDS_KINDS: frozenset[str] = frozenset()


def odds_words(request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]:
    """No words of its own for its odds: the odds box shows the odds registered for the system in
    the common words (``present.preview.odds_view``), never these."""
    return {}, "", []


def may_reroll(sheet: dict) -> bool:
    return True


REROLL_KINDS: frozenset[str] = frozenset()
POWERS_LISTED = False
ATTRIBUTES_BY_NAME = True  # the sheet's own attributes
QUICK_STANDING_DIFFICULTY = False
EXCLUSIVE: dict[str, tuple[str, ...]] = {}  # no fields the words know exclude each other
ONE_OFF: frozenset[str] = frozenset()  # every field carried over to the next form
OUTCOMES = {"success": N_("Success"), "failure": N_("Failure")}  # the odds contract's common outcomes
RATING_GROUPS: tuple[tuple[str, str, int], ...] = (
    ("attributes", N_("Attributes"), 20),
    ("skills", N_("Skills"), 20),
)
BOOK_ATTRIBUTES: tuple[str, ...] = ()  # the sheet's own attributes
DISCIPLINES: tuple[str, ...] = ()
KINDS: dict[str, str] = {}  # a card's title: the package's words (``labels.KINDS``)
SHORT_NAME = ""  # no name of its own: a face names the system by its id
