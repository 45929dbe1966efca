"""`rollbook odds v20 contest|extended` and `rollbook odds v5 contest|extended`: exact odds of contested
and extended rolls (SPEC TR-3, TR-4, TR-5), printed as tables or JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from rollbook.cli.base import fail
from rollbook.cli.odds.common import emit, header, percent

WHATS = ("contest", "extended")


def check_what(system: str, what: str | None, given: dict[str, Any]) -> None:
    """`what` is contest or extended, the options given go with it, and there is a --pool to roll."""
    if what is not None and what not in WHATS:
        fail(f"{what!r} is not contest or extended")
    if what != "contest":
        for name in ("against_pool", "against_difficulty", "against_hunger", "against_specialty_rating"):
            if name in given:
                fail(f"--{name.replace('_', '-')} goes with contest")
    if what != "extended":
        for name in ("target", "max_rolls"):
            if name in given:
                fail(f"--{name.replace('_', '-')} goes with extended")
    if what is None:
        fail("--against-pool, --target and --max-rolls go with contest or extended")
    if "pool" not in given:
        fail(f"{system} {what} odds need --pool")


def _table(title: str, column: str, rows: list[tuple[str, str]]) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(column, justify="right")
    table.add_column("Probability", justify="right")
    table.add_column("Exact", justify="right", style="dim")
    for key, text in rows:
        table.add_row(key, percent(Fraction(text)), text)
    return table


def contest(system: str, attacker: Any, defender: Any, as_json: bool) -> None:
    """TR-3, TR-5: who wins, the tie (the defender's), the margin (attacker − defender)."""
    from rollbook.odds.contests import contest_odds

    data = contest_odds(system, attacker, defender)

    def render(console: Console) -> None:
        header(
            console,
            f"{system.upper()} contest: attacker pool {attacker.pool} against defender pool "
            f"{defender.pool} (a tie is the defender's)",
        )
        rows = [
            ("attacker wins", data["outcomes"]["attacker"]),
            ("defender wins", data["outcomes"]["defender"]),
            ("tie", data["tie"]),
        ]
        if "botch" in data:
            rows += [
                ("attacker botches", data["botch"]["attacker"]),
                ("defender botches", data["botch"]["defender"]),
            ]
        console.print(_table("Outcomes", "Outcome", rows))
        console.print(_table("Margin (attacker − defender)", "Margin", list(data["margins"].items())))

    emit(data, as_json, render)


def extended(system: str, request: Any, target: int | None, max_rolls: int | None, as_json: bool) -> None:
    """TR-4, TR-5: the chance to reach the target within k rolls, the expected rolls."""
    from rollbook.odds.contests import extended_odds

    if target is None:
        fail("extended odds need --target")
    data = extended_odds(system, request, target, max_rolls)

    def render(console: Console) -> None:
        most = f", at most {max_rolls} rolls" if max_rolls is not None else ""
        header(
            console, f"{system.upper()} extended action: pool {request.pool}, target {target} successes{most}"
        )
        console.print(_table("Reached within k rolls", "k", list(data["within"].items())))
        if "horizon" in data:  # no maximum: the table stops at the horizon, and says so
            console.print(f"No maximum: the table stops at {data['horizon']} rolls.")
        expected = data["expected_rolls"]
        console.print(
            f"Expected rolls: {float(Fraction(expected)):.3f} ({expected})"
            if expected is not None
            else "Expected rolls: the action may never end"
        )
        if "ever" in data:
            console.print(f"Ever reached: {percent(Fraction(data['ever']))} ({data['ever']})")

    emit(data, as_json, render)
