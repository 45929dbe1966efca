"""The action catalogue (SPEC A-1, A-2): every action a member can take, declared once.

Each entry (``Action``) names its system, its kind, the way a face makes it (``way``), its typed
request (the play layer's Pydantic model), which of the request's fields are the player's and which
are edges the Storyteller grants (``rollbook.play.authority``, A-1), the use case that performs it
(a name in ``rollbook.server.usecases``: this module is pure and imports no server), its odds
builder, and a worked example of the player's part of the request.

The ways:

- ``roll``: an action named by traits on a character's sheet (``usecases.rolls.roll``; the combat
  chain's steps, V20-17, T-4, T-5, are rolls that follow another);
- ``quick``: dice without a sheet (``usecases.rolls.quick_roll``; ``rollbook.play.quick``);
- ``followup``: a follow-up on a stored receipt (V5-8 Willpower reroll, R-6 a card played);
- ``contest_side`` / ``extended_step``: a side of a contested roll or a roll of an extended action
  (TR-3, TR-4), whose action the Storyteller declared: the player only presses "roll".

``decide`` is the one authority check of every way (A-1): the request cut into the player's part and
the edges it asks beyond the baseline; the server refuses or asks what ``decide`` says is asked, on
every face (the JSON API, the web pages, Discord), so no face rolls an edge without a grant or a
standing rule. ``tests/server/test_catalogue_faces.py`` derives its cases from ``ACTIONS``: an action
is covered by being declared here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rollbook.play import authority, quick
from rollbook.play.common import JsonObject, Model
from rollbook.play.systems import SYSTEM_IDS, ModuleMembers, system_ids, system_module
from rollbook.rules.base import RuleError

Way = Literal["roll", "quick", "followup", "contest_side", "extended_step"]
Odds = Literal["preview", "quick", "none"]

STORYTELLER = "storyteller"  # the role a Storyteller's request is made under (server.access.STORYTELLER)

# TR-3, TR-4: the kinds of roll a contest's side or an extended action's roll may be (the Storyteller
# declares them: the player's part is pressing "roll").
CONTEST_KINDS: dict[str, tuple[str, ...]] = {
    "v20": ("test", "willpower", "virtue"),
    "v5": ("test", "willpower", "frenzy"),
}

# The engine has no odds of these rolls (a V20 soak's levels are counted, not rolled against a
# target: V20-16); every other roll's odds are those of the request ``play.preview`` builds.
NO_ODDS: frozenset[tuple[str, str]] = frozenset({("v20", "soak")})

# Each system's worked examples of its actions (the player's part of each request) and a character
# who can make them all: declared by its play module (``EXAMPLES``, ``EXAMPLE_SHEET``), read here.
EXAMPLES: Mapping[str, Mapping[str, JsonObject]] = ModuleMembers(lambda module: module.EXAMPLES)
EXAMPLE_SHEETS: Mapping[str, JsonObject] = ModuleMembers(lambda module: module.EXAMPLE_SHEET)


@dataclass(frozen=True)
class Action:
    """One action of the catalogue. ``player`` and ``edges`` (with ``hidden``) split the request's
    fields along A-1 (empty for a way whose request the player does not write); ``usecase`` the
    function of ``rollbook.server.usecases`` that performs it (``module.function``); ``odds`` how its
    odds are built from the request the roll makes; ``follows`` the kinds it may follow in the combat
    chain (empty: it starts one or stands alone); ``storyteller_only``: a player may not make it."""

    system: str
    kind: str
    way: Way
    model: type[Model] | None
    player: frozenset[str]
    edges: tuple[str, ...]
    usecase: str
    odds: Odds
    example: JsonObject = field(default_factory=dict)
    follows: tuple[str, ...] = ()
    storyteller_only: bool = False

    @property
    def id(self) -> str:
        return f"{self.system}.{self.way}.{self.kind}"


def _rolls(system: str) -> list[Action]:
    module = system_module(system)
    out = []
    for kind, model in module.ACTIONS.items():
        out.append(
            Action(
                system=system,
                kind=kind,
                way="roll",
                model=model,
                player=authority.player_fields(system, kind),
                edges=tuple(authority.edge_fields(system, kind)),
                usecase="rolls.roll",
                odds="none" if (system, kind) in NO_ODDS else "preview",
                example=module.EXAMPLES.get(kind, {}),
                follows=tuple(module.CHAINS.get(kind, ())),
                storyteller_only=kind in module.STORYTELLER_ACTIONS,
            )
        )
    return out


def _followups(system: str) -> list[Action]:
    # a follow-up names dice or a card of the sheet: no edge (V5-8, R-6)
    return [
        Action(
            system=system,
            kind=kind,
            way="followup",
            model=model,
            player=frozenset(model.model_fields),
            edges=(),
            usecase="rolls.reroll",
            odds="none",
        )
        for kind, model in system_module(system).FOLLOWUPS.items()
    ]


def _quick(system: str) -> Action:
    values = system_module(system).QUICK
    edges = tuple(name for name in values.FIELDS if quick.is_quick_edge(system, name))
    return Action(
        system=system,
        kind=values.KIND,
        way="quick",
        model=None,
        player=frozenset(name for name in values.FIELDS if name not in edges),
        edges=(*edges, authority.HIDDEN),
        usecase="rolls.quick_roll",
        odds="quick",
    )


def _declared(system: str) -> list[Action]:
    # TR-3, TR-4: the Storyteller declares the action; the player's side is the press
    out = []
    for kind in CONTEST_KINDS.get(system, ()):
        for way, usecase in (
            ("contest_side", "contests.roll_contest_side"),
            ("extended_step", "contests.roll_extended"),
        ):
            out.append(
                Action(
                    system=system,
                    kind=kind,
                    way=way,  # type: ignore[arg-type]  # one of the two literals above
                    model=system_module(system).ACTIONS[kind],
                    player=frozenset(),
                    edges=(),
                    usecase=usecase,
                    odds="preview",
                )
            )
    return out


def _build(systems: tuple[str, ...]) -> tuple[Action, ...]:
    out: list[Action] = []
    for system in systems:
        out += _rolls(system)
        out.append(_quick(system))
        out += _followups(system)
        out += _declared(system)
    return tuple(out)


ACTIONS: tuple[Action, ...] = _build(SYSTEM_IDS)  # the shipped systems'
_BY_ID = {action.id: action for action in ACTIONS}


def _all() -> tuple[Action, ...]:
    """``ACTIONS``, then those of each system registered from outside (``systems.register``), built
    from its module when asked."""
    added = tuple(system for system in system_ids() if system not in SYSTEM_IDS)
    return ACTIONS + _build(added) if added else ACTIONS


def find(system: str, kind: str, way: Way = "roll") -> Action:
    """The catalogue's action; ``bad_choice`` (the play layer's own refusal) for a kind the system
    does not have."""
    found = _BY_ID.get(f"{system}.{way}.{kind}")
    if found is None and system not in SYSTEM_IDS:
        found = next((a for a in of(system, way) if a.kind == kind), None)
    if found is None:
        system_module(system)  # unknown_system first
        choices = sorted(a.kind for a in of(system, way))
        raise RuleError("bad_choice", field="kind", value=kind, choices=choices)
    return found


def of(system: str, way: Way | None = None) -> tuple[Action, ...]:
    """The system's actions (of one way when given), in the catalogue's order."""
    actions = ACTIONS if system in SYSTEM_IDS else _all()
    return tuple(a for a in actions if a.system == system and (way is None or a.way == way))


def of_way(way: Way) -> tuple[Action, ...]:
    """Every system's actions made that way."""
    return tuple(a for a in _all() if a.way == way)


@dataclass(frozen=True)
class Decision:
    """What A-1 makes of a request: ``asked`` (the edges beyond the baseline a player must ask the
    Storyteller for; always empty for the Storyteller, whose edges apply as given), ``action`` (the
    request as it would be rolled, validated and plain: the roll's own request, and its odds'),
    ``hidden``, and for a roll the ``split`` (``play.authority.Split``)."""

    action_ref: Action
    action: JsonObject
    asked: JsonObject
    hidden: bool
    split: authority.Split | None = None


def decide(
    system: str,
    request: Any,
    base: Mapping[str, Any],
    *,
    role: str,
    way: Way = "roll",
    hidden: bool = False,
    mode: str = "strict",
) -> Decision:
    """A-1, for every way: ``request`` against ``base`` (the baseline: each edge's default, the
    standing difficulty, the standing grants). A roll is cut by ``play.authority.split``; a quick
    roll's values by ``play.quick.asked_edges`` (an edge moved is one that changes the rules request).
    The Storyteller's own request asks nothing."""
    if way == "quick":
        kind = quick.QUICK_KINDS[system]
        values, moved = quick.asked_edges(system, mode, request, base)
        if role == STORYTELLER:
            values, moved = dict(request), []
        # a hidden quick roll is the Storyteller's alone (``usecases.rolls.quick_roll``), never asked
        asked: JsonObject = {name: request[name] for name in moved}
        return Decision(find(system, kind, "quick"), values, asked, hidden)
    if way != "roll":
        raise RuleError("bad_choice", field="way", value=way, choices=["quick", "roll"])
    cut = authority.split(system, request, base, hidden=hidden)
    ref = find(system, cut.kind, "roll")
    asked = {} if role == STORYTELLER else cut.asked
    return Decision(ref, cut.action, asked, cut.hidden, cut)


__all__ = [
    "ACTIONS",
    "Action",
    "CONTEST_KINDS",
    "Decision",
    "EXAMPLES",
    "EXAMPLE_SHEETS",
    "NO_ODDS",
    "decide",
    "find",
    "of",
    "of_way",
]
