"""Tests that stand alone: no test module imports another test module, at the top
or inside a function, by name or by path; what tests share lives in a ``conftest.py`` or a helpers
module (``tests/server/helpers.py``, ``tests/web/flows.py``, …)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def imported_test_modules(path: Path) -> list[str]:
    """The test modules (``test_*``) a file imports: ``from .test_x import``, ``import tests.a.test_x``,
    ``from tests.a import test_x``, or a ``spec_from_file_location`` of a ``test_*.py``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [
                alias.name
                for alias in node.names
                if alias.name.startswith("tests.") and alias.name.rsplit(".", 1)[-1].startswith("test_")
            ]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if not node.level and module != "tests" and not module.startswith("tests."):
                continue  # the package's own names (``rollbook.systems.v20.render.test_view``) are no test module
            if module.rsplit(".", 1)[-1].startswith("test_"):
                found.append("." * node.level + module)
            found += [
                "." * node.level + f"{module}.{alias.name}".strip(".")
                for alias in node.names
                if alias.name.startswith("test_")
            ]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.startswith("test_") and node.value.endswith(".py"):  # a module loaded by its path
                found.append(node.value)
    return found


def test_no_test_module_imports_another():
    offenders = {
        str(path.relative_to(TESTS)): found
        for path in sorted(TESTS.rglob("*.py"))
        if (found := imported_test_modules(path)) and path.name != Path(__file__).name
    }
    assert offenders == {}


def test_the_check_sees_every_way_in(tmp_path):
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "from .test_api import problem\nimport tests.server.test_api\n"
        "from tests.web import test_pages\n"
        "def f():\n    from tests.server.test_sheet_edits import as_member\n"
        "PATH = 'test_render_receipts.py'\n"
        "from .helpers import problem\nfrom tests.server.conftest import Table\n"
        "from rollbook.systems.v20.render import test_view\n"
    )
    assert sorted(imported_test_modules(sample)) == [
        ".test_api",
        "test_render_receipts.py",
        "tests.server.test_api",
        "tests.server.test_sheet_edits",
        "tests.web.test_pages",
    ]


def test_wait_until_returns_the_first_truthy_value_and_fails_after_its_timeout():
    from tests.conftest import wait_until

    calls = []
    assert wait_until(lambda: calls.append(1) or (len(calls) >= 3 and "ready"), 5, interval=0) == "ready"
    assert len(calls) == 3
    try:
        wait_until(lambda: False, 0.05, what="nothing")
    except AssertionError as waited:
        assert "nothing" in str(waited)
    else:
        raise AssertionError("wait_until did not give up")
