"""Table rules (SPEC TR-1, TR-2): named deviations a chronicle may switch on, each replacing one
SPEC rule that it cites. Pure: what a rule declares (``TableRule``: its id, the system it belongs to,
the rule it replaces, its kind of value), the registry of the rules declared (``TABLE_RULES``), and the
check that turns any list of ids into the canonical set (sorted, without repeats) a request and a
receipt record. A shipped system declares its rules once, in its package's ``table_rules`` module
(``systems/v20/table_rules.py``: ``TABLE_RULES``), found here by that module's name.

Everything else reads these declarations instead of naming a rule: the JSON API's enum, the web
panel's boxes, the CLI's ``--table-rule`` choices, a receipt view's note on the SPEC rule a rule in
force replaces (``in_force_replacing``). A rule's words are its id's msgids
(``i18n.messages_rules.TABLE_RULE_NAMES``, ``TABLE_RULE_NOTES``); the rules code says no sentence.
A system defined outside the package declares its own rules with ``register`` (as
``rollbook.rules.register`` registers the system).

The set in force changes only through a Storyteller's log entry (A-5, ``server.usecases.chronicles``);
the resolver reads it from the request (``systems.v20.rules.V20Request.table_rules``), the odds engine from
the same request, and ``rollbook log verify`` recomputes each receipt under the set it records.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from rollbook.rules.base import RuleError
from rollbook.systems import SHIPPED

# The kinds of value a table rule takes. TR-1 knows one: a switch, on while its id is in the set in
# force (a request's and a receipt's ``table_rules``), off otherwise.
ValueKind = Literal["switch"]


@dataclass(frozen=True, slots=True)
class TableRule:
    id: str  # "<system>.<name>" (TR-2)
    system: str
    replaces: str  # the SPEC rule it replaces (TR-1)
    value: ValueKind = "switch"


# The rules declared, id -> declaration: the shipped systems' (each package's ``table_rules`` module,
# read on first use: those modules import this one), then those ``register`` adds.
_DECLARED: dict[str, TableRule] = {}
_SHIPPED_IDS: set[str] = set()
_read: list[bool] = []


def _shipped() -> set[str]:
    """The shipped systems' rules, read once from their packages (``rollbook.systems.<id>.table_rules``,
    by name, as ``rollbook.rules`` finds their rules): the ids of the shipped rules."""
    if not _read:  # two first uses at once read the same modules twice, to the same effect
        for system in SHIPPED:
            dotted = f"rollbook.systems.{system}.table_rules"
            try:
                module = importlib.import_module(dotted)  # it imports this module, already loaded
            except ModuleNotFoundError as error:
                if error.name != dotted:
                    raise
                continue  # the system has no table rule
            for rule in module.TABLE_RULES:
                _DECLARED[rule.id] = rule
                _SHIPPED_IDS.add(rule.id)
        _read.append(True)
    return _SHIPPED_IDS


class _Declarations(Mapping[str, TableRule]):
    """Every table rule declared, id -> its declaration (TR-2), the shipped ones read on first use."""

    def __getitem__(self, rule_id: str) -> TableRule:
        _shipped()
        return _DECLARED[rule_id]

    def __iter__(self) -> Iterator[str]:
        _shipped()
        return iter(list(_DECLARED))

    def __len__(self) -> int:
        _shipped()
        return len(_DECLARED)


TABLE_RULES: Mapping[str, TableRule] = _Declarations()


def register(rule: TableRule) -> TableRule:
    """Declare a table rule of a system defined outside the package; a shipped rule is never replaced."""
    if rule.id in _shipped():
        raise ValueError(rule.id)  # a code, no sentence: the rules core says none
    _DECLARED[rule.id] = rule
    return rule


def unregister(rule_id: str) -> None:
    """Remove a rule ``register`` added (a shipped rule stays)."""
    if rule_id not in _shipped():
        _DECLARED.pop(rule_id, None)


def declared(system: str | None = None) -> list[TableRule]:
    """The declarations, sorted by id: every system's, or ``system``'s."""
    return sorted(
        (rule for rule in TABLE_RULES.values() if system is None or rule.system == system),
        key=lambda rule: rule.id,
    )


def rules_for(system: str) -> list[str]:
    """The ids of the table rules a chronicle of ``system`` may switch on, sorted."""
    return [rule.id for rule in declared(system)]


def in_force_replacing(in_force: Iterable[str] | None, spec_rule: str) -> TableRule | None:
    """TR-1: the rule of the set ``in_force`` that replaces ``spec_rule`` (a SPEC rule id), if any —
    what a view of a receipt says beside the number that rule counts."""
    for rule_id in sorted(in_force or ()):
        rule = TABLE_RULES.get(rule_id)
        if rule is not None and rule.replaces == spec_rule:
            return rule
    return None


def check_table_rules(system: str, ids: object) -> tuple[str, ...]:
    """TR-1: the canonical set (sorted, each id once) of ``ids`` for ``system``; an unknown id, or a
    rule of another system, is refused (``unknown_table_rule``)."""
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
        raise RuleError("not_a_list", field="table_rules")
    known = rules_for(system)
    checked: set[str] = set()
    for rule in ids:
        if not isinstance(rule, str) or rule not in known:
            raise RuleError("unknown_table_rule", rule=str(rule), system=system, known=known)
        checked.add(rule)
    return tuple(sorted(checked))


__all__ = [
    "TABLE_RULES",
    "TableRule",
    "ValueKind",
    "check_table_rules",
    "declared",
    "in_force_replacing",
    "register",
    "rules_for",
    "unregister",
]
