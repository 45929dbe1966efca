"""Tiers sheets (SPEC T-1 … T-8): the skills, weapons and magazines, Essence and the wound track, and
the two things both rolls (``systems.tiers.play``) and changes (``systems.tiers.changes``) do to a sheet: find
a weapon by name, advance the wound track (T-5). The readings are ``systems.tiers.play``'s docstring."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from rollbook.play.common import (
    Effects,
    Experience,
    Identity,
    Label,
    Model,
    Text,
    TraitName,
    check_within,
    rating,
)
from rollbook.rules.base import RuleError
from rollbook.systems.tiers import rules

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
                raise RuleError(
                    "field_not_for_weapon", field="loaded" if self.loaded else "spare", weapon=self.name
                )
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


def weapon_named(sheet: Sheet, name: str, field: str) -> tuple[int, Weapon]:
    for index, weapon in enumerate(sheet.weapons):
        if weapon.name == name:
            return index, weapon
    raise RuleError("unknown_weapon", field=field, weapon=name)


def wound(wounds: Wounds, damage: int, effects: Effects) -> Wounds:
    """The wound track advanced by ``damage`` levels (T-5), stopping at its last level (the overflow flagged)."""
    track, receipt = rules.apply_damage(
        rules.WoundTrack(length=wounds.length, level=wounds.level), damage
    )  # T-5
    effects.change("wounds", receipt.level_before, receipt.level_after)
    if receipt.overflow:
        effects.flag("wound_overflow", levels=receipt.overflow)
    if receipt.full and receipt.level_before < wounds.length:
        effects.flag("wound_track_full")
    return Wounds(level=track.level, length=track.length)
