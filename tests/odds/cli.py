"""``rollbook odds`` run in-process as a user runs it (shared by the odds CLI tests)."""

from __future__ import annotations

import sys

from rollbook.cli import main


def run(monkeypatch, capsys, *args, columns: int = 120):
    monkeypatch.setenv("ROLLBOOK_LANG", "en")
    monkeypatch.setattr(sys, "argv", ["rollbook", "odds", *args])
    monkeypatch.setenv("COLUMNS", str(columns))
    try:
        main()
        code = 0
    except SystemExit as done:
        code = done.code or 0
    out, err = capsys.readouterr()
    return code, out, err
