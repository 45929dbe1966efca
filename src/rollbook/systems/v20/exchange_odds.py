"""V20's part of the exchange's odds before the attack (SPEC V20-16, V20-17, V20-20, V20-21;
``server.usecases.odds``): the attack a form gives when it gives none, what the chain itself refuses
before its damage roll, and the odds built from both sheets."""

from __future__ import annotations

from typing import Any

from rollbook import play
from rollbook.play.common import parse, request_from_plain
from rollbook.server.access import STORYTELLER
from rollbook.server.problems import ProblemError
from rollbook.systems.v20 import odds_exchange as exchange_v20
from rollbook.systems.v20 import play as play_v20
from rollbook.systems.v20.rules import V20Request

ATTACK_KIND = "test"  # the roll an exchange opens with (``systems.v20.play.CHAINS``)
TAKES_WEAPON = True  # the form names the attack's weapon (V20-17)


def default_action(sheet: dict, weapon: str | None) -> dict:
    """Dexterity + Melee (a hand-to-hand weapon), + Firearms (a firearm) or + Brawl (no weapon)."""
    found = next((w for w in sheet.get("weapons") or [] if w.get("name") == weapon), None)
    ability = "brawl" if found is None else ("firearms" if found.get("kind") == "firearm" else "melee")
    return {"kind": "test", "attribute": "dexterity", "ability": ability}


def odds(
    mode: str,
    sheet: dict,
    defence: dict,
    built: dict,
    action: dict,
    weapon: str | None,
    aimed_at_head: bool,
    dodge: bool,
    location: str | None,
    table_rules: tuple[str, ...],
) -> Any:
    """The exchange's odds (``systems.v20.odds_exchange``), after the chain's own refusals."""
    _check_attack(sheet, action, weapon)
    return _odds(mode, sheet, defence, built, action, weapon, aimed_at_head, dodge, table_rules)


def _check_attack(sheet: dict, action: dict, weapon_name: str | None) -> None:
    """What the chain itself refuses before its damage roll (``systems.v20.play``): a test of a combat Ability,
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


def _odds(
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
