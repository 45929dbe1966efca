"""`rollbook odds v20`: exact odds of a V20 roll (SPEC V20-1 … V20-15), the source's table, a chart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from rollbook.cli.base import fail
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
    ints,
    odds_app,
    outcome_table,
    table_rule_option,
    table_rules_given,
)
from rollbook.i18n import languages_text
from rollbook.odds._exact import fraction_text


@odds_app.command("v20", cls=OddsCommand)
def odds_v20(
    what: str | None = typer.Argument(None, help="contest or extended (SPEC TR-3, TR-4); omitted: one roll."),
    pool: int | None = typer.Option(None, "--pool", help="Dice, 0–50."),
    difficulty: int | None = typer.Option(None, "--difficulty", help="2–10 (default 6)."),
    required: int | None = typer.Option(None, "--required", help="Successes required (default 1)."),
    mode: str | None = typer.Option(None, "--mode", help="strict or casual."),
    untrained: str | None = typer.Option(None, "--untrained", help="talent, skill or knowledge."),
    knowledge_allowed: bool = typer.Option(
        False, "--knowledge-allowed", help="The Storyteller allows an untrained Knowledge."
    ),
    specialty_rating: int | None = typer.Option(
        None, "--specialty-rating", help="4 or 5; implies a specialty."
    ),
    willpower: bool = typer.Option(False, "--willpower", help="Spend Willpower (one automatic success)."),
    auto_successes: int | None = typer.Option(
        None, "--auto-successes", help="Automatic successes from powers."
    ),
    table_rule: list[str] | None = table_rule_option("v20"),
    source_table: bool = typer.Option(False, "--source-table", help="The source's table (SPEC V20-15)."),
    lang: str | None = typer.Option(
        None,
        "--lang",
        help=f"With --source-table: the difficulties' names in {languages_text()} (default: from the "
        "environment's locale).",
    ),
    against_pool: int | None = typer.Option(None, "--against-pool", help="contest: the defender's dice."),
    against_difficulty: int | None = typer.Option(
        None, "--against-difficulty", help="contest: the defender's difficulty (default 6)."
    ),
    against_specialty_rating: int | None = typer.Option(
        None, "--against-specialty-rating", help="contest: the defender's specialty."
    ),
    target: int | None = typer.Option(None, "--target", help="extended: successes to gather (TR-4)."),
    max_rolls: int | None = typer.Option(None, "--max-rolls", help="extended: the most rolls allowed."),
    chart: ChartOption = None,
    chart_pools: str | None = typer.Option(
        None, "--chart-pools", help="Pools to draw (default 1,2,3,4,5,6,8,10)."
    ),
    as_json: JsonOption = False,
) -> None:
    """V20: success, failure and botch, total successes, degrees of success."""
    given = given_options(locals())
    if what is not None or any(name in given for name in ("against_pool", "target", "max_rolls")):
        return _v20_contests(what, given, as_json)
    _v20(given, chart, as_json)


def _v20_contests(what: str | None, given: dict[str, Any], as_json: bool) -> None:
    """TR-5: a contest (attacker = --pool …, defender = --against-…) or an extended action."""
    from rollbook.cli.odds import contests
    from rollbook.systems.v20.rules import V20Request

    contests.check_what("v20", what, given)
    rules = table_rules_given("v20", given)
    shared = {name: given[name] for name in ("mode",) if name in given}

    def request(pool: int, difficulty: int | None, rating: int | None, **more: Any) -> V20Request:
        return V20Request(
            pool=pool,
            difficulty=difficulty or 6,
            table_rules=rules,
            specialty=rating is not None,
            specialty_rating=rating,
            **shared,
            **more,
        )

    attacker = request(
        given["pool"],
        given.get("difficulty"),
        given.get("specialty_rating"),
        # V20-3, V20-4: the untrained +1 (and an untrained Knowledge's leave) reach the --pool side
        **{
            k: given[k]
            for k in ("required", "willpower", "auto_successes", "untrained", "knowledge_allowed")
            if k in given
        },
    )
    if what == "contest":
        if "against_pool" not in given:
            fail("a contest needs --against-pool (the defender's dice)")
        defender = request(
            given["against_pool"], given.get("against_difficulty"), given.get("against_specialty_rating")
        )
        return contests.contest("v20", attacker, defender, as_json)
    return contests.extended("v20", attacker, given.get("target"), given.get("max_rolls"), as_json)


def _v20(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.systems.v20 import odds as odds20
    from rollbook.systems.v20.rules import V20Request

    if "lang" in given and not given.get("source_table"):
        fail("--lang goes with --source-table")
    if given.get("source_table"):
        from rollbook.cli.roll import language
        from rollbook.systems.v20.render import difficulty_name

        lang = language(given.get("lang"))
        rows = odds20.source_table()
        data = {
            "system": "v20",
            "lang": lang,
            "source_table": [
                {
                    "difficulty": r.difficulty,
                    "name": difficulty_name(r.difficulty, lang),
                    "success": r.success_text,
                    "botch": r.botch_text,
                    "success_range": [fraction_text(r.success_low), fraction_text(r.success_high)],
                    "botch_range": [fraction_text(r.botch_low), fraction_text(r.botch_high)],
                }
                for r in rows
            ],
        }

        def render_source(console: Console) -> None:
            header(
                console, "V20 odds: the source's table (SPEC V20-15): pools of 3–5 dice, one success required"
            )
            table = Table(title_justify="left")
            table.add_column("difficulty", justify="right")
            table.add_column("name")
            table.add_column("success (3–5 dice)", justify="right")
            table.add_column("botch (3–5 dice)", justify="right")
            for r in rows:
                table.add_row(
                    str(r.difficulty), difficulty_name(r.difficulty, lang), r.success_text, r.botch_text
                )
            console.print(table)

        emit(data, as_json, render_source)
        return

    options: dict[str, Any] = {}
    for name in (
        "required",
        "mode",
        "untrained",
        "knowledge_allowed",
        "specialty_rating",
        "willpower",
        "auto_successes",
    ):
        if name in given:
            options[name] = given[name]
    if "specialty_rating" in options:
        options["specialty"] = True  # V20-7: the rating implies a specialty
    if rules := table_rules_given("v20", given):
        options["table_rules"] = rules  # TR-1: the odds under the table rules
    difficulty = given.get("difficulty", 6)
    if chart is not None:
        pools = (
            ints(given["chart_pools"], "--chart-pools")
            if "chart_pools" in given
            else (1, 2, 3, 4, 5, 6, 8, 10)
        )
        for p in pools:
            V20Request(pool=p, difficulty=difficulty, **options)  # refuse bad pools/options before drawing
        from rollbook.systems.v20.odds_chart import v20_chart

        draw(v20_chart, chart, pools=pools, **options)
        if "pool" not in given:
            chart_done(chart, as_json)
            if as_json:
                typer.echo(json.dumps({"system": "v20", "chart": str(chart)}))
            return
    if "pool" not in given:
        fail("v20 odds need --pool (or --source-table, or --chart)")
    result = odds20.v20_odds(V20Request(pool=given["pool"], difficulty=difficulty, **options))
    if chart is not None:
        chart_done(chart, as_json)
    request = result.request

    def render(console: Console) -> None:
        parts = [f"pool {request.pool}", f"difficulty {request.difficulty}"]
        if result.difficulty != request.difficulty:
            parts.append(f"applied {result.difficulty}")
        parts.append(f"{result.required} success{'es' if result.required != 1 else ''} required")
        parts.append(request.mode)
        if request.untrained:
            parts.append(f"untrained {request.untrained}")
        if request.specialty:
            parts.append(f"specialty (rating {request.specialty_rating})")
        if request.willpower:
            parts.append("Willpower")
        if request.auto_successes:
            parts.append(f"{request.auto_successes} automatic")
        if request.table_rules:
            parts.append("table rules " + ", ".join(request.table_rules))
        header(console, "V20 odds: " + ", ".join(parts))
        console.print(outcome_table("Outcomes", result.outcomes))
        console.print(distribution_table("Total successes", "Successes", result.successes))
        console.print(outcome_table("Degrees of success", result.degrees, column="Degree"))

    emit(result.to_json(), as_json, render)
