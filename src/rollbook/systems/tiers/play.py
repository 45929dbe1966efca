"""Tiers (paliers) rolls (SPEC T-1 … T-8); the sheet is ``systems.tiers.sheet``, the changes without dice
``systems.tiers.changes``. All three work on the rules module's own state functions (``fire``,
``reload``, ``cast``, ``apply_damage``, ``award_xp``, ``spend_xp``, ``weapon_bonus``).

Skill ids with a rule attached: ``arcanes`` (Essence maximum, spells, T-6), ``firearms`` (bullets,
T-3), ``dodge`` (T-4), ``two_weapons`` (T-7). Any other skill id may be added.

Readings kept here:
- A weapon with a ``capacity`` is a firearm: ``loaded`` rounds in the magazine, ``spare`` rounds
  carried. A reload (T-3) refills the magazine from the spare rounds (the rounds left in the old
  magazine go back to the spare ones) and spends the rest of the turn (``turn_spent``); a
  ``new_turn`` change clears it.
- While the turn is spent, skill rolls and spells are refused (T-3); dodge and soak are reactions
  and stay allowed.
- The wound track has ``length`` levels (default 6); soak damage advances it (T-5) and it stops at
  its last level (the overflow is flagged).
- Experience (T-8): one rating at a time, 10 × the new rating; Endurance or any skill.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field

from rollbook import dice
from rollbook.play.common import (
    Drawn,
    Effects,
    Follows,
    JsonObject,
    Label,
    Mismatch,
    Mode,
    Model,
    Performed,
    Prepared,
    Recorded,
    Resource,
    Short,
    TraitName,
    by_kind,
    check_chained,
    drawn_once,
    filled,
    follows_note,
    legacy,
    performed,
    replay,
    roll_receipt,
    verified,
)
from rollbook.rules import get_system
from rollbook.rules.base import Faces, RuleError, to_plain
from rollbook.systems.tiers import quick as QUICK  # the quick roll's values and request
from rollbook.systems.tiers import rules
from rollbook.systems.tiers import turns as TURNS  # its per-turn limits
from rollbook.systems.tiers.changes import CHANGE_RECORDS, CHANGES, STORYTELLER_CHANGES, adjust
from rollbook.systems.tiers.sheet import (
    PLAYER_FIELDS,
    SYSTEM,
    TABLES,
    EssencePool,
    Sheet,
    weapon_named,
    wound,
)

__all__ = [
    "played_cards",
    "DECLARED_FIELD",
    "READS_COMPULSION",
    "READS_TABLE_RULES",
    "REQUEST_FROM_ACTION",
    "drawn",
    "effect_problems",
    "request_problems",
    "sheet_reads",
    "step_takes",
    "TURNS",
    "ACTIONS",
    "QUICK",
    "CHAINS",
    "CHANGE_RECORDS",
    "CHANGES",
    "ROLL_RECORDS",
    "FOLLOWUPS",
    "PLAYER_FIELDS",
    "STORYTELLER_ACTIONS",
    "STORYTELLER_CHANGES",
    "TABLES",
    "Sheet",
    "adjust",
    "apply",
    "followup",
    "prepare",
    "resources",
    "verify",
    "attack_tier_of",
    "SYSTEM",
    "EDGE_FIELDS",
    "ACTION_PLAYER_FIELDS",
    "TRAIT_FIELDS",
    "STORYTELLER_SHEET_FIELDS",
    "STORYTELLER_VALUES",
    "EXAMPLES",
    "PLAYER_ADDS",
    "check_mode",
]

# --- actions ------------------------------------------------------------------------------------


class SkillAction(Model):
    """A skill roll (T-1, T-2) with the weapons used (T-7); ``bullets`` for firearms (T-3)."""

    kind: Literal["skill"]
    skill: TraitName
    weapon: Label | None = None
    second_weapon: Label | None = None  # with the two_weapons skill (T-7)
    bullets: int | None = Field(None, ge=1, le=rules.MAX_BULLETS)  # T-3: declared before the roll


class DodgeAction(Model):
    """Dodge an attack (T-4): the tier must beat the attack's tier, taken from the attack's receipt
    when the dodge follows it (the combat chain), else typed in."""

    kind: Literal["dodge"]
    attack_tier: int | None = Field(None, ge=0, le=10_000)


class SoakAction(Model):
    """Soak a hit at a body location (T-5); the damage advances the wound track. The attack's tier
    comes from the receipt the soak follows (the attack, or a failed dodge), else typed in."""

    kind: Literal["soak"]
    attack_tier: int | None = Field(None, ge=0, le=10_000)
    location: TraitName | None = None  # the hit's location: the Storyteller's, never the defender's


class SpellAction(Model):
    """Cast a spell: an Arcanes roll costing one Essence, success or failure (T-6)."""

    kind: Literal["spell"]
    spell: Short = ""


ACTIONS = by_kind(SkillAction, DodgeAction, SoakAction, SpellAction)
Action = SkillAction | DodgeAction | SoakAction | SpellAction  # one of ``ACTIONS``
FOLLOWUPS: dict[str, type[Model]] = {}
READS_TABLE_RULES = False  # no table rule changes a Tiers roll's request (TR-1)
READS_COMPULSION = False
DECLARED_FIELD = None  # a roll names its skill, no action declared in words

# A-1, action kind by action kind (``play.authority``): the fields that are the Storyteller's (edges)
# and the player's; the two lists cover every field of the action models (``tests/play/test_authority``).
EDGE_FIELDS: dict[str, frozenset[str]] = {
    # T-1..T-7: the skill, the weapons and the bullets are the sheet's and the player's; the
    # source leaves no bonus or malus to the game master. An attack's tier typed in (a dodge or
    # soak that follows no attack) and the location a hit lands on are the game master's: never
    # the defender's; after an attack the tier comes from its receipt.
    "skill": frozenset(),
    "dodge": frozenset({"attack_tier"}),
    "soak": frozenset({"attack_tier", "location"}),
    "spell": frozenset(),
}
ACTION_PLAYER_FIELDS: dict[str, frozenset[str]] = {
    "skill": frozenset({"kind", "skill", "weapon", "second_weapon", "bullets"}),
    "dodge": frozenset({"kind"}),
    "soak": frozenset({"kind"}),
    "spell": frozenset({"kind", "spell"}),
}
# a sheet's sections whose traits a roll names, and the action field each fills (Discord's ``/roll``)
TRAIT_FIELDS: tuple[tuple[str, str], ...] = (("skills", "skill"),)
# A worked example of the player's part of each action's request (edges left to the baseline; a
# Storyteller's action, its whole request), which ``EXAMPLE_SHEET``'s character can make (after
# ``follows`` when the action is a step of the combat chain): ``play.catalogue`` reads them.
EXAMPLES: dict[str, JsonObject] = {
    "skill": {"kind": "skill", "skill": "firearms", "weapon": "Pistol", "bullets": 1},
    "dodge": {"kind": "dodge"},
    "soak": {"kind": "soak"},
    "spell": {"kind": "spell", "spell": "Light"},
}
# A character who can make every example above.
EXAMPLE_SHEET: JsonObject = {
    "name": "Ash",
    "skills": {"firearms": 40, "dodge": 25, "arcanes": 2},
    "endurance": 3,
    "armor": {"torso": 2},
    "weapons": [{"name": "Pistol", "bonus": 5, "capacity": 3, "spare": 24}],
}
STORYTELLER_SHEET_FIELDS: frozenset[str] = frozenset()  # nothing on a sheet is the Storyteller's alone
STORYTELLER_VALUES: dict[str, list[str]] = {}  # no value of an action field is the Storyteller's alone
PLAYER_ADDS: frozenset[str] = frozenset()  # a player adds to nothing (``PLAYER_FIELDS`` aside)


def check_mode(sheet: Sheet, mode: str) -> None:
    """No check a chronicle's mode makes of a Tiers sheet (V20-19 is V20's)."""


def resources(sheet: JsonObject) -> tuple[Resource, ...]:
    """No track beside the ratings a player checks between rolls (Discord's ``/sheet`` shows those)."""
    return ()


STORYTELLER_ACTIONS: frozenset[str] = frozenset()
# The combat chain (T-4, T-5): attack (skill) -> dodge -> soak, or attack -> soak.
CHAINS: dict[str, tuple[str, ...]] = {"dodge": ("skill",), "soak": ("skill", "dodge")}
# What each kind of roll records under "request", "result" and beyond (play.schema describes receipts from it).
ROLL_RECORDS: dict[str, Recorded] = {
    "skill": Recorded(rules.TiersRequest, rules.SkillReceipt),
    "dodge": Recorded(rules.TiersRequest, rules.DodgeReceipt, sometimes={"follows": Follows}),  # T-4
    "soak": Recorded(rules.TiersRequest, rules.SoakReceipt, sometimes={"follows": Follows}),  # T-5
    "spell": Recorded(rules.TiersRequest, rules.SkillReceipt, always={"cast": rules.CastReceipt}),  # T-6
}


def played_cards(sheet: JsonObject, names: Any) -> list[JsonObject] | None:
    """No card is played with a roll (R-6 is roll-under's): None."""
    return None


def step_takes(kind: str, receipt: JsonObject, result: Mapping[str, Any]) -> JsonObject | None:
    """The numbers a dodge or soak takes from the receipt it follows (T-4, T-5: the attack's tier);
    None when the rules refuse the step. ``result``: the receipt's rules result (unused here)."""
    try:
        return {"attack_tier": attack_tier_of(receipt)}
    except RuleError:
        return None


def attack_tier_of(follows: JsonObject) -> int:
    """The tier of the attack a dodge or soak follows: a hit skill roll's tier (T-1, T-3: after
    bullets), or the attack tier of a dodge that failed (T-4: a dodged attack deals no damage)."""
    result = follows["result"]
    if follows["kind"] == "dodge":
        if result["dodged"]:
            raise RuleError("attack_dodged")  # T-4
        dodged_tier: int = result["attack_tier"]
        return dodged_tier
    if not result["success"]:
        raise RuleError("attack_missed")  # T-1: a negative tier is a failure
    tier: int = result["tier"]
    return tier


def _skill(sheet: Sheet, name: str) -> int:
    if name not in sheet.skills:
        raise RuleError("unknown_trait", field="skill", trait=name)
    return sheet.skills[name]


def prepare(
    sheet: Sheet, action: Action, *, mode: Mode, role: str, follows: JsonObject | None = None
) -> Prepared:
    """Build the roll from the sheet (pool and rules request) and make every refusal; no die drawn."""
    system = get_system(SYSTEM)
    # T-3 Reading: "no other action" covers every roll the character chooses to make that turn — skill
    # rolls, shots, spells and dodges; a soak is not an action (rolled against an attack whatever the
    # character did), so it is still rolled.
    if isinstance(action, (SkillAction, SpellAction, DodgeAction)) and sheet.turn_spent:
        raise RuleError("turn_spent")
    if isinstance(action, SkillAction):
        value = _skill(sheet, action.skill)
        used = [
            (field, weapon_named(sheet, name, field))
            for field, name in (("weapon", action.weapon), ("second_weapon", action.second_weapon))
            if name is not None
        ]
        two = action.skill == "two_weapons"
        bonus = rules.weapon_bonus([w.bonus for _, (_, w) in used], two_weapons=two)  # T-7
        modifiers = [{"source": "weapon", "weapon": w.name, "bonus": w.bonus} for _, (_, w) in used]
        fired = None  # (weapon index, the gun, its magazine after the shot)
        if action.skill == "firearms" or action.bullets is not None:  # T-3
            if action.skill != "firearms":
                raise RuleError("bullets_need_firearms", skill=action.skill)
            if len(used) != 1 or not used[0][1][1].firearm:
                raise RuleError("firearm_required")
            if action.bullets is None:
                raise RuleError("field_required", field="bullets", kind="skill")
            index, gun = used[0][1]
            magazine_after, _ = rules.fire(
                rules.Magazine(capacity=filled(gun.capacity), loaded=filled(gun.loaded)), action.bullets
            )
            fired = (index, gun, magazine_after)
        request = rules.TiersRequest(
            kind="skill",
            skill=value,
            bonus=bonus,
            bullets=action.bullets,
            magazine=fired[1].loaded if fired is not None else None,
        )
        pool: JsonObject = {
            "parts": [{"trait": action.skill, "rating": value}],
            "modifiers": modifiers,
            "bonus": bonus,
            "wound_penalty": 0,
            "total": value + bonus,
        }
        if action.bullets is not None:
            pool["bullets"] = action.bullets
        return Prepared(request, pool, system, {"fired": fired})
    if isinstance(action, (DodgeAction, SoakAction)):
        check_chained(action, follows, ("attack_tier",))
        attack_tier = action.attack_tier if follows is None else attack_tier_of(follows)  # T-4, T-5
        if isinstance(action, DodgeAction):
            value = sheet.skills["dodge"]
            request = rules.TiersRequest(kind="dodge", skill=value, attack_tier=attack_tier)
            parts = [{"trait": "dodge", "rating": value}]
        else:
            if action.location is None:
                raise RuleError("missing_field", field="location")
            if action.location not in sheet.armor:
                raise RuleError("unknown_location", field="location", location=action.location)
            armor = sheet.armor[action.location]
            request = rules.TiersRequest(
                kind="soak", endurance=sheet.endurance, armor=armor, attack_tier=attack_tier
            )
            parts = [
                {"trait": "endurance", "rating": sheet.endurance},
                {"trait": f"armor.{action.location}", "rating": armor},
            ]
        pool = {"parts": parts, "modifiers": [], "bonus": 0, "wound_penalty": 0, "total": request.effective}
        if follows is not None:
            pool["attack_tier"] = attack_tier  # taken from the receipt it follows
        return Prepared(request, pool, system, {"follows": follows})
    assert isinstance(action, SpellAction)
    essence = rules.Essence(current=filled(sheet.essence.current), maximum=filled(sheet.essence.max))
    rules.cast(essence)  # T-6: refused at 0 Essence, before any die
    value = sheet.skills["arcanes"]
    request = rules.TiersRequest(kind="skill", skill=value)
    pool = {
        "parts": [{"trait": "arcanes", "rating": value}],
        "modifiers": [],
        "bonus": 0,
        "wound_penalty": 0,
        "total": value,
    }
    return Prepared(request, pool, system, {"essence": essence})


def apply(
    sheet: Sheet,
    action: Action,
    prepared: Prepared,
    faces: Faces,
    result: rules.TiersReceipt,
    *,
    source: dice.DiceSource,
) -> Performed:
    """The consequences of the drawn dice, on a copy of the sheet (``play.perform`` draws them)."""
    effects = Effects()
    new = sheet.model_copy(deep=True)
    extra: JsonObject = follows_note(prepared.context.get("follows"))
    if isinstance(action, SkillAction):
        if prepared.context["fired"] is not None:  # T-3: the declared bullets leave the magazine
            index, gun, magazine_after = prepared.context["fired"]
            new.weapons[index] = gun.model_copy(update={"loaded": magazine_after.loaded})
            effects.change("ammunition.loaded", gun.loaded, magazine_after.loaded, weapon=gun.name)
            if magazine_after.loaded == 0:
                effects.flag("magazine_empty", weapon=gun.name)
    elif isinstance(action, SoakAction):
        assert isinstance(result, rules.SoakReceipt)  # what a soak request resolves to
        new.wounds = wound(sheet.wounds, result.damage, effects)  # T-5
    elif isinstance(action, SpellAction):
        essence = prepared.context["essence"]
        after, cast = rules.cast(essence, spell_success=result.success)  # T-6: even on a failure
        new.essence = EssencePool(current=after.current, max=after.maximum)
        effects.change("essence", essence.current, after.current)
        extra["cast"] = to_plain(cast)
    receipt = roll_receipt(
        SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, effects, **extra
    )
    return performed(new, receipt, effects, loaded=sheet)


def followup(
    sheet: Sheet, receipt: JsonObject, action: JsonObject, *, mode: Mode, role: str, source: dice.DiceSource
) -> Performed:
    raise RuleError("no_followup", system=SYSTEM)


# --- verification ----------------------------------------------------------------------------


def verify(receipt: JsonObject) -> list[str]:
    request, result = replay(rules.TiersRequest, rules.resolve, receipt)
    if legacy(receipt, "critical_lift"):
        # Resolved before the T-2 Reading "a 1 is a critical success, tier 0 at least" (SPEC T-2,
        # commit fb77253): no lift, and no critical_lift in the result.
        result = rules.resolve(request, tuple(receipt.get("faces", ())), critical_success=False)
        plain = to_plain(result)
        plain.pop("critical_lift", None)
        problems = verified(receipt, plain, request.effective)
    else:
        problems = verified(receipt, result, request.effective)
    if "cast" in receipt:
        cast = receipt["cast"]
        if not isinstance(cast, dict) or cast.get("spell_success") != result.success or cast.get("cost") != 1:
            problems.append("cast_mismatch")
    return problems


# --- what ``rollbook log verify`` checks of a roll beyond its arithmetic (A-2; ``server.ledger``) ---

REQUEST_FROM_ACTION = ("bullets", "attack_tier")  # the action's fields the request takes unchanged


def request_problems(receipt: JsonObject) -> list[Mismatch]:
    return []  # the request's other fields are the sheet's (skill, bonus, magazine)


def effect_problems(
    entry_kind: str, receipt: JsonObject, effects: Mapping[str, list[JsonObject]]
) -> list[Mismatch]:
    """T-3: a roll fires the bullets its request declares, from the magazine it read; a spell spends
    the Essence its cast states."""
    if entry_kind != "roll":
        return []
    stored = receipt.get("request")
    request: JsonObject = stored if isinstance(stored, dict) else {}
    problems: list[Mismatch] = []
    bullets = request.get("bullets")
    loaded = effects.get("ammunition.loaded", [])
    if isinstance(bullets, int) and bullets > 0:
        if (
            len(loaded) != 1
            or loaded[0].get("before") != request.get("magazine")
            or loaded[0].get("after") != (request.get("magazine") or 0) - bullets
        ):
            problems.append(("ammunition_spent", {}))
    elif loaded:
        problems.append(("ammunition_unfired", {}))
    cast = receipt.get("cast")
    essence = effects.get("essence", [])
    if (
        isinstance(cast, dict)
        and cast.get("essence_before") != cast.get("essence_after")
        and (
            len(essence) != 1
            or essence[0].get("before") != cast.get("essence_before")
            or essence[0].get("after") != cast.get("essence_after")
        )
    ):
        problems.append(("essence_spent", {}))
    return problems


def sheet_reads(request: JsonObject) -> tuple[tuple[str, Any], ...]:
    return ()  # the ammunition and Essence are followed through their effects


def drawn(receipt: JsonObject) -> tuple[Drawn, ...]:
    return drawn_once(get_system(SYSTEM), rules.TiersRequest, receipt)
