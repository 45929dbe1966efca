"""Tiers (paliers) sheets and actions (SPEC T-1 … T-8), on the rules module's own state functions
(``fire``, ``reload``, ``cast``, ``apply_damage``, ``award_xp``, ``spend_xp``, ``weapon_bonus``).

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

from typing import Literal

from pydantic import Field, model_validator

from rollbook import dice
from rollbook.play import common
from rollbook.play.common import (
    Effects, Experience, Follows, Identity, Label, Model, Performed, Prepared, Recorded, Short, Text, TraitName,
    by_kind, change_receipt, check_chained, check_raise, check_within, follows_note, performed, rating, replay,
    legacy, roll_receipt, verified,
)
from rollbook.rules import get_system
from rollbook.rules import tiers as rules
from rollbook.rules.base import RuleError, to_plain

SYSTEM = "tiers"

STANDARD_SKILLS = ("arcanes", "firearms", "dodge", "two_weapons")
LOCATIONS = ("head", "torso", "arms", "legs")
DEFAULT_WOUND_TRACK = 6
MAX = rules.MAX_SKILL

PLAYER_FIELDS = frozenset({"name", "player", "concept", "notes"})

TABLES = {
    "standard_skills": list(STANDARD_SKILLS),
    "locations": list(LOCATIONS),
    "default_wound_track": DEFAULT_WOUND_TRACK,
    "experience_costs": {"skill_or_endurance": "new*10"},  # T-8
}


# --- the sheet ----------------------------------------------------------------------------------

class Weapon(Model):
    name: Label
    bonus: int = rating(0, MAX, 0)  # T-7
    capacity: int | None = Field(None, ge=1, le=rules.MAX_BULLETS)  # a firearm's magazine (T-3)
    loaded: int | None = Field(None, ge=0, le=rules.MAX_BULLETS)  # default: a full magazine
    spare: int = rating(0, 100_000, 0)  # rounds carried for reloads

    @model_validator(mode="after")
    def _ammunition(self) -> Weapon:
        if self.capacity is None:
            if self.loaded or self.spare:
                raise RuleError("field_not_for_weapon", field="loaded" if self.loaded else "spare", weapon=self.name)
            self.loaded = None
        else:
            if self.loaded is None:
                self.loaded = self.capacity
            if self.loaded > self.capacity:
                raise RuleError("out_of_range", field="loaded", value=self.loaded, low=0, high=self.capacity)
        return self

    @property
    def firearm(self) -> bool:
        return self.capacity is not None


class EssencePool(Model):
    current: int | None = Field(None, ge=0, le=MAX)  # default: full
    max: int | None = Field(None, ge=0, le=MAX)  # derived: the Arcanes skill (T-6)


class Wounds(Model):
    level: int = rating(0, MAX, 0)
    length: int = rating(1, MAX, DEFAULT_WOUND_TRACK)

    @model_validator(mode="after")
    def _on_the_track(self) -> Wounds:
        if self.level > self.length:
            raise RuleError("out_of_range", field="wounds.level", value=self.level, low=0, high=self.length)
        return self


class Sheet(Identity):
    system: Literal["tiers"] = "tiers"
    notes: Text = ""
    skills: dict[TraitName, int] = Field(default_factory=dict)  # 0–100
    endurance: int = rating(0, MAX, 0)
    armor: dict[TraitName, int] = Field(default_factory=dict)  # body location -> armour (T-5)
    weapons: list[Weapon] = Field(default_factory=list)
    essence: EssencePool = Field(default_factory=EssencePool)
    wounds: Wounds = Field(default_factory=Wounds)
    turn_spent: bool = False  # T-3: a reload took the rest of the turn
    experience: Experience = Field(default_factory=Experience)
    names: dict[TraitName, Label] = Field(default_factory=dict)  # a homebrew trait's name as typed, by id

    @model_validator(mode="after")
    def _fill_and_check(self) -> Sheet:
        skills = {name: self.skills.get(name, 0) for name in STANDARD_SKILLS}
        skills.update(self.skills)
        for name, value in skills.items():
            check_within(f"skills.{name}", value, 0, MAX)
        if "endurance" in skills:
            raise RuleError("duplicate_trait", field="skills.endurance", trait="endurance", other="endurance")
        self.skills = skills
        armor = {name: self.armor.get(name, 0) for name in LOCATIONS}
        armor.update(self.armor)
        for name, value in armor.items():
            check_within(f"armor.{name}", value, 0, MAX)
        self.armor = armor
        names = [weapon.name for weapon in self.weapons]
        if len(set(names)) != len(names):
            raise RuleError("duplicate_name", field="weapons")
        essence = rules.essence_for(skills["arcanes"])  # T-6: maximum = Arcanes, full by default
        current = essence.current if self.essence.current is None else self.essence.current
        rules.Essence(current=current, maximum=essence.maximum)  # current ≤ maximum
        self.essence = EssencePool(current=current, max=essence.maximum)
        return self


def _weapon(sheet: Sheet, name: str, field: str) -> tuple[int, Weapon]:
    for index, weapon in enumerate(sheet.weapons):
        if weapon.name == name:
            return index, weapon
    raise RuleError("unknown_weapon", field=field, weapon=name)


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
FOLLOWUPS: dict[str, type[Model]] = {}
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


def attack_tier_of(follows: dict) -> int:
    """The tier of the attack a dodge or soak follows: a hit skill roll's tier (T-1, T-3: after
    bullets), or the attack tier of a dodge that failed (T-4: a dodged attack deals no damage)."""
    result = follows["result"]
    if follows["kind"] == "dodge":
        if result["dodged"]:
            raise RuleError("attack_dodged")  # T-4
        return result["attack_tier"]
    if not result["success"]:
        raise RuleError("attack_missed")  # T-1: a negative tier is a failure
    return result["tier"]


def _skill(sheet: Sheet, name: str) -> int:
    if name not in sheet.skills:
        raise RuleError("unknown_trait", field="skill", trait=name)
    return sheet.skills[name]


def prepare(sheet: Sheet, action: Model, *, mode: str, role: str, follows: dict | None = None) -> Prepared:
    """Build the roll from the sheet (pool and rules request) and make every refusal; no die drawn."""
    system = get_system(SYSTEM)
    # T-3 Reading: "no other action" covers every roll the character chooses to make that turn — skill
    # rolls, shots, spells and dodges; a soak is not an action (rolled against an attack whatever the
    # character did), so it is still rolled.
    if isinstance(action, (SkillAction, SpellAction, DodgeAction)) and sheet.turn_spent:
        raise RuleError("turn_spent")
    if isinstance(action, SkillAction):
        value = _skill(sheet, action.skill)
        used = [(field, _weapon(sheet, name, field))
                for field, name in (("weapon", action.weapon), ("second_weapon", action.second_weapon))
                if name is not None]
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
            magazine_after, _ = rules.fire(rules.Magazine(capacity=gun.capacity, loaded=gun.loaded), action.bullets)
            fired = (index, gun, magazine_after)
        request = rules.TiersRequest(kind="skill", skill=value, bonus=bonus, bullets=action.bullets,
                                     magazine=fired[1].loaded if fired is not None else None)
        pool = {"parts": [{"trait": action.skill, "rating": value}], "modifiers": modifiers, "bonus": bonus,
                "wound_penalty": 0, "total": value + bonus}
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
            request = rules.TiersRequest(kind="soak", endurance=sheet.endurance, armor=armor, attack_tier=attack_tier)
            parts = [{"trait": "endurance", "rating": sheet.endurance},
                     {"trait": f"armor.{action.location}", "rating": armor}]
        pool = {"parts": parts, "modifiers": [], "bonus": 0, "wound_penalty": 0, "total": request.effective}
        if follows is not None:
            pool["attack_tier"] = attack_tier  # taken from the receipt it follows
        return Prepared(request, pool, system, {"follows": follows})
    assert isinstance(action, SpellAction)
    essence = rules.Essence(current=sheet.essence.current, maximum=sheet.essence.max)
    rules.cast(essence)  # T-6: refused at 0 Essence, before any die
    value = sheet.skills["arcanes"]
    request = rules.TiersRequest(kind="skill", skill=value)
    pool = {"parts": [{"trait": "arcanes", "rating": value}], "modifiers": [], "bonus": 0, "wound_penalty": 0,
            "total": value}
    return Prepared(request, pool, system, {"essence": essence})


def apply(sheet: Sheet, action: Model, prepared: Prepared, faces: tuple, result: rules.TiersReceipt, *,
          source: dice.DiceSource) -> Performed:
    """The consequences of the drawn dice, on a copy of the sheet (``play.perform`` draws them)."""
    effects = Effects()
    new = sheet.model_copy(deep=True)
    extra: dict = follows_note(prepared.context.get("follows"))
    if isinstance(action, SkillAction):
        if prepared.context["fired"] is not None:  # T-3: the declared bullets leave the magazine
            index, gun, magazine_after = prepared.context["fired"]
            new.weapons[index] = gun.model_copy(update={"loaded": magazine_after.loaded})
            effects.change("ammunition.loaded", gun.loaded, magazine_after.loaded, weapon=gun.name)
            if magazine_after.loaded == 0:
                effects.flag("magazine_empty", weapon=gun.name)
    elif isinstance(action, SoakAction):
        new.wounds = _wound(sheet.wounds, result.damage, effects)  # T-5
    elif isinstance(action, SpellAction):
        essence = prepared.context["essence"]
        after, cast = rules.cast(essence, spell_success=result.success)  # T-6: even on a failure
        new.essence = EssencePool(current=after.current, max=after.maximum)
        effects.change("essence", essence.current, after.current)
        extra["cast"] = to_plain(cast)
    receipt = roll_receipt(SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, effects,
                           **extra)
    return performed(new, receipt, effects, loaded=sheet)


def _wound(wounds: Wounds, damage: int, effects: Effects) -> Wounds:
    track, receipt = rules.apply_damage(rules.WoundTrack(length=wounds.length, level=wounds.level), damage)  # T-5
    effects.change("wounds", receipt.level_before, receipt.level_after)
    if receipt.overflow:
        effects.flag("wound_overflow", levels=receipt.overflow)
    if receipt.full and receipt.level_before < wounds.length:
        effects.flag("wound_track_full")
    return Wounds(level=track.level, length=track.length)


def followup(sheet: Sheet, receipt: dict, action: dict, *, mode: str, role: str,
             source: dice.DiceSource) -> Performed:
    raise RuleError("no_followup", system=SYSTEM)


# --- changes ---------------------------------------------------------------------------------

class Reload(Model):
    """Change a firearm's magazine from the spare rounds (T-3): it takes the rest of the turn."""

    kind: Literal["reload"]
    weapon: Label


class NewTurn(Model):
    """A new turn begins: clears ``turn_spent``."""

    kind: Literal["new_turn"]


class TakeDamage(Model):
    """Advance the wound track by levels (damage that was not soaked by a roll)."""

    kind: Literal["damage"]
    levels: int = rating(1, MAX)


class Restore(Model):
    """Storyteller: Essence back (up to the maximum), wound levels healed, or spare rounds given."""

    kind: Literal["restore"]
    resource: Literal["essence", "wounds", "ammunition"]
    amount: int = rating(1, 100_000)
    weapon: Label | None = None  # ammunition only


class AwardExperience(common.AwardExperience):
    """Storyteller: experience at the end of a session (T-8)."""

    amount: int = rating(1, 100_000)


class SpendExperience(common.SpendExperience):
    """Raise Endurance or a skill by one: 10 × the new rating (T-8)."""


CHANGES = by_kind(Reload, NewTurn, TakeDamage, Restore, AwardExperience, SpendExperience)
STORYTELLER_CHANGES = frozenset({"restore", "award_experience"})
CHANGE_RECORDS: dict[str, Recorded] = {  # T-8: experience changes record the rules' receipt
    "award_experience": Recorded(always={"xp": rules.XpReceipt}),
    "spend_experience": Recorded(always={"xp": rules.XpReceipt}),
}


def adjust(sheet: Sheet, change: Model, *, role: str) -> Performed:
    effects = Effects()
    new = sheet.model_copy(deep=True)
    extra: dict = {}
    if isinstance(change, Reload):
        index, gun = _weapon(sheet, change.weapon, "weapon")
        if not gun.firearm:
            raise RuleError("not_a_firearm", weapon=gun.name)
        if gun.loaded == gun.capacity:
            raise RuleError("magazine_full", weapon=gun.name)
        if gun.loaded:  # T-3 Reading: a magazine is changed only when empty
            raise RuleError("magazine_not_empty", weapon=gun.name, loaded=gun.loaded)
        if gun.spare == 0:
            raise RuleError("no_spare_ammunition", weapon=gun.name)
        magazine = rules.Magazine(capacity=gun.capacity, loaded=gun.loaded, turn_spent=sheet.turn_spent)
        rules.reload(magazine)  # T-3: refused when the turn is already spent
        rounds = gun.loaded + gun.spare
        loaded = min(gun.capacity, rounds)
        new.weapons[index] = gun.model_copy(update={"loaded": loaded, "spare": rounds - loaded})
        new.turn_spent = True  # T-3: the rest of the turn
        effects.change("ammunition.loaded", gun.loaded, loaded, weapon=gun.name)
        effects.change("ammunition.spare", gun.spare, rounds - loaded, weapon=gun.name)
        effects.change("turn_spent", sheet.turn_spent, True)
    elif isinstance(change, NewTurn):
        new.turn_spent = False
        effects.change("turn_spent", sheet.turn_spent, False)
    elif isinstance(change, TakeDamage):
        new.wounds = _wound(sheet.wounds, change.levels, effects)
    elif isinstance(change, Restore):
        if change.resource == "ammunition":
            if change.weapon is None:
                raise RuleError("missing_field", field="weapon")
            index, gun = _weapon(sheet, change.weapon, "weapon")
            if not gun.firearm:
                raise RuleError("not_a_firearm", weapon=gun.name)
            new.weapons[index] = gun.model_copy(update={"spare": gun.spare + change.amount})
            effects.change("ammunition.spare", gun.spare, gun.spare + change.amount, weapon=gun.name)
        elif change.resource == "essence":
            after = min(sheet.essence.max, sheet.essence.current + change.amount)
            new.essence = EssencePool(current=after, max=sheet.essence.max)
            effects.change("essence", sheet.essence.current, after)
        else:
            if sheet.wounds.level == 0:
                raise RuleError("nothing_to_heal", damage_type="wounds")
            after = max(0, sheet.wounds.level - change.amount)
            new.wounds = Wounds(level=after, length=sheet.wounds.length)
            effects.change("wounds", sheet.wounds.level, after)
    elif isinstance(change, AwardExperience):
        _, xp = rules.award_xp(rules.Experience(points=sheet.experience.available), change.amount)  # T-8
        new.experience = sheet.experience.awarded(change.amount)
        effects.change("experience", xp.points_before, xp.points_after)
        extra["xp"] = to_plain(xp)
    else:
        assert isinstance(change, SpendExperience)
        if change.trait == "endurance":
            current = sheet.endurance
        elif change.trait in sheet.skills:
            current = sheet.skills[change.trait]
        else:
            raise RuleError("unknown_trait", field="trait", trait=change.trait)
        check_raise(change.trait, current, MAX)
        _, xp = rules.spend_xp(rules.Experience(points=sheet.experience.available), current + 1, current)  # T-8
        new.experience = sheet.experience.paid(xp.cost)
        if change.trait == "endurance":
            new.endurance = current + 1
            effects.change("endurance", current, current + 1, cost=xp.cost)
        else:
            new.skills[change.trait] = current + 1
            effects.change(f"skills.{change.trait}", current, current + 1, cost=xp.cost)
            if change.trait == "arcanes":  # T-6: the maximum follows Arcanes
                new.essence = EssencePool(current=sheet.essence.current, max=current + 1)
                effects.change("essence.max", sheet.essence.max, current + 1)
        effects.change("experience", xp.points_before, xp.points_after)
        extra["xp"] = to_plain(xp)
    receipt = change_receipt(SYSTEM, change, effects, **extra)
    return performed(new, receipt, effects, loaded=sheet)


# --- verification ----------------------------------------------------------------------------

def verify(receipt: dict) -> list[str]:
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
