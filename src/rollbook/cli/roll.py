"""`rollbook roll SYSTEM …`: real rolls with the operating system's secure dice, shown as a receipt."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from typer.core import TyperGroup

from rollbook import settings
from rollbook.cli.base import app, derived_request, quick_command
from rollbook.dice import DiceSource, SecureDice
from rollbook.dice import roll as draw_and_resolve
from rollbook.i18n import languages_text, normalize
from rollbook.play.systems import system_ids
from rollbook.render.rich import receipt_panel
from rollbook.rules import get_system, v20
from rollbook.rules.base import check_choice, to_plain


class RollGroup(TyperGroup):
    """`rollbook roll SYSTEM`: a system of the registry (``rollbook.play.systems``) without a command of
    its own rolls its quick roll's values (``cli.base.quick_command``)."""

    def list_commands(self, ctx):
        listed = list(super().list_commands(ctx))
        return listed + [system for system in system_ids() if system not in listed]

    def get_command(self, ctx, cmd_name):
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in system_ids():
            return quick_command(cmd_name, _roll_registered, f"A {cmd_name} roll.", lang=True)
        return found


def _roll_registered(system_id: str, values: dict) -> None:
    show(secure_roll(system_id, derived_request(system_id, values))[1], values["lang"], values["as_json"])


roll_app = typer.Typer(
    cls=RollGroup, help="Roll real dice (secure source) and print the receipt.", no_args_is_help=True
)
app.add_typer(roll_app, name="roll")

LangOption = typer.Option(
    None, "--lang", help=f"{languages_text()} (default: from the environment's locale)."
)
JsonOption = typer.Option(False, "--json", help="Print the raw receipt as JSON.")


def language(lang: str | None) -> str:
    return normalize(lang) if lang else settings.current().language


def secure_roll(
    system_id: str, request: object, source: DiceSource | None = None
) -> tuple[tuple[int, ...], dict]:
    """Draw exactly the dice the request needs from the secure source, resolve, return plain JSON."""
    faces, receipt = draw_and_resolve(get_system(system_id), request, source or SecureDice())
    return faces, to_plain(receipt)


def show(receipt: dict, lang: str | None, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(receipt, ensure_ascii=False))
        return
    Console().print(receipt_panel(receipt, language(lang)))


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
