"""Code and tests cite rule ids (``V20-7``, ``TR-2``) and documents, never a tracker a reader does not
have: no "issue N" or "point N" in ``src/`` or ``tests/``, and no file, test or i18n domain named after
a delivery round ("game night", "night 2") instead of what it holds."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITATION = re.compile(r"\b(?:issues?|points?)\s*#?\d", re.IGNORECASE)
ROUND_NAMES = re.compile(r"gamenight|night2|_night_|night\.(?:js|css)|v5table", re.IGNORECASE)
THIS = Path(__file__).resolve()


def tracked(*folders: str) -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--", *folders], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / name for name in listed]


def test_no_issue_or_point_numbers_in_src_or_tests():
    found = []
    for path in tracked("src", "tests"):
        if path == THIS or path.suffix in (".mo", ".png", ".svg", ".gz") or "vendor" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if CITATION.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == [], "cite the rule id or the document instead:\n" + "\n".join(found)


def test_no_file_or_domain_is_named_after_a_delivery_round():
    named = [str(path.relative_to(ROOT)) for path in tracked("src", "tests") if ROUND_NAMES.search(path.name)]
    assert named == [], f"name these after what they hold: {named}"
