"""The Discipline powers of a sheet as a form: one group per Discipline the sheet rates,
with the game's powers of it up to its rating (in the reader's language), rows for a power of a
Discipline added in the same form, and the rows back to the sheet's ``powers``: a name of the game's
list typed in English, French or Spanish is that power (by id, at its level); another is homebrew, kept
as typed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rollbook.i18n import N_, translate
from rollbook.play import powers
from rollbook.present import labels, typednames
from rollbook.present.forms import Option, parse_int
from rollbook.rules.base import RuleError

NEW_ROWS = 2  # empty power rows for a Discipline added in the same form
HINT = N_("Pick a power of the list or type a homebrew one; empty a name to remove it.")
# A player adds a power within the dots and never changes one (play.PLAYER_ADDS, ``edit_sheet``).
PLAYER_HINT = N_("Add a power of the list or a homebrew one, one a dot; the Storyteller changes the others.")


@dataclass
class PowerRow:
    """One power as a row: ``s.powers.<n>.discipline`` (hidden in a Discipline's group, typed in a new
    row), ``s.powers.<n>.name`` (a name of the list in the reader's language, or homebrew as typed),
    ``s.powers.<n>.level`` (a homebrew power's level; a known power's is the list's)."""

    index: int
    discipline: str = ""
    name: str = ""
    level: int | None = None
    known: bool = False
    discipline_text: str = ""  # a new row's Discipline as shown in its box
    fixed: bool = False  # held on a player's sheet: shown, sent back as it is, not editable


@dataclass
class PowerGroup:
    """A Discipline the sheet rates, its powers, an empty row to add one, and the game's powers of
    that Discipline up to its rating (a datalist, in the reader's language)."""

    discipline: str
    label: str
    rating: int
    rows: list[PowerRow] = field(default_factory=list)
    options: list[Option] = field(default_factory=list)


def power_label(system: str, power: dict, lang: str) -> str:
    """A power of the sheet in words: a known one in the reader's language, a homebrew one as typed."""
    if power.get("power"):
        return labels.power(system, str(power.get("discipline")), str(power["power"]), lang)
    return str(power.get("name") or "")


class PowerSection(Protocol):
    """What ``fill_power_section`` fills: a sheet form's section (``sheetform.Section``)."""

    hint: str
    powers: list[PowerGroup]
    power_rows: list[PowerRow]
    power_lists: list[tuple[str, list[Option]]]
    suggestions: list[Option]


def fill_power_section(
    section: PowerSection, system: str, sheet: dict, lang: str, *, adds_only: bool = False
) -> None:
    """Fill a sheet form's "powers" section: one group per Discipline the sheet rates (its powers, one
    empty row, the game's powers up to its rating), then rows for a power of a Discipline added in the
    same form, and every listed Discipline's powers for those rows. ``adds_only`` (a player's own
    sheet, ``play.PLAYER_ADDS``): the powers held are read-only rows, only the empty ones take a power."""
    section.hint = translate(PLAYER_HINT if adds_only else HINT, lang)
    held = [p for p in sheet.get("powers") or [] if isinstance(p, dict)]
    names = sheet.get("names") or {}
    index = 0
    disciplines = sheet.get("disciplines") or {}
    for discipline, rating in sorted(
        disciplines.items(), key=lambda item: labels.trait(item[0], lang, names)
    ):
        group = PowerGroup(discipline, labels.trait(discipline, lang, names), int(rating or 0))
        for power in held:
            if power.get("discipline") == discipline:
                group.rows.append(
                    PowerRow(
                        index,
                        discipline,
                        power_label(system, power, lang),
                        power.get("level"),
                        known=bool(power.get("power")),
                        fixed=adds_only,
                    )
                )
                index += 1
        group.rows.append(PowerRow(index, discipline))
        index += 1
        group.options = [
            Option(labels.power(system, discipline, power_id, lang), str(level))
            for level, power_id, _ in powers.powers_of(system, discipline, int(rating or 0))
        ]
        section.powers.append(group)
    for power in held:  # a power whose Discipline is gone: kept in a row, so the refusal can be read
        if power.get("discipline") not in disciplines:
            section.power_rows.append(
                PowerRow(
                    index,
                    str(power.get("discipline")),
                    power_label(system, power, lang),
                    power.get("level"),
                    known=bool(power.get("power")),
                    discipline_text=labels.trait(str(power.get("discipline")), lang, names),
                    fixed=adds_only,
                )
            )
            index += 1
    for _ in range(NEW_ROWS):
        section.power_rows.append(PowerRow(index))
        index += 1
    section.suggestions = [
        Option(labels.trait(d, lang), labels.trait(d, lang), trait=d)
        for d in sorted(labels.DISCIPLINES.get(system, ()), key=lambda d: labels.trait(d, lang))
    ]
    # a new row's power: the game's powers of the Discipline typed in it (table.js switches the list)
    section.power_lists = [
        (
            discipline,
            [
                Option(labels.power(system, discipline, power_id, lang), str(level))
                for level, power_id, _ in powers.powers_of(system, discipline)
            ],
        )
        for discipline in powers.disciplines_with_powers(system)
    ]


def powers_from_form(
    system: str, form: Mapping[str, Any], lenient: bool, discipline_id: Callable[[str], str] | None = None
) -> list[dict]:
    """The rows ``s.powers.<n>.*`` -> the sheet's ``powers``: a name of the game's list (typed in
    English, French or Spanish) is that power, by id, at its level; another is homebrew, kept as typed
    at the level given (1 if none); a row without a name is dropped. A new row's Discipline is typed
    like a trait; left empty, the power's name finds it when exactly one Discipline of the list has it."""
    out: list[dict] = []
    n = 0
    while f"s.powers.{n}.name" in form:
        prefix = f"s.powers.{n}."
        n += 1
        name = " ".join(str(form.get(prefix + "name") or "").split())
        if not name:
            continue
        typed = str(form.get(prefix + "discipline") or "").strip()
        discipline = (
            (discipline_id or typednames.trait_from_text)(typed) if typed else _discipline_of(system, name)
        )
        if not discipline:
            if lenient:
                continue
            raise RuleError("missing_field", field=f"powers.{n - 1}.discipline")
        power_id = typednames.power_from_text(system, discipline, name)
        if power_id is not None:
            level = powers.known(system)[discipline][power_id][0]
            out.append({"discipline": discipline, "level": level, "power": power_id})
            continue
        level_text = str(form.get(prefix + "level") or "").strip()
        try:
            level = parse_int(f"powers.{n - 1}.level", level_text, True) or 1
        except RuleError:
            if not lenient:
                raise
            level = 1
        out.append({"discipline": discipline, "level": level, "name": name})
    return out


def _discipline_of(system: str, name: str) -> str:
    found = [d for d in powers.disciplines_with_powers(system) if typednames.power_from_text(system, d, name)]
    return found[0] if len(found) == 1 else ""


def with_its_discipline(sheet: Mapping[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """A power's roll from the form: choosing a power sets its Discipline (the sheet lists each power
    under one Discipline), so a form sent without JavaScript never pairs a power with another one's
    Discipline. A power the sheet lists under no Discipline, or under several, is left as posted."""
    held = [
        str(p.get("discipline"))
        for p in sheet.get("powers") or []
        if isinstance(p, dict) and p.get("power") == action.get("power")
    ]
    if len(set(held)) != 1:
        return action
    return {**action, "discipline": held[0]}
