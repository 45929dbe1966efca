"""`rollbook sheet import FILE` and `rollbook sheet export FILE`: another tool's character
file read into a rollbook sheet, with the report of every field; a rollbook sheet written as a
WoD5e or Foundry WoD20 actor."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

import typer

from rollbook.cli.base import app, fail
from rollbook.i18n import languages_text

sheet_app = typer.Typer(
    help="Character sheets of other tools, in and out (Progeny, WoD5e, the V5 Discord bot, WoD20).",
    no_args_is_help=True,
)
app.add_typer(sheet_app, name="sheet")

MAX_FILE = 5 * 1024 * 1024


def _read(file: Path) -> Any:
    from rollbook.interop import MAX_DEPTH
    from rollbook.rules.base import RuleError
    from rollbook.server.hygiene import json_depth

    try:
        raw = sys.stdin.buffer.read(MAX_FILE + 1) if str(file) == "-" else file.open("rb").read(MAX_FILE + 1)
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror}")
    if len(raw) > MAX_FILE:
        fail(f"{file} is larger than {MAX_FILE // (1024 * 1024)} MiB")
    if json_depth(raw) > MAX_DEPTH:  # before the parser could recurse, as the API and the page
        raise RuleError("import_too_deep", most=MAX_DEPTH)
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        fail(f"{file} is not UTF-8 text")
    except (ValueError, RecursionError):
        raise RuleError("import_not_json") from None


@sheet_app.command("import")
def import_command(
    file: Path = typer.Argument(..., help="The character's JSON file ('-' for standard input)."),
    system: str = typer.Option(..., "--system", help="The game the sheet is for: v5 or v20."),
    format: str | None = typer.Option(
        None, "--format", help="progeny, wod5e, v5bot or wod20 (default: detected)."
    ),
    pick: int | None = typer.Option(
        None,
        "--pick",
        min=0,
        help="A file of several characters (the V5 Discord bot's guild export): which one, from 0.",
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="The sheet and the report as one JSON object (the API's sheet and report); a refusal as a "
        "JSON problem (code, message, params) on standard output, exit status 2.",
    ),
    lang: str | None = typer.Option(None, "--lang", help=f"{languages_text()} (default: the environment's)."),
) -> None:
    """Read another tool's character file into a rollbook sheet and print it with the report: each
    field mapped (to which trait), kept as homebrew (its name as typed), or dropped and why. A file
    with problems prints every problem, each at its place in the file, and exits 2. Names the file
    gives as translation keys (WoD20's clans) are read in ``--lang``'s language."""
    from rollbook import settings
    from rollbook.cli.base import UsageFailure
    from rollbook.i18n import normalize
    from rollbook.interop import SYSTEMS, ImportRefused, import_sheet
    from rollbook.render.interop import problem
    from rollbook.rules.base import RuleError

    language = normalize(lang) if lang else settings.current().language
    try:
        if system not in SYSTEMS:
            fail(f"--system takes {' or '.join(SYSTEMS)}, not {system}")
        data = _read(file)
        imported = import_sheet(data, format=format, system=system, lang=language, pick=pick)
    except ImportRefused as refused:
        if as_json:
            _refuse_as_json(refused, language)
        for found in refused.params["problems"]:  # a problem of the file read, no log entry
            print(f"{found['source']}: {problem(found, language)}", file=sys.stderr)
        raise
    except (RuleError, UsageFailure) as refused:
        if as_json:
            _refuse_as_json(refused, language)
        raise
    if as_json:
        # the API's answer but its "character" and "entry": the CLI writes no chronicle
        answer = {"sheet": imported.sheet, "report": imported.report.plain()}
        typer.echo(json.dumps(answer, ensure_ascii=False, indent=1))
        return
    _show(imported.plain(), language)


def _refuse_as_json(refused: Exception, lang: str) -> NoReturn:
    """A refusal as a JSON problem on standard output (as the API's: ``code``, ``message``,
    ``params``; each problem of a refused file with its sentence), its line on standard error, exit 2."""
    from rollbook.i18n.messages import error_message
    from rollbook.render.interop import problem
    from rollbook.rules.base import RuleError

    if isinstance(refused, RuleError):
        code, params = refused.code, dict(refused.params)
        message = error_message(code, lang, params)
        if isinstance(params.get("problems"), list):
            params["problems"] = [{**entry, "message": problem(entry, lang)} for entry in params["problems"]]
    else:  # the command line itself (an option, an unreadable file): in English, as its line
        code, params, message = "bad_input", {}, str(refused)
    typer.echo(json.dumps({"code": code, "message": message, "params": params}, ensure_ascii=False, indent=1))
    print(f"rollbook: {message}", file=sys.stderr)
    raise typer.Exit(2)


def _show(imported: Mapping[str, Any], lang: str) -> None:
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table

    from rollbook.i18n import translate
    from rollbook.render.interop import FORMAT_NAMES, TITLES, lines

    console = Console()
    report = imported["report"]
    title = translate(
        "Imported from {format}", lang, format=FORMAT_NAMES.get(report["format"], report["format"])
    )
    sheet = Table(show_header=False, expand=True, box=None)
    sheet.add_column(style="bold")
    sheet.add_column()
    for key, value in imported["sheet"].items():
        shown = _compact(value)
        if shown:
            sheet.add_row(key, shown)
    console.print(Panel(sheet, title=title, subtitle=f"{imported['system']} · {report['creature']}"))
    for key, items in lines(report, lang).items():
        if not items:
            continue
        table = Table(title=translate(TITLES[key], lang), show_header=False, expand=True)
        table.add_column(no_wrap=False)
        table.add_column(no_wrap=False)
        for line in items:
            table.add_row(line.source, line.text)
        console.print(table)


def _compact(value: Any) -> str:
    """A sheet's field on one line: ratings above 0, lists joined, powers by id or name."""
    if isinstance(value, dict):
        parts = [f"{k} {_compact(v)}" for k, v in value.items() if v not in (0, None, "", [], {})]
        return ", ".join(parts)
    if isinstance(value, list):
        return ", ".join(
            _compact(item)
            if not isinstance(item, dict)
            else f"{item.get('discipline')} {item.get('level')}: {item.get('power') or item.get('name')}"
            if "discipline" in item
            else _compact(item)
            for item in value
        )
    return "" if value is None else str(value)


@sheet_app.command("export")
def export_command(
    file: Path = typer.Argument(
        ..., help="A rollbook sheet's JSON (as the API answers it; '-' for standard input)."
    ),
    format: str = typer.Option(..., "--format", help="wod5e (a V5 sheet) or wod20 (a V20 sheet)."),
) -> None:
    """Write a rollbook sheet as a WoD5e actor (V5) or a Foundry WoD20 actor (V20), to import in Foundry."""
    from rollbook.interop import EXPORTS, export_sheet

    data = _read(file)
    sheet = data.get("sheet", data) if isinstance(data, dict) else data  # a character as the API answers it
    if not isinstance(sheet, dict) or sheet.get("system") not in EXPORTS.values():
        fail(f"{file} is not a rollbook V5 or V20 sheet")
    typer.echo(json.dumps(export_sheet(sheet["system"], sheet, format), ensure_ascii=False, indent=1))
