"""`rollbook roll SYSTEM …`: real rolls with the operating system's secure dice, shown as a receipt.

The group and what its commands share; a shipped system's own command is its package's ``cli_roll``
(``rollbook.systems.<id>.cli_roll``, loaded by ``cli.main`` by name), a system without one rolls its
quick roll's values (``cli.base.quick_command``)."""

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
from rollbook.rules import get_system
from rollbook.rules.base import to_plain


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
