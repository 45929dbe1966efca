"""No import cycles among the ``rollbook.*`` modules, nor among its top-level packages.

Every ``import`` of a module counts, at the top or deferred inside a function or under
``if TYPE_CHECKING:``: a deferred import hides a cycle from Python, not from the design (two modules
that need each other share a piece that belongs in a small module of its own). A module importing
its own package's submodules is an edge to those submodules, not to the package.

A shipped system's package (``rollbook.systems.<id>``) is one package per system, layered per file: each
of its modules belongs to the room its name says (``rollbook.systems.ROOMS``: ``rules.py`` to the rules,
``words.py`` to presentation, ``cli_roll.py`` to the CLI…), and the rooms' graph counts it there, so a
system's module imports what its room may and no more. The core's registries name no system's code (they
find a system's module by its dotted name, ``play.systems.own_module``); the core modules that still
import a system's module are counted (a ratchet, below)."""

from __future__ import annotations

import ast
from pathlib import Path

from rollbook.systems import ROOMS

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "rollbook"


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the rollbook modules it imports (a ``from package import name`` is the submodule
    ``package.name`` when there is one, else the package)."""
    modules = {module_name(path, root.parent): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in modules)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    if submodule in modules:
                        edges.add(submodule)
                    elif target in modules:
                        edges.add(target)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def package_of(module: str) -> str:
    """``rollbook.server.usecases.rolls`` -> ``rollbook.server``; a top-level module (``rollbook.dice``)
    and the package itself (``rollbook``) are rooms of their own; a module of a system's package, the
    room of its name (``rollbook.systems.v5.words`` -> ``rollbook.present``, ``ROOMS``), the packages
    themselves (``rollbook.systems``, ``rollbook.systems.v5``: docstrings) a room of their own."""
    parts = module.split(".")
    if parts[:2] == ["rollbook", "systems"] and len(parts) == 4:
        return f"rollbook.{ROOMS[parts[3]]}"
    return ".".join(parts[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The top-level rooms of rollbook and the rooms each imports (docs/ARCHITECTURE.md's layers):
    an edge from a room to another is any import of one of its modules, at the top or deferred."""
    packages: dict[str, set[str]] = {}
    for module, edges in graph.items():
        mine = package_of(module)
        packages.setdefault(mine, set()).update(package_of(edge) for edge in edges)
    for package, edges in packages.items():
        edges.discard(package)
    return packages


def test_no_import_cycles_among_rollbook_packages():
    """No two rooms import each other, even through modules that do not (``server -> web -> server``
    was no module cycle): a room below never reaches a room above it."""
    packages = package_graph(import_graph())
    assert {"rollbook.server", "rollbook.web", "rollbook.discord", "rollbook.present"} <= set(packages)
    assert cycles(packages) == []


def test_every_module_of_a_system_has_a_room():
    """A shipped system's module is named for its room (``ROOMS``), so the graph above places it."""
    for path in (PACKAGE / "systems").glob("*/*.py"):
        assert path.stem == "__init__" or path.stem in ROOMS, f"{path.relative_to(PACKAGE)}: which room?"


def core_imports_of_systems(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Core module -> the systems' modules it imports (at the top or deferred)."""
    found: dict[str, set[str]] = {}
    for module, edges in graph.items():
        if module.startswith("rollbook.systems"):
            continue
        if mine := {edge for edge in edges if edge.startswith("rollbook.systems.")}:
            found[module] = mine
    return found


# The core modules that import a shipped system's module (a ratchet: lower it when one goes, never raise
# it). The registries find a system's module by name (``play.systems.own_module``) and are not among them;
# no shared module is left that uses one system's facts.
CORE_IMPORTS_OF_SYSTEMS = 0


def test_the_core_imports_of_the_systems_only_go_down():
    found = core_imports_of_systems(import_graph())
    listing = ", ".join(sorted(found))
    assert len(found) <= CORE_IMPORTS_OF_SYSTEMS, f"{len(found)} core modules import a system's: {listing}"


def test_the_rooms_graph_places_a_system_module_in_its_room():
    assert package_of("rollbook.systems.v5.words") == "rollbook.present"
    assert package_of("rollbook.systems.v20.rules") == "rollbook.rules"
    assert package_of("rollbook.systems.v5.cli_roll") == "rollbook.cli"
    assert package_of("rollbook.systems.v5") == "rollbook.systems"
    assert package_of("rollbook.web.routes.home") == "rollbook.web"


def test_no_import_cycles_among_rollbook_modules():
    graph = import_graph()
    assert len(graph) > 50  # the walk found the package
    assert cycles(graph) == []


def test_the_checker_finds_a_cycle_hidden_in_a_function(tmp_path):
    """The test above can fail: two modules that import each other, one of them inside a function
    (the way the old ``web/authority`` reached ``web/present``), and a package importing a module that
    imports the package."""
    root = tmp_path / "src" / "rollbook"
    (root / "web").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "web" / "__init__.py").write_text("")
    (root / "web" / "a.py").write_text("from rollbook.web import b\n")
    (root / "web" / "b.py").write_text("def f():\n    from rollbook.web.a import thing\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("from . import part\nNAME = 1\n")
    (root / "pkg" / "part.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rollbook.pkg import NAME\n"
    )
    (root / "pkg" / "fine.py").write_text("from rollbook.pkg import part\n")
    assert sorted(cycles(import_graph(root))) == [
        ["rollbook.pkg", "rollbook.pkg.part"],
        ["rollbook.web.a", "rollbook.web.b"],
    ]


def test_the_package_checker_finds_a_cycle_no_module_makes(tmp_path):
    """Two packages that import each other through different modules, one import deferred in a
    function: no module cycle, a package cycle (the way ``server.app`` imported ``web`` whose
    ``routes`` imported ``server.tx``)."""
    root = tmp_path / "src" / "rollbook"
    for package in ("low", "high"):
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "low" / "shell.py").write_text("def f():\n    from rollbook.high import page\n")
    (root / "low" / "tx.py").write_text("")
    (root / "high" / "page.py").write_text("from rollbook.low import tx\n")
    (root / "alone.py").write_text("from rollbook.low import tx\n")
    graph = import_graph(root)
    assert cycles(graph) == []
    assert cycles(package_graph(graph)) == [["rollbook.high", "rollbook.low"]]
