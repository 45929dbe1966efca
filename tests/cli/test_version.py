"""``rollbook --version``: the version written once, in pyproject.toml, as the installed package's
metadata carries it; the package's ``__version__`` (the server's OpenAPI, the Discord user agent) reads it."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import rollbook

ROOT = Path(__file__).resolve().parents[2]


def pyproject_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def test_rollbook_version_prints_the_version_and_exits_0():
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"rollbook {pyproject_version()}\n"
    assert re.fullmatch(r"rollbook \d+\.\d+\.\d+\n", done.stdout)
    assert done.stderr == ""


def test_the_version_is_written_in_one_place():
    assert version("rollbook") == rollbook.__version__ == pyproject_version()
    written = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "src" / "rollbook").rglob("*.py"))
        if re.search(r"""["']\d+\.\d+\.\d+["']""", path.read_text(encoding="utf-8"))
        and "migrations" not in path.parts
    ]
    assert written == [], f"a version written outside pyproject.toml: {written}"
