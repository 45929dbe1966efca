"""`rollbook odds v5`: exact odds of a V5 test, Rouse, Remorse or frenzy roll, Willpower rerolls and advice."""

from __future__ import annotations

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
    percent,
)
from rollbook.odds._exact import fraction_text


@odds_app.command("v5", cls=OddsCommand)
def odds_v5(
    what: str | None = typer.Argument(None, help="contest or extended (SPEC TR-3, TR-4); omitted: one roll."),
    pool: int | None = typer.Option(None, "--pool", help="Dice, 1–30."),
    hunger: str | None = typer.Option(
        None, "--hunger", help="Hunger 0–5; with --advise, the Hunger dice's faces (e.g. 1,6,4)."
    ),
    difficulty: int | None = typer.Option(None, "--difficulty", help="Successes needed (default 1)."),
    reroll: str | None = typer.Option(
        None, "--reroll", help="none, failures, crits, avoid-messy, risky or optimal."
    ),
    goal: str | None = typer.Option(
        None, "--goal", help="win, clean or crit (for optimal and --advise; default win)."
    ),
    kind: str | None = typer.Option(None, "--kind", help="test, rouse, remorse, frenzy or willpower."),
    mode: str | None = typer.Option(None, "--mode", help="strict or casual."),
    creature: str | None = typer.Option(None, "--creature", help="vampire, thin_blood, ghoul or mortal."),
    advise: bool = typer.Option(
        False, "--advise", help="Rank every Willpower reroll of the faces on the table."
    ),
    normal: str | None = typer.Option(
        None, "--normal", help="With --advise: the normal dice's faces, e.g. 8,2,10."
    ),
    blood_potency_reroll: bool = typer.Option(
        False, "--blood-potency-reroll", help="Rouse: reroll, keep the better."
    ),
    humanity: int | None = typer.Option(None, "--humanity", help="Remorse: Humanity."),
    stains: int | None = typer.Option(None, "--stains", help="Remorse: stains."),
    against_pool: int | None = typer.Option(None, "--against-pool", help="contest: the defender's dice."),
    against_hunger: int | None = typer.Option(
        None, "--against-hunger", help="contest: the defender's Hunger."
    ),
    target: int | None = typer.Option(None, "--target", help="extended: successes to gather (TR-4)."),
    max_rolls: int | None = typer.Option(None, "--max-rolls", help="extended: the most rolls allowed."),
    chart: ChartOption = None,
    as_json: JsonOption = False,
) -> None:
    """V5: the six outcomes, margins, Willpower rerolls (optimal for a goal), reroll advice; contests
    and extended actions (TR-5)."""
    given = given_options(locals())
    if what is not None or any(name in given for name in ("against_pool", "target", "max_rolls")):
        return _v5_contests(what, given, as_json)
    _v5(given, chart, as_json)


def _v5_contests(what: str | None, given: dict[str, Any], as_json: bool) -> None:
    """TR-5: a contest (attacker = --pool/--hunger, defender = --against-…) or an extended action."""
    from rollbook.cli.odds import contests
    from rollbook.systems.v5.rules import V5Request

    contests.check_what("v5", what, given)
    try:
        hunger = int(given.get("hunger", 0))
    except ValueError:
        fail(f"--hunger takes the Hunger level 0–5, not {given['hunger']!r}")
    attacker = V5Request(pool=given["pool"], hunger=hunger, difficulty=given.get("difficulty", 1))
    if what == "contest":
        for name in ("difficulty", "kind"):  # TR-3: each side a V5 test without difficulty
            if name in given:
                fail(f"--{name} does not go with a V5 contest: each side is a test without difficulty (TR-3)")
        if "against_pool" not in given:
            fail("a contest needs --against-pool (the defender's dice)")
        defender = V5Request(pool=given["against_pool"], hunger=given.get("against_hunger", 0))
        return contests.contest("v5", attacker, defender, as_json)
    return contests.extended("v5", attacker, given.get("target"), given.get("max_rolls"), as_json)


def _v5(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.systems.v5 import odds as odds5
    from rollbook.systems.v5.rules import V5Request

    kind = given.get("kind", "test")
    if given.get("advise"):
        return _v5_advise(given, chart, as_json)
    for name in ("normal",):
        if name in given:
            fail(f"--{name} goes with --advise")
    if "hunger" in given:
        try:
            hunger_level = int(given["hunger"])
        except ValueError:
            fail(f"--hunger takes the Hunger level 0–5 (faces only with --advise), not {given['hunger']!r}")
    else:
        hunger_level = 0
    reroll = given.get("reroll", "none")
    goal = given.get("goal")
    if reroll not in odds5.CHOICES:
        fail(f"--reroll must be one of {', '.join(odds5.CHOICES)}, not {reroll!r}")
    if goal is not None and goal not in odds5.GOALS:
        fail(f"--goal must be one of {', '.join(odds5.GOALS)}, not {goal!r}")
    if reroll == "optimal" and goal is None:
        goal = "win"

    if kind == "rouse":
        for name in ("pool", "difficulty", "reroll", "goal", "humanity", "stains"):
            if name in given:
                fail(f"--{name.replace('_', '-')} does not apply to a Rouse check")
        if chart is not None:
            fail("--chart draws V5 tests (outcomes by Hunger), not Rouse checks")
        rouse = odds5.rouse_odds(
            hunger_level, given.get("blood_potency_reroll", False), given.get("creature", "vampire")
        )

        def render_rouse(console: Console) -> None:
            bp = ", Blood Potency reroll (keep the better)" if rouse.request.blood_potency_reroll else ""
            header(console, f"V5 odds: Rouse check at Hunger {hunger_level}{bp}")
            console.print(outcome_table("Outcomes", rouse.outcomes))
            console.print(outcome_table("Hunger gained", rouse.hunger_gain, column="Hunger"))
            if rouse.hunger_frenzy_risk:
                console.print(
                    f"At Hunger 5 a failed Rouse means feeding or risking hunger frenzy: "
                    f"{percent(rouse.hunger_frenzy_risk)}"
                )

        emit(rouse.to_json(), as_json, render_rouse)
        return
    if "blood_potency_reroll" in given:
        fail("--blood-potency-reroll goes with --kind rouse")

    if kind == "remorse":
        for name in ("pool", "hunger", "reroll"):
            if name in given:
                fail(
                    f"--{name} does not apply to a Remorse roll (its dice come from --humanity and --stains)"
                )
        if "humanity" not in given:
            fail("a Remorse roll needs --humanity (and --stains)")
        result = odds5.remorse_odds(given["humanity"], given.get("stains", 0))
    else:
        for name in ("humanity", "stains"):
            if name in given:
                fail(f"--{name} goes with --kind remorse")
        if "pool" not in given:
            fail("v5 odds need --pool")
        options = {k: given[k] for k in ("mode", "creature") if k in given}
        request = V5Request(
            pool=given["pool"],
            hunger=hunger_level,
            difficulty=given.get("difficulty", 1),
            kind=kind,
            **options,
        )
        if chart is not None:
            from rollbook.systems.v5.odds_chart import v5_chart

            draw(
                v5_chart,
                chart,
                request.pool,
                request.difficulty,
                reroll=reroll,
                goal=goal,
                kind=kind,
                **options,
            )
        result = odds5.v5_odds(request, reroll, goal)
        if chart is not None:
            chart_done(chart, as_json)
    request = result.request

    def render(console: Console) -> None:
        parts = [f"pool {request.pool}"]
        if request.kind == "test":
            parts.append(f"Hunger {request.hunger} ({request.hunger_dice} Hunger dice)")
        else:
            parts.append(f"{request.kind} roll, no Hunger dice")
        parts.append(f"difficulty {request.difficulty}")
        if result.reroll != "none":
            parts.append(
                f"Willpower reroll: {result.reroll}"
                + (f" for {result.goal}" if result.reroll == "optimal" else "")
            )
        header(console, "V5 odds: " + ", ".join(parts))
        console.print(outcome_table("Outcomes", result.outcomes))
        if result.goal is not None and result.goal_probability is not None:  # set together
            console.print(
                f"Goal {result.goal}: {percent(result.goal_probability)} ({fraction_text(result.goal_probability)})"
            )
        extras = result.extras or {}
        if "humanity_loss" in extras:
            console.print(outcome_table("Humanity lost", extras["humanity_loss"], column="Humanity"))
        console.print(distribution_table("Margin (successes − difficulty)", "Margin", result.margins))

    emit(result.to_json(), as_json, render)


def _v5_advise(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.systems.v5 import odds as odds5

    for name in ("pool", "reroll", "kind", "humanity", "stains", "blood_potency_reroll", "creature"):
        if name in given:
            fail(f"--{name.replace('_', '-')} does not apply to --advise")
    if chart is not None:
        fail("--chart does not apply to --advise")
    if "normal" not in given:
        fail("--advise needs --normal (the normal dice's faces) and --hunger (the Hunger dice's faces)")
    normal = ints(given["normal"], "--normal")
    hunger = ints(given.get("hunger", ""), "--hunger")
    difficulty = given.get("difficulty", 1)
    goal = given.get("goal", "win")
    if goal not in odds5.GOALS:
        fail(f"--goal must be one of {', '.join(odds5.GOALS)}, not {goal!r}")
    advice = odds5.advise(normal, hunger, difficulty, goal)
    best = advice[0]
    data = {
        "system": "v5",
        "kind": "advice",
        "request": {"normal": list(normal), "hunger": list(hunger), "difficulty": difficulty, "goal": goal},
        "outcomes": best.outcomes.texts(),
        "floats": best.outcomes.float_texts(),
        # each choice's dice also by number, from 1, as ``roll v5 --reroll`` and the receipts count them
        "best": {**best.to_json(), "numbers": [index + 1 for index in best.dice]},
        "advice": [{**a.to_json(), "numbers": [index + 1 for index in a.dice]} for a in advice],
    }

    def render(console: Console) -> None:
        header(
            console,
            f"V5 reroll advice: normal {','.join(map(str, normal)) or '–'}, "
            f"Hunger {','.join(map(str, hunger)) or '–'}, difficulty {difficulty}, goal {goal}",
        )
        table = Table(title="Every distinct Willpower reroll, best first", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("Reroll (faces)")
        table.add_column("Dice (number)")
        table.add_column(f"P({goal})", justify="right")
        table.add_column("Exact", justify="right", style="dim")
        for rank, a in enumerate(advice, 1):
            faces = ", ".join(map(str, a.faces)) if a.faces else "nothing (keep the roll)"
            table.add_row(
                str(rank),
                faces,
                ", ".join(str(index + 1) for index in a.dice)
                or "–",  # numbered from 1, as --reroll takes them
                percent(a.probability),
                fraction_text(a.probability),
            )
        console.print(table)
        console.print(outcome_table("Outcome after the best choice", best.outcomes))

    emit(data, as_json, render)
