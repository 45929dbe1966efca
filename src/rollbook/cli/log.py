"""`rollbook log verify FILE` and `rollbook log export CHRONICLE`: the hash-chained receipt log."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from rollbook.cli.base import app, fail

log_app = typer.Typer(help="The chronicle server's receipt log (JSON Lines exports).", no_args_is_help=True)
app.add_typer(log_app, name="log")


@log_app.command("verify")
def verify(
    file: Path = typer.Argument(
        ..., help="A JSON Lines export of a chronicle's log ('-' for standard input)."
    ),
    head: str | None = typer.Option(
        None,
        "--head",
        help="SEQ:ENTRY_HASH, a log_head you noted: the log must hold that entry (a cut tail, or a "
        "rewrite at or before it with the chain recomputed, is caught only this way).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line on standard error."),
) -> None:
    """Check the hash chain, recompute every receipt from its request and faces, check that every
    roll made under a grant used exactly what the Storyteller granted (SPEC A-2), and recompute every
    face of the fair dice under the revealed seeds (F-1 … F-6: rolls under a seed not revealed yet are
    counted as pending, not verified).

    Exit 0 when clean; 1 with one line per problem on standard output (e.g. "entry 3: hash mismatch").
    """
    from rollbook.fair import MISMATCH, PENDING, VERIFIED, check_log, describe
    from rollbook.i18n import counted
    from rollbook.play import verify_receipt
    from rollbook.server.baselines import verify_ledger
    from rollbook.server.chain import read_jsonl, verify_entries

    if str(file) == "-":
        lines = sys.stdin.read().splitlines()
    else:
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            fail(f"cannot read {file}: {error.strerror}")
        except UnicodeDecodeError:
            fail(f"{file} is not UTF-8 text")
    entries = list(read_jsonl(lines))
    problems, counts = verify_entries(entries, verify_receipt, verify_ledger())
    fair = check_log(entry for _, entry in entries)  # F-1 … F-6: every face under the revealed seeds
    problems.extend(describe(problem) for problem in fair.problems)
    if head is not None:
        problems.extend(_head_problems(entries, head))
    for problem in problems:
        typer.echo(problem)
    if not quiet:
        hidden = (
            f", {counted(counts['redacted'], 'hidden entry', 'hidden entries')} not readable"
            if counts["redacted"]
            else ""
        )
        if counts.get("legacy"):
            hidden += (
                f", {counted(counts['legacy'], 'entry', 'entries')} from before 0003_security (their character, refers_to and "
                "effects not covered by the hash)"
            )
        verdict = "clean" if not problems else counted(len(problems), "problem", "problems")
        tally = fair.counts()
        mismatched = f", {tally[MISMATCH]} mismatched" if tally[MISMATCH] else ""
        dice = (
            f", fair dice: {tally[VERIFIED]} verified, {tally[PENDING]} pending (seed not revealed yet){mismatched}"
            if tally[VERIFIED] or tally[PENDING] or tally[MISMATCH]
            else ""
        )
        typer.echo(
            f"rollbook: {counted(counts['entries'], 'entry', 'entries')}, "
            f"{counted(counts['receipts'], 'receipt', 'receipts')} recomputed{dice}{hidden}: "
            f"{verdict}",
            err=True,
        )
    raise typer.Exit(1 if problems else 0)


def _head_problems(entries: list, head: str) -> list[str]:
    """A head a member noted (``log_head``: SEQ:ENTRY_HASH), the only anchor from outside the file: the
    log holds entry SEQ with that hash (it may have grown since), else its tail was cut or it was
    rewritten at or before SEQ, even with its whole chain recomputed."""
    seq_text, _, digest = head.partition(":")
    if not seq_text.isdigit() or not digest:
        fail("--head takes SEQ:ENTRY_HASH")
    readable = [e for _, e in entries if isinstance(e, dict)]
    noted = next((e for e in readable if e.get("seq") == int(seq_text)), None)
    if noted is None or noted is readable[-1] and noted.get("entry_hash") != digest:
        return [f"entry {seq_text}: the log does not end with the expected head"]
    if noted.get("entry_hash") != digest:
        return [
            f"entry {seq_text}: not the entry noted as the head {seq_text}:{digest[:12]}…: the log was rewritten "
            "at or before it"
        ]
    return []


@log_app.command("export")
def export(
    chronicle: int = typer.Argument(..., help="The chronicle id."),
    database_url: str | None = typer.Option(
        None,
        "--database-url",
        help="SQLAlchemy URL; default $ROLLBOOK_DATABASE_URL, else sqlite:///./rollbook.sqlite3.",
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="File to write (default: standard output)."
    ),
) -> None:
    """Export a chronicle's whole log (hidden entries included) straight from the database, as JSON Lines.

    Players export through the server instead (GET /api/chronicles/{id}/log/export)."""
    from rollbook.server.access import STORYTELLER
    from rollbook.server.copy import CopyError, open_store
    from rollbook.server.engines import database_url as resolve_url
    from rollbook.server.models import Chronicle, Member
    from rollbook.server.usecases.log import export_lines

    try:  # a read: a mistyped SQLite path is refused, not created
        database = open_store(resolve_url(database_url), must_exist=True, migrate=False)
    except CopyError as error:
        fail(str(error))
    try:
        with database.read() as session:
            if session.get(Chronicle, chronicle) is None:
                fail(f"no chronicle {chronicle} in this database")
            reader = Member(id=0, chronicle_id=chronicle, name="", role=STORYTELLER, created_at="")
            text = "".join(export_lines(session, reader))
    finally:
        database.dispose()
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
