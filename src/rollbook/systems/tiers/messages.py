"""English msgids for the error codes of the Tiers and roll-under rules (SPEC T-*, R-*).

Translations: ``locale/<lang>/LC_MESSAGES/tiers.po``.
"""

from __future__ import annotations

from rollbook.i18n import N_, Nn_

MESSAGES: dict[str, str] = {
    # shared by both systems
    "field_required": N_("A {kind} roll needs {field}."),
    "field_not_for_kind": N_("{field} does not apply to a {kind} roll."),
    # Tiers (T-1 … T-8)
    "critical_reroll_missing": N_(
        "The die at position {position} follows a 1: a critical success needs its reroll face."
    ),
    "extra_faces_after_chain": Nn_(
        "The roll ends at position {position} (a {face}, not a 1); {extra} extra face was given.",
        "The roll ends at position {position} (a {face}, not a 1); {extra} extra faces were given.",
        "extra",
    ),
    "too_many_weapons": N_("At most {most} weapons; {given} were given."),
    "two_weapons_skill_required": N_("Two weapons' bonuses need the Two Weapons skill."),
    "bonus_conflict": N_("Give the weapon bonus either as --bonus or as --weapon-bonus, not both."),
    "two_weapons_needs_two": N_("The Two Weapons skill needs two weapons; {given} were given."),
    "magazine_empty": N_("The magazine is empty: change it (that takes the rest of the turn)."),
    "bullets_exceed_magazine": N_("Cannot fire {bullets} bullets: the magazine holds {loaded}."),
    "turn_spent": N_(
        "Changing the magazine took the rest of this turn: no other action until the next turn."
    ),
    "essence_exhausted": N_("No Essence left: a spell cannot be cast at 0 Essence."),
    "not_a_raise": N_("Rating {new_rating} is not a raise from rating {current_rating}."),
    "not_enough_xp": N_(
        "Raising to rating {new_rating} costs {cost} experience points; only {points} are available."
    ),
    # roll-under (R-1 … R-8)
    "action_required": N_("Describe the action before rolling: a roll without a declared action is refused."),
    "not_a_boolean": N_("{field} must be true or false, not {value}."),
    "card_empty": N_("Card {index} has no name."),
    "too_many_cards": N_("At most {most} cards on one roll; {given} were given."),
    "card_after_roll": N_("The card {card} comes too late: cards are played before the roll."),
    "dice_expression_empty": N_("The dice expression is empty; write it like 3d6 or 2d8+1d4."),
    "dice_expression_syntax": N_(
        "{term} is not a dice term in {expression}; write dice like 3d6 or 2d8+1d4."
    ),
    "dice_expression_empty_term": N_(
        "{expression} has a + with no dice on one side; write dice like 3d6 or 2d8+1d4."
    ),
    "dice_count_out_of_range": N_(
        "{term}: the number of dice must be between {low} and {high}, not {count}."
    ),
    "dice_sides_out_of_range": N_("{term}: a die must have between {low} and {high} sides, not {sides}."),
}
