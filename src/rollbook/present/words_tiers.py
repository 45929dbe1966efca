"""Tiers in its own words beside a roll (``present.words``): a quick roll's skill and bonus, and the
effective skill a pool makes (T-1, T-7)."""

from __future__ import annotations

from rollbook.i18n import N_, translate

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
