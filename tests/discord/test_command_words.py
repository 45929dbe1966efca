"""A Discord text in French or Spanish names a command as a client in that language lists it
(``/lier``, ``/demander``, ``/opposé``: the command's ``name_localizations``), never by its English
name, which that client does not show."""

from __future__ import annotations

import re

import pytest

from rollbook.discord.commands import NAMED, NAMES
from tests.catalogues import catalogue_paths, read_catalogue


@pytest.mark.parametrize("lang", NAMED)
def test_a_translated_discord_text_names_commands_in_its_language(lang):
    [po] = [path for path in catalogue_paths(lang) if path.stem == "discord"]
    english = []
    for message in read_catalogue(po):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in forms:
            for command in re.findall(r"(?<![\w/])/([a-z][a-z0-9_]*)", text or ""):
                localized = NAMES.get(command, (command, command))[NAMED.index(lang)]
                if command in NAMES and localized != command:
                    english.append(f"/{command} (/{localized}) in {text!r}")
    assert not english, english
