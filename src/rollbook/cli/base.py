"""The Typer app every command module registers on, and the one-line refusal (``fail``) they raise;
``rollbook.cli.main`` runs them (and imports the command modules: they import this module, never the
package)."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import typer

from rollbook import __version__
from rollbook.i18n import languages_text

app = typer.Typer(
    name="rollbook",
    help="Dice and rules engine for V20, V5, Tiers and roll-under d20, with checkable receipts.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(asked: bool) -> None:
    if asked:
        print(f"rollbook {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False,
        "--version",
        help="Print rollbook's version and exit.",
        callback=_print_version,
        is_eager=True,
    ),
) -> None:
    """Dice and rules engine for V20, V5, Tiers and roll-under d20, with checkable receipts."""


class UsageFailure(Exception):
    """A one-line refusal the CLI prints before exiting with status 2."""


def fail(message: str) -> NoReturn:
    raise UsageFailure(message)


def read_text_argument(file: Path) -> str:
    """A file argument's text, standard input for ``-``; an unreadable or non-UTF-8 file is one line and
    exit status 2 (``fail``), never a traceback."""
    if str(file) == "-":
        return sys.stdin.read()
    try:
        return file.read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror}")
    except UnicodeDecodeError:
        fail(f"{file} is not UTF-8 text")
    raise AssertionError("fail() exits")


def named_metavars(command: Any) -> Any:
    """Every option of ``command`` and its subcommands that takes a value shows its name as what it
    takes (``--port PORT``), never a type tag (``<int>``, ``<bool>``); a choice keeps its choices."""
    for param in getattr(command, "params", ()):
        if (
            getattr(param, "param_type_name", "") == "option"
            and not getattr(param, "is_flag", False)
            and not getattr(param, "count", False)
            and param.metavar is None
            and not hasattr(param.type, "choices")
            and param.name
        ):
            param.metavar = param.name.upper()
    for sub in getattr(command, "commands", {}).values():
        named_metavars(sub)
    return command


def quick_command(
    system_id: str,
    run: Callable[[str, dict[str, Any]], None],
    help_text: str,
    *,
    lang: bool = False,
    more: dict[str, tuple[Any, Any]] | None = None,
) -> Any:
    """A command of a system registered without one of its own (``rollbook.play.systems.register``):
    an option per value its quick roll takes (``QUICK.FIELDS``, as ``rollbook.play.quick`` reads them),
    ``--mode``, ``--json``, with ``lang``, ``--lang``, and the options ``more`` names (name -> (type,
    option)); it calls ``run(system_id, values)`` with the values given (``mode``, ``as_json``,
    ``lang`` among them)."""
    from rollbook.play.systems import system_module

    fields = system_module(system_id).QUICK.FIELDS
    options: dict[str, tuple[Any, Any]] = {
        field: (
            str | None,
            typer.Option(None, f"--{field.replace('_', '-')}", help=f"The roll's {field.replace('_', ' ')}."),
        )
        for field in fields
    }
    options["mode"] = (str, typer.Option("strict", "--mode", help="strict or casual."))
    options["as_json"] = (bool, typer.Option(False, "--json", help="Print JSON."))
    options.update(more or {})
    if lang:
        options["lang"] = (
            str | None,
            typer.Option(
                None, "--lang", help=f"{languages_text()} (default: from the environment's locale)."
            ),
        )

    def command(**values: Any) -> None:
        run(system_id, values)

    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # Typer reads the options from it
        [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=kind)
            for name, (kind, option) in options.items()
        ]
    )
    command.__annotations__ = {name: kind for name, (kind, _) in options.items()}
    command.__doc__ = help_text
    single = typer.Typer(add_completion=False)
    single.command(system_id)(command)
    return named_metavars(typer.main.get_command(single))
