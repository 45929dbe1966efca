"""A scenario's rolls as ``rollbook.play`` actions (SPEC S-2, A-1): the traits a check names, with the
scenario's difficulty, specialty and dice, become the play layer's action for a sheet, so the pool,
the refusals and the receipt are the play layer's own; nothing here counts a die.

- ``[willpower]``: a Willpower roll; ``[a virtue]``: a Virtue roll; ``[attribute]``: a test of the
  attribute alone; ``[attribute, trait]``: the trait is an Ability when the sheet rates it as one
  (the standard Abilities always are, at 0 when untrained: V20-3), else a Discipline.
- ``willpower`` (V20-9) is the player's choice; everything else comes from the scenario.
"""

from __future__ import annotations

from rollbook import play
from rollbook.rules.base import RuleError
from rollbook.solo.format import Attack
from rollbook.solo.steps import JsonObject
from rollbook.solo.system import solo_system

SYSTEM = "v20"  # the system a scenario is of (``format.Scenario.system``): a solo chronicle's
MODE = "strict"  # a solo chronicle plays Strict (V20-5): the scenario's difficulties as written


def roll_action(
    system: str,
    sheet: JsonObject,
    traits: list[str],
    difficulty: int,
    *,
    specialty: str | None = None,
    modifier: int = 0,
    willpower: bool = False,
) -> JsonObject:
    """The play action of a roll named by ``traits`` for ``sheet`` of ``system`` (refusals as ``RuleError``)."""
    traits_of = solo_system(system)
    first = traits[0]
    if first == "willpower" and len(traits) == 1:
        return {"kind": "willpower", "difficulty": difficulty, "modifier": modifier}
    if first in traits_of.VIRTUES and len(traits) == 1:
        return {"kind": "virtue", "virtue": first, "difficulty": difficulty, "modifier": modifier}
    if first not in traits_of.ATTRIBUTES:
        raise RuleError("unknown_trait", field="traits", trait=first)
    action: JsonObject = {
        "kind": "test",
        "attribute": first,
        "difficulty": difficulty,
        "modifier": modifier,
        "willpower": willpower,
    }
    if len(traits) == 2:
        second = traits[1]
        rated = any(
            second in (sheet.get(group) or {}) or second in standard
            for group, (_, standard) in traits_of.ABILITY_GROUPS.items()
        )
        if rated or second not in (sheet.get("disciplines") or {}):
            action["ability"] = second  # an unknown one: play refuses it (unknown_trait)
        else:
            action["discipline"] = second
    if specialty is not None:
        action["specialty"] = specialty
    return action


def attack_action(attack: Attack, *, willpower: bool = False) -> JsonObject:
    """An attack (V20-17): a test of the attribute and the combat ability; the weapon is the damage's
    (a dodge follows the attack in the chain, V20-20: ``solo.fight``)."""
    return {
        "kind": "test",
        "attribute": attack.traits[0],
        "ability": attack.traits[1],
        "difficulty": attack.difficulty,
        "willpower": willpower,
    }


def preview(system: str, sheet: JsonObject, action: JsonObject) -> JsonObject:
    """The roll the action would make on ``sheet`` of ``system``, no die drawn (``play.preview``, the
    Storyteller's authority: the scenario's); every refusal ``perform`` would make is raised here."""
    return play.preview(system, sheet, action, mode=MODE, role="storyteller")


def weapon_of(system: str, sheet: JsonObject, attack: Attack) -> JsonObject | None:
    """The sheet's weapon an attack names (None: unarmed); refused when the sheet lacks it or the
    weapon is not the attack ability's (V20-17: the system's ``COMBAT_ABILITIES``, ``solo.system``)."""
    combat = solo_system(system).COMBAT_ABILITIES
    ability = attack.traits[1]
    allowed = combat.get(ability)
    if allowed is None:
        raise RuleError("not_an_attack", ability=ability, abilities=sorted(combat))
    if attack.weapon is None:
        if "unarmed" not in allowed:
            raise RuleError("weapon_not_the_attacks", weapon="unarmed", ability=ability)
        return None
    weapons: list[JsonObject] = sheet.get("weapons") or []
    for weapon in weapons:
        if weapon.get("name") == attack.weapon:
            if weapon.get("kind", "hand_to_hand") not in allowed:
                raise RuleError("weapon_not_the_attacks", weapon=attack.weapon, ability=ability)
            return weapon
    raise RuleError("unknown_weapon", field="weapon", weapon=attack.weapon)
