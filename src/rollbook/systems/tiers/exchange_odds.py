"""Tiers' part of the exchange's odds before the attack (SPEC T-3 … T-5; ``server.usecases.odds``): the
shot a form gives when it gives none, and the odds built from the shot and the defender's sheet."""

from __future__ import annotations

from typing import Any

from rollbook.play.common import request_from_plain
from rollbook.server.problems import ProblemError
from rollbook.systems.tiers import odds_exchange as exchange_tiers
from rollbook.systems.tiers.rules import TiersRequest

ATTACK_KIND = "skill"  # the roll an exchange opens with (``systems.tiers.play.CHAINS``)
TAKES_WEAPON = False  # the shot names its weapon itself (its action's ``weapon``)


def default_action(sheet: dict, weapon: str | None) -> dict:
    """A firearms shot of one bullet, or a melee skill roll."""
    found = next((w for w in sheet.get("weapons") or [] if w.get("name") == weapon), None)
    if found is not None and found.get("capacity"):
        return {"kind": "skill", "skill": "firearms", "weapon": weapon, "bullets": 1}
    action: dict[str, Any] = {"kind": "skill", "skill": "melee"}
    if weapon:
        action["weapon"] = weapon
    return action


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
    """The exchange's odds (``systems.tiers.odds_exchange``); a weapon other than the shot's is refused."""
    if weapon is not None and action.get("weapon") not in (None, weapon):
        raise ProblemError(422, "follows_conflict", field="weapon")
    return _odds(mode, defence, built, dodge, location)


def _odds(
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
