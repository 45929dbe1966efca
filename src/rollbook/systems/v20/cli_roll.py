"""`rollbook roll v20 …`: a V20 pool against a difficulty, with the secure dice (the CLI's room:
``rollbook.cli.roll`` holds the group it registers on)."""

from __future__ import annotations

import typer

from rollbook.cli.roll import JsonOption, LangOption, roll_app, secure_roll, show
from rollbook.rules.base import check_choice
from rollbook.systems.v20 import rules as v20


@roll_app.command("v20")
def roll_v20(
    pool: int = typer.Option(..., "--pool", help="Dice in the pool (Attribute + Ability + modifiers)."),
    difficulty: int = typer.Option(v20.DEFAULT_DIFFICULTY, "--difficulty", help="2–10 (V20-2)."),
    required: int = typer.Option(1, "--required", help="Successes required (V20-2)."),
    mode: str = typer.Option("strict", "--mode", help="strict or casual (V20-5)."),
    untrained: str | None = typer.Option(None, "--untrained", help="talent, skill or knowledge (V20-3)."),
    knowledge_allowed: bool = typer.Option(
        False, "--knowledge-allowed", help="The Storyteller allows an untrained Knowledge."
    ),
    specialty_rating: int | None = typer.Option(
        None, "--specialty-rating", help="Rating of the trait; implies a specialty (V20-7)."
    ),
    willpower: bool = typer.Option(
        False, "--willpower", help="Spend Willpower: one automatic success (V20-9)."
    ),
    willpower_roll: bool = typer.Option(
        False, "--willpower-roll", help="This roll is itself a Willpower roll."
    ),
    auto_successes: int = typer.Option(0, "--auto-successes", help="Automatic successes from powers."),
    lang: str | None = LangOption,
    as_json: bool = JsonOption,
) -> None:
    """A V20 pool against a difficulty."""
    request = v20.V20Request(
        pool=pool,
        difficulty=difficulty,
        required=required,
        mode=check_choice("mode", mode, v20.MODES),
        untrained=None if untrained is None else check_choice("untrained", untrained, v20.UNTRAINED),
        knowledge_allowed=knowledge_allowed,
        specialty=specialty_rating is not None,
        specialty_rating=specialty_rating,
        willpower=willpower,
        willpower_roll=willpower_roll,
        auto_successes=auto_successes,
    )
    show(secure_roll("v20", request)[1], lang, as_json)
