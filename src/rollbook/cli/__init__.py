"""The `rollbook` command line (Typer + Rich). Each area adds its commands in its own module, on the
``app`` of ``cli.base`` (which they import, not this package: ``main`` imports them)."""

from __future__ import annotations

import sys

import typer

from rollbook import settings
from rollbook.cli.base import UsageFailure, app, argv_language, fail, named_metavars
from rollbook.i18n.messages import error_message
from rollbook.play.systems import SYSTEM_IDS, own_module
from rollbook.rules.base import RuleError

__all__ = ["UsageFailure", "app", "fail", "main"]


def _load_commands() -> None:
    """Import the command modules: each registers its commands on `app` (``cli.base``); a shipped
    system's own, its package's ``cli_roll`` (``rollbook.systems.<id>``), found by its name."""
    # in the order `rollbook --help` lists them
    from rollbook.cli import roll  # noqa: F401

    for system in SYSTEM_IDS:
        own_module(system, "cli_roll")
    from rollbook.cli import resolve, odds, serve, db, log, fair  # noqa: F401, I001
    from rollbook.cli import sheet  # noqa: F401
    from rollbook.cli import scenario, solo  # noqa: F401
    from rollbook.cli import fair_stats  # noqa: F401
    from rollbook.cli import discord  # noqa: F401


def failure_line(error: BaseException) -> str:
    """One line naming what failed and what to do, for an error no command turned into a refusal."""
    from rollbook.server.failures import classify, first_line
    from rollbook.server.seal import SecretKeyError

    if isinstance(error, SecretKeyError):
        return str(error)
    if isinstance(error, PermissionError):
        return f"permission denied: {error.filename or error}: run as a user who may read and write it"
    if isinstance(error, OSError) and not hasattr(error, "orig"):
        return f"{first_line(error)}: check the path and the disk"
    _status, code = classify(error)
    if code == "storage_full":
        return f"the disk is full ({first_line(error)}): free some space and try again"
    if code == "database_unavailable":
        return (
            f"the database cannot be reached ({first_line(error)}): check that it runs and that "
            "--database-url or ROLLBOOK_DATABASE_URL names it"
        )
    return f"unexpected error: {first_line(error)} (run again with --debug for the traceback)"


def main() -> None:
    """Entry point: bad input is one line on stderr and exit status 2, never a traceback; any other
    failure is one line and exit status 1 (its traceback with ``--debug``, anywhere on the line).
    The systems installed beside rollbook are registered first (``rollbook.plugins``)."""
    from rollbook import plugins

    plugins.load()
    _load_commands()
    debug = "--debug" in sys.argv[1:]
    if debug:
        sys.argv[1:] = [argument for argument in sys.argv[1:] if argument != "--debug"]
    try:
        settings.install(settings.load())  # read once: a setting that does not parse stops here
        result = named_metavars(typer.main.get_command(app))(standalone_mode=False)
        if isinstance(result, int) and not isinstance(result, bool):
            sys.exit(result)
    except RuleError as refused:
        print(
            f"rollbook: {error_message(refused.code, argv_language(sys.argv[1:]), refused.params)}",
            file=sys.stderr,
        )
        sys.exit(2)
    except (UsageFailure, settings.SettingsError) as failure:
        print(f"rollbook: {failure}", file=sys.stderr)
        sys.exit(2)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except typer.Abort:
        print("rollbook: aborted", file=sys.stderr)
        sys.exit(130)
    except typer.TyperException as usage:  # Typer's own usage errors (it no longer rides on click)
        if type(usage).__name__ == "NoArgsIsHelpError":  # its message is the help text
            typer.echo(usage.format_message(), err=True)
            sys.exit(0)
        message = usage.format_message()
        print(f"rollbook: {message}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:
        if debug:
            raise
        print(f"rollbook: {failure_line(error)}", file=sys.stderr)
        sys.exit(1)
