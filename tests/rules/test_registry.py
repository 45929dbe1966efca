"""The rules core: a registry that names every system, and no import from the outer layers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rollbook.rules import get_system, system_ids
from rollbook.rules.base import RuleError

RULES = Path(__file__).resolve().parents[2] / "src" / "rollbook" / "rules"
ALLOWED_TOP_LEVEL = {
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
    assert system_ids() == ["rollunder", "tiers", "v20", "v5"]
    for system_id in system_ids():
        system = get_system(system_id)
        assert system.id == system_id and callable(system.module.resolve) and callable(system.module.needed)


def test_unknown_system_is_a_rule_error():
    with pytest.raises(RuleError) as refused:
        get_system("d&d")
    assert refused.value.code == "unknown_system"


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_modules_import_only_the_standard_library_and_the_rules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in ALLOWED_TOP_LEVEL, f"{path.name} imports {name}"
            if top == "rollbook":
                assert name.startswith("rollbook.rules"), (
                    f"{path.name} imports {name} from outside the rules core"
                )


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
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
