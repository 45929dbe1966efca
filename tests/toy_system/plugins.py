"""Entry points of plugins that go wrong (``rollbook.plugins``), each registering the toy its own
wrong way: half of it then failing, under another name, or with a shipped system's rules."""

from __future__ import annotations

from rollbook import rules
from rollbook.play import systems
from rollbook.rules import table
from tests.toy_system import house, register, toy


def half() -> None:
    """Its rules and its play module registered, then a failure: what it registered is removed."""
    rules.register(toy.SYSTEM, toy.RULES)
    systems.register(toy.SYSTEM, toy)
    raise RuntimeError("the plugin's own set-up failed\nand said more")


def shipped_rules() -> None:
    """The toy, registered, and V20's rules replaced by the toy's: V20's stay the package's."""
    register()
    rules.register("v20", toy.RULES)


def nothing() -> None:
    """Registers no system."""


def house_rule_then_failure() -> None:
    """The toy and a table rule (TR-2) of its own registered, then a failure: the rule goes too, as
    the toy does (the API's enum and the panels list the declared rules)."""
    register()
    table.register(house.RULE)
    raise RuntimeError("the plugin's own set-up failed")
