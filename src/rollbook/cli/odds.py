"""`rollbook odds SYSTEM [options]`: exact odds as Rich tables, JSON (SPEC "The odds contract") or a chart."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from rollbook.cli import app, fail
from rollbook.odds._exact import Distribution, fraction_text

SYSTEMS = ("v20", "v5", "tiers", "rollunder")

# Which options each system takes (by parameter name); any other option given is refused.
OPTIONS: dict[str, set[str]] = {
    "v20": {"pool", "difficulty", "required", "mode", "untrained", "knowledge_allowed", "specialty_rating",
            "willpower", "auto_successes", "source_table", "chart_pools"},
    "v5": {"pool", "hunger", "difficulty", "reroll", "goal", "kind", "mode", "creature", "advise", "normal",
           "blood_potency_reroll", "humanity", "stains"},
    "tiers": {"kind", "skill", "bonus", "bullets", "attack_tier", "endurance", "armor"},
    "rollunder": {"kind", "level", "bonus", "malus", "advantage", "disadvantage", "dice", "threshold", "task"},
}
FLAG_NAMES = {name: "--" + name.replace("_", "-") for names in OPTIONS.values() for name in names}


@app.command()
def odds(
    system: str = typer.Argument(..., help="v20, v5, tiers or rollunder."),
    pool: Optional[int] = typer.Option(None, "--pool", help="v20: dice 0–50; v5: dice 1–30."),
    difficulty: Optional[int] = typer.Option(None, "--difficulty", help="v20: 2–10 (default 6); v5: successes needed (default 1)."),
    required: Optional[int] = typer.Option(None, "--required", help="v20: successes required (default 1)."),
    mode: Optional[str] = typer.Option(None, "--mode", help="strict or casual."),
    untrained: Optional[str] = typer.Option(None, "--untrained", help="v20: talent, skill or knowledge."),
    knowledge_allowed: bool = typer.Option(False, "--knowledge-allowed", help="v20: the Storyteller allows an untrained Knowledge."),
    specialty_rating: Optional[int] = typer.Option(None, "--specialty-rating", help="v20: 4 or 5; implies a specialty."),
    willpower: bool = typer.Option(False, "--willpower", help="v20: spend Willpower (one automatic success)."),
    auto_successes: Optional[int] = typer.Option(None, "--auto-successes", help="v20: automatic successes from powers."),
    source_table: bool = typer.Option(False, "--source-table", help="v20: the source's table (SPEC V20-15)."),
    hunger: Optional[str] = typer.Option(None, "--hunger", help="v5: Hunger 0–5; with --advise, the Hunger dice's faces (e.g. 1,6,4)."),
    reroll: Optional[str] = typer.Option(None, "--reroll", help="v5: none, failures, crits, avoid-messy, risky or optimal."),
    goal: Optional[str] = typer.Option(None, "--goal", help="v5: win, clean or crit (for optimal and --advise; default win)."),
    kind: Optional[str] = typer.Option(None, "--kind", help="v5: test, rouse, remorse, frenzy, willpower; tiers: skill, dodge, soak; rollunder: check, opposed."),
    creature: Optional[str] = typer.Option(None, "--creature", help="v5: vampire, thin_blood, ghoul or mortal."),
    advise: bool = typer.Option(False, "--advise", help="v5: rank every Willpower reroll of the faces on the table."),
    normal: Optional[str] = typer.Option(None, "--normal", help="v5 --advise: the normal dice's faces, e.g. 8,2,10."),
    blood_potency_reroll: bool = typer.Option(False, "--blood-potency-reroll", help="v5 rouse: reroll, keep the better."),
    humanity: Optional[int] = typer.Option(None, "--humanity", help="v5 remorse: Humanity."),
    stains: Optional[int] = typer.Option(None, "--stains", help="v5 remorse: stains."),
    skill: Optional[int] = typer.Option(None, "--skill", help="tiers: the skill."),
    bonus: Optional[int] = typer.Option(None, "--bonus", help="tiers: weapon bonus; rollunder: bonus to the level."),
    bullets: Optional[int] = typer.Option(None, "--bullets", help="tiers: bullets fired (multiplies the tier)."),
    attack_tier: Optional[int] = typer.Option(None, "--attack-tier", help="tiers dodge and soak: the attack's tier."),
    endurance: Optional[int] = typer.Option(None, "--endurance", help="tiers soak: Endurance."),
    armor: Optional[int] = typer.Option(None, "--armor", help="tiers soak: armour of the location hit."),
    level: Optional[int] = typer.Option(None, "--level", help="rollunder check: the level."),
    malus: Optional[int] = typer.Option(None, "--malus", help="rollunder check: malus."),
    advantage: bool = typer.Option(False, "--advantage", help="rollunder check: keep the lower of 2d20."),
    disadvantage: bool = typer.Option(False, "--disadvantage", help="rollunder check: keep the higher of 2d20."),
    dice: Optional[str] = typer.Option(None, "--dice", help="rollunder opposed: dice such as 3d6 or 2d8+1d4."),
    threshold: Optional[int] = typer.Option(None, "--threshold", help="rollunder opposed: total at or under succeeds."),
    task: Optional[str] = typer.Option(None, "--task", help="rollunder: normal, absurd or trivial."),
    chart: Optional[Path] = typer.Option(None, "--chart", help="Also draw a chart to FILE.svg or FILE.png."),
    chart_pools: Optional[str] = typer.Option(None, "--chart-pools", help="v20 chart: pools to draw (default 1,2,3,4,5,6,8,10)."),
    as_json: bool = typer.Option(False, "--json", help="Print the odds as JSON (exact fractions and floats)."),
) -> None:
    """Exact odds of a roll: outcomes, distributions, rerolls, advice and charts."""
    given = {name: value for name, value in locals().items()
             if name in FLAG_NAMES and value is not None and value is not False}
    if system not in SYSTEMS:
        fail(f"unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    for name in given:
        if name not in OPTIONS[system]:
            fail(f"{FLAG_NAMES[name]} does not apply to {system}")
    if chart is not None and chart.suffix.lower() not in (".svg", ".png"):
        fail(f"--chart needs a file name ending in .svg or .png, not {chart.name}")
    handler = {"v20": _v20, "v5": _v5, "tiers": _tiers, "rollunder": _rollunder}[system]
    handler(given, chart, as_json)


# --- output helpers -------------------------------------------------------------------------------


def _percent(p: Fraction) -> str:
    """A percentage with two decimals, rounded half up exactly (no binary floating point)."""
    if p and p < Fraction(1, 10000):
        return "<0.01%"
    hundredths = Fraction(p) * 10000
    rounded = (2 * hundredths.numerator + hundredths.denominator) // (2 * hundredths.denominator)
    return f"{rounded // 100}.{rounded % 100:02d}%"


def _emit(data: dict[str, Any], as_json: bool, render) -> None:
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        render(Console())


def _outcome_table(title: str, outcomes: Distribution, labels: dict[str, str] | None = None,
                   column: str = "Outcome") -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(column)
    table.add_column("Probability", justify="right")
    table.add_column("Exact", justify="right", style="dim")
    for key, p in outcomes.fractions().items():
        table.add_row((labels or {}).get(key, str(key).replace("_", " ")), _percent(p), fraction_text(p))
    return table


def _distribution_table(title: str, column: str, dist: Distribution, at_least: bool = True,
                        tail: tuple[int, Fraction] | None = None) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(column, justify="right")
    table.add_column("Exactly", justify="right")
    if at_least:
        table.add_column("At least", justify="right")
    table.add_column("Exact", justify="right", style="dim")
    items = list(dist.nonzero().fractions().items())
    remaining = sum((p for _, p in items), Fraction(0)) + (tail[1] if tail else 0)
    for key, p in items:
        row = [str(key), _percent(p)]
        if at_least:
            row.append(_percent(remaining))
        row.append(fraction_text(p))
        table.add_row(*row)
        remaining -= p
    if tail and tail[1]:
        row = [f"> {tail[0]}", _percent(tail[1])]
        if at_least:
            row.append(_percent(tail[1]))
        row.append(fraction_text(tail[1]))
        table.add_row(*row)
    return table


def _header(console: Console, text: str) -> None:
    console.print(Text(text, style="bold"))


def _ints(text: str, option: str) -> tuple[int, ...]:
    text = text.strip()
    if not text:
        return ()
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        fail(f"{option} takes whole numbers separated by commas, not {text!r}")
    return ()  # unreachable


def _draw(draw, path: Path, *args: Any, **kwargs: Any) -> None:
    """Draw a chart; a file that cannot be written is a one-line refusal, not a traceback."""
    try:
        draw(path, *args, **kwargs)
    except OSError as problem:
        fail(f"cannot write the chart {path}: {problem.strerror or problem}")


def _chart_done(path: Path, as_json: bool) -> None:
    if not as_json:
        Console().print(f"Chart written to {path}")


# --- v20 ------------------------------------------------------------------------------------------


def _v20(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.odds import v20 as odds20
    from rollbook.rules.v20 import V20Request

    if given.get("source_table"):
        rows = odds20.source_table()
        data = {
            "system": "v20",
            "source_table": [{"difficulty": r.difficulty, "success": r.success_text, "botch": r.botch_text,
                              "success_range": [fraction_text(r.success_low), fraction_text(r.success_high)],
                              "botch_range": [fraction_text(r.botch_low), fraction_text(r.botch_high)]} for r in rows],
        }

        def render(console: Console) -> None:
            _header(console, "V20 odds: the source's table (SPEC V20-15): pools of 3–5 dice, one success required")
            table = Table(title_justify="left")
            table.add_column("difficulty", justify="right")
            table.add_column("success (3–5 dice)", justify="right")
            table.add_column("botch (3–5 dice)", justify="right")
            for r in rows:
                table.add_row(str(r.difficulty), r.success_text, r.botch_text)
            console.print(table)

        _emit(data, as_json, render)
        return

    options: dict[str, Any] = {}
    for name in ("required", "mode", "untrained", "knowledge_allowed", "specialty_rating", "willpower",
                 "auto_successes"):
        if name in given:
            options[name] = given[name]
    if "specialty_rating" in options:
        options["specialty"] = True  # V20-7: the rating implies a specialty
    difficulty = given.get("difficulty", 6)
    if chart is not None:
        pools = _ints(given["chart_pools"], "--chart-pools") if "chart_pools" in given else (1, 2, 3, 4, 5, 6, 8, 10)
        for p in pools:
            V20Request(pool=p, difficulty=difficulty, **options)  # refuse bad pools/options before drawing
        from rollbook.odds.chart import v20_chart

        _draw(v20_chart, chart, pools=pools, **options)
        if "pool" not in given:
            _chart_done(chart, as_json)
            if as_json:
                typer.echo(json.dumps({"system": "v20", "chart": str(chart)}))
            return
    if "pool" not in given:
        fail("v20 odds need --pool (or --source-table, or --chart)")
    result = odds20.v20_odds(V20Request(pool=given["pool"], difficulty=difficulty, **options))
    if chart is not None:
        _chart_done(chart, as_json)
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
        _header(console, "V20 odds: " + ", ".join(parts))
        console.print(_outcome_table("Outcomes", result.outcomes))
        console.print(_distribution_table("Total successes", "Successes", result.successes))
        console.print(_outcome_table("Degrees of success", result.degrees, column="Degree"))

    _emit(result.to_json(), as_json, render)


# --- v5 -------------------------------------------------------------------------------------------


def _v5(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.odds import v5 as odds5
    from rollbook.rules.v5 import V5Request

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
        result = odds5.rouse_odds(hunger_level, given.get("blood_potency_reroll", False),
                                  given.get("creature", "vampire"))

        def render(console: Console) -> None:
            bp = ", Blood Potency reroll (keep the better)" if result.request.blood_potency_reroll else ""
            _header(console, f"V5 odds: Rouse check at Hunger {hunger_level}{bp}")
            console.print(_outcome_table("Outcomes", result.outcomes))
            console.print(_outcome_table("Hunger gained", result.hunger_gain, column="Hunger"))
            if result.hunger_frenzy_risk:
                console.print(f"At Hunger 5 a failed Rouse means feeding or risking hunger frenzy: "
                              f"{_percent(result.hunger_frenzy_risk)}")

        _emit(result.to_json(), as_json, render)
        return
    if "blood_potency_reroll" in given:
        fail("--blood-potency-reroll goes with --kind rouse")

    if kind == "remorse":
        for name in ("pool", "hunger", "reroll"):
            if name in given:
                fail(f"--{name} does not apply to a Remorse roll (its dice come from --humanity and --stains)")
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
        request = V5Request(pool=given["pool"], hunger=hunger_level, difficulty=given.get("difficulty", 1),
                            kind=kind, **options)
        if chart is not None:
            from rollbook.odds.chart import v5_chart

            _draw(v5_chart, chart, request.pool, request.difficulty, reroll=reroll, goal=goal, kind=kind, **options)
        result = odds5.v5_odds(request, reroll, goal)
        if chart is not None:
            _chart_done(chart, as_json)
    request = result.request

    def render(console: Console) -> None:
        parts = [f"pool {request.pool}"]
        if request.kind == "test":
            parts.append(f"Hunger {request.hunger} ({request.hunger_dice} Hunger dice)")
        else:
            parts.append(f"{request.kind} roll, no Hunger dice")
        parts.append(f"difficulty {request.difficulty}")
        if result.reroll != "none":
            parts.append(f"Willpower reroll: {result.reroll}" + (f" for {result.goal}" if result.reroll == "optimal" else ""))
        _header(console, "V5 odds: " + ", ".join(parts))
        console.print(_outcome_table("Outcomes", result.outcomes))
        if result.goal is not None:
            console.print(f"Goal {result.goal}: {_percent(result.goal_probability)} ({fraction_text(result.goal_probability)})")
        if "humanity_loss" in (result.extras or {}):
            console.print(_outcome_table("Humanity lost", result.extras["humanity_loss"], column="Humanity"))
        console.print(_distribution_table("Margin (successes − difficulty)", "Margin", result.margins))

    _emit(result.to_json(), as_json, render)


def _v5_advise(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.odds import v5 as odds5

    for name in ("pool", "reroll", "kind", "humanity", "stains", "blood_potency_reroll", "creature"):
        if name in given:
            fail(f"--{name.replace('_', '-')} does not apply to --advise")
    if chart is not None:
        fail("--chart does not apply to --advise")
    if "normal" not in given:
        fail("--advise needs --normal (the normal dice's faces) and --hunger (the Hunger dice's faces)")
    normal = _ints(given["normal"], "--normal")
    hunger = _ints(given.get("hunger", ""), "--hunger")
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
        "best": best.to_json(),
        "advice": [a.to_json() for a in advice],
    }

    def render(console: Console) -> None:
        _header(console, f"V5 reroll advice: normal {','.join(map(str, normal)) or '–'}, "
                         f"Hunger {','.join(map(str, hunger)) or '–'}, difficulty {difficulty}, goal {goal}")
        table = Table(title="Every distinct Willpower reroll, best first", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("Reroll (faces)")
        table.add_column("Dice (index)")
        table.add_column(f"P({goal})", justify="right")
        table.add_column("Exact", justify="right", style="dim")
        for rank, a in enumerate(advice, 1):
            faces = ", ".join(map(str, a.faces)) if a.faces else "nothing (keep the roll)"
            table.add_row(str(rank), faces, ", ".join(map(str, a.dice)) or "–", _percent(a.probability),
                          fraction_text(a.probability))
        console.print(table)
        console.print(_outcome_table("Outcome after the best choice", best.outcomes))

    _emit(data, as_json, render)


# --- tiers ----------------------------------------------------------------------------------------


def _tiers(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.odds.tiers import tiers_odds
    from rollbook.rules.tiers import TiersRequest

    fields = {k: given[k] for k in ("kind", "skill", "bonus", "bullets", "attack_tier", "endurance", "armor")
              if k in given}
    request = TiersRequest(**fields)
    result = tiers_odds(request)
    if chart is not None:
        from rollbook.odds.chart import tiers_chart

        _draw(tiers_chart, chart, request)
        _chart_done(chart, as_json)

    def render(console: Console) -> None:
        if request.kind == "soak":
            head = (f"soak {request.endurance} Endurance + {request.armor} armour "
                    f"against an attack of tier {request.attack_tier}")
        else:
            head = f"{request.kind} roll, skill {request.skill} + bonus {request.bonus}"
            if request.bullets:
                head += f", {request.bullets} bullets"
            if request.kind == "dodge":
                head += f" against an attack of tier {request.attack_tier}"
        _header(console, "Tiers odds: " + head)
        labels = {"success": "dodged", "failure": "hit"} if request.kind == "dodge" else (
            {"success": "no damage", "failure": "damage"} if request.kind == "soak" else None)
        console.print(_outcome_table("Outcomes", result.outcomes, labels))
        console.print(f"Critical (first die a 1): {_percent(result.critical)}")
        name = "Soak tier" if request.kind == "soak" else "Tier"
        console.print(_distribution_table(name, name, result.tiers, tail=(result.cutoff, result.tail)))
        if result.damage is not None:
            console.print(_distribution_table("Damage (wound levels)", "Damage", result.damage))

    _emit(result.to_json(), as_json, render)


# --- roll-under -----------------------------------------------------------------------------------


def _rollunder(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.odds.rollunder import ODDS_ACTION, rollunder_odds
    from rollbook.rules.rollunder import RollUnderRequest

    kind = given.get("kind", "opposed" if "dice" in given else "check")
    fields = {k: given[k] for k in ("level", "bonus", "malus", "advantage", "disadvantage", "dice", "threshold", "task")
              if k in given}
    request = RollUnderRequest(action=ODDS_ACTION, kind=kind, **fields)
    result = rollunder_odds(request)
    if chart is not None:
        from rollbook.odds.chart import rollunder_chart

        _draw(rollunder_chart, chart, request)
        _chart_done(chart, as_json)

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
        _header(console, "Roll-under odds: " + head)
        console.print(_outcome_table("Outcomes", result.outcomes))
        console.print(f"Success, criticals included: {_percent(result.success)} ({fraction_text(result.success)})")
        if len(result.values):
            name = "Total" if request.kind == "opposed" else "Kept d20"
            console.print(_distribution_table(name, name, result.values))

    _emit(result.to_json(), as_json, render)
