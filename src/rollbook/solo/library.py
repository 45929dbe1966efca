"""The scenarios that ship with rollbook (``rollbook/solo/scenarios/*.yaml``, package data, SPEC S-6):
their files by id. Reading a file is all this does; ``solo.load`` and ``solo.check`` make it a scenario."""

from __future__ import annotations

from importlib.resources import files

FOLDER = "scenarios"


def shipped() -> dict[str, bytes]:
    """Each shipped scenario's file, by its file name without ``.yaml`` (a scenario's ``id`` is its file name)."""
    folder = files("rollbook.solo").joinpath(FOLDER)
    if not folder.is_dir():
        return {}
    return {
        entry.name[: -len(".yaml")]: entry.read_bytes()
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".yaml")
    }
