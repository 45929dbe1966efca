"""`rollbook odds tiers exchange …`: the exact odds of a whole Tiers exchange before the shot is rolled
(``systems.tiers.odds_exchange``): a Rich table, JSON with ``--json``, a chart with ``--chart`` (the CLI's
room: the hidden command ``tiers-exchange`` that ``cli.odds.common.OddsGroup`` routes to)."""

from __future__ import annotations

from fractions import Fraction
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
from rollbook.cli.odds.exchange import OUTCOME_WORDS
from rollbook.odds._exact import fraction_text


@odds_app.command("tiers-exchange", cls=OddsCommand, hidden=True)
def odds_tiers_exchange(
    skill: int = typer.Option(..., "--skill", help="The shooter's skill (T-1)."),
    bonus: int = typer.Option(0, "--bonus", help="The weapon's bonus (T-7)."),
    bullets: int | None = typer.Option(None, "--bullets", help="Bullets fired (T-3: multiplies the tier)."),
    endurance: int = typer.Option(..., "--endurance", help="The defender's Endurance (T-5)."),
    armor: int = typer.Option(0, "--armor", help="The armour of the body location hit (T-5)."),
    wounds: int = typer.Option(0, "--wounds", help="Wound levels already taken."),
    length: int = typer.Option(6, "--length", help="Wound levels on the track (default 6)."),
    dodge: int | None = typer.Option(None, "--dodge", help="The defender dodges with this skill (T-4)."),
    chart: ChartOption = None,
    as_json: JsonOption = False,
) -> None:
    """Tiers: shot → (dodge) → soak → wounds: every outcome and the wound track after it (T-3 … T-5)."""
    given = given_options(locals())
    _tiers(given, chart, as_json)


def _tiers(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.systems.tiers.odds_exchange import TiersDefender, exchange_odds
    from rollbook.systems.tiers.rules import TiersRequest

    shot = TiersRequest(
        kind="skill", skill=given["skill"], bonus=given.get("bonus", 0), bullets=given.get("bullets")
    )
    defender = TiersDefender(
        endurance=given["endurance"],
        armor=given.get("armor", 0),
        level=given.get("wounds", 0),
        length=given.get("length", 6),
        dodge=given.get("dodge"),
    )
    result = exchange_odds(shot, defender)
    title = (
        f"Tiers exchange: skill {shot.skill} + {shot.bonus}"
        + (f", {shot.bullets} bullets" if shot.bullets else "")
        + f" against Endurance {defender.endurance} + armour {defender.armor}"
        + (f", dodging at {defender.dodge}" if defender.dodge is not None else "")
    )
    if chart is not None:
        from rollbook.systems.tiers.odds_chart import exchange_chart

        draw(exchange_chart, chart, result, title)
        chart_done(chart, as_json)

    def render(console: Console) -> None:
        header(
            console,
            title.replace("Tiers exchange", "Tiers exchange odds")
            + f"; wound track {defender.level}/{defender.length}",
        )
        console.print(outcome_table("The shot", result.outcomes, OUTCOME_WORDS))
        room = max(defender.length - defender.level, 1)
        console.print(
            distribution_table(
                "Damage (wound levels, T-5)", "Damage", result.damage, tail=(room - 1, result.fills)
            )
        )
        console.print(distribution_table("Wound level after the exchange", "Level", result.track))
        full = result.track.probability(defender.length)
        console.print(f"The track full after it: {percent(full)} ({fraction_text(Fraction(full))})")

    emit(result.to_json(), as_json, render)


__all__ = ["odds_tiers_exchange"]
