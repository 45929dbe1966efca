"""No name starting with ``_`` is imported from a dependency or read off one: a private
name is not part of a library's promise, and a pin to the one release that has it follows.

Every module of ``src/`` is read with ``ast``. A dependency is a top-level package that is neither
``rollbook`` nor in the standard library. Refused:

- ``from dep import _name``, ``from dep._private import name``, ``import dep._private``;
- ``alias._name`` where ``alias`` is bound by ``import dep`` / ``from dep import module``;
- ``anything._name`` where ``rollbook`` itself defines no ``_name`` anywhere (no function, class,
  variable, parameter or attribute of that name): the attribute can only be a dependency's, e.g.
  ``engine.pool._invalidate`` or ``route._embed_body_fields``.

Dunder names (``__init__``, ``__table__``, ``__cause__`` …) are Python's protocol, not private.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "rollbook"
OWN = "rollbook"
# A named tuple's documented methods are public, their underscore only keeps them off the fields.
PUBLIC = frozenset({"_make", "_replace", "_asdict", "_fields", "_field_defaults"})


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dependency(module: str | None) -> bool:
    if not module:
        return False  # a relative import: our own
    top = module.split(".")[0]
    return top != OWN and top not in sys.stdlib_module_names


def own_private_names(trees: list[ast.AST]) -> set[str]:
    """Every ``_name`` rollbook defines: functions, classes, variables, parameters, attributes
    assigned (``self._x = …``), keyword arguments and ``__slots__`` entries."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                names.add(node.value)  # __slots__ entries, getattr's names of our own
    return {name for name in names if _private(name)}


def private_uses(tree: ast.AST, own: set[str]) -> list[str]:
    """What ``tree`` reads of a dependency's private names, one line each (line: what)."""
    found: list[str] = []
    dependency_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _dependency(alias.name):
                    continue
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"{node.lineno}: import {alias.name}")
                dependency_aliases.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _dependency(node.module):
            if any(_private(part) for part in node.module.split(".")):
                found.append(f"{node.lineno}: from {node.module} import …")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                dependency_aliases.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not _private(node.attr) or node.attr in PUBLIC:
            continue
        if isinstance(node.value, ast.Name) and node.value.id in dependency_aliases:
            found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
        elif node.attr not in own:
            found.append(f"{node.lineno}: ….{node.attr}")
    return found


def _trees() -> dict[Path, ast.AST]:
    return {
        path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in sorted(SOURCE.rglob("*.py"))
    }


def test_no_module_of_src_reads_a_private_name_of_a_dependency():
    trees = _trees()
    assert len(trees) > 50  # the walk found the package
    own = own_private_names(list(trees.values()))
    found = {
        str(path.relative_to(SOURCE)): [use.split(": ", 1)[1] for use in uses]
        for path, tree in trees.items()
        if (uses := private_uses(tree, own))
    }
    assert found == {}


def test_the_check_finds_each_kind_of_private_use():
    """The check itself: each refused form is found, and our own private names are not."""
    snippet = ast.parse(
        "from fastapi.dependencies.utils import _get_param_aliases\n"
        "from fastapi.routing import APIRoute, _effective_route_context_var as context\n"
        "import sqlalchemy._private\n"
        "from pydantic._internal import something\n"
        "import fastapi\n"
        "fastapi._compat\n"
        "connection.engine.pool._invalidate(x)\n"
        "route._embed_body_fields\n"
        "self._mine\n"
        "from collections import _chain\n"  # the standard library: not a dependency
        "value.__class__\n"
    )
    own = own_private_names([ast.parse("class A:\n    def f(self):\n        self._mine = 1\n")])
    found = private_uses(snippet, own)
    assert sorted(int(line.split(":")[0]) for line in found) == [1, 2, 3, 4, 6, 7, 8]
