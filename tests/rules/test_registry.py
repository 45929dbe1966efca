"""The rules core: a registry that names every system, and no import from the outer layers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rollbook.rules import get_system, system_ids
from rollbook.rules.base import RuleError
from rollbook.systems import ROOMS


def in_the_rules_room(name: str) -> bool:
    """``rollbook.rules…``, or a system's module of the rules room (``rollbook.systems.v20.rules``)."""
    parts = name.split(".")
    if parts == ["rollbook", "systems"]:  # the systems' package itself: its data, the standard library's
        return True
    if parts[:2] == ["rollbook", "systems"]:
        return len(parts) >= 4 and ROOMS.get(parts[3]) == "rules"
    return name.startswith("rollbook.rules")


PACKAGE = Path(__file__).resolve().parents[2] / "src" / "rollbook"
RULES = PACKAGE / "rules"
# the rules room: its own files and each shipped system's rules modules (``rollbook.systems.ROOMS``)
RULES_FILES = sorted(
    [
        *RULES.glob("*.py"),
        *(p for p in (PACKAGE / "systems").glob("*/*.py") if ROOMS.get(p.stem) == "rules"),
    ]
)
SYSTEM_PACKAGES = {f"rollbook.systems.{p.name}" for p in (PACKAGE / "systems").iterdir() if p.is_dir()}
ALLOWED_TOP_LEVEL = {
    "importlib",  # the registry finds a shipped system's rules module by its name
    "__future__",
    "collections",
    "dataclasses",
    "fractions",
    "functools",
    "itertools",
    "math",
    "re",
    "types",
    "typing",
    "rollbook",
    "enum",
    "operator",
    "string",
}


def test_registry_names_all_four_systems():
    from rollbook.play.systems import SYSTEM_IDS

    assert system_ids() == ["rollunder", "tiers", "v20", "v5"] == sorted(SYSTEM_IDS)
    for system_id in system_ids():
        system = get_system(system_id)
        assert system.id == system_id and callable(system.module.resolve) and callable(system.module.needed)


def test_unknown_system_is_a_rule_error():
    with pytest.raises(RuleError) as refused:
        get_system("d&d")
    assert refused.value.code == "unknown_system"


def test_the_rules_room_holds_the_systems_rules():
    names = {str(path.relative_to(PACKAGE)) for path in RULES_FILES}
    assert {"rules/base.py", "systems/v20/rules.py", "systems/v5/contests.py"} <= names
    assert "systems/v20/play.py" not in names


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_rules_modules_import_only_the_standard_library_and_the_rules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in SYSTEM_PACKAGES:
            names = [f"{node.module}.{alias.name}" for alias in node.names]  # a system's module by name
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in ALLOWED_TOP_LEVEL, f"{path.name} imports {name}"
            if top == "rollbook":
                assert in_the_rules_room(name), f"{path.name} imports {name} from outside the rules core"


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_rules_modules_hold_no_user_facing_sentence(path):
    """Receipts and errors carry codes and numbers; sentences live in the catalogues."""
    import re

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            assert not re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", node.value), f"{path.name}: {node.value!r}"


def test_the_shipped_systems_are_declared_once_and_name_the_packages():
    """``rollbook.systems.SHIPPED`` is the one list of the shipped systems: the rules' registry and the
    play registry's ``SYSTEM_IDS`` are it, it names every package under ``systems/``, and the package
    it lives in imports nothing of rollbook (the pure rules read it)."""
    from rollbook import rules
    from rollbook.play.systems import SYSTEM_IDS
    from rollbook.systems import SHIPPED

    packages = {path.parent.name for path in (PACKAGE / "systems").glob("*/__init__.py")}
    assert set(SHIPPED) == packages and len(SHIPPED) == len(packages)
    assert SYSTEM_IDS is SHIPPED and rules._BUILTIN is SHIPPED
    tree = ast.parse((PACKAGE / "systems" / "__init__.py").read_text(encoding="utf-8"))
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0
    ] + [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert all(name == "__future__" or not name.startswith("rollbook") for name in imported), imported
