"""English msgids for the error codes of V5 at the table: compulsions (seed 001, V5-14),
the hunger frenzy offered after a Rouse at Hunger 5 (V5-10), feeding, Remorse, damage and powers.

Translations: ``locale/<lang>/LC_MESSAGES/v5.po``.
"""

from __future__ import annotations

from rollbook.i18n import N_

MESSAGES: dict[str, str] = {
    # compulsions (seed 001)
    "no_compulsion_for_creature": N_("A {creature} has no Beast, hence no compulsion."),
    "no_clan_compulsion": N_("The clan {clan} has no compulsion of its own: name one ({choices})."),
    "compulsion_not_for_system": N_("Compulsions are V5's, not {system}'s."),
    "compulsion_in_force": N_("A compulsion is already in force (entry {seq}, {compulsion}): end it first."),
    "no_compulsion": N_("No compulsion is in force for this character."),
    "not_a_beast_result": N_("Entry {seq} is not a messy critical or a bestial failure of this character."),
    # V5-10: the hunger frenzy test a failed Rouse at Hunger 5 offers
    "no_frenzy_offered": N_("Entry {seq} offers no hunger frenzy test for this character."),
    "hunger_slaked": N_(
        "Hunger {hunger} cannot be slaked further (below {floor} only by draining the vessel to death)."
    ),
    # Discipline powers
    "power_not_on_sheet": N_("The sheet lists no power {power} of {trait}."),
    "power_cost_unknown": N_(
        "The book's cost and pool of {power} ({trait}) are not known here: roll it as a test and a Rouse check."
    ),
    "power_without_roll": N_("{power} rolls nothing and costs nothing: there is nothing to roll."),
    "power_rolls_nothing": N_("{power} rolls no pool: it takes no Attribute."),
    "frenzy_already_called": N_("The hunger frenzy test of entry {seq} was already called (entry {by})."),
}
