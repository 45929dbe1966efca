"""The `rollbook odds` group: its sub-commands' shared options, refusals and output helpers."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from rollbook.cli.base import app, derived_request, fail, quick_command
from rollbook.odds import odds_for
from rollbook.odds._exact import Distribution, fraction_text
from rollbook.play.systems import system_ids
from rollbook.rules.table import check_table_rules, declared

CHART_FORMATS = (".svg", ".png")


class OddsGroup(TyperGroup):
    """`rollbook odds SYSTEM`: a system no registry knows is a one-line refusal; one registered without
    a command of its own (``rollbook.play.systems.register``) takes its quick roll's values
    (``cli.base.quick_command``) and answers the odds registered (``rollbook.odds.register``).
    `rollbook odds SYSTEM exchange …` runs the system's exchange command (its package's `cli_exchange.py`,
    registered as `SYSTEM-exchange`, hidden from the list)."""

    def resolve_command(self, ctx, args):
        if len(args) >= 2 and args[1] == "exchange" and f"{args[0]}-exchange" in self.commands:
            _, command, rest = super().resolve_command(ctx, [f"{args[0]}-exchange", *args[2:]])
            return f"{args[0]} exchange", command, rest  # the usage line says `odds v20 exchange`
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            fail(f"unknown system {args[0]!r}; choose one of {', '.join(system_ids())}")
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx):
        listed = list(super().list_commands(ctx))
        return listed + [system for system in system_ids() if system not in listed]

    def get_command(self, ctx, cmd_name):
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in system_ids():
            # TR-1: the odds under the table rules declared for it, when it has some (``rules.table``)
            more: dict[str, tuple[Any, Any]] = {"chart": (Path | None, chart_option())}
            if declared(cmd_name):
                more["table_rule"] = (list[str] | None, table_rule_option(cmd_name))
            return quick_command(cmd_name, _registered_odds, f"The odds of a {cmd_name} roll.", more=more)
        return found


def _registered_odds(system_id: str, values: dict[str, Any]) -> None:
    """The odds registered for a system without a command of its own, of its quick roll's request
    (``--chart``: its outcomes drawn, ``odds.chart.outcomes_chart``)."""
    check_chart(values.get("chart"))
    request = derived_request(system_id, values)
    if table_rules := table_rules_given(system_id, values):  # TR-1: its request carries the set in force
        request = replace(request, table_rules=table_rules)
    data = odds_for(system_id, request)

    def render(console: Console) -> None:
        table = Table(title=f"{system_id}: {data['request']}", title_justify="left")
        table.add_column("Outcome")
        table.add_column("Probability", justify="right")
        table.add_column("Exact", justify="right", style="dim")
        for code, exact in data["outcomes"].items():
            table.add_row(str(code).replace("_", " "), percent(Fraction(exact)), exact)
        console.print(table)

    emit(data, values["as_json"], render)
    if (chart := values.get("chart")) is not None:
        from rollbook.odds.chart import outcomes_chart

        draw(outcomes_chart, chart, data, f"{system_id}: {data['request']}")
        chart_done(chart, values["as_json"])


class OddsCommand(TyperCommand):
    """One system's odds: an option of another system is refused by name ("--hunger does not apply to v20")."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as usage:
            option = getattr(usage, "option_name", None)  # Typer's NoSuchOption names the option
            if type(usage).__name__ == "NoSuchOption" and isinstance(option, str):
                fail(f"{option} does not apply to {(self.name or '').replace('-', ' ')}")
            raise


odds_app = typer.Typer(
    name="odds",
    cls=OddsGroup,
    no_args_is_help=True,
    add_completion=False,
    help="Exact odds of a roll: outcomes, distributions, rerolls, advice and charts. "
    "A whole exchange before the attack: `rollbook odds v20 exchange --help`, "
    "`rollbook odds tiers exchange --help`.",
)
app.add_typer(odds_app, name="odds")


# The options every system takes.
CHART_HELP = "Also draw a chart to FILE.svg or FILE.png (needs matplotlib: the charts extra of rollbook)."
ChartOption = Annotated[Path | None, typer.Option("--chart", help=CHART_HELP)]


def chart_option() -> Any:
    """``--chart FILE`` as a derived command's option (``cli.base.quick_command``): the odds drawn too."""
    return typer.Option(None, "--chart", help=CHART_HELP)


JsonOption = Annotated[
    bool, typer.Option("--json", help="Print the odds as JSON (exact fractions and floats).")
]


def table_rule_option(system: str, what: str = "") -> Any:
    """TR-2: a system's ``--table-rule`` option (repeatable), its help naming every rule declared for
    the system (``rules.table``) and the SPEC rule each replaces."""
    known = ", ".join(f"{rule.id} (replaces {rule.replaces})" for rule in declared(system))
    return typer.Option(
        None,
        "--table-rule",
        help=f"A table rule in force (TR-2){what}, repeatable: {known or 'none declared'}.",
    )


def table_rules_given(system: str, given: dict[str, Any]) -> tuple[str, ...]:
    """TR-1: the canonical set of the ``--table-rule`` options given; an id not declared for ``system``
    is refused (``unknown_table_rule``: exit 2, one line)."""
    return check_table_rules(system, given.get("table_rule") or ())


def given_options(values: dict[str, Any]) -> dict[str, Any]:
    """The options the user gave (neither left at None nor a flag left off), without --chart and --json;
    a --chart that is not .svg or .png is refused first."""
    check_chart(values.get("chart"))
    return {
        name: value
        for name, value in values.items()
        if name not in ("chart", "as_json") and value is not None and value is not False
    }


def check_chart(chart: Path | None) -> None:
    if chart is not None and chart.suffix.lower() not in CHART_FORMATS:
        fail(f"--chart needs a file name ending in .svg or .png, not {chart.name}")


# --- output helpers -------------------------------------------------------------------------------


def percent(p: Fraction) -> str:
    """A percentage with two decimals, rounded half up exactly (no binary floating point)."""
    if p and p < Fraction(1, 10000):
        return "<0.01%"
    hundredths = Fraction(p) * 10000
    rounded = (2 * hundredths.numerator + hundredths.denominator) // (2 * hundredths.denominator)
    return f"{rounded // 100}.{rounded % 100:02d}%"


def emit(data: dict[str, Any], as_json: bool, render) -> None:
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        render(Console())


def outcome_table(
    title: str, outcomes: Distribution, labels: dict[str, str] | None = None, column: str = "Outcome"
) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(column)
    table.add_column("Probability", justify="right")
    table.add_column("Exact", justify="right", style="dim")
    for key, p in outcomes.fractions().items():
        table.add_row((labels or {}).get(key, str(key).replace("_", " ")), percent(p), fraction_text(p))
    return table


def distribution_table(
    title: str,
    column: str,
    dist: Distribution,
    at_least: bool = True,
    tail: tuple[int, Fraction] | None = None,
) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(column, justify="right")
    table.add_column("Exactly", justify="right")
    if at_least:
        table.add_column("At least", justify="right")
    table.add_column("Exact", justify="right", style="dim")
    items = list(dist.nonzero().fractions().items())
    remaining = sum((p for _, p in items), Fraction(0)) + (tail[1] if tail else 0)
    for key, p in items:
        row = [str(key), percent(p)]
        if at_least:
            row.append(percent(remaining))
        row.append(fraction_text(p))
        table.add_row(*row)
        remaining -= p
    if tail and tail[1]:
        row = [f"> {tail[0]}", percent(tail[1])]
        if at_least:
            row.append(percent(tail[1]))
        row.append(fraction_text(tail[1]))
        table.add_row(*row)
    return table


def header(console: Console, text: str) -> None:
    console.print(Text(text, style="bold"))


def ints(text: str, option: str) -> tuple[int, ...]:
    text = text.strip()
    if not text:
        return ()
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        fail(f"{option} takes whole numbers separated by commas, not {text!r}")
    return ()  # unreachable


def draw(drawer, path: Path, *args: Any, **kwargs: Any) -> None:
    """Draw a chart; without matplotlib (the optional ``charts`` extra), or with a file that cannot be
    written, a one-line refusal, not a traceback."""
    try:
        import matplotlib  # noqa: F401 - a third-party extra, not this package's code
    except ImportError:
        fail(
            "--chart needs matplotlib, which rollbook installs only with its charts extra: pip install 'rollbook[charts]'"
        )
    try:
        drawer(path, *args, **kwargs)
    except OSError as problem:
        fail(f"cannot write the chart {path}: {problem.strerror or problem}")


def chart_done(path: Path, as_json: bool) -> None:
    if not as_json:
        Console().print(f"Chart written to {path}")
