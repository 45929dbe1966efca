"""V5 Discipline powers rolled and paid in one step: using a listed power of the sheet
rolls its own dice pool and pays its Rouse checks, as the book gives each power.

Book (V5 core, Disciplines chapter pp. 244-288; values and sources in docs/book-sources.md, "V5 —
Discipline powers"): ``POWER_ROLLS[discipline][power] = (rouse, attributes, trait)``: the Rouse checks
the power costs, and its pool: one of ``attributes`` (the book's "Manipulation / Charisma" is a
choice, the action's ``attribute``) + the rating of ``trait`` (the Discipline itself, another
Discipline of an amalgam, or a Skill); ``attributes`` None: the power rolls nothing, it only costs
its Rouse checks. Powers of the later books (Oblivion) and thin-blood formulas are not listed: using
them is refused (``power_cost_unknown``); a power that neither rolls nor costs anything is refused
too (``power_without_roll``: there is nothing to do).

Readings: the test's dice are drawn first, then the Rouse dice (as a Blood Surge's, V5-11), the test
reading the Hunger from before them (V5-2); each Rouse reads the Hunger the previous one left; Blood
Potency rerolls the Rouse checks of powers of low enough level (V5-10).
"""

from __future__ import annotations

from typing import Literal

from rollbook.play.common import Label, Model, TraitName, rating
from rollbook.rules.base import RuleError
from rollbook.systems.v5.sheet import Sheet

# (Rouse checks, None, None) for a power that rolls nothing; (Rouse checks, Attributes offered, trait) otherwise
PowerRoll = tuple[int, None, None] | tuple[int, tuple[str, ...], str]
POWER_ROLLS: dict[str, dict[str, PowerRoll]] = {
    "animalism": {
        "bond_famulus": (3, ("charisma",), "animal_ken"),
        "sense_the_beast": (0, ("resolve",), "animalism"),
        "feral_whispers": (1, ("manipulation", "charisma"), "animalism"),
        "animal_succulence": (0, None, None),
        "quell_the_beast": (1, ("charisma",), "animalism"),
        "unliving_hive": (0, None, None),
        "subsume_the_spirit": (1, ("manipulation",), "animalism"),
        "animal_dominion": (2, ("charisma",), "animalism"),
        "drawing_out_the_beast": (1, ("wits",), "animalism"),
    },
    "auspex": {
        "heightened_senses": (0, None, None),
        "sense_the_unseen": (0, ("wits", "resolve"), "auspex"),
        "premonition": (0, ("resolve",), "auspex"),
        "scry_the_soul": (1, ("intelligence",), "auspex"),
        "share_the_senses": (1, ("resolve",), "auspex"),
        "spirits_touch": (1, ("intelligence",), "auspex"),
        "clairvoyance": (1, ("intelligence",), "auspex"),
        "possession": (2, ("resolve",), "auspex"),
        "telepathy": (1, ("resolve",), "auspex"),
    },
    "blood_sorcery": {
        "corrosive_vitae": (1, None, None),
        "a_taste_for_blood": (0, ("resolve",), "blood_sorcery"),
        "extinguish_vitae": (1, ("intelligence",), "blood_sorcery"),
        "blood_of_potency": (1, ("resolve",), "blood_sorcery"),
        "scorpions_touch": (1, ("strength",), "blood_sorcery"),
        "theft_of_vitae": (1, ("wits",), "blood_sorcery"),
        "baals_caress": (1, ("strength",), "blood_sorcery"),
        "cauldron_of_blood": (1, ("resolve",), "blood_sorcery"),
    },
    "celerity": {
        "cats_grace": (0, None, None),
        "rapid_reflexes": (0, None, None),
        "fleetness": (1, None, None),
        "blink": (1, ("dexterity",), "athletics"),
        "traversal": (1, ("dexterity",), "athletics"),
        "draught_of_elegance": (1, None, None),
        "unerring_aim": (1, None, None),
        "lightning_strike": (1, None, None),
        "split_second": (1, None, None),
    },
    "dominate": {
        "cloud_memory": (0, ("charisma",), "dominate"),
        "compel": (0, ("charisma",), "dominate"),
        "mesmerize": (1, ("manipulation",), "dominate"),
        "dementation": (1, ("manipulation",), "dominate"),
        "the_forgetful_mind": (1, ("manipulation",), "dominate"),
        "submerged_directive": (0, None, None),
        "rationalize": (0, None, None),
        "mass_manipulation": (1, None, None),
        "terminal_decree": (0, None, None),
    },
    "fortitude": {
        "resilience": (0, None, None),
        "unswayable_mind": (0, None, None),
        "toughness": (1, None, None),
        "enduring_beasts": (1, ("stamina",), "animalism"),
        "defy_bane": (1, None, None),
        "fortify_the_inner_facade": (0, None, None),
        "draught_of_endurance": (1, None, None),
        "flesh_of_marble": (2, None, None),
        "prowess_from_pain": (1, None, None),
    },
    "obfuscate": {
        "cloak_of_shadows": (0, None, None),
        "silence_of_death": (0, None, None),
        "unseen_passage": (1, None, None),
        "ghost_in_the_machine": (0, None, None),
        "mask_of_a_thousand_faces": (1, None, None),
        "conceal": (1, ("intelligence",), "obfuscate"),
        "vanish": (0, ("wits",), "obfuscate"),
        "cloak_the_gathering": (1, None, None),
        "impostors_guise": (1, ("wits",), "obfuscate"),
    },
    "potence": {
        "lethal_body": (0, None, None),
        "soaring_leap": (0, None, None),
        "prowess": (1, None, None),
        "brutal_feed": (0, None, None),
        "spark_of_rage": (1, ("manipulation",), "potence"),
        "uncanny_grip": (1, None, None),
        "draught_of_might": (1, None, None),
        "earthshock": (2, None, None),
        "fist_of_caine": (1, None, None),
    },
    "presence": {
        "awe": (0, ("manipulation",), "presence"),
        "daunt": (0, None, None),
        "lingering_kiss": (0, None, None),
        "dread_gaze": (1, ("charisma",), "presence"),
        "entrancement": (1, ("charisma",), "presence"),
        "irresistible_voice": (0, None, None),
        "summon": (1, ("manipulation",), "presence"),
        "majesty": (2, ("charisma",), "presence"),
        "star_magnetism": (1, None, None),
    },
    "protean": {
        "eyes_of_the_beast": (0, None, None),
        "weight_of_the_feather": (0, None, None),
        "feral_weapons": (1, None, None),
        "earth_meld": (1, None, None),
        "shapechange": (1, None, None),
        "metamorphosis": (1, None, None),
        "mist_form": (1, None, None),
        "the_unfettered_heart": (0, None, None),
    },
}


class PowerAction(Model):
    """A listed Discipline power of the sheet, used: its own pool rolled and its Rouse checks paid in one
    step (``systems.v5.powers``). ``attribute``: where the book offers a choice of Attributes."""

    kind: Literal["power"]
    discipline: TraitName
    power: TraitName
    attribute: Label | None = None
    difficulty: int = rating(1, 30, 1)
    modifier: int = rating(-20, 20, 0)
    serves_compulsion: bool = False  # A-1, seed 001: as a test's


def look_up(sheet: Sheet, action: PowerAction) -> tuple[int, int, tuple[str, str] | None]:
    """(level, Rouse checks, (attribute, trait) or None) of the power the action uses; refusals first:
    not on the sheet, not in the book's table, nothing to roll or pay, an Attribute the book does not
    offer."""
    listed = next(
        (p for p in sheet.powers if p.discipline == action.discipline and p.power == action.power), None
    )
    if listed is None:
        raise RuleError("power_not_on_sheet", trait=action.discipline, power=action.power)
    known = POWER_ROLLS.get(action.discipline, {}).get(action.power)
    if known is None:
        raise RuleError("power_cost_unknown", trait=action.discipline, power=action.power)
    rouse, attributes, trait = known
    if attributes is None or trait is None:  # both None: a power that rolls nothing
        if rouse == 0:
            raise RuleError("power_without_roll", trait=action.discipline, power=action.power)
        if action.attribute is not None:
            raise RuleError("power_rolls_nothing", field="attribute", power=action.power)
        return listed.level, rouse, None
    attribute = action.attribute if action.attribute is not None else attributes[0]
    if attribute not in attributes:
        raise RuleError("bad_choice", field="attribute", value=attribute, choices=list(attributes))
    return listed.level, rouse, (attribute, trait)


def power_attributes(discipline: str, power: str) -> tuple[str, ...] | None:
    """The Attributes a power's pool offers (the book's choice, the action's ``attribute``); None for a
    power not listed or one that rolls nothing (``play.systems.SystemPowers``)."""
    return (POWER_ROLLS.get(discipline, {}).get(power) or (0, None, None))[1]


__all__ = ["POWER_ROLLS", "PowerAction", "look_up", "power_attributes"]
