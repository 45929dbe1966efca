"""A system is registered once: every system id written out as a string (``"v5"``, ``("v20", "v5")``,
``{"tiers": …}``) outside the systems' own modules (a module of its system's package: ``systems/v5/play.py``,
``systems/v5/words.py``, ``systems/tiers/rules.py``) and the registries (``systems/__init__.py``'s
``SHIPPED``, ``play/systems.py``, ``rules/__init__.py``) is counted, docstrings aside. The count may only go down (a ratchet): a fact of
a system lives in its own module, and a registry derives from the registered systems
(``rollbook.play.systems``: ``system_ids``, ``own_module``, ``declared``), never from one more hand
list of ids, so a system registered from outside gets its part by declaring it."""

from __future__ import annotations

import ast
from pathlib import Path

from rollbook.play.systems import SYSTEM_IDS

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "rollbook"


def own(name: str) -> bool:
    """A module of a shipped system's own package (``systems/v5/words.py``: ``rollbook.systems.<id>``)."""
    parts = name.split("/")
    return len(parts) > 2 and parts[0] == "systems" and parts[1] in SYSTEM_IDS


REGISTRIES = {"systems/__init__.py", "play/systems.py", "rules/__init__.py"}  # SHIPPED, and its readers

# The ids written out left (161 when counted first). Lower it when you remove some; never raise it.
ALLOWED = 50


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def written_ids(root: Path = PACKAGE) -> dict[str, int]:
    """Module (relative path) -> its string constants equal to a system id, docstrings aside."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name in REGISTRIES or own(name):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in SYSTEM_IDS and id(node) not in docstrings:
                found[name] = found.get(name, 0) + 1
    return found


def test_no_new_system_id_written_out_of_the_systems_and_the_registries():
    found = written_ids()
    total = sum(found.values())
    listing = ", ".join(f"{name} {count}" for name, count in sorted(found.items(), key=lambda kv: -kv[1]))
    assert total <= ALLOWED, f"{total} system ids written out (at most {ALLOWED}): {listing}"


def test_the_count_sees_a_written_id(tmp_path):
    (tmp_path / "face.py").write_text('WORDS = {"v20": 1, "v5": 2}\n')
    (tmp_path / "other.py").write_text('def f():\n    """Says "v5" in words."""\n    return ("tiers",)\n')
    (tmp_path / "systems" / "v5").mkdir(parents=True)
    (tmp_path / "systems" / "v5" / "words.py").write_text('SYSTEM = "v5"\n')  # its own module
    (tmp_path / "kinds.py").write_text('KIND = "test"\n')
    assert written_ids(tmp_path) == {"face.py": 2, "other.py": 1}
