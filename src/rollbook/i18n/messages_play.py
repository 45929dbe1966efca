"""English msgids for the codes the play layer emits (refusals, effect flags, resources).

The play layer (``rollbook.play``) carries codes and numbers only; this is where those codes
meet sentences, translated by the ``play.po`` catalogues.
"""

from __future__ import annotations

from rollbook.i18n import N_, translate

PLAY_ERROR_MESSAGES: dict[str, str] = {
    # validation
    "bad_name": N_("{field}: {value} is not a valid id (lower-case letters, digits and _)."),
    "blank_text": N_("{field} cannot be empty."),
    "too_long": N_("{field} is too long (at most {most})."),
    "bad_request": N_("The stored request cannot be rebuilt."),
    "duplicate_name": N_("{field} names the same thing twice."),
    "duplicate_trait": N_("The trait {trait} appears twice ({field} and {other})."),
    "field_not_for_creature": N_("{field} does not apply to a {creature}."),
    "field_not_for_weapon": N_("{field} applies to firearms only ({weapon} has no magazine)."),
    "field_not_for_card": N_("{field} does not apply to a card with the {effect} effect."),
    # roles and editing
    "storyteller_only": N_("Only the Storyteller may do this ({action})."),
    "forbidden_edit": N_("A player cannot change {field}; ask the Storyteller."),
    "no_followup": N_("Rolls in {system} have no follow-up."),
    "receipt_inconsistent": N_("The stored receipt does not match its dice: {problems}."),
    "receipt_system_mismatch": N_("This receipt belongs to {receipt_system}, not {system}."),
    # the combat chain (V20-17, T-4, T-5)
    "follows_not_for_kind": N_("“{kind}” does not follow another roll."),
    "follows_wrong_kind": N_("“{kind}” follows “{allowed}”, not “{follows}”."),
    "follows_required": N_("“{kind}” follows the “{follows}” roll it comes from."),
    "follows_conflict": N_("{field} comes from the “{follows}” roll this one follows; do not type it in."),
    "attack_missed": N_("The attack missed: there is no damage to roll or soak."),
    "not_an_attack": N_("A {ability} roll is not an attack: damage follows a roll of {abilities}."),
    "weapon_needs_an_attack": N_(
        "A weapon is declared on an attack only, and a {ability} roll is not one: "
        "attacks are rolls of {abilities}."
    ),
    "weapon_not_the_attacks": N_("{weapon} is not the weapon of a {ability} attack."),
    "attack_dodged": N_("The attack was dodged: there is nothing to soak."),
    # traits and pools
    "unknown_trait": N_("The sheet has no trait {trait}."),
    "trait_not_possessed": N_("The character does not have {trait}."),
    "unknown_specialty": N_("The sheet has no specialty {specialty} on the traits rolled."),
    "one_trait_only": N_("Choose only one of {fields}."),
    "one_trait_required": N_("Choose exactly one of {fields}."),
    "empty_pool": N_("There are no {trait} dice to roll."),
    "incapacitated": N_("The character is incapacitated and cannot act."),
    "trait_cannot_be_raised": N_("{trait} cannot be raised."),
    "trait_at_maximum": N_("{trait} is already at its maximum of {maximum}."),
    # V20
    "not_enough_willpower": N_("Spending {amount} Willpower needs that much; {current} left."),
    "no_blood_pool": N_("A {creature} has no blood pool to spend."),
    "blood_per_turn_exceeded": N_("At most {per_turn} blood per turn at this Generation, not {amount}."),
    "not_enough_blood": N_("Spending {amount} blood needs that much; {current} left."),
    "nothing_to_heal": N_("There is no {damage_type} damage to heal."),
    # V5
    "no_hunger_for_creature": N_("A {creature} has no Hunger."),
    "no_blood_potency_for_creature": N_("A {creature} has no Blood Potency."),
    "no_rouse_for_creature": N_("A {creature} makes no Rouse checks."),
    "no_blood_surge_for_creature": N_("A {creature} cannot Blood Surge."),
    "no_stains": N_("There are no stains: no Remorse roll is needed."),
    # Tiers
    "unknown_weapon": N_("The sheet has no weapon {weapon}."),
    "unknown_location": N_("The sheet has no body location {location}."),
    "bullets_need_firearms": N_("Bullets are declared with the firearms skill, not {skill}."),
    "firearm_required": N_("A firearms roll needs one firearm."),
    "not_a_firearm": N_("{weapon} is not a firearm."),
    "magazine_full": N_("The magazine of {weapon} is already full."),
    "no_spare_ammunition": N_("No spare rounds left for {weapon}."),
    # roll-under
    "unknown_card": N_("The sheet has no card {card}."),
}

# Effects: {"flag": code, ...} notices and {"resource": code, "before", "after", ...} changes.
PLAY_EFFECT_FLAGS: dict[str, str] = {
    "health_overflow": N_("{levels} levels of damage found no room on the health track."),
    "incapacitated": N_("Incapacitated."),
    "hunger_frenzy_risk": N_("Hunger is 5 and the Rouse failed: feed or risk hunger frenzy."),
    "halved": N_("{superficial} superficial damage halved to {marked} (a vampire)."),  # catalogue: v5
    "impaired": N_("The {track} track is full: Impaired."),
    "track_full": N_("The {track} track is full of aggravated damage."),
    "track_overflow": N_("{levels} levels of {track} damage found no room."),
    "magazine_empty": N_("The magazine of {weapon} is empty."),
    "wound_overflow": N_("{levels} wound levels past the end of the track."),
    "wound_track_full": N_("The wound track is full."),
}

PLAY_RESOURCES: dict[str, str] = {
    "willpower": N_("Willpower"),
    "willpower.permanent": N_("permanent Willpower"),
    "willpower.superficial": N_("superficial Willpower damage"),
    "willpower.aggravated": N_("aggravated Willpower damage"),
    "willpower.max": N_("Willpower boxes"),
    "blood": N_("blood pool"),
    "health.bashing": N_("bashing damage"),
    "health.lethal": N_("lethal damage"),
    "health.aggravated": N_("aggravated damage"),
    "health.superficial": N_("superficial Health damage"),
    "health.max": N_("Health boxes"),
    "hunger": N_("Hunger"),
    "humanity": N_("Humanity"),
    "stains": N_("stains"),
    "blood_potency": N_("Blood Potency"),
    "experience": N_("experience available"),
    "essence": N_("Essence"),
    "essence.max": N_("maximum Essence"),
    "ammunition.loaded": N_("rounds in the magazine"),
    "ammunition.spare": N_("spare rounds"),
    "turn_spent": N_("turn spent"),
    "wounds": N_("wound level"),
    "endurance": N_("Endurance"),
    "cards": N_("card"),
}


def effect_text(effect: dict, lang: str) -> str:
    """One translated line for an effect of a roll or change: a resource moved, or a flag raised."""
    params = {k: v for k, v in effect.items() if isinstance(v, (str, int, float))}
    if "flag" in effect:
        template = PLAY_EFFECT_FLAGS.get(effect["flag"], effect["flag"])
        try:
            return translate(template, lang, **params)
        except (KeyError, IndexError):
            return translate(template, lang)
    name = translate(PLAY_RESOURCES.get(effect.get("resource", ""), effect.get("resource", "")), lang)
    return translate(
        "{name}: {before} → {after}", lang, name=name, before=effect.get("before"), after=effect.get("after")
    )
