"""``rollbook ...`` run in this process as a user runs it (``rollbook.cli.main`` with the command line,
in English unless ``--lang`` says otherwise): the completed process. A process each cost about a second
of start-up; the solo tests run the command as a real process where the process is the point."""

from __future__ import annotations

import subprocess
import sys

from rollbook.cli import main


def run_here(monkeypatch, capsys, *args: str) -> subprocess.CompletedProcess:
    monkeypatch.setenv("ROLLBOOK_LANG", "en")
    monkeypatch.setattr(sys, "argv", ["rollbook", *args])
    capsys.readouterr()  # what came before is not this command's
    try:
        main()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["rollbook", *args], code, out, err)
