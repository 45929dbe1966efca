"""What each system says in its own words beside a roll (``systems.v20.words``, ``systems.v5.words``,
``systems.tiers.words``, ``systems.rollunder.words``: each shipped system's module of that name in its package, ``play.systems.own_module``;
a system registered from outside declares its own as ``WORDS`` in its play module): a quick roll, the difficulty among a roll's settings, a pool's
wound penalty and total; on its roll form, the sheet's sections of abilities, the difficulty's help
and whether an attack's weapon is the sheet's; the Willpower a sheet has left; the odds box's
outcomes, headline and notes. ``words(system)`` picks them; a system registered from outside that
declares none speaks the neutral words (``present.neutral_words``: a target number, the common
outcomes), no other system's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from rollbook.play import systems
from rollbook.present import neutral_words


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

    @property
    def EXCLUSIVE(self) -> Mapping[str, tuple[str, ...]]: ...  # by kind: the fields only one of may be chosen

    @property
    def OUTCOMES(self) -> Mapping[str, str]: ...  # the odds box's outcomes: code -> its msgid

    @property
    def ONE_OFF(self) -> frozenset[str]: ...  # the fields that belong to one roll only (not carried over)

    @property
    def RATING_GROUPS(self) -> tuple[tuple[str, str, int], ...]: ...  # the sheet's sections: key, title, top

    @property
    def DISCIPLINES(self) -> Sequence[str]: ...  # the Disciplines the game knows (none: an empty one)

    @property
    def KINDS(
        self,
    ) -> Mapping[str, str]: ...  # its kinds of roll or change in its words (msgids): a card's title

    @property
    def SHORT_NAME(self) -> str: ...  # the game's name where room is short (Discord's choices)

    @property
    def BOOK_ATTRIBUTES(self) -> Sequence[str]: ...  # the book's order of the attributes (none: by name)


def own_words(system: object) -> SystemWords | None:
    """A system's own words: a shipped system's module (``words_<id>``), or the ``WORDS`` a system
    registered from outside declares; None when it has none."""
    return cast("SystemWords | None", systems.part(system, "words", lambda m: m.WORDS))


def words(system: object) -> SystemWords:
    """A system's own words; the neutral words (a target number) for one that has none."""
    own = own_words(system)
    return own if own is not None else neutral_words


__all__ = ["SystemWords", "own_words", "words"]
