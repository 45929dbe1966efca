"""Every option's help names what it takes (``--port PORT``), never a type tag (``<int>``,
``<bool>``): on every command ``rollbook`` runs, and in ``rollbook serve --help`` as printed."""

from __future__ import annotations

import subprocess
import sys

import typer

from rollbook.cli import _load_commands
from rollbook.cli.base import app, named_metavars


def _options(command, path=()):
    for param in getattr(command, "params", ()):
        if getattr(param, "param_type_name", "") == "option" and not getattr(param, "is_flag", False):
            yield " ".join(path), param
    for name, sub in getattr(command, "commands", {}).items():
        yield from _options(sub, (*path, name))


def test_every_option_that_takes_a_value_names_it():
    _load_commands()
    found = list(_options(named_metavars(typer.main.get_command(app))))
    assert len(found) > 20
    tagged = [
        f"{where} {param.opts[0]}: {param.metavar}"
        for where, param in found
        if param.metavar is None or param.metavar.startswith("<")
    ]
    assert tagged == []


def test_the_printed_help_shows_no_type_tag():
    shown = subprocess.run(
        [sys.executable, "-m", "rollbook", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"},
    )
    assert shown.returncode == 0, shown.stderr
    assert "--port" in shown.stdout and "PORT" in shown.stdout
    assert "<int>" not in shown.stdout and "<bool>" not in shown.stdout and "<str>" not in shown.stdout
