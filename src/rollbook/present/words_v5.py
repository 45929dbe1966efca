"""V5 in its own words beside a roll (``present.words``): a quick roll with its Hunger, the difficulty
(V5-2; a Rouse check has none), Impaired (V5-5) and a pool counted in dice."""

from __future__ import annotations

from rollbook.i18n import N_, normalize, translate, translations

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
