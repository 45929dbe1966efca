"""The scenarios that ship with rollbook (``rollbook/solo/scenarios/*.yaml``, package data, SPEC S-6) and
the host's own (``hosted``: the folder the settings name, SPEC S-10): their files by id. Reading a file is
all this does; ``solo.load`` and ``solo.check`` make it a scenario."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from rollbook.solo.load import MAX_BYTES

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


def hosted(folder: str | Path | None) -> dict[str, bytes]:
    """S-10: the host's own scenarios, each ``*.yaml`` file of ``folder`` (not its subfolders) by its file name
    without ``.yaml``; a file is read only to just past the size cap (the checker refuses it, S-9). None or
    a folder that is not there: none."""
    if not folder:
        return {}
    root = Path(folder)
    if not root.is_dir():
        return {}
    found = {}
    for entry in sorted(root.glob("*.yaml")):
        if entry.is_file():
            with entry.open("rb") as handle:
                found[entry.stem] = handle.read(MAX_BYTES + 1)
    return found
