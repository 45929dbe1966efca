"""Table rules (SPEC TR-1, TR-2): named deviations a chronicle may switch on, each replacing one
SPEC rule that it cites. Pure: the ids, the system each belongs to, the rule it replaces, and the
check that turns any list of ids into the canonical set (sorted, without repeats) a request and a
receipt record.

The set in force changes only through a Storyteller's log entry (A-5, ``server.usecases.chronicles``);
the resolver reads it from the request (``rules.v20.V20Request.table_rules``), the odds engine from
the same request, and ``rollbook log verify`` recomputes each receipt under the set it records.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rollbook.rules.base import RuleError


@dataclass(frozen=True, slots=True)
class TableRule:
    id: str
    system: str
    replaces: str  # the SPEC rule it replaces (TR-1)


# TR-2: every table rule, with its id. Further rules are added to SPEC TR-2 first, then here.
SPECIALTY_REROLL_TENS = "v20.specialty_reroll_tens"  # replaces V20-7's "a 10 counts twice"
ONES_DO_NOT_CANCEL = "v20.ones_do_not_cancel"  # V20-8 off
WILLPOWER_ONCE_PER_TURN = "v20.willpower_once_per_turn"  # V20-9's table limit enforced

TABLE_RULES: dict[str, TableRule] = {
    rule.id: rule
    for rule in (
        TableRule(SPECIALTY_REROLL_TENS, "v20", "V20-7"),
        TableRule(ONES_DO_NOT_CANCEL, "v20", "V20-8"),
        TableRule(WILLPOWER_ONCE_PER_TURN, "v20", "V20-9"),
    )
}


def rules_for(system: str) -> list[str]:
    """The ids of the table rules a chronicle of ``system`` may switch on, sorted."""
    return sorted(rule.id for rule in TABLE_RULES.values() if rule.system == system)


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
    "WILLPOWER_ONCE_PER_TURN",
    "check_table_rules",
    "rules_for",
]
