"""`rollbook resolve`: JSON Lines in, JSON Lines out (SPEC "The resolve contract")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from rollbook import settings
from rollbook.cli.base import app, fail
from rollbook.contract import resolve_lines
from rollbook.i18n import languages_text, normalize


@app.command()
def resolve(
    file: Path | None = typer.Argument(
        None, help="JSON Lines file of requests; standard input when omitted or '-'."
    ),
    lang: str | None = typer.Option(None, "--lang", help=f"Language of error messages: {languages_text()}."),
) -> None:
    """Resolve requests whose faces are given (physical dice, replay, tests). Never draws dice.

    Exit status 1 when any line failed (its error object is printed in its place), else 0.
    """
    language = normalize(lang) if lang else settings.current().language
    if file is None or str(file) == "-":
        source = sys.stdin
    else:
        try:
            source = file.open(encoding="utf-8")
        except OSError as missing:
            fail(f"cannot read {file}: {missing.strerror}")
    failed = False
    out = sys.stdout
    with source:
        for result, ok in resolve_lines(source, language):
            failed |= not ok
            out.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
    out.flush()
    raise typer.Exit(1 if failed else 0)
