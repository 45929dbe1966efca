"""`rollbook roll rollunder …`: a roll-under d20 check or an opposed roll with the secure dice (SPEC R-1 … R-8)."""

from __future__ import annotations

import typer

from rollbook.cli.roll import JsonOption, LangOption, roll_app, secure_roll, show
from rollbook.rules.base import check_choice
from rollbook.systems.rollunder import rules as rollunder


@roll_app.command("rollunder")
def roll_rollunder(
    action: str = typer.Option("", "--action", help="The action, declared before the roll (required, R-5)."),
    kind: str = typer.Option("check", "--kind", help="check or opposed."),
    level: int | None = typer.Option(None, "--level", help="Check: the skill (or attribute) level (R-1)."),
    bonus: int = typer.Option(0, "--bonus", help="Added to the level for this roll (R-4)."),
    malus: int = typer.Option(0, "--malus", help="Subtracted from the level for this roll (R-4)."),
    advantage: bool = typer.Option(False, "--advantage", help="Roll 2d20, keep the lower (R-3)."),
    disadvantage: bool = typer.Option(False, "--disadvantage", help="Roll 2d20, keep the higher (R-3)."),
    task: str = typer.Option("normal", "--task", help="normal, absurd or trivial (R-8: no dice)."),
    dice: str | None = typer.Option(None, "--dice", help="Opposed: the dice, e.g. 3d6 or 2d8+1d4 (R-7)."),
    threshold: int | None = typer.Option(None, "--threshold", help="Opposed: the total not to exceed (R-7)."),
    card: list[str] | None = typer.Option(
        None, "--card", help="A card or ability played before the roll (R-6); repeatable."
    ),
    lang: str | None = LangOption,
    as_json: bool = JsonOption,
) -> None:
    """A roll-under d20: describe the action, then roll at or under the level (R-1 … R-8)."""
    request = rollunder.RollUnderRequest(
        action=action,
        kind=check_choice("kind", kind, rollunder.KINDS),
        level=level,
        bonus=bonus,
        malus=malus,
        advantage=advantage,
        disadvantage=disadvantage,
        task=check_choice("task", task, rollunder.TASKS),
        dice=dice,
        threshold=threshold,
        cards=tuple(card or ()),
    )
    show(secure_roll("rollunder", request)[1], lang, as_json)
