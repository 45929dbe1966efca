"""The shipped commands, byte for byte: ``command_definitions()`` with no system registered from
outside, as ``rollbook discord register`` uploads it, is the JSON kept in ``data/commands.json``. A
change of a name, a description, a translation, an option or their order shows here as a diff; when it
is meant, write the file again (``python -m tests.discord.test_command_snapshot``) and say why in the
commit."""

from __future__ import annotations

import json
from pathlib import Path

from rollbook.discord.commands import command_definitions
from rollbook.play import systems

SNAPSHOT = Path(__file__).with_name("data") / "commands.json"


def shipped_json() -> str:
    return json.dumps(command_definitions(), ensure_ascii=False, indent=1) + "\n"


def test_the_shipped_commands_are_the_snapshots_byte_for_byte():
    assert list(systems.system_ids()) == list(systems.SYSTEM_IDS)  # the shipped systems alone
    assert shipped_json() == SNAPSHOT.read_text(encoding="utf-8"), (
        "the shipped commands changed: if meant, `python -m tests.discord.test_command_snapshot`"
    )


if __name__ == "__main__":
    SNAPSHOT.write_text(shipped_json(), encoding="utf-8")
