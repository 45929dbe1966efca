"""Dice statistics in words: ``rollbook.fair.stats`` read for people,
shared by the fair-dice panel of the web table and ``rollbook fair stats``: per die size the counts
of each face, the count fair dice give, Pearson's chi-square and its p-value, and a plain reading
in the reader's language."""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_decimal

from rollbook.fair.stats import (
    FAIR,
    MIN_EXPECTED,
    TOO_FEW,
    UNUSUAL_READING,
    VERY_UNUSUAL_READING,
    FaceStats,
    Tally,
)
from rollbook.i18n import N_, percent_text, translate

READINGS = {
    TOO_FEW: N_("Too few dice to tell: the test says something from about {need} d{sides} on."),
    FAIR: N_("Nothing unusual: fair dice give counts at least this uneven {p} of the time."),
    UNUSUAL_READING: N_(
        "Unusual, not proof: fair dice give counts this uneven only {p} of the time. Keep counting."
    ),
    VERY_UNUSUAL_READING: N_(
        "Very unusual: fair dice give counts this uneven only {p} of the time. "
        "Check the rolls with rollbook fair verify."
    ),
}
TABLE = N_("Whole table")


def percent(p: float, lang: str) -> str:
    """A probability as a percentage in the reader's number format (one more digit below 1 %)."""
    return percent_text(p, lang)


def number(value: float, lang: str, digits: int = 1) -> str:
    return format_decimal(round(value, digits), format="#,##0." + "0" * digits, locale=lang)


def reading(stats: FaceStats, lang: str) -> str:
    p = percent(stats.p_value, lang) if stats.p_value is not None else ""
    return translate(READINGS[stats.reading], lang, p=p, need=MIN_EXPECTED * stats.sides, sides=stats.sides)


@dataclass(frozen=True)
class StatsRow:
    """One die size for a reader: counts in face order, and the numbers and reading in their language."""

    who: str
    sides: int
    counts: tuple[int, ...]
    total: int
    expected: str
    chi_square: str
    p_value: str  # "—" when too few dice to test
    reading: str
    code: str


def row(who: str, stats: FaceStats, lang: str) -> StatsRow:
    return StatsRow(
        who,
        stats.sides,
        stats.counts,
        stats.total,
        number(stats.expected, lang),
        number(stats.chi_square, lang, 2),
        percent(stats.p_value, lang) if stats.p_value is not None else "—",
        reading(stats, lang),
        stats.reading,
    )


def rows(tally: Tally, lang: str) -> list[StatsRow]:
    """The table's rows, then each member's (by name), each die size in order."""
    out = [row(translate(TABLE, lang), stats, lang) for stats in tally.by_size()]
    for member in sorted(tally.members, key=lambda m: (tally.names.get(m, ""), m)):
        name = tally.names.get(member) or f"#{member}"
        out.extend(row(name, stats, lang) for stats in tally.of_member(member))
    return out
