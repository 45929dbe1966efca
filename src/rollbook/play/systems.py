"""The systems' play modules by id (``system_module``): what the package, ``authority`` and ``schema``
look a system up in (its own module, so that none of them imports the package back).

The core defines the interfaces (``SystemModule`` here, ``rollbook.rules.SystemRules``) and the systems
are plugins of them: a shipped system's package (``rollbook.systems.<id>``) is found by its dotted name
from ``SYSTEM_IDS`` (``own_module``, ``importlib``), a system defined outside by ``register``. No core
room imports ``rollbook.systems``: the core knows the shipped ids and the interface, never a system's
code, so its registries and the systems' packages, which import the core, make no cycle."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from types import ModuleType
from typing import Any, Protocol, cast

from rollbook.dice import DiceSource
from rollbook.play.common import (
    Drawn,
    JsonObject,
    Mismatch,
    Mode,
    Model,
    Performed,
    Prepared,
    Recorded,
    Resource,
)
from rollbook.rules.base import Faces, RuleError
from rollbook.systems import SHIPPED


class QuickModule(Protocol):
    """A system's quick roll (``systems/<id>/quick.py``, ``rollbook.play.quick``): the values it takes, the
    action kind whose edges they are (A-1), the rules request type, and the request they make."""

    @property
    def FIELDS(self) -> tuple[str, ...]: ...
    @property
    def KIND(self) -> str: ...
    @property
    def REQUEST(self) -> type: ...

    def request(self, mode: str, values: Mapping[str, Any]) -> Any: ...


class TurnRules(Protocol):
    """A system's per-turn limits (A-3: ``play.turns`` says how the server uses them; ``systems.v20.turns``,
    ``systems.tiers.turns``): ``usage`` is ``play.turns.TurnUsage``, what the character used earlier in the turn."""

    def willpower_successes(self, receipt: Any) -> int: ...  # 1 when a roll took its Willpower success

    def check_turn(
        self,
        sheet_before: Mapping[str, Any],
        receipt: Any,
        effects: Iterable[Any],
        usage: Any,
        *,
        running: bool,
    ) -> list[JsonObject]: ...

    def check_change(self, change: Any, role: str, *, running: bool) -> None: ...

    def new_turn_change(self, sheet: Mapping[str, Any]) -> JsonObject | None: ...

    def sheet_limits(self, sheet: Mapping[str, Any]) -> JsonObject: ...

    # kind -> (difficulty, actions) -> the difficulty raised for that many declared actions and
    # the successes required past 10 (V20-13: ``play.turns.multiple_actions``); empty: no roll splits
    @property
    def MULTIPLE_ACTIONS(self) -> Mapping[str, Callable[[int, int], tuple[int, int]]]: ...


class SystemModule(Protocol):
    """What the package (``rollbook.play``), ``authority`` and ``schema`` use of a system's play module
    (see the package docstring), and the faces of it: every module declares every member, an empty
    one when it has nothing of it (``tests/play/test_system_module_members.py``), and no reader
    supplies a default. ``sheet`` is the module's own ``Sheet`` as loaded by the package
    (``parse(module.Sheet, ...)``) and ``action`` / ``change`` the model its kind picked in ``ACTIONS`` /
    ``CHANGES``, and ``result`` what the rules system of ``prepared.system`` resolved: each module
    narrows them to its own classes, hence ``Any`` in these signatures."""

    @property
    def Sheet(self) -> type[Model]: ...
    @property
    def ACTIONS(self) -> Mapping[str, type[Model]]: ...
    @property
    def FOLLOWUPS(self) -> Mapping[str, type[Model]]: ...
    @property
    def CHANGES(self) -> Mapping[str, type[Model]]: ...
    @property
    def CHAINS(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def STORYTELLER_ACTIONS(self) -> Set[str]: ...
    @property
    def STORYTELLER_CHANGES(self) -> Set[str]: ...
    @property
    def PLAYER_FIELDS(self) -> Set[str]: ...
    @property
    def TABLES(self) -> Mapping[str, Any]: ...
    @property
    def ROLL_RECORDS(self) -> Mapping[str, Recorded]: ...
    @property
    def QUICK(self) -> QuickModule: ...
    @property
    def READS_TABLE_RULES(self) -> bool: ...  # ``prepare`` takes ``table_rules`` (TR-1: V20)
    @property
    def READS_COMPULSION(self) -> bool: ...  # ``prepare`` takes ``compulsion`` (seed 001: V5)
    @property
    def CHANGE_RECORDS(self) -> Mapping[str, Recorded]: ...
    @property
    def DECLARED_FIELD(self) -> str | None: ...  # a test's field for the action declared in words

    # kind -> the action's fields that are the Storyteller's (edges), and the player's (``authority``)
    @property
    def EDGE_FIELDS(self) -> Mapping[str, frozenset[str]]: ...
    @property
    def ACTION_PLAYER_FIELDS(self) -> Mapping[str, frozenset[str]]: ...
    @property
    def TRAIT_FIELDS(self) -> tuple[tuple[str, str], ...]: ...  # a sheet's section, the field its trait fills
    @property
    def STORYTELLER_SHEET_FIELDS(self) -> frozenset[str]: ...  # on a sheet, the Storyteller's alone
    @property
    def PLAYER_ADDS(self) -> frozenset[str]: ...  # what a player may add to (a power within its dots)
    @property
    def STORYTELLER_VALUES(
        self,
    ) -> Mapping[str, list[str]]: ...  # "kind.field" -> the Storyteller's values
    @property
    def TURNS(self) -> TurnRules | None: ...  # its per-turn limits (A-3: ``play.turns``), None: none
    @property
    def EXAMPLES(self) -> Mapping[str, JsonObject]: ...  # kind -> a worked example (``play.catalogue``)
    @property
    def EXAMPLE_SHEET(self) -> JsonObject: ...  # a character who can make every example (its sheet)

    # the tracks a player checks between rolls, in codes and numbers (Discord's ``/sheet``)
    def resources(self, sheet: JsonObject) -> tuple[Resource, ...]: ...

    def check_mode(self, sheet: Any, mode: str) -> None: ...

    # the cards a roll's action plays, with their effects as the sheet holds them (R-6: the authority
    # stamp's); None: the system plays no card
    def played_cards(
        self, sheet: JsonObject, names: Any
    ) -> list[JsonObject] | None: ...  # what a chronicle's mode checks (V20-19)

    # what a step of the combat chain takes from the receipt it follows (its rules ``result``); None:
    # the rules refuse the step
    def step_takes(self, kind: str, receipt: JsonObject, result: Mapping[str, Any]) -> JsonObject | None: ...

    def prepare(
        self, sheet: Any, action: Any, *, mode: Mode, role: str, follows: JsonObject | None = None
    ) -> Prepared: ...

    def apply(
        self, sheet: Any, action: Any, prepared: Prepared, faces: Faces, result: Any, *, source: DiceSource
    ) -> Performed: ...

    def followup(
        self,
        sheet: Any,
        receipt: JsonObject,
        action: JsonObject,
        *,
        mode: Mode,
        role: str,
        source: DiceSource,
    ) -> Performed: ...

    def adjust(self, sheet: Any, change: Any, *, role: str) -> Performed: ...

    def verify(self, receipt: JsonObject) -> list[str]: ...

    # What ``rollbook log verify`` checks of a roll beyond its arithmetic (``server.ledger``, A-2):
    # the action's fields the rules request takes unchanged, the request against the action and the
    # pool built from the sheet, the effects its receipt implies (the entry's kind, ``roll`` or
    # ``reroll``; the effects by resource), the sheet's resources its request read (resource, value);
    # and the dice it drew, step by step (``fair.replay``, F-3).
    @property
    def REQUEST_FROM_ACTION(self) -> tuple[str, ...]: ...

    def request_problems(self, receipt: JsonObject) -> list[Mismatch]: ...

    def effect_problems(
        self, entry_kind: str, receipt: JsonObject, effects: Mapping[str, list[JsonObject]]
    ) -> list[Mismatch]: ...

    def sheet_reads(self, request: JsonObject) -> tuple[tuple[str, Any], ...]: ...

    def drawn(self, receipt: JsonObject) -> tuple[Drawn, ...]: ...


class OutsideParts(Protocol):
    """What a system registered from outside (``register``) declares of the other rooms on its play
    module, read as these attributes (``Parts``, ``part``): every member declared, None when it has none
    of it (``tests/play/test_system_module_members.py``). A shipped system's parts are the modules of its
    package (``own_module``), never these. Each room narrows its part to its own interface, named here."""

    @property
    def WORDS(self) -> object | None: ...  # its words beside a roll (``present.words.SystemWords``)
    @property
    def EXCHANGE(self) -> object | None: ...  # its combat chain's face (``present.exchange.ExchangeFace``)
    @property
    def EXCHANGE_ODDS(
        self,
    ) -> object | None: ...  # its exchange's odds (``server.usecases.odds.ExchangeOdds``)
    @property
    def CONTEST_SHAPE(
        self,
    ) -> Callable[[Any], object] | None: ...  # its roll in a contest (``odds.contests``)
    @property
    def CONTEST_SIDE_ODDS(
        self,
    ) -> Callable[[Any], Mapping[str, object]] | None: ...  # a side beyond its successes, its chances (TR-3)
    @property
    def SOLO(self) -> object | None: ...  # what a scenario plays of it (``solo.system.SoloSystem``)
    @property
    def INTEROP(self) -> object | None: ...  # its files' formats, its import checks (``interop.formats``)
    @property
    def COMPULSIONS(self) -> object | None: ...  # its compulsions (seed 001, V5-14: ``CompulsionRules``)
    @property
    def POWERS(self) -> object | None: ...  # its powers' rolls (``SystemPowers``)
    @property
    def PRESENT(self) -> object | None: ...  # its face at the table (``present.table_face.TableFace``)
    @property
    def LEDGER(self) -> object | None: ...  # its entries' checks (``server.baselines.SystemLedger``)


class CompulsionShape(Protocol):
    """What a compulsion costs while it lasts (seed 001, V5-14), as its ``compulsion`` entry states it."""

    @property
    def dice(self) -> int: ...  # the penalty, in dice (negative)
    @property
    def attributes(self) -> tuple[str, ...]: ...  # only pools built with one of these Attributes
    @property
    def unless_serving(self) -> bool: ...  # lifted on an action that serves the compulsion


class CompulsionRules(Protocol):
    """A system's compulsions (seed 001, V5-14: ``systems.v5.compulsions``), its part ``compulsions``: what
    the Storyteller may call (``server.usecases.compulsions``) and Discord's ``/compulsion`` offers."""

    @property
    def UNTIL(self) -> tuple[str, ...]: ...  # how long one lasts: the scene's end, the Storyteller's say
    @property
    def COMPULSIONS(self) -> Mapping[str, CompulsionShape]: ...  # by id, in the book's order

    # the compulsion called: the one named, else the clan's; refused (``RuleError``) for a creature
    # without one, an unknown one, or a clan without one when none is named
    def choose(self, clan: str, creature: str, compulsion: str | None) -> str: ...

    def check_until(self, until: str) -> str: ...  # ``until`` when it is one of ``UNTIL``, else refused


class SystemPowers(Protocol):
    """A system's powers rolled in one step (``systems.v5.powers``), its part ``powers``."""

    # the Attributes a power's pool offers (the book's choice), None: unknown or rolls nothing
    def power_attributes(self, discipline: str, power: str) -> tuple[str, ...] | None: ...


def compulsion_rules(system: object) -> CompulsionRules | None:
    """A system's compulsions (``CompulsionRules``), None when it has none."""
    return cast("CompulsionRules | None", part(system, "compulsions", lambda m: m.COMPULSIONS))


def powers(system: object) -> SystemPowers | None:
    """A system's powers' rolls (``SystemPowers``), None when it has none."""
    return cast("SystemPowers | None", part(system, "powers", lambda m: m.POWERS))


class RegisteredModule(SystemModule, OutsideParts, Protocol):
    """The play module of a system registered from outside: the interface, and its parts of the rooms."""


SYSTEM_IDS = SHIPPED  # the systems the package ships (``rollbook.systems.SHIPPED``)
SYSTEMS_PACKAGE = "rollbook.systems"  # a shipped system's package: ``rollbook.systems.<id>``
_MODULES: dict[str, SystemModule] = {}  # the systems registered from outside, their play modules
_OUTSIDE: dict[str, OutsideParts] = {}  # the systems registered from outside, their parts of the rooms


def register(system_id: str, module: RegisteredModule) -> None:
    """Add a system's play module (its rules module is ``rollbook.rules.register``'s): the extension
    point of a system defined outside the package; a shipped system cannot be replaced."""
    if system_id in SYSTEM_IDS:
        raise ValueError(f"{system_id} is a shipped system")
    _MODULES[system_id] = module
    _OUTSIDE[system_id] = module


def unregister(system_id: str) -> None:
    """Remove a system ``register`` added (a shipped system stays)."""
    if system_id not in SYSTEM_IDS:
        _MODULES.pop(system_id, None)
        _OUTSIDE.pop(system_id, None)


def system_ids() -> tuple[str, ...]:
    """Every system id in the registry: the shipped ones, then those registered, in order."""
    return SYSTEM_IDS + tuple(_MODULES)


def system_module(system: Any) -> SystemModule:
    """The play module of a system id (a shipped system's ``play`` module of its package); ``unknown_system``
    for anything else."""
    if isinstance(system, str) and system in _MODULES:
        return _MODULES[system]
    shipped = own_module(system, "play")
    if shipped is None:
        raise RuleError(
            "unknown_system",
            system=system if isinstance(system, str) else repr(system),
            known=list(system_ids()),
        )
    return cast(SystemModule, shipped)


_OWN_MODULES: dict[str, ModuleType | None] = {}


def own_module(system: object, name: str) -> ModuleType | None:
    """A shipped system's module ``name`` of its package, ``rollbook.systems.<id>.<name>``
    (``own_module("v5", "words")`` is ``rollbook.systems.v5.words``, its words; ``rollbook.systems``'
    ``ROOMS`` says each name's room); None when the system has none of that name, or is not shipped. The
    rooms' registries (``present.words``, ``present.exchange``, ``odds``…) derive from ``SYSTEM_IDS``
    with it, so a system's part of a room is declared once, by its module, and found by its name."""
    if not isinstance(system, str) or system not in SYSTEM_IDS:
        return None
    dotted = f"{SYSTEMS_PACKAGE}.{system}.{name}"
    if dotted not in _OWN_MODULES:
        try:
            _OWN_MODULES[dotted] = importlib.import_module(dotted)
        except ModuleNotFoundError as error:
            if error.name != dotted:
                raise  # the module is there and fails to import: loudly
            _OWN_MODULES[dotted] = None
    return _OWN_MODULES[dotted]


def declared(system: object) -> OutsideParts | None:
    """The parts of the rooms a system registered from outside (``register``) declares on its play
    module (``OutsideParts``: its words, ``WORDS``, its exchange, ``EXCHANGE``…, read as attributes);
    None for a shipped system (its parts are its package's modules: ``own_module``) or an unknown one."""
    return _OUTSIDE.get(system) if isinstance(system, str) else None


Member = Callable[
    [OutsideParts], object
]  # which part a room reads of a registered system: ``lambda m: m.WORDS``


def part(system: object, name: str, member: Member) -> Any:
    """A system's part of a room, the one way to it: a shipped system's module ``name`` of its package
    (``own_module(system, name)``), or what one registered from outside declares (``member`` of its
    ``OutsideParts``); None when it has none. Each room narrows it to its own interface."""
    own = own_module(system, name)
    if own is not None:
        return own
    outside = declared(system)
    return member(outside) if outside is not None else None


class Parts(Mapping[str, Any]):
    """Each registered system's part of a room as a live mapping, system id -> its part (``part``): a
    shipped system's module ``name`` of its package, what one registered from outside declares
    (``member``); a system without one is not in it. A registry of a room is one of these, never a hand
    list of ids."""

    def __init__(self, name: str, member: Member) -> None:
        self.name, self.member = name, member

    def __getitem__(self, system: str) -> Any:
        found = part(system, self.name, self.member)
        if found is None:
            raise KeyError(system)
        return found

    def __iter__(self) -> Iterator[str]:
        return (system for system in system_ids() if system in self)

    def __contains__(self, system: object) -> bool:
        return part(system, self.name, self.member) is not None

    def __len__(self) -> int:
        return sum(1 for _ in self)


class ModuleMembers(Mapping[str, Any]):
    """A member of every registered system's play module as a live mapping, system id -> its value
    (``ModuleMembers(lambda module: module.EXAMPLES)``): declared once, by each module."""

    def __init__(self, member: Callable[[SystemModule], Any]) -> None:
        self.member = member

    def __getitem__(self, system: str) -> Any:
        if system not in system_ids():
            raise KeyError(system)
        return self.member(system_module(system))

    def __iter__(self) -> Iterator[str]:
        return iter(system_ids())

    def __len__(self) -> int:
        return len(system_ids())


def request_type(system: str, kind: object) -> type:
    """The rules request type a roll of ``kind`` is read back as from its plain request (its odds:
    ``POST …/odds``, the web's odds box, Discord's ``/odds``): a system registered from outside, the
    kind's own as its receipt records it (``ROLL_RECORDS``: a second action's request is its own); a
    shipped system, its quick roll's (``QUICK.REQUEST``: each has one for the rolls it gives odds of)."""
    module = system_module(system)
    recorded = module.ROLL_RECORDS.get(kind) if isinstance(kind, str) else None
    if declared(system) is not None and recorded is not None and recorded.request is not None:
        return recorded.request
    return module.QUICK.REQUEST


def reads_compulsion(system: str) -> bool:
    """Whether the system's rolls take a compulsion in force (V5's, seed 001: ``READS_COMPULSION``)."""
    return system_module(system).READS_COMPULSION


__all__ = [
    "SYSTEMS_PACKAGE",
    "SYSTEM_IDS",
    "CompulsionRules",
    "CompulsionShape",
    "Member",
    "ModuleMembers",
    "OutsideParts",
    "Parts",
    "QuickModule",
    "RegisteredModule",
    "SystemModule",
    "SystemPowers",
    "TurnRules",
    "compulsion_rules",
    "declared",
    "own_module",
    "part",
    "powers",
    "reads_compulsion",
    "register",
    "request_type",
    "system_ids",
    "system_module",
    "unregister",
]
