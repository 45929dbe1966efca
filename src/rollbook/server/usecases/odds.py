"""The exact odds of a whole exchange between two characters of a chronicle, before the attack is rolled
(``odds.exchange_v20``, ``odds.exchange_tiers``), built from both sheets as the rolls would be:

- the attack is the roll the attacker's form describes (an action, as ``rolls.roll`` takes it), planned
  as the server would plan it (``authority.roll_plan``: the standing difficulty and grants; the caller
  must be able to act for the attacker) and built by ``play.preview`` — wound penalties and the
  chronicle's table rules in force (TR-1) included;
- V20 (V20-16, V20-17): the weapon from the attacker's sheet (none: a punch), Strength for a
  hand-to-hand weapon, the attacker's Potence on a Brawl or Melee attack (V20-21), the defender's
  Stamina, Fortitude, creature and health track; their dodge, when asked, is the chain's (V20-20,
  ``play.v20.dodge_test``: Dexterity + Dodge, or Athletics, at difficulty 6), built by ``play.preview``
  on their sheet, in the chronicle's mode;
- Tiers (T-3 … T-5): the shot's skill, weapon bonus and bullets from the action; the defender's
  Endurance, the armour of the location hit, the wound track, and their dodge skill when asked.

Who sees what: the Storyteller, and a player who may open the defender's sheet, get the odds with
the defender's numbers; any other player no odds (``"odds": null``): exact odds built from ratings
they may not see give those ratings back. Reads only: nothing is written.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from rollbook import play
from rollbook.odds import exchange_tiers, exchange_v20
from rollbook.play import v20 as play_v20
from rollbook.play.common import parse, request_from_plain
from rollbook.rules.tiers import TiersRequest
from rollbook.rules.v20 import V20Request
from rollbook.server.access import (
    STORYTELLER,
    find_character,
    find_chronicle,
    may_act_for,
    may_open,
)
from rollbook.server.models import Caller
from rollbook.server.problems import ProblemError
from rollbook.server.usecases.authority import roll_plan

SYSTEMS = ("v20", "tiers")
ATTACK_KINDS = {"v20": "test", "tiers": "skill"}  # the rolls an exchange opens with (CHAINS)


def default_action(system: str, sheet: dict, weapon: str | None) -> dict:
    """The attack when none is given: V20 Dexterity + Melee (a hand-to-hand weapon), + Firearms (a
    firearm) or + Brawl (no weapon); Tiers a firearms shot of one bullet, or a melee skill roll."""
    found = next((w for w in sheet.get("weapons") or [] if w.get("name") == weapon), None)
    if system == "v20":
        ability = "brawl" if found is None else ("firearms" if found.get("kind") == "firearm" else "melee")
        return {"kind": "test", "attribute": "dexterity", "ability": ability}
    if found is not None and found.get("capacity"):
        return {"kind": "skill", "skill": "firearms", "weapon": weapon, "bullets": 1}
    action: dict[str, Any] = {"kind": "skill", "skill": "melee"}
    if weapon:
        action["weapon"] = weapon
    return action


def exchange_odds(
    session: Session,
    member: Caller,
    *,
    attacker: int,
    target: int,
    action: dict | None = None,
    weapon: str | None = None,
    aimed_at_head: bool = False,
    dodge: bool = False,
    location: str | None = None,
) -> dict:
    """``{"system", "attacker", "target", "defender_numbers", "odds"}``: the exact odds of the exchange
    (the odds contract's ``outcomes`` inside ``odds``)."""
    chronicle = find_chronicle(session, member)
    if chronicle.system not in SYSTEMS:
        raise ProblemError(422, "exchange_not_for_system", system=chronicle.system)
    source = find_character(session, member, attacker)
    may_act_for(member, source)  # the caller acts for the attacker (the Storyteller for any)
    if attacker == target:
        raise ProblemError(422, "target_is_attacker", character=source.name)
    defender = find_character(session, member, target)
    sheet, defence = source.sheet or {}, defender.sheet or {}
    if action is None:
        action = default_action(chronicle.system, sheet, weapon)
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind != ATTACK_KINDS[chronicle.system]:
        raise ProblemError(422, "exchange_needs_an_attack", kind=str(kind))
    plan = roll_plan(session, member, attacker, action)  # the standing difficulty and grants
    rules_in_force = tuple(chronicle.table_rules or ())  # TR-1: the odds under the table rules in force
    built = play.preview(
        chronicle.system,
        sheet,
        plan["action"],
        mode=chronicle.mode,
        role=STORYTELLER,
        table_rules=rules_in_force,
    )
    result: exchange_v20.V20Exchange | exchange_tiers.TiersExchange
    if chronicle.system == "v20":
        _check_v20_attack(sheet, plan["action"], weapon)
        result = _v20(
            chronicle.mode,
            sheet,
            defence,
            built,
            plan["action"],
            weapon,
            aimed_at_head,
            dodge,
            rules_in_force,
        )
    else:
        if weapon is not None and plan["action"].get("weapon") not in (None, weapon):
            raise ProblemError(422, "follows_conflict", field="weapon")
        result = _tiers(chronicle.mode, defence, built, dodge, location)
    shown = member.role == STORYTELLER or may_open(member, defender)
    return {
        "system": chronicle.system,
        "attacker": attacker,
        "target": target,
        "defender_numbers": shown,
        # odds built from ratings the caller may not see would give them back (a soak pool is found
        # by matching the fractions against `rollbook odds`): none for who may not open the defender
        "odds": result.to_json() if shown else None,
    }


def _check_v20_attack(sheet: dict, action: dict, weapon_name: str | None) -> None:
    """What the chain itself refuses before its damage roll (``play.v20``): a test of a combat Ability,
    with a weapon of that Ability (a punch is Brawl or Melee, a rifle is Firearms)."""
    ability = play_v20.attack_ability_of({"kind": "test", "action": action})
    if weapon_name is None:
        used = "unarmed"
    else:
        found = next((w for w in sheet.get("weapons") or [] if w.get("name") == weapon_name), None)
        if found is None:
            raise ProblemError(422, "unknown_weapon", field="weapon", weapon=weapon_name)
        used = found.get("kind", "hand_to_hand")
    if used not in play_v20.COMBAT_ABILITIES[ability]:
        raise play.RuleError("weapon_not_the_attacks", weapon=weapon_name or "unarmed", ability=ability)


def _v20(
    mode: str,
    sheet: dict,
    defence: dict,
    built: dict,
    action: dict,
    weapon_name: str | None,
    aimed: bool,
    dodge: bool,
    table_rules: tuple[str, ...],
) -> exchange_v20.V20Exchange:
    attack = request_from_plain(V20Request, built["request"])
    strength = (sheet.get("attributes") or {}).get("strength", 1)
    potence = 0  # V20-21: a Brawl or Melee attack's damage adds the attacker's Potence
    if action.get("ability") in play_v20.POTENCE_ABILITIES:
        potence = (sheet.get("disciplines") or {}).get("potence", 0)
    if weapon_name is None:  # Book: a punch is Strength, bashing
        weapon = exchange_v20.Weapon(0, "bashing", strength=strength, potence=potence)
    else:
        found = next((w for w in sheet.get("weapons") or [] if w.get("name") == weapon_name), None)
        if found is None:
            raise ProblemError(422, "unknown_weapon", field="weapon", weapon=weapon_name)
        firearm = found.get("kind") == "firearm"
        weapon = exchange_v20.Weapon(
            found.get("damage", 0),
            found.get("damage_type", "lethal"),
            firearm=firearm,
            strength=0 if firearm else strength,
            aimed_at_head=aimed,
            potence=0 if firearm else potence,
        )
    health = defence.get("health") or {}
    dodging = None
    if dodge:  # V20-20: the chain's dodge, as the test it is
        test = play_v20.dodge_test(
            parse(play_v20.Sheet, defence, "sheet"), play_v20.DodgeAction(kind="dodge")
        )
        dodging = request_from_plain(
            V20Request,
            play.preview(
                "v20",
                defence,
                test.model_dump(exclude_none=True),
                mode=mode,
                role=STORYTELLER,
                table_rules=table_rules,
            )["request"],
        )
    defender = exchange_v20.Defender(
        stamina=(defence.get("attributes") or {}).get("stamina", 1),
        fortitude=(defence.get("disciplines") or {}).get("fortitude", 0),
        vampire=defence.get("creature", "vampire") == "vampire",
        health=(health.get("bashing", 0), health.get("lethal", 0), health.get("aggravated", 0)),
        dodge=dodging,
    )
    return exchange_v20.exchange_odds(attack, weapon, defender)


def _tiers(
    mode: str, defence: dict, built: dict, dodge: bool, location: str | None
) -> exchange_tiers.TiersExchange:
    shot = request_from_plain(TiersRequest, built["request"])
    armour = defence.get("armor") or {}
    location = location or "torso"
    if location not in armour:
        raise ProblemError(422, "unknown_location", field="location", location=location)
    wounds = defence.get("wounds") or {}
    skill = (defence.get("skills") or {}).get("dodge", 0) if dodge else None
    defender = exchange_tiers.TiersDefender(
        endurance=defence.get("endurance", 0),
        armor=armour[location],
        level=wounds.get("level", 0),
        length=wounds.get("length", 6),
        dodge=skill,
    )
    return exchange_tiers.exchange_odds(shot, defender)


__all__ = ["default_action", "exchange_odds"]
