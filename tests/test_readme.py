"""The README is the front page: its first two commands, its size, and its links.

A newcomer runs the first two lines; a reader on a phone or in a terminal reads it without scrolling
sideways; every document it points to is in the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

TRY = (
    "./scripts/try     # installs into .venv, rolls once, serves the table on SQLite at http://127.0.0.1:8000"
)
TEST = "./scripts/test    # installs the test extras; lint, types, then the suite (SQLite and PostgreSQL)"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def lines() -> list[str]:
    return README.read_text(encoding="utf-8").splitlines()


def test_the_first_two_commands_are_try_and_test():
    commands = [line for line in lines() if line.startswith("./scripts/")]
    assert commands[:2] == [TRY, TEST]
    first_block = lines()[lines().index("```bash") + 1 :][:2]
    assert first_block == [TRY, TEST], "the first code block opens with the two commands"


def test_the_readme_is_under_120_lines():
    assert len(lines()) < 120


def test_every_line_is_under_110_characters():
    long = [(number, len(line)) for number, line in enumerate(lines(), 1) if len(line) >= 110]
    assert long == []


def test_every_relative_link_resolves_to_a_file_in_the_repository():
    targets = LINK.findall(README.read_text(encoding="utf-8"))
    assert targets, "the README links its documents"
    missing = []
    for target in targets:
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (ROOT / target.split("#", 1)[0]).resolve()
        if not path.is_file() or ROOT not in path.parents:
            missing.append(target)
    assert missing == [], f"links to nothing in the repository: {missing}"


def test_the_readme_cites_no_tracker_numbers():
    cited = [line for line in lines() if re.search(r"\b(issue|point)s? #?\d", line, re.IGNORECASE)]
    assert cited == []
