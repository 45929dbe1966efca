"""The server's floor plan (docs/ARCHITECTURE.md): which room may import what."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from rollbook.systems import ROOMS

SOURCE = Path(__file__).resolve().parents[2] / "src" / "rollbook"
USECASES = SOURCE / "server" / "usecases"


def system_modules(room: str) -> list[Path]:
    """Each shipped system's modules of a room (``rollbook.systems.ROOMS``: ``words.py`` -> present)."""
    return sorted(p for p in (SOURCE / "systems").glob("*/*.py") if ROOMS.get(p.stem) == room)


# a system's use cases (``systems/<id>/exchange_odds.py``: the odds of its exchange) are the room's too
SYSTEM_USECASES = [p for p in system_modules("server") if p.stem == "exchange_odds"]
PRESENT = sorted([*(SOURCE / "present").glob("*.py"), *system_modules("present")])
HTTP_PACKAGES = {"fastapi", "starlette", "sse_starlette", "uvicorn", "httpx"}


def imported_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module or "")
    return names


@pytest.mark.parametrize(
    "path", sorted([*USECASES.glob("*.py"), *SYSTEM_USECASES]), ids=lambda p: str(p.relative_to(SOURCE))
)
def test_use_cases_import_no_web_framework(path):
    for name in imported_names(path):
        assert name.split(".")[0] not in HTTP_PACKAGES, f"{path.relative_to(SOURCE)} imports {name}"


def test_use_cases_load_no_web_framework_even_indirectly():
    """Importing every use case (and what they import: tx, access, views, store, play) loads no
    FastAPI or Starlette: the use cases run the same under the CLI, a test or another front end."""
    modules = sorted(
        [
            *(f"rollbook.server.usecases.{p.stem}" for p in USECASES.glob("*.py") if p.stem != "__init__"),
            *(f"rollbook.systems.{p.parent.name}.{p.stem}" for p in SYSTEM_USECASES),
        ]
    )
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({sorted(HTTP_PACKAGES)!r})))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"


@pytest.mark.parametrize(
    "path",
    sorted([*(SOURCE / "web").glob("*.py"), *PRESENT]),
    ids=lambda p: str(p.relative_to(SOURCE)),
)
def test_web_pages_never_query_the_models(path):
    """The pages and their presentation call the use cases; they hold no SQL of their own."""
    for name in imported_names(path):
        assert name.split(".")[0] != "sqlalchemy", f"{path.relative_to(SOURCE)} imports {name}"


@pytest.mark.parametrize("path", PRESENT, ids=lambda p: str(p.relative_to(SOURCE)))
def test_presentation_sits_below_the_faces(path):
    """``present/`` is what the web pages and Discord both show (and each system's presentation,
    ``systems/<id>/words.py``, ``exchange.py``…): it imports neither face, nor the HTTP shell
    (docs/ARCHITECTURE.md, layer 4)."""
    assert len(PRESENT) > len(list((SOURCE / "present").glob("*.py")))  # the systems' are there
    for name in imported_names(path):
        assert name.split(".")[0] not in HTTP_PACKAGES, f"{path.relative_to(SOURCE)} imports {name}"
        assert not name.startswith(("rollbook.web", "rollbook.discord")), (
            f"{path.relative_to(SOURCE)} imports {name}"
        )


@pytest.mark.parametrize(
    "path",
    sorted(
        [
            *(SOURCE / "server").rglob("*.py"),
            *(SOURCE / "web").glob("*.py"),
            *PRESENT,
            *SYSTEM_USECASES,
        ]
    ),
    ids=lambda p: str(p.relative_to(SOURCE)),
)
def test_no_if_installed_fallbacks(path):
    """Everything of this package ships: import it, never probe for it."""
    text = path.read_text(encoding="utf-8")
    assert "import_module" not in text and "find_spec" not in text
