"""Discipline powers on a V20 or V5 sheet: a power of the game's list (``powers_data``), by
id, or a homebrew power kept as typed.

A sheet's ``powers`` is a list of ``Power``: the Discipline it belongs to (an id, as the sheet's
``disciplines`` key it), its level, and either ``power`` (an id of ``POWERS[system][discipline]`` at
that level) or ``name`` (a homebrew power, as typed). The sheet checks (codes and numbers only):

- ``power_discipline_missing``: the Discipline is not on the sheet;
- ``power_above_rating``: the level is above the sheet's rating of the Discipline;
- ``unknown_power``: ``power`` is not a power of that Discipline at that level in the game's list;
- ``power_choice``: exactly one of ``power`` and ``name``;
- ``duplicate_name``: the same power twice.

Not checked (the Storyteller's call): a V5 amalgam's other Discipline (Unliving Hive needs Obfuscate 2),
a V20 path other than the primary one (name it as homebrew).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import model_validator

from rollbook.play.common import Label, Model, TraitName, rating
from rollbook.play.powers_data import POWERS, RATED_ONLY
from rollbook.rules.base import RuleError


class Power(Model):
    """A power of a Discipline: a known one by ``power`` (its id in the game's list), or a homebrew
    one by ``name``, as typed."""

    discipline: TraitName
    level: int = rating(1, 10, 1)
    power: TraitName | None = None
    name: Label | None = None

    @model_validator(mode="after")
    def _one_of_power_and_name(self) -> Power:
        if (self.power is None) == (self.name is None):
            raise RuleError("power_choice", field="powers", discipline=self.discipline)
        return self


# discipline -> power id -> (level, English name), by game: the published lists as a table
_KNOWN: dict[str, dict[str, dict[str, tuple[int, str]]]] = {
    system: {
        discipline: {power_id: (level, name) for level, power_id, name in listed}
        for discipline, listed in disciplines.items()
    }
    for system, disciplines in POWERS.items()
}


def known(system: str) -> dict[str, dict[str, tuple[int, str]]]:
    """discipline -> power id -> (level, English name), for one game (empty for a game without lists)."""
    return _KNOWN.get(system, {})


def disciplines_with_powers(system: str) -> tuple[str, ...]:
    return tuple(POWERS.get(system, {}))


def rated_only(system: str) -> tuple[str, ...]:
    return RATED_ONLY.get(system, ())


def powers_of(system: str, discipline: str, up_to: int | None = None) -> list[tuple[int, str, str]]:
    """The game's powers of ``discipline`` (level, id, English name), levels ``up_to`` at most."""
    return [
        (level, power_id, name)
        for level, power_id, name in POWERS.get(system, {}).get(discipline, ())
        if up_to is None or level <= up_to
    ]


def check_powers(system: str, powers: Iterable[Power], disciplines: Mapping[str, int]) -> None:
    """Every power sits on a Discipline the sheet rates at its level or more; a known power is in the
    game's list at that level; none twice (powers from known lists: docs/rules.md)."""
    table = known(system)
    seen: set[tuple[str, str]] = set()
    for index, power in enumerate(powers):
        where = f"powers.{index}"
        if power.discipline not in disciplines:
            raise RuleError("power_discipline_missing", field=where, trait=power.discipline)
        if power.power is not None:  # first: a listed power at another level is a wrong level, not a high one
            listed = table.get(power.discipline, {}).get(power.power)
            if listed is None or listed[0] != power.level:
                raise RuleError(
                    "unknown_power", field=where, trait=power.discipline, power=power.power, level=power.level
                )
        if power.level > disciplines[power.discipline]:
            raise RuleError(
                "power_above_rating",
                field=where,
                trait=power.discipline,
                level=power.level,
                rating=disciplines[power.discipline],
            )
        key = (power.discipline, power.power or "name:" + " ".join(str(power.name).casefold().split()))
        if key in seen:
            raise RuleError("duplicate_name", field=where)
        seen.add(key)
