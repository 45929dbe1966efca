"""docs/ARCHITECTURE.md lists every module that exists and names nothing that does not:
its "Every module" section against the files under src/rollbook, and every ``*.py`` the
document names anywhere against the repository."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "rollbook"
DOCUMENT = REPO / "docs" / "ARCHITECTURE.md"
REVISIONS = "server/migrations/versions/"  # one per schema change: not listed one by one
INDEX_LINE = re.compile(r"^- `([\w/]+\.py)`: \S")
NAMED = re.compile(r"(?<![\w./-])([\w/]+\.py)\b")


def modules(package: Path = PACKAGE) -> set[str]:
    return {
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if not str(path.relative_to(package)).startswith(REVISIONS)
    }


def index_of(text: str) -> list[str]:
    """The paths the "## Every module" section lists, in order."""
    section = text.split("\n## Every module\n", 1)[1].split("\n## ", 1)[0]
    return [match.group(1) for line in section.splitlines() if (match := INDEX_LINE.match(line))]


def absent_names(text: str, known: set[str], repo: Path = REPO) -> list[str]:
    """Every ``name.py`` or ``folder/name.py`` the text names that is no module (a path under
    src/rollbook, or the end of one: the tables name ``routes/home.py`` under web/) and no file of
    the repository (``setup.py``, ``tests/test_i18n.py``)."""
    absent = set()
    for name in NAMED.findall(text):
        if name in known or any(path.endswith("/" + name) for path in known) or (repo / name).is_file():
            continue
        absent.add(name)
    return sorted(absent)


def test_every_module_is_listed_once_and_nothing_else():
    text = DOCUMENT.read_text(encoding="utf-8")
    listed = index_of(text)
    assert len(listed) == len(set(listed)), "a module listed twice"
    present = modules()
    assert sorted(present - set(listed)) == [], "modules missing from docs/ARCHITECTURE.md's 'Every module'"
    assert sorted(set(listed) - present) == [], "docs/ARCHITECTURE.md lists modules that do not exist"


def test_the_document_names_no_module_that_does_not_exist():
    assert absent_names(DOCUMENT.read_text(encoding="utf-8"), modules()) == []


def test_the_checks_can_fail(tmp_path):
    package = tmp_path / "src" / "rollbook"
    (package / "web" / "routes").mkdir(parents=True)
    for name in ("__init__.py", "web/__init__.py", "web/routes/home.py", "web/once.py"):
        (package / name).write_text("")
    text = (
        "# x\n\n## Every module\n\n- `__init__.py`: the package.\n- `web/__init__.py`: the web.\n"
        "- `web/routes/home.py`: home.\n- `web/lean.py`: gone.\n\n## Next\n"
        "`routes/home.py`, `once.py`, `lean.py` and `server/direct.py`\n"
    )
    listed = set(index_of(text))
    assert modules(package) - listed == {"web/once.py"}
    assert listed - modules(package) == {"web/lean.py"}
    assert absent_names(text, modules(package), tmp_path) == ["lean.py", "server/direct.py", "web/lean.py"]
