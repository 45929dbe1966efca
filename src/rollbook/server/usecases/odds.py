"""The exact odds of a whole exchange between two characters of a chronicle, before the attack is rolled
(``systems.v20.odds_exchange``, ``systems.tiers.odds_exchange``), built from both sheets as the rolls would be:

- the attack is the roll the attacker's form describes (an action, as ``rolls.roll`` takes it), planned
  as the server would plan it (``authority.roll_plan``: the standing difficulty and grants; the caller
  must be able to act for the attacker) and built by ``play.preview`` — wound penalties and the
  chronicle's table rules in force (TR-1) included;
- V20 (V20-16, V20-17): the weapon from the attacker's sheet (none: a punch), Strength for a
  hand-to-hand weapon, the attacker's Potence on a Brawl or Melee attack (V20-21), the defender's
  Stamina, Fortitude, creature and health track; their dodge, when asked, is the chain's (V20-20,
  ``systems.v20.play.dodge_test``: Dexterity + Dodge, or Athletics, at difficulty 6), built by ``play.preview``
  on their sheet, in the chronicle's mode;
- Tiers (T-3 … T-5): the shot's skill, weapon bonus and bullets from the action; the defender's
  Endurance, the armour of the location hit, the wound track, and their dodge skill when asked.

Who sees what: the Storyteller, and a player who may open the defender's sheet, get the odds with
the defender's numbers; any other player no odds (``"odds": null``): exact odds built from ratings
they may not see give those ratings back. Reads only: nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from sqlalchemy.orm import Session

from rollbook import play
from rollbook.play import systems
from rollbook.server.access import (
    STORYTELLER,
    find_character,
    find_chronicle,
    may_open,
)
from rollbook.server.models import Caller
from rollbook.server.problems import ProblemError
from rollbook.server.usecases.authority import roll_plan, roll_reads


class ExchangeOdds(Protocol):
    """A system's part of the exchange's odds (``systems.v20.exchange_odds``, ``systems.tiers.exchange_odds``: each
    shipped system's module of that name in its package; one registered from outside declares ``EXCHANGE_ODDS``)."""

    @property
    def ATTACK_KIND(self) -> str: ...  # the roll an exchange opens with
    @property
    def TAKES_WEAPON(self) -> bool: ...  # whether a form's weapon is the attack's (else the action's)

    def default_action(self, sheet: dict, weapon: str | None) -> dict: ...

    def odds(
        self,
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
    ) -> Any: ...


# The systems whose exchanges have odds, and their parts (derived from the registered systems).
EXCHANGES: Mapping[str, ExchangeOdds] = systems.Parts("exchange_odds", lambda m: m.EXCHANGE_ODDS)


class _AttackKinds(Mapping[str, str]):
    """The roll each system's exchange opens with (CHAINS), by system: its part's ``ATTACK_KIND``."""

    def __getitem__(self, system: str) -> str:
        return EXCHANGES[system].ATTACK_KIND

    def __iter__(self) -> Iterator[str]:
        return iter(EXCHANGES)

    def __len__(self) -> int:
        return len(EXCHANGES)


ATTACK_KINDS: Mapping[str, str] = _AttackKinds()


def takes_weapon(system: str) -> bool:
    """Whether the exchange's form names the attack's weapon (V20-17), or the action does (Tiers)."""
    part = EXCHANGES.get(system)
    return part is not None and part.TAKES_WEAPON


def default_action(system: str, sheet: dict, weapon: str | None) -> dict:
    """The attack when none is given: V20 Dexterity + Melee (a hand-to-hand weapon), + Firearms (a
    firearm) or + Brawl (no weapon); Tiers a firearms shot of one bullet, or a melee skill roll."""
    return EXCHANGES[system].default_action(sheet, weapon)


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
    if chronicle.system not in EXCHANGES:
        raise ProblemError(422, "exchange_not_for_system", system=chronicle.system)
    reads = roll_reads(
        session, member, attacker
    )  # the caller acts for the attacker (the Storyteller for any)
    source = reads.character
    if attacker == target:
        raise ProblemError(422, "target_is_attacker", character=source.name)
    defender = find_character(session, member, target)
    sheet, defence = source.sheet or {}, defender.sheet or {}
    if action is None:
        action = default_action(chronicle.system, sheet, weapon)
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind != ATTACK_KINDS[chronicle.system]:
        raise ProblemError(422, "exchange_needs_an_attack", kind=str(kind))
    plan = roll_plan(
        session, member, attacker, action, reads=reads
    )  # the standing difficulty and grants
    rules_in_force = tuple(chronicle.table_rules or ())  # TR-1: the odds under the table rules in force
    built = play.preview(
        chronicle.system,
        sheet,
        plan["action"],
        mode=chronicle.mode,
        role=STORYTELLER,
        table_rules=rules_in_force,
    )
    result = EXCHANGES[chronicle.system].odds(
        chronicle.mode,
        sheet,
        defence,
        built,
        plan["action"],
        weapon,
        aimed_at_head,
        dodge,
        location,
        rules_in_force,
    )
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


__all__ = ["ATTACK_KINDS", "EXCHANGES", "default_action", "exchange_odds", "takes_weapon"]
