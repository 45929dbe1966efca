"""Shared pieces of the interop tests: the hand-built fixture files (built from the published data
models, docs/import.md) and the JSON Schemas the exports are checked against."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest

from rollbook.interop import export_sheet, import_sheet

# The server's fixtures (both stores: SQLite and PostgreSQL), shared from tests/server/conftest.py.
from tests.server.conftest import app, backend, client, database_url, make_table, pg_url  # noqa: F401
from tests.web.conftest import artifacts, dice, live_server, new_context, scripted_dice  # noqa: F401

FILES = Path(__file__).parent / "files"


def load(name: str) -> dict:
    return json.loads((FILES / name).read_text(encoding="utf-8"))


def schema(name: str) -> dict:
    return json.loads(files("rollbook.interop").joinpath("schemas", name).read_text(encoding="utf-8"))


@pytest.fixture
def fixture_file():
    return load


def exported_and_back(system: str, sheet, fmt: str, validator):
    """The sheet exported to ``fmt`` (checked by the format's schema ``validator``) and imported back."""
    exported = export_sheet(system, sheet, fmt)
    validator.validate(exported)
    return import_sheet(exported, format=fmt, system=system)
