"""``rollbook odds`` run in-process as a user runs it (shared by the odds CLI tests), through the tests'
one in-process runner (``tests/in_process.py``), at a fixed terminal width."""

from __future__ import annotations

from tests.in_process import run_here


def run(monkeypatch, capsys, *args, columns: int = 120):
    done = run_here(monkeypatch, capsys, "odds", *args, env={"COLUMNS": str(columns)})
    return done.returncode, done.stdout, done.stderr
