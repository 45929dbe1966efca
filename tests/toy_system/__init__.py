"""A toy game system defined outside the package (``toy.py``) and registered from here; and the toy
pool with a table rule of its own (``house.py``: its declaration and its deviation)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from rollbook import contract, i18n, odds, render, rules
from rollbook.play import systems
from rollbook.rules import table
from tests.toy_system import house, toy

# the toy's own words in each language (its catalogue domain, compiled here as ``pip install`` compiles the
# shipped ones, looked up after them: ``rollbook.i18n.register_domain``)
LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "toy"


def variant(name: str, **members: Any) -> Any:
    """A play module made of the toy's (``toy.py``) with ``members`` in place of its own (another
    ``QUICK``, another ``ACTIONS``…): a test's variant of the toy, registered as the toy by
    ``registered(variant(...))``; the toy's declarations stay as they are."""
    made = ModuleType(f"{toy.__name__}.{name}")
    made.__dict__.update({key: value for key, value in vars(toy).items() if not key.startswith("__")})
    made.__dict__.update(members)
    return made


def register(module: Any = toy) -> str:
    """Register the toy system (or a ``variant`` of its play module) in the registries (rules, play,
    odds, the receipt's view, the resolve contract) and its catalogue domain: its id. What an installed
    distribution's entry point of the group ``rollbook.systems`` names (``rollbook.plugins``)."""
    rules.register(toy.SYSTEM, toy.RULES)
    systems.register(toy.SYSTEM, module)
    odds.register(toy.SYSTEM, toy.odds)
    render.register(toy.SYSTEM, toy.view)
    contract.register(toy.SYSTEM, toy.CONTRACT)
    i18n.compile_domain(DOMAIN, LOCALE_DIR)
    i18n.register_domain(DOMAIN, LOCALE_DIR)
    return toy.SYSTEM


def unregister() -> None:
    """Remove what ``register`` added."""
    i18n.unregister_domain(DOMAIN)
    contract.unregister(toy.SYSTEM)
    render.unregister(toy.SYSTEM)
    odds.unregister(toy.SYSTEM)
    systems.unregister(toy.SYSTEM)
    rules.unregister(toy.SYSTEM)


@contextmanager
def registered(module: Any = toy) -> Iterator[str]:
    """The toy system (or a ``variant`` of its play module) in the registries (rules, play, odds, the
    receipt's view, the resolve contract) for the block's length: its id."""
    system = register(module)
    try:
        yield system
    finally:
        unregister()


@contextmanager
def house_registered() -> Iterator[str]:
    """The ``toy_house`` system and its table rule (TR-2, ``rules.table.register``) for the block's
    length: the rule's id."""
    rules.register(house.SYSTEM, house.RULES)
    systems.register(house.SYSTEM, house)
    odds.register(house.SYSTEM, house.odds)
    render.register(house.SYSTEM, house.view)
    table.register(house.RULE)
    try:
        yield house.RULE.id
    finally:
        table.unregister(house.RULE.id)
        render.unregister(house.SYSTEM)
        odds.unregister(house.SYSTEM)
        systems.unregister(house.SYSTEM)
        rules.unregister(house.SYSTEM)
