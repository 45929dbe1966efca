"""The Typer app every command module registers on, and the one-line refusal (``fail``) they raise;
``rollbook.cli.main`` runs them (and imports the command modules: they import this module, never the
package). The command of a system registered without one of its own, derived from its action catalogue
(``quick_command``, ``derived_request``)."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, NoReturn

import typer

from rollbook import __version__, settings
from rollbook.i18n import N_, languages_text, normalize

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


KIND_OF_ROLL = N_("Kind of roll")  # ``--kind``'s words: the web form's tabs', Discord's ``kind``


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


def argv_language(argv: list[str]) -> str:
    """The --lang of the command line when given (errors and a command's help speak it too), else the
    environment's."""
    for position, argument in enumerate(argv):
        if argument == "--lang" and position + 1 < len(argv):
            return normalize(argv[position + 1])
        if argument.startswith("--lang="):
            return normalize(argument.split("=", 1)[1])
    return settings.current().language


# The options every command of a registered system has (``quick_command``): a field of its rolls of
# the same name is not one of its options (TR-1's ``table_rules`` is ``--table-rule``'s).
OWN_OPTIONS = frozenset({"kind", "mode", "as_json", "json", "lang", "table_rule", "table_rules"})


def roll_kinds(system_id: str) -> tuple[str, ...]:
    """The kinds of roll ``rollbook roll <id>`` and ``rollbook odds <id>`` make for a system registered
    without a command of its own (its ``--kind``): its quick roll's (``QUICK.KIND``, the default), then
    each roll of its catalogue (``ACTIONS``) that follows none (``CHAINS``) and whose rules request its
    receipt records (``ROLL_RECORDS``), in its ``ACTIONS``' order."""
    from rollbook.play.systems import system_module

    module = system_module(system_id)
    rolled = [
        kind
        for kind in module.ACTIONS
        if not module.CHAINS.get(kind)
        and (recorded := module.ROLL_RECORDS.get(kind)) is not None
        and recorded.request is not None
    ]
    quick = module.QUICK.KIND
    return (quick, *(kind for kind in rolled if kind != quick))


def _quick_names_kind(module: Any) -> bool:
    return "kind" in module.QUICK.FIELDS  # its quick roll makes each kind itself (``QUICK.request``)


def kind_fields(system_id: str, kind: str) -> dict[str, dict[str, Any]]:
    """The values a roll of ``kind`` takes on the command line, each with its JSON schema (its type, its
    bounds, its choices, its title): the quick roll's values (``QUICK.FIELDS``) for the quick roll's kind
    or when the quick roll names the kind, else the fields of the kind's rules request (``ROLL_RECORDS``);
    each typed as the kind's action model declares the field (``ACTIONS``), else as its rules request
    does, else untyped (a text the quick roll reads)."""
    from dataclasses import fields, is_dataclass

    from pydantic import TypeAdapter
    from pydantic.errors import PydanticUserError

    from rollbook.play.systems import system_module

    module = system_module(system_id)
    recorded = module.ROLL_RECORDS.get(kind)
    request = recorded.request if recorded is not None else None
    if request is None or kind == module.QUICK.KIND or _quick_names_kind(module):
        request = request or module.QUICK.REQUEST
        names = [name for name in module.QUICK.FIELDS if name not in OWN_OPTIONS]
    else:
        names = (
            [f.name for f in fields(request) if f.name not in OWN_OPTIONS] if is_dataclass(request) else []
        )
    action = module.ACTIONS.get(kind)
    declared = action.model_json_schema()["properties"] if action is not None else {}
    try:
        requested = TypeAdapter(request).json_schema().get("properties", {})
    except PydanticUserError:  # a request pydantic cannot describe: its values untyped
        requested = {}
    return {name: declared.get(name) or requested.get(name) or {} for name in names}


def _typed_option(name: str, spec: dict[str, Any], lang: str) -> tuple[Any, Any]:
    """A value of a roll as an option, typed as its schema says (an integer within its bounds, a value
    among its choices, a flag), described by the words the web form labels the field with
    (``present.labels.field``) in the reader's language."""
    from rollbook.present import labels

    flag = f"--{name.replace('_', '-')}"
    described = labels.field(name, lang, spec.get("title"))
    if spec.get("enum"):
        return Literal[tuple(spec["enum"])] | None, typer.Option(None, flag, help=described)
    if spec.get("type") == "integer":
        return int | None, typer.Option(
            None, flag, help=described, min=spec.get("minimum"), max=spec.get("maximum")
        )
    if spec.get("type") == "number":
        return float | None, typer.Option(None, flag, help=described)
    if spec.get("type") == "boolean":
        return bool | None, typer.Option(None, flag, help=described)
    return str | None, typer.Option(None, flag, help=described)


def derived_request(system_id: str, values: dict[str, Any]) -> Any:
    """The rules request the options given make (``quick_command``'s ``values``): the kind named
    (``--kind``, the quick roll's by default) with its values, by the quick roll (``QUICK.request``)
    when it makes that kind, else as the kind's rules request (``ROLL_RECORDS``) with the values given
    and its defaults. A value the kind does not take, or one it needs and was not given, is a one-line
    refusal (``fail``)."""
    from dataclasses import MISSING, fields

    from rollbook.play.common import MODES
    from rollbook.play.systems import system_module
    from rollbook.rules.base import check_choice

    module = system_module(system_id)
    kind = values.get("kind") or module.QUICK.KIND
    kinds = roll_kinds(system_id)
    if kind not in kinds:
        fail(f"--kind {kind}: {system_id} rolls {', '.join(kinds)}")
    mode = check_choice("mode", values["mode"], MODES)
    taken = kind_fields(system_id, kind)
    every = {name for each in kinds for name in kind_fields(system_id, each)}
    given = {name: value for name, value in values.items() if name in every and value is not None}
    for name in given:
        if name not in taken:
            fail(f"--{name.replace('_', '-')} does not apply to a {kind} roll of {system_id}")
    if kind == module.QUICK.KIND or _quick_names_kind(module):
        return module.QUICK.request(mode, {**given, "kind": kind} if _quick_names_kind(module) else given)
    request = module.ROLL_RECORDS[kind].request
    assert request is not None  # ``roll_kinds``: a kind whose receipt records its request
    for field in fields(request):
        if field.name == "mode":
            given["mode"] = mode
        elif field.name not in given and field.default is MISSING and field.default_factory is MISSING:
            fail(f"a {kind} roll of {system_id} needs --{field.name.replace('_', '-')}")
    return request(**given)


def quick_command(
    system_id: str,
    run: Callable[[str, dict[str, Any]], None],
    help_text: str,
    *,
    lang: bool = False,
    more: dict[str, tuple[Any, Any]] | None = None,
) -> Any:
    """A command of a system registered without one of its own (``rollbook.play.systems.register``),
    derived from its action catalogue: ``--kind``, which of its rolls (``roll_kinds``: its quick roll's
    by default), when it has more than one; an option per value each of them takes (``kind_fields``),
    typed and described as its action's model says in the reader's language (``--lang``, else the
    environment's); ``--mode``, ``--json``, with ``lang``, ``--lang``, and the options ``more`` names
    (name -> (type, option)); it calls ``run(system_id, values)`` with the values given (``mode``,
    ``as_json``, ``lang`` among them), whose request ``derived_request`` makes."""
    from rollbook.i18n import labelled, translate
    from rollbook.present import labels

    reader = argv_language(sys.argv[1:])
    kinds = roll_kinds(system_id)
    options: dict[str, tuple[Any, Any]] = {}
    if len(kinds) > 1:
        named = ", ".join(f"{kind} ({labels.kind(system_id, kind, reader)})" for kind in kinds)
        options["kind"] = (
            Literal[kinds] | None,  # the system's kinds, known at run time
            typer.Option(
                None,
                "--kind",
                help=labelled(translate(KIND_OF_ROLL, reader), named, reader) + f"; {kinds[0]} by default.",
            ),
        )
    for kind in kinds:
        for field, spec in kind_fields(system_id, kind).items():
            if field not in options and field not in (more or {}):
                options[field] = _typed_option(field, spec, reader)
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
