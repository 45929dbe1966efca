"""`rollbook odds rollunder`: exact odds of a roll-under d20 check or an opposed roll (SPEC R-1 …)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from rollbook.cli.odds.common import (
    ChartOption,
    JsonOption,
    OddsCommand,
    chart_done,
    distribution_table,
    draw,
    emit,
    given_options,
    header,
    odds_app,
    outcome_table,
    percent,
)
from rollbook.odds._exact import fraction_text


@odds_app.command("rollunder", cls=OddsCommand)
def odds_rollunder(
    kind: str | None = typer.Option(None, "--kind", help="check or opposed (opposed when --dice is given)."),
    level: int | None = typer.Option(None, "--level", help="Check: the level."),
    bonus: int | None = typer.Option(None, "--bonus", help="Check: bonus to the level."),
    malus: int | None = typer.Option(None, "--malus", help="Check: malus."),
    advantage: bool = typer.Option(False, "--advantage", help="Check: keep the lower of 2d20."),
    disadvantage: bool = typer.Option(False, "--disadvantage", help="Check: keep the higher of 2d20."),
    dice: str | None = typer.Option(None, "--dice", help="Opposed: dice such as 3d6 or 2d8+1d4."),
    threshold: int | None = typer.Option(None, "--threshold", help="Opposed: total at or under succeeds."),
    task: str | None = typer.Option(None, "--task", help="normal, absurd or trivial."),
    chart: ChartOption = None,
    as_json: JsonOption = False,
) -> None:
    """Roll-under d20: the four outcomes and the kept d20 or the total."""
    given = given_options(locals())
    _rollunder(given, chart, as_json)


def _rollunder(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.systems.rollunder.odds import ODDS_ACTION, rollunder_odds
    from rollbook.systems.rollunder.rules import RollUnderRequest

    kind = given.get("kind", "opposed" if "dice" in given else "check")
    fields = {
        k: given[k]
        for k in ("level", "bonus", "malus", "advantage", "disadvantage", "dice", "threshold", "task")
        if k in given
    }
    request = RollUnderRequest(action=ODDS_ACTION, kind=kind, **fields)
    result = rollunder_odds(request)
    if chart is not None:
        from rollbook.systems.rollunder.odds_chart import rollunder_chart

        draw(rollunder_chart, chart, request)
        chart_done(chart, as_json)

    def render(console: Console) -> None:
        if request.kind == "opposed":
            head = f"opposed roll {request.dice}, at or under {request.threshold}"
        else:
            head = f"check at level {request.level}"
            if request.bonus or request.malus:
                head += f" (+{request.bonus} −{request.malus}: target {request.target})"
            if request.keep != "single":
                head += ", advantage" if request.keep == "lower" else ", disadvantage"
            elif request.advantage:
                head += ", advantage and disadvantage cancel"
        if request.task != "normal":
            head += f", {request.task} task (no dice)"
        header(console, "Roll-under odds: " + head)
        console.print(outcome_table("Outcomes", result.outcomes))
        console.print(
            f"Success, criticals included: {percent(result.success)} ({fraction_text(result.success)})"
        )
        if len(result.values):
            name = "Total" if request.kind == "opposed" else "Kept d20"
            console.print(distribution_table(name, name, result.values))

    emit(result.to_json(), as_json, render)
