"""The table's authority (SPEC A-1, A-2): which parts of a roll are the Storyteller's to set.

Pure game logic over plain JSON, like the rest of ``rollbook.play``. Every field of every action
model of every system is classified by the system's play module (``EDGE_FIELDS`` and
``ACTION_PLAYER_FIELDS``: kind -> field names) as either the **player's** (which traits, which
weapon, the declared action, spending their own Willpower) or an **edge** (what the rules leave to
the Storyteller: difficulty, successes required, extra or fewer dice, automatic successes from
powers, an untrained Knowledge's leave, advantage/disadvantage, bonus/malus, opposed rolls,
absurd/trivial rulings). ``hidden`` (a hidden roll) is an edge of every action of every system.

``tests/play/test_authority.py`` checks that the classification covers exactly the fields of the
action models, so a field added to an action model cannot be forgotten; until it is classified it
is treated as an edge (``is_edge``): fail closed.

The pieces the chronicle server composes:

- ``baseline(system, kind, standing)``: what applies when nobody asks for anything: each edge's
  model default, overlaid by the Storyteller's standing values (standing difficulty, standing
  grants, A-1).
- ``split(system, action, baseline, hidden)``: a player's request cut into the player's part and
  the edges asked (the fields whose value differs from the baseline); the request is validated as
  a whole first, so an ask is always a roll the rules accept.
- ``compose(system, player, baseline, granted)``: the action that is rolled once the Storyteller
  granted ``granted`` (as asked or changed): the player's part, the baseline, the granted edges.
- ``check_edges(system, kind, edges)``: a grant's or a standing grant's values, each checked by
  its field's own type and range.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from rollbook.play.common import JsonObject, Model, dump, kind_of, parse_kind, validation_error
from rollbook.play.systems import system_module
from rollbook.rules.base import RuleError

HIDDEN = "hidden"  # a hidden roll is the Storyteller's call in every system
PLAYER = "player"
EDGE = "edge"


def player_fields(system: str, kind: str) -> frozenset[str]:
    """The player's fields of one action kind (A-1)."""
    return system_module(system).ACTION_PLAYER_FIELDS.get(kind, frozenset())


def listed_edges(system: str, kind: str) -> frozenset[str]:
    """The fields of one action kind listed as the Storyteller's (A-1; ``hidden`` aside)."""
    return system_module(system).EDGE_FIELDS.get(kind, frozenset())


def action_models(system: str) -> Mapping[str, type[Model]]:
    """kind -> Pydantic model of the system's actions (the play layer's own ``ACTIONS``)."""
    return system_module(system).ACTIONS


def is_edge(system: str, kind: str, field: str) -> bool:
    """A-1: is this field of this action the Storyteller's? Unclassified fields are (fail closed)."""
    if field == HIDDEN:
        return True
    return field not in player_fields(system, kind)


def edge_fields(system: str, kind: str) -> list[str]:
    """The edges of one action kind, in the model's field order, then ``hidden``."""
    return list(_edges_of(system, kind))


def _edges_of(system: str, kind: str) -> tuple[str, ...]:
    # ``is_edge`` of each field, the kind's player fields read once for all of them
    model = action_models(system)[kind]
    players = player_fields(system, kind)
    return (*[name for name in model.model_fields if name == HIDDEN or name not in players], HIDDEN)


def all_edge_fields(system: str) -> list[str]:
    """Every edge any action of the system has (what a standing grant may name)."""
    seen: list[str] = []
    for kind in action_models(system):
        for name in edge_fields(system, kind):
            if name not in seen:
                seen.append(name)
    return seen


def unclassified(system: str) -> list[str]:
    """``kind.field`` of every action field listed neither as the player's nor as an edge, and of
    every listed field the models do not have (both must be empty: the test of A-1's coverage)."""
    problems = []
    models = action_models(system)
    edge_table = system_module(system).EDGE_FIELDS
    player_table = system_module(system).ACTION_PLAYER_FIELDS
    if set(models) != set(edge_table) or set(models) != set(player_table):
        problems.append(f"kinds:{sorted(set(models) ^ set(edge_table) | set(models) ^ set(player_table))}")
    for kind, model in models.items():
        edges = edge_table.get(kind, frozenset())
        players = player_table.get(kind, frozenset())
        fields = set(model.model_fields)
        problems += [f"{kind}.{name}:both" for name in sorted(edges & players)]
        problems += [f"{kind}.{name}:unclassified" for name in sorted(fields - edges - players)]
        problems += [f"{kind}.{name}:not_a_field" for name in sorted((edges | players) - fields)]
    return problems


# --- values ---------------------------------------------------------------------------------

_REQUIRED = object()  # an edge without a default (V5 frenzy difficulty, R-7 dice and threshold)


def _default(field_info: FieldInfo) -> Any:
    if field_info.is_required():
        return _REQUIRED
    if field_info.default_factory is not None:
        return field_info.get_default(call_default_factory=True)  # the factory's value
    return field_info.default  # the model's own: ``baseline``, its one reader, copies what may change


def _adapter(system: str, kind: str, field: str) -> TypeAdapter[Any]:
    if field == HIDDEN:
        return TypeAdapter(bool)
    # the field's annotation with its constraints (``Annotated[annotation, *metadata]`` when it has any)
    return TypeAdapter(action_models(system)[kind].model_fields[field].rebuild_annotation())


def check_edges(system: str, kind: str | None, edges: Any) -> JsonObject:
    """Edge values given by the Storyteller (a grant changed, a standing grant): each name an edge
    of ``kind`` (of any action of the system when ``kind`` is None), each value of its field's type
    and range. Returns a plain copy."""
    if not isinstance(edges, dict):
        raise RuleError("not_an_object", field="edges")
    if kind is not None and kind not in action_models(system):
        raise RuleError("bad_choice", field="kind", value=kind, choices=sorted(action_models(system)))
    out = {}
    for name, value in edges.items():
        kinds = (
            [kind]
            if kind is not None
            else [k for k in action_models(system) if name in edge_fields(system, k)]
        )
        if not isinstance(name, str) or not kinds or name not in edge_fields(system, kinds[0]):
            raise RuleError(
                "not_an_edge",
                field=f"edges.{name}",
                system=system,
                edges=all_edge_fields(system) if kind is None else edge_fields(system, kind),
            )
        for each in kinds:
            try:
                _adapter(system, each, name).validate_python(value, strict=True)
            except ValidationError as invalid:
                error = validation_error(invalid, "edges")
                raise RuleError(error.code, **{**error.params, "field": f"edges.{name}"}) from None
        out[name] = copy.deepcopy(value)
    return out


def baseline(system: str, kind: str, standing: Mapping[str, Any] | None = None) -> JsonObject:
    """A-1: the value of each edge of ``kind`` when nobody asks for anything: the model's default,
    overlaid by the Storyteller's ``standing`` values (only those that are edges of ``kind``).
    An edge with no default and no standing value is absent (it must be asked for or granted)."""
    standing = standing or {}
    out: JsonObject = {}
    for name, default in _defaults_of(system, kind):
        if name in standing:
            out[name] = copy.deepcopy(standing[name])
        elif default is not _REQUIRED:
            out[name] = default if type(default) in _IMMUTABLE else copy.deepcopy(default)
    return out


_IMMUTABLE = (type(None), bool, int, float, str)


def _defaults_of(system: str, kind: str) -> tuple[tuple[str, Any], ...]:
    # (edge, the model's default or _REQUIRED), ``hidden`` False.
    model = action_models(system)[kind]
    return tuple(
        (name, False if name == HIDDEN else _default(model.model_fields[name]))
        for name in _edges_of(system, kind)
    )


@dataclass(frozen=True)
class Split:
    """A request cut along A-1: ``player`` (the player's part, plain), ``asked`` (each edge whose
    value differs from the baseline: what a player must ask the Storyteller for; empty when the
    request asks nothing), ``action`` (the action as rolled if every asked edge were granted,
    validated and plain, without ``hidden``) and ``hidden``."""

    system: str
    kind: str
    player: JsonObject
    asked: JsonObject
    action: JsonObject
    hidden: bool


def _validated(system: str, action: JsonObject) -> JsonObject:
    return dump(parse_kind(action_models(system), action, "action"))  # the model's own containers: no copy


def split(
    system: str,
    action: Any,
    base: Mapping[str, Any] | None = None,
    *,
    hidden: bool = False,
    standing: Mapping[str, Any] | None = None,
) -> Split:
    """Cut a request into the player's part and the edges it asks (A-1). ``base``: the baseline
    (``baseline(...)``; computed from ``standing`` when not given). The request is validated whole
    (edges as asked) before anything else, so an unknown field or a value out of range is refused
    here and never becomes an ask."""
    if not isinstance(action, dict):
        raise RuleError("not_an_object", field="action")
    models = action_models(system)
    kind = kind_of(models, action, "action")  # the same refusal the play layer gives
    base = dict(baseline(system, kind, standing) if base is None else base)
    edge_names = _edges_of(system, kind)
    edges = set(edge_names)
    full = _validated(system, {**{k: v for k, v in base.items() if k != HIDDEN}, **action})
    given = set(action)
    asked = {
        name: full[name]
        for name in edge_names
        if name != HIDDEN and name in given and (name not in base or full[name] != base[name])
    }
    if hidden and not base.get(HIDDEN, False):  # a request not asking for a hidden roll leaves the baseline
        asked[HIDDEN] = True
    player = {name: value for name, value in full.items() if name not in edges}
    return Split(
        system=system,
        kind=kind,
        player=player,
        asked=asked,
        action=full,
        hidden=hidden or bool(base.get(HIDDEN, False)),
    )


def compose(
    system: str, player: Mapping[str, Any], base: Mapping[str, Any], granted: Mapping[str, Any]
) -> tuple[JsonObject, bool]:
    """The action rolled under a grant (A-1): the player's part, the baseline, then the granted
    edges; validated, plain. Returns (action, hidden)."""
    kind = player.get("kind")
    granted = check_edges(system, kind, dict(granted))
    for name in granted:
        if name in player:  # cannot happen with a split's player part; kept as a guard on stored data
            raise RuleError(
                "not_an_edge",
                field=f"edges.{name}",
                system=system,
                edges=all_edge_fields(system) if kind is None else edge_fields(system, kind),
            )
    merged = {
        **{k: v for k, v in base.items() if k != HIDDEN},
        **{k: v for k, v in granted.items() if k != HIDDEN},
        **player,
    }
    hidden = bool(granted.get(HIDDEN, base.get(HIDDEN, False)))
    return _validated(system, merged), hidden


def asked_edges(
    system: str, action: Mapping[str, Any], base: Mapping[str, Any], *, hidden: bool = False
) -> JsonObject:
    """The edges a (validated, plain) action carries beyond the baseline: what ``rollbook log
    verify`` expects to be empty for a player's roll made without a grant."""
    kind: str = action["kind"]
    out = {
        name: action[name]
        for name in edge_fields(system, kind)
        if name != HIDDEN and name in action and (name not in base or action[name] != base[name])
    }
    if hidden and not base.get(HIDDEN, False):
        out[HIDDEN] = True
    return out


def describe(system: str) -> JsonObject:
    """For forms and the API: kind -> its edges (with their baseline defaults)."""
    return {
        kind: {"edges": edge_fields(system, kind), "defaults": baseline(system, kind)}
        for kind in action_models(system)
    }


__all__ = [
    "HIDDEN",
    "Split",
    "is_edge",
    "edge_fields",
    "all_edge_fields",
    "unclassified",
    "check_edges",
    "baseline",
    "split",
    "compose",
    "asked_edges",
    "describe",
]
