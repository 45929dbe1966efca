"""The application commands: names as Discord's rule wants them (lowercase, 1-32
characters of ``^[-_\\p{L}\\p{N}]{1,32}$``) in every locale, descriptions of 1-100 characters in
fr, es-ES and en-US, within Discord's size limits, and each command handled by the endpoint."""

from __future__ import annotations

import unicodedata

import pytest

from rollbook.discord.commands import command_definitions, valid_name
from rollbook.discord.handlers import COMMANDS

LOCALES = ("fr", "es-ES")


def named_things(command: dict):
    """The command, its options, their choices and sub-options: everything with a name."""
    yield command
    for option in command.get("options") or []:
        yield from named_things(option)
    yield from command.get("choices") or []


def test_the_name_rule_itself():
    assert valid_name("roll") and valid_name("réveil") and valid_name("trait2") and valid_name("a-b_c")
    assert not valid_name("Roll") and not valid_name("") and not valid_name("a" * 33)
    assert not valid_name("two words") and not valid_name("dé!") and not valid_name("Énergie")


@pytest.mark.parametrize("command", command_definitions(), ids=lambda c: c["name"])
def test_names_and_descriptions_follow_discords_rules_in_every_locale(command):
    for item in named_things(command):
        is_choice = "type" not in item and "value" in item
        names = [item["name"], *(item.get("name_localizations") or {}).values()]
        if is_choice:  # a choice's name is free text of 1-100 characters
            assert all(1 <= len(n) <= 100 for n in names), item
            continue
        assert set(item["name_localizations"]) == set(LOCALES), item["name"]
        for name in names:
            assert valid_name(name), name
            assert all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
        descriptions = [item["description"], *item["description_localizations"].values()]
        assert set(item["description_localizations"]) == set(LOCALES)
        assert all(1 <= len(d) <= 100 for d in descriptions), descriptions
        assert item["description_localizations"]["fr"] != item["description"]  # translated, not copied


@pytest.mark.parametrize("command", command_definitions(), ids=lambda c: c["name"])
def test_each_command_is_within_discords_size_limits(command):
    options = command.get("options") or []
    assert len(options) <= 25 and len({o["name"] for o in options}) == len(options)
    for option in options:
        assert len(option.get("choices") or []) <= 25
    # Discord counts the names, descriptions and choices of a command: at most 4,000 per locale
    for locale in (None, *LOCALES):

        def text(item, locale=locale):
            if locale is None:
                return item["name"] + item.get("description", "")
            return (item.get("name_localizations") or {}).get(locale, item["name"]) + (
                item.get("description_localizations") or {}
            ).get(locale, item.get("description", ""))

        assert sum(len(text(item)) for item in named_things(command)) <= 4000


def test_every_defined_command_has_its_handler_and_nothing_else():
    assert sorted(c["name"] for c in command_definitions()) == sorted(COMMANDS)
    names = [c["name"] for c in command_definitions()]
    assert len(names) == len(set(names))
