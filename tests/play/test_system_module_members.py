"""Every play module registered declares every member of the ``SystemModule`` interface
(``rollbook.play.systems``), an empty one when it has nothing of it: no face or use case reads a
member with a default (``getattr(module, NAME, default)``), so a member added to the interface and
missing from one system fails here, for the shipped systems and for the toy registered from outside.

mypy checks the shipped modules against the Protocol; this checks at run time what mypy does not
see (a system registered from ``tests/``), by the Protocol's own declarations: each property's value
of its annotated type, each method callable with its parameters."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Iterator
from types import FunctionType, SimpleNamespace
from typing import Any, get_args, get_origin, get_type_hints

import pytest

from rollbook.play import systems
from rollbook.play.systems import (
    SYSTEM_IDS,
    CompulsionRules,
    OutsideParts,
    QuickModule,
    SystemModule,
    SystemPowers,
    TurnRules,
    system_ids,
    system_module,
)
from tests.toy_system import house_registered, registered


def members(protocol: type) -> dict[str, property | FunctionType]:
    """The members a Protocol declares: its properties and its methods, by name."""
    return {
        name: value
        for name, value in vars(protocol).items()
        if not name.startswith("_") and isinstance(value, (property, FunctionType))
    }


def _conforms(value: Any, hint: Any) -> bool:
    """Whether a value is of an annotated type, as far as run time can tell (containers by their kind)."""
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    origin = get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, arg) for arg in get_args(hint))
    if origin is type:
        return isinstance(value, type)
    if origin is not None:
        return isinstance(value, origin)
    if getattr(hint, "_is_protocol", False):
        return not problems(value, hint)
    return isinstance(value, hint)


def problems(module: Any, protocol: type = SystemModule) -> list[str]:
    """What a module lacks of a Protocol: a member missing, a property's value of another type, a
    method that is not callable with the Protocol's parameters."""
    found = []
    namespace = vars(systems)
    for name, declared in members(protocol).items():
        if not hasattr(module, name):
            found.append(f"{name}: missing")
            continue
        value = getattr(module, name)
        if isinstance(declared, property):
            hint = get_type_hints(declared.fget, globalns=namespace)["return"]
            if not _conforms(value, hint):
                found.append(f"{name}: {type(value).__name__}, not {hint}")
            continue
        if not callable(value):
            found.append(f"{name}: not callable")
            continue
        wanted = [p for p in inspect.signature(declared).parameters.values() if p.name != "self"]
        positional = [None for p in wanted if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        keywords = {p.name: None for p in wanted if p.kind is inspect.Parameter.KEYWORD_ONLY}
        try:
            inspect.signature(value).bind(*positional, **keywords)
        except TypeError:
            found.append(f"{name}: takes {inspect.signature(value)}, not {[p.name for p in wanted]}")
    return found


@pytest.fixture
def with_the_toys() -> Iterator[tuple[str, ...]]:
    """The shipped systems and the two registered from ``tests/`` (the toy, the toy with a table rule)."""
    with registered(), house_registered():
        yield system_ids()


def test_the_interface_declares_the_members_read_everywhere():
    declared = members(SystemModule)
    for name in (
        "CHANGES",
        "TRAIT_FIELDS",
        "STORYTELLER_SHEET_FIELDS",
        "PLAYER_ADDS",
        "STORYTELLER_VALUES",
        "TURNS",
        "EXAMPLES",
        "EDGE_FIELDS",
        "ACTION_PLAYER_FIELDS",
        "check_mode",
        "step_takes",
        "resources",
        "DECLARED_FIELD",
        "played_cards",
    ):
        assert name in declared, name


def test_every_registered_system_module_declares_every_member(with_the_toys):
    assert set(SYSTEM_IDS) < set(with_the_toys) and {"toy", "toy_house"} <= set(with_the_toys)
    found = {system: problems(system_module(system)) for system in with_the_toys}
    assert found == {system: [] for system in with_the_toys}


def test_the_check_finds_a_missing_member_and_a_wrong_one():
    v5 = system_module("v5")
    without = SimpleNamespace(**{name: getattr(v5, name) for name in members(SystemModule)})
    assert problems(without) == []
    del without.TRAIT_FIELDS
    without.PLAYER_ADDS = ["powers"]  # a list, not a frozenset
    without.step_takes = None
    without.check_mode = lambda sheet: None  # no mode
    assert problems(without) == [
        "TRAIT_FIELDS: missing",
        "PLAYER_ADDS: list, not frozenset[str]",
        "check_mode: takes (sheet), not ['sheet', 'mode']",
        "step_takes: not callable",
    ]


def test_a_quick_module_and_the_turn_rules_are_checked_as_their_protocols():
    assert problems(system_module("tiers").QUICK, QuickModule) == []
    assert problems(system_module("v20").TURNS, TurnRules) == []
    assert problems(system_module("tiers").TURNS, TurnRules) == []
    assert problems(SimpleNamespace(FIELDS=("pool",), KIND="pool"), QuickModule) == [
        "REQUEST: missing",
        "request: missing",
    ]


def test_a_system_registered_from_outside_declares_each_of_its_parts(with_the_toys):
    """Its parts of the other rooms are attributes of its play module (``OutsideParts``), each declared,
    None when it has none: read as attributes, never by name with a default; a shipped system has none."""
    outside = [system for system in with_the_toys if system not in SYSTEM_IDS]
    found = {system: problems(systems.declared(system), OutsideParts) for system in outside}
    assert found == {system: [] for system in outside}
    assert all(systems.declared(system) is None for system in SYSTEM_IDS)
    assert problems(SimpleNamespace(WORDS=None), OutsideParts)[0] == "EXCHANGE: missing"
    assert all(systems.compulsion_rules(system) is None for system in outside)
    assert all(systems.powers(system) is None for system in outside)


def test_v5s_compulsions_and_powers_are_found_as_their_protocols():
    """The core reads a system's compulsions and powers through the registry (``compulsion_rules``,
    ``powers``: its modules of those names), never by importing them: V5's are the shipped ones."""
    assert problems(systems.compulsion_rules("v5"), CompulsionRules) == []
    assert problems(systems.powers("v5"), SystemPowers) == []
    assert [s for s in SYSTEM_IDS if systems.compulsion_rules(s) is not None] == ["v5"]
    assert [s for s in SYSTEM_IDS if systems.powers(s) is not None] == ["v5"]
    assert problems(SimpleNamespace(UNTIL=("scene",), COMPULSIONS=[]), CompulsionRules) == [
        "COMPULSIONS: list, not collections.abc.Mapping[str, rollbook.play.systems.CompulsionShape]",
        "choose: missing",
        "check_until: missing",
    ]


def test_the_outside_parts_name_the_rooms_a_system_declares_a_part_of():
    """A member of ``OutsideParts`` per room that finds a system's part (``play.systems.part``); the toy
    declares each (``tests/toy_system``), None where it has none (no scenario is played in it: ``SOLO``)."""
    assert {"WORDS", "EXCHANGE", "EXCHANGE_ODDS", "CONTEST_SHAPE", "CONTEST_SIDE_ODDS", "SOLO"} <= set(
        members(OutsideParts)
    )
    assert {"COMPULSIONS", "POWERS", "PRESENT", "LEDGER", "INTEROP"} <= set(members(OutsideParts))
    with registered() as toy:
        assert systems.part(toy, "solo", lambda module: module.SOLO) is None
