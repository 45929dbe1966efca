"""A toy game system defined outside the package (``toy.py``) and registered from here."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rollbook import contract, odds, render, rules
from rollbook.play import systems
from tests.toy_system import toy


@contextmanager
def registered() -> Iterator[str]:
    """The toy system in both registries (rules, play, odds, the receipt's view, the resolve contract) for the block's length: its id."""
    rules.register(toy.SYSTEM, toy.RULES)
    systems.register(toy.SYSTEM, toy)
    odds.register(toy.SYSTEM, toy.odds)
    render.register(toy.SYSTEM, toy.view)
    contract.register(toy.SYSTEM, toy.CONTRACT)
    try:
        yield toy.SYSTEM
    finally:
        contract.unregister(toy.SYSTEM)
        render.unregister(toy.SYSTEM)
        odds.unregister(toy.SYSTEM)
        systems.unregister(toy.SYSTEM)
        rules.unregister(toy.SYSTEM)
