"""The cases the catalogue's generated tests play (a helper module, not a test module): derived from
``rollbook.play.catalogue.ACTIONS`` alone, so an action is covered by being declared.

- ``edge_cases()``: every edge of every action a player makes (a roll named by traits, a quick roll),
  each with a value off the baseline that the rules accept (SPEC A-1: only the Storyteller sets it);
- ``STANDING``: the standing difficulty the tables are made with (so "off the baseline" is off the
  Storyteller's standing rule, not only off the model's default);
- ``form_value``: a value as a web form posts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rollbook.play import authority, catalogue
from rollbook.play.catalogue import Action
from rollbook.rules.base import RuleError

# each table's standing difficulty (the games that take one)
STANDING: dict[str, int] = {"v20": 7, "v5": 3}

# Candidate values of an edge, tried in order; the first one the field takes, off the baseline, is used.
_CANDIDATES: list[Any] = [True, 1, 2, 3, 4, 8, "torso", "head", "lethal", "2d6", "absurd", "aggravated"]


@dataclass(frozen=True)
class EdgeCase:
    action: Action
    edge: str
    value: Any

    @property
    def id(self) -> str:
        return f"{self.action.id}.{self.edge}"


# V20-20: a dodge's difficulty is 6 whatever the table's standing difficulty (cover and terrain change
# it: the Storyteller's); every other action with a difficulty edge starts from the standing one.
NOT_STANDING = {("v20", "dodge")}


def baseline(action: Action) -> dict:
    """What applies to a player's request without asking: the model's defaults, the standing
    difficulty for every action that has a difficulty edge (``NOT_STANDING`` aside). Stated here, not
    read from the server, so that a server that forgets the standing difficulty of an action (a V5
    power rolled at difficulty 1 under a standing 3) fails the face tests."""
    standing = {}
    if (
        action.system in STANDING
        and "difficulty" in action.edges
        and (action.system, action.kind) not in NOT_STANDING
    ):
        standing["difficulty"] = STANDING[action.system]
    return authority.baseline(action.system, action.kind, standing)


def _default(action: Action, edge: str) -> Any:
    """The model's own default of an edge (what a player sends to slip under a standing rule), if any."""
    if action.way == "quick":
        return {"difficulty": 6 if action.system == "v20" else 1}.get(edge)
    info = action.model.model_fields[edge] if action.model is not None else None
    return None if info is None or info.is_required() else info.get_default(call_default_factory=True)


def _sample(action: Action, edge: str) -> Any:
    if edge == authority.HIDDEN:
        return True
    base = baseline(action)
    default = _default(action, edge)
    for value in [default, *_CANDIDATES] if default is not None else _CANDIDATES:
        if edge in base and (value == base[edge] and type(value) is type(base[edge])):
            continue
        if isinstance(base.get(edge), bool) != isinstance(value, bool) and edge in base:
            continue
        try:
            authority.check_edges(action.system, action.kind, {edge: value})
        except RuleError:
            continue
        if action.way == "roll":
            player = {k: v for k, v in action.example.items() if k not in action.edges}
            try:
                authority.split(action.system, {**player, edge: value}, base)
            except RuleError:
                continue
        return value
    raise AssertionError(f"no value off the baseline for {action.id}.{edge}: add one to _CANDIDATES")


def edge_cases() -> list[EdgeCase]:
    """Every (action, edge) a player could send, with its value off the baseline."""
    cases = []
    for action in catalogue.ACTIONS:
        if action.way not in ("roll", "quick") or action.storyteller_only:
            continue
        for edge in action.edges:
            cases.append(EdgeCase(action, edge, _sample(action, edge)))
    return cases


def form_value(value: Any) -> str:
    if value is True:
        return "on"
    return str(value)


def quick_player_values(action: Action) -> dict:
    """A quick roll's values the player may set (the pool, the skill, the declared action)."""
    values: dict[str, Any] = {}
    for name in sorted(action.player):
        values[name] = "Climb" if name == "action" else (2 if name != "level" else 10)
    return values


__all__ = ["STANDING", "EdgeCase", "baseline", "edge_cases", "form_value", "quick_player_values"]
