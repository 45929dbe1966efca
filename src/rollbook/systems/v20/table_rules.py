"""V20's table rules (SPEC TR-1, TR-2): the named deviations a V20 chronicle may switch on, each
replacing the V20 rule it cites. Declared here, once, by the system they belong to; the rules core's
registry (``rollbook.rules.table``) finds them by this module's name, and the resolver
(``systems.v20.rules``) and the turn's limits (``systems.v20.turns``) read the ids. Pure."""

from __future__ import annotations

from rollbook.rules.table import TableRule

# TR-2: every V20 table rule, with its id. Further rules are added to SPEC TR-2 first, then here.
SPECIALTY_REROLL_TENS = "v20.specialty_reroll_tens"  # replaces V20-7's "a 10 counts twice"
ONES_DO_NOT_CANCEL = "v20.ones_do_not_cancel"  # V20-8 off
WILLPOWER_ONCE_PER_TURN = "v20.willpower_once_per_turn"  # V20-9's table limit enforced

TABLE_RULES: tuple[TableRule, ...] = (
    TableRule(SPECIALTY_REROLL_TENS, "v20", "V20-7"),
    TableRule(ONES_DO_NOT_CANCEL, "v20", "V20-8"),
    TableRule(WILLPOWER_ONCE_PER_TURN, "v20", "V20-9"),
)

__all__ = ["ONES_DO_NOT_CANCEL", "SPECIALTY_REROLL_TENS", "TABLE_RULES", "WILLPOWER_ONCE_PER_TURN"]
