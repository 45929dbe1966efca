"""`rollbook odds tiers`: exact odds of a Tiers skill roll, dodge or soak (SPEC T-1 …)."""

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


@odds_app.command("tiers", cls=OddsCommand)
def odds_tiers(
    kind: str | None = typer.Option(None, "--kind", help="skill, dodge or soak."),
    skill: int | None = typer.Option(None, "--skill", help="The skill."),
    bonus: int | None = typer.Option(None, "--bonus", help="Weapon bonus."),
    bullets: int | None = typer.Option(None, "--bullets", help="Bullets fired (multiplies the tier)."),
    attack_tier: int | None = typer.Option(None, "--attack-tier", help="Dodge and soak: the attack's tier."),
    endurance: int | None = typer.Option(None, "--endurance", help="Soak: Endurance."),
    armor: int | None = typer.Option(None, "--armor", help="Soak: armour of the location hit."),
    chart: ChartOption = None,
    as_json: JsonOption = False,
) -> None:
    """Tiers: success and failure, tiers, criticals, damage."""
    given = given_options(locals())
    _tiers(given, chart, as_json)


def _tiers(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.systems.tiers.odds import tiers_odds
    from rollbook.systems.tiers.rules import TiersRequest

    fields = {
        k: given[k]
        for k in ("kind", "skill", "bonus", "bullets", "attack_tier", "endurance", "armor")
        if k in given
    }
    request = TiersRequest(**fields)
    result = tiers_odds(request)
    if chart is not None:
        from rollbook.systems.tiers.odds_chart import tiers_chart

        draw(tiers_chart, chart, request)
        chart_done(chart, as_json)

    def render(console: Console) -> None:
        if request.kind == "soak":
            head = (
                f"soak {request.endurance} Endurance + {request.armor} armour "
                f"against an attack of tier {request.attack_tier}"
            )
        else:
            head = f"{request.kind} roll, skill {request.skill} + bonus {request.bonus}"
            if request.bullets:
                head += f", {request.bullets} bullets"
            if request.kind == "dodge":
                head += f" against an attack of tier {request.attack_tier}"
        header(console, "Tiers odds: " + head)
        labels = (
            {"success": "dodged", "failure": "hit"}
            if request.kind == "dodge"
            else ({"success": "no damage", "failure": "damage"} if request.kind == "soak" else None)
        )
        console.print(outcome_table("Outcomes", result.outcomes, labels))
        console.print(f"Critical (first die a 1): {percent(result.critical)}")
        name = "Soak tier" if request.kind == "soak" else "Tier"
        console.print(distribution_table(name, name, result.tiers, tail=(result.cutoff, result.tail)))
        if result.damage is not None:
            console.print(distribution_table("Damage (wound levels)", "Damage", result.damage))

    emit(result.to_json(), as_json, render)
