"""`rollbook odds v20 exchange …`: the exact odds of a whole V20 exchange before the attack is rolled
(``systems.v20.odds_exchange``): a Rich table, JSON with ``--json``, a chart with ``--chart`` (the CLI's
room: the hidden command ``v20-exchange`` that ``cli.odds.common.OddsGroup`` routes to)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console

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
    table_rule_option,
    table_rules_given,
)
from rollbook.cli.odds.exchange import OUTCOME_WORDS
from rollbook.odds._exact import fraction_text


@odds_app.command("v20-exchange", cls=OddsCommand, hidden=True)
def odds_v20_exchange(
    pool: int = typer.Option(..., "--pool", help="The attack's pool (V20-1)."),
    difficulty: int | None = typer.Option(None, "--difficulty", help="The attack's difficulty (default 6)."),
    required: int | None = typer.Option(None, "--required", help="Successes required (default 1)."),
    mode: str | None = typer.Option(None, "--mode", help="strict or casual."),
    specialty_rating: int | None = typer.Option(
        None, "--specialty-rating", help="4 or more; implies a specialty."
    ),
    willpower: bool = typer.Option(False, "--willpower", help="The attacker spends Willpower (V20-9)."),
    table_rule: list[str] | None = table_rule_option("v20", " for the attack and the dodge"),
    weapon_damage: int = typer.Option(
        0, "--weapon-damage", help="Hand-to-hand: the bonus added to Strength; firearm: its rating (V20-17)."
    ),
    strength: int = typer.Option(0, "--strength", help="The attacker's Strength (hand-to-hand)."),
    potence: int = typer.Option(
        0, "--potence", help="The attacker's Potence: automatic damage successes (Brawl, Melee; V20-21)."
    ),
    damage_type: str = typer.Option("lethal", "--damage-type", help="bashing, lethal or aggravated."),
    firearm: bool = typer.Option(False, "--firearm", help="A firearm: its rating is the whole base pool."),
    aimed_at_head: bool = typer.Option(
        False, "--aimed-at-head", help="A bullet aimed at the head (lethal to a vampire)."
    ),
    stamina: int = typer.Option(..., "--stamina", help="The defender's Stamina."),
    fortitude: int = typer.Option(0, "--fortitude", help="The defender's Fortitude."),
    mortal: bool = typer.Option(False, "--mortal", help="The defender is a mortal (soaks bashing only)."),
    armour: list[str] | None = typer.Option(
        None, "--armour", help="Armour dice against a type: lethal=2 (repeatable)."
    ),
    health: str | None = typer.Option(
        None, "--health", help="Levels already marked: bashing,lethal,aggravated."
    ),
    dodge_pool: int | None = typer.Option(
        None, "--dodge-pool", help="The defender dodges with this pool (Book)."
    ),
    dodge_difficulty: int | None = typer.Option(
        None, "--dodge-difficulty", help="The dodge's difficulty (default 6)."
    ),
    chart: ChartOption = None,
    as_json: JsonOption = False,
) -> None:
    """V20: attack → (dodge) → damage → soak → health track: every outcome, the levels marked, the
    wound level after it (V20-16, V20-17)."""
    given = given_options(locals())
    _v20(given, chart, as_json)


def _armour(values: list[str]) -> dict[str, int]:
    out = {}
    for value in values:
        name, _, dice = value.partition("=")
        if not dice.strip().isdigit():
            fail(f"--armour takes TYPE=DICE (lethal=2), not {value!r}")
        out[name.strip()] = int(dice)
    return out


def _v20(given: dict[str, Any], chart: Path | None, as_json: bool) -> None:
    from rollbook.systems.v20.odds_exchange import Defender, Weapon, exchange_odds
    from rollbook.systems.v20.rules import V20Request

    options: dict[str, Any] = {
        name: given[name] for name in ("difficulty", "required", "mode", "willpower") if name in given
    }
    if "specialty_rating" in given:
        options.update(specialty=True, specialty_rating=given["specialty_rating"])
    if rules := table_rules_given("v20", given):
        options["table_rules"] = rules
    attack = V20Request(pool=given["pool"], **options)
    weapon = Weapon(
        given.get("weapon_damage", 0),
        given.get("damage_type", "lethal"),
        firearm=given.get("firearm", False),
        strength=given.get("strength", 0),
        aimed_at_head=given.get("aimed_at_head", False),
        potence=given.get("potence", 0),
    )
    if weapon.potence and weapon.firearm:
        fail("--potence adds to a Brawl or Melee attack's damage, not a firearm's (V20-21)")
    track = ints(given.get("health", ""), "--health") or (0, 0, 0)
    if len(track) != 3:
        fail("--health takes three numbers: bashing,lethal,aggravated")
    dodge = None
    if "dodge_pool" in given:
        dodge = V20Request(
            pool=given["dodge_pool"],
            difficulty=given.get("dodge_difficulty", 6),
            mode=options.get("mode", "strict"),  # V20-20: a dodge halves in Casual like any test (V20-5)
            table_rules=options.get("table_rules", ()),
        )
    elif "dodge_difficulty" in given:
        fail("--dodge-difficulty needs --dodge-pool")
    defender = Defender(
        stamina=given["stamina"],
        fortitude=given.get("fortitude", 0),
        vampire=not given.get("mortal"),
        armour=_armour(given.get("armour") or []),
        health=track,
        dodge=dodge,
    )
    result = exchange_odds(attack, weapon, defender)
    if chart is not None:
        from rollbook.systems.v20.odds_chart import exchange_chart

        draw(
            exchange_chart,
            chart,
            result,
            f"V20 exchange: {attack.pool} dice against {defender_words(result)}",
        )
        chart_done(chart, as_json)

    def render(console: Console) -> None:
        header(
            console,
            f"V20 exchange odds: {attack.pool} dice at difficulty {attack.difficulty}"
            + (", Willpower" if attack.willpower else "")
            + f"; {weapon_words(weapon)}; "
            + defender_words(result),
        )
        console.print(outcome_table("The attack", result.outcomes, OUTCOME_WORDS))
        console.print(
            distribution_table(f"Health levels marked ({result.damage_type})", "Levels", result.levels)
        )
        console.print(
            outcome_table("The defender after the exchange", result.wounds.nonzero(), column="Wound level")
        )
        console.print(
            f"Out of the fight (incapacitated or worse): {percent(result.down)} "
            f"({fraction_text(result.down)}); levels expected: {float(result.expected_levels):.2f}"
        )

    emit(result.to_json(), as_json, render)


def weapon_words(weapon) -> str:
    if weapon.firearm:
        return f"firearm {weapon.damage} ({weapon.damage_type})"
    potence = f", Potence {weapon.potence}" if weapon.potence else ""
    return f"Strength {weapon.strength} + {weapon.damage} ({weapon.damage_type}){potence}"


def defender_words(result) -> str:
    defender = result.defender
    kind = "a vampire" if defender.vampire else "a mortal"
    words = f"{kind} soaking {result.soak_pool} dice against {result.damage_type}"
    if any(defender.health):
        words += f", {sum(defender.health)} levels already marked"
    if defender.dodge is not None:
        words += f", dodging with {defender.dodge.pool} dice"
    return words


__all__ = ["odds_v20_exchange"]
