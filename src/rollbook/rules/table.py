"""Table rules (SPEC TR-1, TR-2): named deviations a chronicle may switch on, each replacing one
SPEC rule that it cites. Pure: each rule declared once here (its id, the system it belongs to, the
rule it replaces, its kind of value), and the check that turns any list of ids into the canonical set
(sorted, without repeats) a request and a receipt record.

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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rollbook.rules.base import RuleError

# The kinds of value a table rule takes. TR-1 knows one: a switch, on while its id is in the set in
# force (a request's and a receipt's ``table_rules``), off otherwise.
ValueKind = Literal["switch"]


@dataclass(frozen=True, slots=True)
class TableRule:
    id: str  # "<system>.<name>" (TR-2)
    system: str
    replaces: str  # the SPEC rule it replaces (TR-1)
    value: ValueKind = "switch"


# TR-2: every table rule, with its id. Further rules are added to SPEC TR-2 first, then here.
SPECIALTY_REROLL_TENS = "v20.specialty_reroll_tens"  # replaces V20-7's "a 10 counts twice"
ONES_DO_NOT_CANCEL = "v20.ones_do_not_cancel"  # V20-8 off
WILLPOWER_ONCE_PER_TURN = "v20.willpower_once_per_turn"  # V20-9's table limit enforced

_SHIPPED: tuple[TableRule, ...] = (
    TableRule(SPECIALTY_REROLL_TENS, "v20", "V20-7"),
    TableRule(ONES_DO_NOT_CANCEL, "v20", "V20-8"),
    TableRule(WILLPOWER_ONCE_PER_TURN, "v20", "V20-9"),
)
TABLE_RULES: dict[str, TableRule] = {rule.id: rule for rule in _SHIPPED}


def register(rule: TableRule) -> TableRule:
    """Declare a table rule of a system defined outside the package; a shipped rule is never replaced."""
    if rule.id in {shipped.id for shipped in _SHIPPED}:
        raise ValueError(rule.id)  # a code, no sentence: the rules core says none
    TABLE_RULES[rule.id] = rule
    return rule


def unregister(rule_id: str) -> None:
    """Remove a rule ``register`` added (a shipped rule stays)."""
    if rule_id not in {shipped.id for shipped in _SHIPPED}:
        TABLE_RULES.pop(rule_id, None)


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
    "ONES_DO_NOT_CANCEL",
    "SPECIALTY_REROLL_TENS",
    "TABLE_RULES",
    "TableRule",
    "ValueKind",
    "WILLPOWER_ONCE_PER_TURN",
    "check_table_rules",
    "declared",
    "in_force_replacing",
    "register",
    "rules_for",
    "unregister",
]
