"""``rollbook ...`` run in this process as a user runs it (``rollbook.cli.main`` with the command line,
``stdin`` as its standard input, ``env`` over the environment, in English unless told otherwise): the
completed process. A process each cost about a second of start-up; the tests run the command as a real
process where the process itself is the point (tests/cli, the sample scenario's check, the servers)."""

from __future__ import annotations

import io
import subprocess
import sys

from rollbook.cli import main


def run_here(
    monkeypatch, capsys, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    for name, value in {"ROLLBOOK_LANG": "en", **(env or {})}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "argv", ["rollbook", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin or ""))
    capsys.readouterr()  # what came before is not this command's
    try:
        main()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["rollbook", *args], code, out, err)
