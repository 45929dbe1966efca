"""`rollbook fair stats EXPORT`: dice statistics from a chronicle's JSON Lines export ("Dice
statistics"): per die size, for the table and each member, how often each face came up, the count
fair dice give, Pearson's chi-square and its p-value, and a plain reading — what the web table's
fair-dice panel shows (``rollbook.fair.stats``, ``rollbook.render.fair_stats``)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from rollbook import settings
from rollbook.cli.base import app, fail, read_text_argument  # noqa: F401 - the command registers on `rollbook fair`
from rollbook.cli.fair import fair_app
from rollbook.fair.stats import tally
from rollbook.i18n import N_, languages_text, normalize, translate
from rollbook.render.fair_stats import rows

HEADERS = (
    N_("Who"),
    N_("Die"),
    N_("Faces (1, 2, …)"),
    N_("Dice"),
    N_("Expected per face"),
    N_("Chi-square"),
    N_("p-value"),
    N_("Reading"),
)
TITLE, NO_DICE = N_("Dice statistics"), N_("No dice in this export.")


def _entries(file: Path) -> list:
    text = read_text_argument(file)
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            fail(f"{file}: line {number} is not JSON (an export is one JSON entry per line)")
    return entries


@fair_app.command("stats")
def stats(
    file: Path = typer.Argument(
        ..., help="A JSON Lines export of a chronicle's log ('-' for standard input)."
    ),
    lang: str | None = typer.Option(
        None, "--lang", help=f"{languages_text()} (default: from the environment's locale)."
    ),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per die size instead of the table."),
) -> None:
    """How often each face came up, per die size, for the table and each member, with the count fair
    dice give and a chi-square test: the numbers behind "the dice hate me". Hidden rolls a player's
    export does not show are not counted."""
    language = normalize(lang) if lang else settings.current().language
    counted = tally(_entries(file))
    found = rows(counted, language)
    if as_json:
        for item in found:
            typer.echo(
                json.dumps(
                    {
                        "who": item.who,
                        "sides": item.sides,
                        "counts": list(item.counts),
                        "total": item.total,
                        "reading": item.code,
                    },
                    ensure_ascii=False,
                )
            )
        return
    table = Table(title=translate(TITLE, language), title_justify="left")
    for header in HEADERS:
        table.add_column(translate(header, language), overflow="fold")
    for item in found:
        table.add_row(
            item.who,
            f"d{item.sides}",
            " ".join(map(str, item.counts)),
            str(item.total),
            item.expected,
            item.chi_square,
            item.p_value,
            item.reading,
        )
    Console().print(table)
    if not found:
        typer.echo(translate(NO_DICE, language), err=True)
