"""Systems installed beside rollbook as distributions of their own, found at a process's start.

A distribution declares each system it brings in the entry-point group ``rollbook.systems`` (Python's
packaging standard, read with ``importlib.metadata.entry_points``): the entry point's name is the
system's id, its object a callable taking nothing that registers that one system in the registries
(``rollbook.rules.register``, ``rollbook.play.systems.register``, ``rollbook.odds.register``,
``rollbook.render.register``, ``rollbook.contract.register``; its words' catalogue domain,
``rollbook.i18n.register_domain``), as ``tests/toy_system``'s ``register`` does. In its
``pyproject.toml``::

    [project.entry-points."rollbook.systems"]
    toy = "rollbook_toy:register"

``load()`` reads the group once per process, before the faces derive their commands, options and
schemas from the registries: the CLI's entry (``rollbook.cli.main``: every command, ``rollbook
serve``, ``rollbook solo`` and ``rollbook discord register`` among them) and the app factory
(``rollbook.app.app.create_app``: ``rollbook serve``'s app and each of its ``--workers``).

A plugin that cannot be used is one line on stderr naming it, and the process goes on without it
(a served process never dies of one bad plugin): one that fails to import or to register (what it
registered is removed again: its systems' parts, its catalogue domains, its table rules), one named for a shipped system or for a system already registered,
one that registers another id than its name or none, one that replaces a shipped system's rules
(restored: a shipped system stays the package's).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import TextIO

GROUP = "rollbook.systems"

_loaded: tuple[str, ...] | None = None


def load(stderr: TextIO | None = None) -> tuple[str, ...]:
    """Register every system of the group ``rollbook.systems`` (once per process; later calls answer
    the same): the ids registered. A plugin refused is one line on ``stderr`` (the process's)."""
    global _loaded
    if _loaded is None:
        _loaded = register_all(entry_points(group=GROUP), stderr or sys.stderr)
    return _loaded


def register_all(points: Iterable[EntryPoint], stderr: TextIO) -> tuple[str, ...]:
    """Register the system of each entry point (by name, then object): the ids registered; each
    refused is one line on ``stderr``, and the next is registered all the same."""
    return tuple(
        name
        for point in sorted(points, key=lambda point: (point.name, point.value))
        if (name := _load_one(point, stderr)) is not None
    )


def _load_one(point: EntryPoint, stderr: TextIO) -> str | None:
    """Register one entry point's system: its id, or None after one line on ``stderr``."""
    from rollbook import i18n, rules
    from rollbook.play import systems
    from rollbook.rules import table

    def refused(why: str) -> None:
        print(f"rollbook: system plugin {point.name} ({point.value}) not loaded: {why}", file=stderr)

    if point.name in systems.SYSTEM_IDS:
        refused(f"{point.name} is a shipped system")
        return None
    before = set(systems.system_ids())
    if point.name in before:
        refused(f"a system {point.name} is already registered")
        return None
    domains = set(i18n.OUTSIDE_DOMAINS)
    table_rules = set(table.TABLE_RULES)
    shipped_rules = {system: rules.get_system(system) for system in systems.SYSTEM_IDS}
    problem: str | None = None
    try:
        point.load()()
    except Exception as error:  # its import or its registration: the process goes on without it
        problem = f"{type(error).__name__}: {_first_line(error)}"
    replaced = [system for system, kept in shipped_rules.items() if rules.get_system(system) is not kept]
    for system in replaced:  # a shipped system's rules are never replaced
        rules.register(system, shipped_rules[system].module)
    added = set(systems.system_ids()) - before
    if problem is None and replaced:
        problem = f"it replaced the rules of {', '.join(replaced)}, a shipped system"
    elif problem is None and added != {point.name}:
        problem = f"it registered {', '.join(sorted(added)) or 'no system'}, not {point.name}"
    if problem is None:
        return point.name
    for system in {point.name, *added}:  # what it registered is removed again
        _unregister(system)
    for domain in set(i18n.OUTSIDE_DOMAINS) - domains:
        i18n.unregister_domain(domain)
    for rule_id in set(table.TABLE_RULES) - table_rules:  # its table rules (TR-2), any system's
        table.unregister(rule_id)
    refused(problem)
    return None


def _unregister(system: str) -> None:
    """Remove what a refused plugin registered of ``system`` (a shipped system's parts stay)."""
    from rollbook import contract, odds, render, rules
    from rollbook.play import systems

    contract.unregister(system)
    render.unregister(system)
    odds.unregister(system)
    systems.unregister(system)
    rules.unregister(system)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else "(no message)"


__all__ = ["GROUP", "load", "register_all"]
