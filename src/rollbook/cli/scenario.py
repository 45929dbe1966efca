"""`rollbook scenario check FILE` and `rollbook scenario schema` (SPEC S-1, S-4): a solo scenario
checked before play, every fault with its place; the format's JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from rollbook.cli.base import app, fail
from rollbook.i18n import languages_text

scenario_app = typer.Typer(
    help="Solo scenarios: check a file before play, print the format's JSON Schema.", no_args_is_help=True
)
app.add_typer(scenario_app, name="scenario")

LangOption = typer.Option(None, "--lang", help=f"{languages_text()} (default: the environment's).")


def read_file(file: Path) -> bytes:
    """A scenario file's bytes (one-line refusal when it cannot be read)."""
    from rollbook.solo.load import MAX_BYTES

    try:
        with file.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror}")
    return raw


def language(lang: str | None) -> str:
    from rollbook import settings
    from rollbook.i18n import normalize

    return normalize(lang) if lang else settings.current().language


@scenario_app.command("check")
def check_command(
    file: Path = typer.Argument(..., help="The scenario's YAML file."),
    as_json: bool = typer.Option(False, "--json", help="The faults as JSON (code, path, params, line)."),
    lang: str | None = LangOption,
) -> None:
    """Check a scenario before play (S-4): dangling links, unreachable passages, unknown traits, a
    language missing, a fight with no way out, each with its place. Exit 1 when a fault is found;
    exit 2 (one line) when the file is no scenario at all."""
    from rollbook.solo.check import check_text
    from rollbook.solo.text import clean_line, fault_line

    report = check_text(read_file(file))  # Unreadable is a RuleError: one line, exit 2 (cli.main)
    if as_json:
        typer.echo(json.dumps({"faults": [fault.plain() for fault in report.faults]}, ensure_ascii=False))
    else:
        lines = [fault_line(fault, language(lang)) for fault in report.faults]
        if not lines and report.scenario is not None:
            lines = [clean_line(report.scenario.id, language(lang))]
        typer.echo("\n".join(lines))
    raise typer.Exit(1 if report.faults else 0)


@scenario_app.command("schema")
def schema_command() -> None:
    """The JSON Schema of a scenario (S-1)."""
    from rollbook.solo.format import schema

    typer.echo(json.dumps(schema(), indent=2, ensure_ascii=False))
