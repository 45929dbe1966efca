"""What each system says in its own words beside a roll (``present.words_v20``, ``words_v5``,
``words_tiers``, ``words_rollunder``): a quick roll, the difficulty among a roll's settings, a pool's
wound penalty and total; on its roll form, the sheet's sections of abilities, the difficulty's help
and whether an attack's weapon is the sheet's; the Willpower a sheet has left; the odds box's
outcomes, headline and notes. ``words(system)`` picks them; a system registered from outside speaks
roll-under's (a target number), until it brings its own."""

from __future__ import annotations

from typing import Any, Protocol

from rollbook.present import words_rollunder, words_tiers, words_v5, words_v20


class SystemWords(Protocol):
    @property
    def WOUND_PENALTY(self) -> str: ...  # the msgid of a pool's wound penalty, "{n}" its signed value

    def quick(self, quick: dict, lang: str) -> str: ...  # a quick roll: "6 dice, Hunger 2"

    # the difficulty among a roll's settings, from its action, its kind and its rules result
    def difficulty(self, action: dict, kind: object, result: dict, lang: str) -> str | None: ...

    def pool_total(self, text: str, total: int | None, pool: dict, lang: str) -> str: ...  # "… = 5 dice"

    # the sheet's sections an ability or skill field offers, each with its title's msgid (None: untitled)
    @property
    def ABILITY_GROUPS(self) -> tuple[tuple[str, str | None], ...]: ...

    @property
    def WEAPON_FROM_SHEET(self) -> bool: ...  # an attack names one of the sheet's weapons: none, no field

    def difficulty_help(self, lang: str) -> str | None: ...  # the difficulty field's help (V20-15)

    def willpower_current(self, sheet: dict) -> int | None: ...  # the Willpower the sheet has left

    @property
    def NO_ODDS_KINDS(self) -> frozenset[str]: ...  # the roll kinds the odds box has no odds for

    # the odds of a rules request as the odds box shows them: its outcomes ("p/q"), headline and notes
    def odds_words(self, request: Any, lang: str) -> tuple[dict[str, str], str, list[str]]: ...

    def may_reroll(self, sheet: dict) -> bool: ...  # whether a reroll the odds note offers is the sheet's

    @property
    def REROLL_KINDS(self) -> frozenset[str]: ...  # the rolls whose test a Willpower reroll may take (V5-8)

    @property
    def POWERS_LISTED(self) -> bool: ...  # a power field offers the sheet's powers, each its Discipline's

    @property
    def ATTRIBUTES_BY_NAME(self) -> bool: ...  # the sheet's attributes by name (no book order)

    @property
    def QUICK_STANDING_DIFFICULTY(self) -> bool: ...  # a quick roll's difficulty: the chronicle's (else 6)


WORDS: dict[str, SystemWords] = {
    "v20": words_v20,
    "v5": words_v5,
    "tiers": words_tiers,
    "rollunder": words_rollunder,
}


def own_words(system: object) -> SystemWords | None:
    """The words of a shipped system; None for one registered from outside."""
    return WORDS.get(system) if isinstance(system, str) else None


def words(system: object) -> SystemWords:
    return WORDS.get(system, words_rollunder) if isinstance(system, str) else words_rollunder


__all__ = ["WORDS", "SystemWords", "own_words", "words"]
