"""The V5 character sheet (SPEC V5-1 … V5-15): traits, Hunger, Blood Potency, Humanity, the damage tracks.

Book tables and readings used here:
- Blood Potency (V5 core book table, p. 216; sources in docs/book-sources.md): Blood Surge dice BP 0→1,
  1–2→2, 3–4→3, 5–6→4, 7–8→5, 9–10→6; Rouse reroll for Disciplines of level ≤ (BP 0: none, 1–2: 1,
  3–4: 2, 5–6: 3, 7–8: 4, 9–10: 5); mend amount (superficial Health healed by one Rouse) BP 0–1: 1,
  2–3: 2, 4–7: 3, 8–9: 4, 10: 5.
- Damage tracks: superficial damage on a full track turns a superficial box aggravated; a track
  full of aggravated damage reports ``{"flag": "track_full", "track": ..., "aggravated": true}``.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, model_validator

from rollbook.play.common import (
    Effects,
    Experience,
    Identity,
    JsonObject,
    Label,
    Model,
    Resource,
    Short,
    Text,
    TraitName,
    check_within,
    filled,
    rating,
)
from rollbook.play.powers import Power, check_powers
from rollbook.rules.base import RuleError
from rollbook.systems.v5 import rules

SYSTEM = "v5"

Attribute = Literal[
    "strength",
    "dexterity",
    "stamina",
    "charisma",
    "manipulation",
    "composure",
    "intelligence",
    "wits",
    "resolve",
]
ATTRIBUTES: tuple[Attribute, ...] = get_args(Attribute)
PHYSICAL: tuple[Attribute, ...] = ("strength", "dexterity", "stamina")
SOCIAL: tuple[Attribute, ...] = ("charisma", "manipulation", "composure")
MENTAL: tuple[Attribute, ...] = ("intelligence", "wits", "resolve")
SKILLS = (
    "athletics",
    "brawl",
    "craft",
    "drive",
    "firearms",
    "larceny",
    "melee",
    "stealth",
    "survival",
    "animal_ken",
    "etiquette",
    "insight",
    "intimidation",
    "leadership",
    "performance",
    "persuasion",
    "streetwise",
    "subterfuge",
    "academics",
    "awareness",
    "finance",
    "investigation",
    "medicine",
    "occult",
    "politics",
    "science",
    "technology",
)
CREATURES = rules.CREATURES
HUNGRY = rules.HUNGRY_CREATURES  # V5-12

# Book: the Blood Potency table (index = Blood Potency 0–10), V5 core p. 216 with the Companion's errata
# (Blood Surge at BP 1 is 2 dice); checked against two published tables, docs/book-sources.md.
SURGE_DICE = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)
ROUSE_REROLL_LEVEL = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
MEND_AMOUNT = (1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5)
IMPAIRED_PENALTY = -2

PLAYER_FIELDS = frozenset({"name", "player", "concept", "ambition", "desire", "notes"})
# What a player may add to (never change or remove): a power of a Discipline the sheet rates, within its
# dots (``play.edit_sheet``); the ratings stay the Storyteller's
PLAYER_ADDS = frozenset({"powers"})

TABLES = {
    "blood_surge_dice": list(SURGE_DICE),  # index = Blood Potency
    "rouse_reroll_level": list(ROUSE_REROLL_LEVEL),
    "mend_amount": list(MEND_AMOUNT),
    "impaired_penalty": IMPAIRED_PENALTY,
    "experience_costs": {
        "attribute": "new*5",
        "skill": "new*3",
        "specialty": "3",
        "clan_discipline": "new*5",
        "other_discipline": "new*7",
        "caitiff_discipline": "new*6",
        "blood_potency": "new*10",
    },
}


# --- the sheet ----------------------------------------------------------------------------------


class Attributes(Model):
    strength: int = rating(1, 5, 1)
    dexterity: int = rating(1, 5, 1)
    stamina: int = rating(1, 5, 1)
    charisma: int = rating(1, 5, 1)
    manipulation: int = rating(1, 5, 1)
    composure: int = rating(1, 5, 1)
    intelligence: int = rating(1, 5, 1)
    wits: int = rating(1, 5, 1)
    resolve: int = rating(1, 5, 1)


class Track(Model):
    """A Health or Willpower track: boxes and the damage marked on them."""

    max: int | None = Field(
        None, ge=1, le=20
    )  # default: Stamina + 3 (Health), Composure + Resolve (Willpower)
    superficial: int = rating(0, 20, 0)
    aggravated: int = rating(0, 20, 0)

    @property
    def current(self) -> int:
        return filled(self.max) - self.superficial - self.aggravated

    @property
    def full(self) -> bool:
        return self.superficial + self.aggravated >= filled(self.max)


class Sheet(Identity):
    system: Literal["v5"] = "v5"
    clan: Short = ""
    sire: Short = ""
    predator: Short = ""
    ambition: Short = ""
    desire: Short = ""
    notes: Text = ""
    creature: rules.Creature = "vampire"  # V5-12: one of CREATURES
    attributes: Attributes = Field(default_factory=Attributes)
    skills: dict[TraitName, int] = Field(default_factory=dict)  # 0–5
    specialties: dict[TraitName, list[Label]] = Field(default_factory=dict)  # skill -> names
    disciplines: dict[TraitName, int] = Field(default_factory=dict)  # 0–5
    clan_disciplines: list[TraitName] = Field(default_factory=list)
    powers: list[Power] = Field(default_factory=list)  # Discipline powers (play.powers)
    names: dict[TraitName, Label] = Field(default_factory=dict)  # a homebrew trait's name as typed, by id
    hunger: int | None = Field(None, ge=0, le=rules.MAX_HUNGER)  # default: 1 for vampires, 0 otherwise
    blood_potency: int | None = Field(None, ge=0, le=10)  # default: 1 for vampires, 0 otherwise
    humanity: int = rating(0, 10, 7)
    stains: int = rating(0, 10, 0)
    willpower: Track = Field(default_factory=Track)
    health: Track = Field(default_factory=Track)
    experience: Experience = Field(default_factory=Experience)

    @model_validator(mode="after")
    def _fill_and_check(self) -> Sheet:
        filled = {name: self.skills.get(name, 0) for name in SKILLS}
        filled.update(self.skills)
        for name, value in filled.items():
            check_within("skills." + name, value, 0, 5)
            if name in ATTRIBUTES:
                raise RuleError("duplicate_trait", field=f"skills.{name}", trait=name, other="attributes")
        self.skills = filled
        for name, value in self.disciplines.items():
            check_within("disciplines." + name, value, 0, 5)
            if name in ATTRIBUTES or name in filled:
                raise RuleError("duplicate_trait", field=f"disciplines.{name}", trait=name, other="skills")
        check_powers(SYSTEM, self.powers, self.disciplines)
        for skill, names in self.specialties.items():
            if skill not in filled:
                raise RuleError("unknown_trait", field=f"specialties.{skill}", trait=skill)
            if filled[skill] < 1:
                raise RuleError("specialty_untrained", field=f"specialties.{skill}", trait=skill)
            if len(set(names)) != len(names):
                raise RuleError("duplicate_name", field=f"specialties.{skill}")
        hungry = self.creature in HUNGRY
        if self.hunger is None:
            self.hunger = 1 if hungry else 0
        elif self.hunger and not hungry:  # V5-12: ghouls and mortals have no Hunger
            raise RuleError("no_hunger_for_creature", field="hunger", creature=self.creature)
        if self.blood_potency is None:
            self.blood_potency = 1 if self.creature == "vampire" else 0
        elif self.blood_potency and self.creature != "vampire":  # thin-bloods are Blood Potency 0 (V5-12)
            raise RuleError("no_blood_potency_for_creature", field="blood_potency", creature=self.creature)
        if self.humanity + self.stains > 10:
            raise RuleError("out_of_range", field="stains", value=self.stains, low=0, high=10 - self.humanity)
        for name, default in (
            ("health", self.attributes.stamina + 3),
            ("willpower", self.attributes.composure + self.attributes.resolve),
        ):
            track = getattr(self, name)
            maximum = default if track.max is None else track.max
            if track.superficial + track.aggravated > maximum:
                raise RuleError(
                    "out_of_range",
                    field=name,
                    value=track.superficial + track.aggravated,
                    low=0,
                    high=maximum,
                )
            setattr(
                self, name, Track(max=maximum, superficial=track.superficial, aggravated=track.aggravated)
            )
        return self


def hungry(sheet: Sheet) -> bool:
    """V5-12: vampires, thin-bloods included, have Hunger; ghouls and mortals do not."""
    return sheet.creature in HUNGRY


# --- damage tracks ---------------------------------------------------------------------------


def damage_track(track: Track, name: str, superficial: int, aggravated: int, effects: Effects) -> Track:
    boxes = filled(track.max)
    sup, agg, overflow = track.superficial, track.aggravated, 0
    for kind in ["aggravated"] * aggravated + ["superficial"] * superficial:
        if sup + agg < boxes:
            if kind == "aggravated":
                agg += 1
            else:
                sup += 1
        elif sup > 0:  # Book: a full track turns a superficial box aggravated
            sup -= 1
            agg += 1
        else:
            overflow += 1
    effects.change(f"{name}.superficial", track.superficial, sup)
    effects.change(f"{name}.aggravated", track.aggravated, agg)
    after = Track(max=track.max, superficial=sup, aggravated=agg)
    if after.full and not track.full:
        effects.flag("impaired", track=name)
    if agg >= boxes and track.aggravated < boxes:
        effects.flag("track_full", track=name, aggravated=True)
    if overflow:
        effects.flag("track_overflow", track=name, levels=overflow)
    return after


# --- what a player checks between rolls ------------------------------------------------------


def resources(sheet: JsonObject) -> tuple[Resource, ...]:
    """The tracks a player checks between rolls (Discord's ``/sheet``), in codes and numbers: a
    vampire's Hunger (V5-12), the Willpower and Health left (V5-4), Blood Potency, the experience
    available of what was earned, Humanity and its Stains."""

    def left(track: JsonObject) -> tuple[int, int]:
        most = int(track.get("max") or 0)
        return most - int(track.get("superficial") or 0) - int(track.get("aggravated") or 0), most

    hungry = sheet.get("creature", "vampire") in HUNGRY
    out = []
    if hungry:
        out.append(Resource("hunger", "ratio", (int(sheet.get("hunger") or 0), rules.MAX_HUNGER)))
    out += [
        Resource("willpower", "ratio", left(sheet.get("willpower") or {})),
        Resource("health", "ratio", left(sheet.get("health") or {})),
    ]
    if hungry:
        out.append(Resource("blood_potency", "rating", (int(sheet.get("blood_potency") or 0),)))
    experience = sheet.get("experience") or {}
    if experience.get("total"):
        total = int(experience["total"])
        out.append(Resource("experience", "experience", (total - int(experience.get("spent") or 0), total)))
    if sheet.get("humanity") is not None:
        out.append(Resource("humanity", "humanity", (sheet["humanity"], int(sheet.get("stains") or 0))))
    return tuple(out)
