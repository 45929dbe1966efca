"""English msgids for the error codes of the table rules, contested and extended rolls (SPEC TR-1 …
TR-5) and the rules readings of V20-7 and V20-19; the words of each table rule, by its id (TR-2: the
declarations in ``rules.table`` carry no sentence).

Translations: ``locale/<lang>/LC_MESSAGES/rules.po``.
"""

from __future__ import annotations

from rollbook.i18n import N_

RULES_MESSAGES: dict[str, str] = {
    # TR-1, TR-2
    "unknown_table_rule": N_("{rule} is not a table rule of {system}; known: {known}."),
    "not_a_list": N_("{field} must be a list."),
    # TR-3, TR-4
    "contest_not_for_system": N_("Contested and extended rolls are for {systems}, not {system}."),
    "not_a_contest_roll": N_("This roll has no successes to count in a contest."),
    "extended_over": N_("This extended action is over ({state})."),
    "contest_same_character": N_("A character cannot contest against itself (character {character})."),
    "contest_side_rolled": N_("The {side} has already rolled (entry {seq})."),
    "contest_not_found": N_("No contest at entry {seq}."),
    "extended_not_found": N_("No extended action at entry {seq}."),
    "contest_side_not_a_test": N_(
        "{field}: a side of a V5 contest is a test or a Willpower roll, never a Rouse check, a Remorse "
        "roll or a frenzy roll."
    ),
    "contest_side_difficulty": N_(
        "{field}: a side of a V5 contest has no difficulty, only its successes count against the other side's."
    ),
    "extended_without_rolls": N_("{field} is empty: an extended action's line needs at least one roll."),
    # T-3 Reading
    "magazine_not_empty": N_(
        "The magazine of {weapon} still holds {loaded} rounds: a magazine is changed only when empty."
    ),
    # V20-19
    "trait_above_generation": N_(
        "{trait} {rating} is above the maximum of Generation {generation} ({maximum}): a Strict chronicle refuses it."
    ),
    # V20-7 Reading: a trait above 5 takes a specialty too
    "specialty_rating_too_low": N_(
        "A specialty needs a trait rated 4 or more; this trait is rated {rating}."
    ),
}


# TR-2: each table rule's name (the Storyteller's panel, the settings card), by the id it is declared
# with in ``rules.table``. A rule without a name here is shown by its id.
TABLE_RULE_NAMES: dict[str, str] = {
    "v20.specialty_reroll_tens": N_("a specialty rerolls its 10s (V20-7 replaced)"),
    "v20.ones_do_not_cancel": N_("1s cancel no success (V20-8 off)"),
    "v20.willpower_once_per_turn": N_("one Willpower success per turn, enforced (V20-9)"),
}

# TR-1: what a receipt's view says, while a rule is in force, beside the number of the SPEC rule it
# replaces (``rules.table.in_force_replacing``), instead of that rule's own words.
TABLE_RULE_NOTES: dict[str, str] = {
    "v20.ones_do_not_cancel": N_("table rule: 1s cancel no success"),
}
