"""The V20 character sheet (SPEC V20-1 … V20-17): traits, blood, health, weapons, and the health track.

Book choices, kept simple and documented here:
- Health: 7 levels of bashing/lethal/aggravated. When the track is full, each further level
  upgrades the least severe level below its own type (bashing→lethal for bashing or lethal,
  bashing/lethal→aggravated for aggravated); what cannot be marked is reported as
  ``{"flag": "health_overflow", "levels": n}`` (torpor or Final Death is the Storyteller's call).
- Blood: maximum and per-turn from Generation (``systems.v20.rules.blood_pool``); they are derived
  (recomputed on every validation).
- Weapons (V20-17): a hand-to-hand weapon's damage adds to Strength, a firearm's is the whole pool;
  ``WEAPON_CHART`` holds the Book's charts (docs/book-sources.md).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

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
    rating,
)
from rollbook.play.powers import Power, check_powers
from rollbook.rules.base import RuleError
from rollbook.systems.v20 import rules

SYSTEM = "v20"

Attribute = Literal[
    "strength",
    "dexterity",
    "stamina",
    "charisma",
    "manipulation",
    "appearance",
    "perception",
    "intelligence",
    "wits",
]
ATTRIBUTES: tuple[Attribute, ...] = get_args(Attribute)
TALENTS = (
    "alertness",
    "athletics",
    "awareness",
    "brawl",
    "empathy",
    "expression",
    "intimidation",
    "leadership",
    "streetwise",
    "subterfuge",
)
SKILLS = (
    "animal_ken",
    "crafts",
    "drive",
    "etiquette",
    "firearms",
    "larceny",
    "melee",
    "performance",
    "stealth",
    "survival",
)
KNOWLEDGES = (
    "academics",
    "computer",
    "finance",
    "investigation",
    "law",
    "medicine",
    "occult",
    "politics",
    "science",
    "technology",
)
Virtue = Literal["conscience", "self_control", "courage"]
VIRTUES: tuple[Virtue, ...] = get_args(Virtue)
ABILITY_GROUPS: dict[str, tuple[rules.Untrained, tuple[str, ...]]] = {
    "talents": ("talent", TALENTS),
    "skills": ("skill", SKILLS),
    "knowledges": ("knowledge", KNOWLEDGES),
}
HEALTH_TRACK = len(rules.HEALTH_LEVELS)  # 7
DEFAULT_GENERATION = 13

# V20-19 Book: the highest rating a trait may reach by Generation (8th and above, mortals and ghouls: 5).
TRAIT_MAX_BY_GENERATION = {3: 10, 4: 9, 5: 8, 6: 7, 7: 6}

DamageType = Literal["bashing", "lethal", "aggravated"]

PLAYER_FIELDS = frozenset({"name", "player", "concept", "nature", "demeanor", "notes"})
# What a player may add to (never change or remove): a power of a Discipline the sheet rates, within its
# dots (``play.edit_sheet``); the ratings stay the Storyteller's
PLAYER_ADDS = frozenset({"powers"})

# Book tables shown to forms (describe_actions); plain JSON.
TABLES = {
    "blood_by_generation": {
        str(g): {"max": m, "per_turn": t} for g, (m, t) in rules.BLOOD_BY_GENERATION.items()
    },
    "trait_max_by_generation": {str(g): TRAIT_MAX_BY_GENERATION.get(g, 5) for g in rules.BLOOD_BY_GENERATION},
    "health_levels": [{"level": name, "penalty": penalty} for name, penalty in rules.HEALTH_LEVELS],
    "experience_costs": {
        "attribute": "current*4",
        "new_ability": "3",
        "ability": "current*2",
        "new_discipline": "10",
        "clan_discipline": "current*5",
        "other_discipline": "current*7",
        "caitiff_discipline": "current*6",
        "virtue": "current*2",
        "humanity": "current*2",
        "willpower": "current*1",
    },
}


# Book: V20's weapon charts (melee p. 280, ranged p. 281; docs/book-sources.md) as sheet weapons: a
# hand-to-hand weapon's damage adds to Strength, a firearm's is the whole base pool (V20-17). Blunt
# weapons are bashing, blades lethal; firearms lethal (bashing to a vampire unless aimed at the head).
WEAPON_CHART = (
    ("sap", "hand_to_hand", 1, "bashing"),
    ("club", "hand_to_hand", 2, "bashing"),
    ("knife", "hand_to_hand", 1, "lethal"),
    ("sword", "hand_to_hand", 2, "lethal"),
    ("axe", "hand_to_hand", 3, "lethal"),
    ("stake", "hand_to_hand", 1, "lethal"),
    ("light_revolver", "firearm", 4, "lethal"),
    ("heavy_revolver", "firearm", 6, "lethal"),
    ("light_pistol", "firearm", 4, "lethal"),
    ("heavy_pistol", "firearm", 5, "lethal"),
    ("rifle", "firearm", 8, "lethal"),
    ("small_smg", "firearm", 4, "lethal"),
    ("large_smg", "firearm", 4, "lethal"),
    ("assault_rifle", "firearm", 7, "lethal"),
    ("shotgun", "firearm", 8, "lethal"),
    ("semi_auto_shotgun", "firearm", 8, "lethal"),
    ("crossbow", "firearm", 5, "lethal"),
)
TABLES["weapon_chart"] = [
    {"name": name, "kind": kind, "damage": damage, "damage_type": damage_type}
    for name, kind, damage, damage_type in WEAPON_CHART
]


# --- the sheet -----------------------------------------------------------------------------------


class Attributes(Model):
    strength: int = rating(0, 10, 1)
    dexterity: int = rating(0, 10, 1)
    stamina: int = rating(0, 10, 1)
    charisma: int = rating(0, 10, 1)
    manipulation: int = rating(0, 10, 1)
    appearance: int = rating(0, 10, 1)  # a Nosferatu has 0
    perception: int = rating(0, 10, 1)
    intelligence: int = rating(0, 10, 1)
    wits: int = rating(0, 10, 1)


class Virtues(Model):
    conscience: int = rating(0, 5, 1)
    self_control: int = rating(0, 5, 1)
    courage: int = rating(0, 5, 1)


class Willpower(Model):
    permanent: int | None = Field(None, ge=0, le=10)  # default: Courage
    current: int | None = Field(None, ge=0, le=10)  # default: permanent (V20-9 spends lower it)


class Blood(Model):
    current: int | None = Field(None, ge=0, le=50)  # default: the maximum
    max: int | None = Field(None, ge=0, le=50)  # derived from Generation (V20-16)
    per_turn: int | None = Field(None, ge=0, le=10)  # derived from Generation (V20-16)


class Health(Model):
    bashing: int = rating(0, HEALTH_TRACK, 0)
    lethal: int = rating(0, HEALTH_TRACK, 0)
    aggravated: int = rating(0, HEALTH_TRACK, 0)

    @property
    def damage(self) -> int:
        return self.bashing + self.lethal + self.aggravated

    @model_validator(mode="after")
    def _fits_the_track(self) -> Health:
        if self.damage > HEALTH_TRACK:
            raise RuleError("out_of_range", field="health", value=self.damage, low=0, high=HEALTH_TRACK)
        return self


class Weapon(Model):
    """A weapon on the sheet (V20-17 Book): hand-to-hand weapons add ``damage`` to Strength; a firearm's
    ``damage`` is its rating, the whole base pool. ``damage_type`` is what each damage success inflicts."""

    name: Label
    kind: Literal["hand_to_hand", "firearm"] = "hand_to_hand"
    damage: int = rating(0, 20, 0)
    damage_type: DamageType = "lethal"

    @model_validator(mode="after")
    def _firearm_has_a_rating(self) -> Weapon:
        if self.kind == "firearm" and self.damage < 1:
            raise RuleError("out_of_range", field="damage", value=self.damage, low=1, high=20)
        return self


class Sheet(Identity):
    system: Literal["v20"] = "v20"
    clan: Short = ""
    sire: Short = ""
    nature: Short = ""
    demeanor: Short = ""
    notes: Text = ""
    creature: Literal["vampire", "mortal"] = "vampire"
    generation: int | None = Field(None, ge=4, le=15)  # vampires: default 13; mortals: none
    attributes: Attributes = Field(default_factory=Attributes)
    talents: dict[TraitName, int] = Field(default_factory=dict)  # 0–5 (0 = untrained, V20-3)
    skills: dict[TraitName, int] = Field(default_factory=dict)
    knowledges: dict[TraitName, int] = Field(default_factory=dict)
    disciplines: dict[TraitName, int] = Field(default_factory=dict)  # 0–10
    clan_disciplines: list[TraitName] = Field(default_factory=list)  # for experience costs
    powers: list[Power] = Field(default_factory=list)  # Discipline powers (play.powers)
    names: dict[TraitName, Label] = Field(default_factory=dict)  # a homebrew trait's name as typed, by id
    specialties: dict[TraitName, list[Label]] = Field(default_factory=dict)  # trait -> names (V20-7)
    virtues: Virtues = Field(default_factory=Virtues)
    humanity: int = rating(0, 10, 7)
    willpower: Willpower = Field(default_factory=Willpower)
    blood: Blood = Field(default_factory=Blood)
    health: Health = Field(default_factory=Health)
    weapons: list[Weapon] = Field(default_factory=list)  # V20-17
    experience: Experience = Field(default_factory=Experience)

    @model_validator(mode="after")
    def _fill_and_check(self) -> Sheet:
        names = [weapon.name for weapon in self.weapons]
        if len(set(names)) != len(names):
            raise RuleError("duplicate_name", field="weapons")
        # Abilities: the standard ones present (0 when absent), ratings 0–5, names unique.
        seen: dict[str, str] = dict.fromkeys(ATTRIBUTES, "attributes")
        seen.update(dict.fromkeys(VIRTUES, "virtues"))
        for group, (_, standard) in ABILITY_GROUPS.items():
            given = getattr(self, group)
            filled: dict[str, Any] = dict.fromkeys(standard, 0)  # the standard ones first, in order
            filled.update(given)
            for name, value in filled.items():
                check_within(
                    f"{group}.{name}", value, 0, 10
                )  # V20-19: above 5 by Generation (above_generation)
                if name in seen:
                    raise RuleError("duplicate_trait", field=f"{group}.{name}", trait=name, other=seen[name])
                seen[name] = group
            setattr(self, group, filled)
        for name, value in self.disciplines.items():
            check_within(f"disciplines.{name}", value, 0, 10)
            if name in seen:
                raise RuleError("duplicate_trait", field=f"disciplines.{name}", trait=name, other=seen[name])
        for name in self.clan_disciplines:
            if name in seen:
                raise RuleError("duplicate_trait", field="clan_disciplines", trait=name, other=seen[name])
        check_powers(SYSTEM, self.powers, self.disciplines)
        # Specialties: on an Attribute or Ability rated 4 or 5 (V20-7).
        for trait, names in self.specialties.items():
            value = trait_rating(self, trait)
            if value is None:
                raise RuleError("unknown_trait", field=f"specialties.{trait}", trait=trait)
            if value < 4:  # V20-7
                raise RuleError(
                    "specialty_rating_too_low", field=f"specialties.{trait}", trait=trait, rating=value
                )
            if len(set(names)) != len(names):
                raise RuleError("duplicate_name", field=f"specialties.{trait}")
        # Generation and blood (V20-16): derived maximum and per-turn.
        if self.creature == "vampire":
            if self.generation is None:
                self.generation = DEFAULT_GENERATION
            maximum, per_turn = rules.blood_pool(self.generation)
        else:
            if self.generation is not None:
                raise RuleError("field_not_for_creature", field="generation", creature=self.creature)
            maximum, per_turn = 0, 0
        current = maximum if self.blood.current is None else self.blood.current
        if current > maximum:
            raise RuleError("out_of_range", field="blood.current", value=current, low=0, high=maximum)
        self.blood = Blood(current=current, max=maximum, per_turn=per_turn)
        # Willpower: permanent defaults to Courage, current to permanent (V20-9).
        permanent = self.virtues.courage if self.willpower.permanent is None else self.willpower.permanent
        current = permanent if self.willpower.current is None else self.willpower.current
        if current > permanent:
            raise RuleError("out_of_range", field="willpower.current", value=current, low=0, high=permanent)
        self.willpower = Willpower(permanent=permanent, current=current)
        return self


def trait_rating(sheet: Sheet, trait: str) -> int | None:
    """The rating of an Attribute or Ability (the traits a specialty may sit on)."""
    if trait in ATTRIBUTES:
        attribute: int = getattr(sheet.attributes, trait)
        return attribute
    for group in ABILITY_GROUPS:
        ratings: dict[str, int] = getattr(sheet, group)
        if trait in ratings:
            return ratings[trait]
    return None


def ability_of(sheet: Sheet, name: str) -> tuple[str, int]:
    for group in ABILITY_GROUPS:
        ratings: dict[str, int] = getattr(sheet, group)
        if name in ratings:
            return group, ratings[name]
    raise RuleError("unknown_trait", field="ability", trait=name)


def trait_maximum(sheet: Sheet) -> int:
    if sheet.generation is None:
        return 5
    return TRAIT_MAX_BY_GENERATION.get(sheet.generation, 5)


def above_generation(sheet: Sheet) -> list[JsonObject]:
    """V20-19: every Attribute, Ability and Discipline rated above the Generation's maximum, as
    ``{"field", "trait", "rating", "maximum", "generation"}`` (refused in Strict, warned in Casual)."""
    top = trait_maximum(sheet)
    found: list[JsonObject] = []
    groups: list[tuple[str, dict[str, int]]] = [
        ("attributes", {name: getattr(sheet.attributes, name) for name in ATTRIBUTES})
    ]
    groups += [(group, getattr(sheet, group)) for group in ABILITY_GROUPS]
    groups.append(("disciplines", sheet.disciplines))
    for group, ratings in groups:
        for name, value in ratings.items():
            if value > top:
                found.append(
                    {
                        "field": f"{group}.{name}",
                        "trait": name,
                        "rating": value,
                        "maximum": top,
                        "generation": sheet.generation,
                    }
                )
    return found


def check_mode(sheet: Sheet, mode: str) -> None:
    """V20-19: in Strict mode a sheet with a trait above its Generation's maximum is refused."""
    if mode == "strict":
        for excess in above_generation(sheet):
            raise RuleError("trait_above_generation", **excess)


# --- the health track ------------------------------------------------------------------------------

SEVERITY = ("bashing", "lethal", "aggravated")


def take_damage(health: Health, levels: int, damage_type: str, effects: Effects) -> Health:
    """Mark damage on the 7-level track (V20-16 Book, simplified: see the module docstring)."""
    counts = {t: getattr(health, t) for t in SEVERITY}
    overflow = 0
    for _ in range(levels):
        if sum(counts.values()) < HEALTH_TRACK:
            counts[damage_type] += 1
            continue
        target = "lethal" if damage_type == "bashing" else damage_type
        lower = [t for t in SEVERITY[: SEVERITY.index(target)] if counts[t] > 0]
        if lower:
            counts[lower[0]] -= 1
            counts[target] += 1
        else:
            overflow += 1
    for t in SEVERITY:
        effects.change(f"health.{t}", getattr(health, t), counts[t])
    if overflow:
        effects.flag("health_overflow", levels=overflow)
    after = Health(**counts)
    if after.damage >= HEALTH_TRACK and health.damage < HEALTH_TRACK:
        effects.flag("incapacitated")
    return after


def heal(health: Health, levels: int, damage_type: str, effects: Effects) -> Health:
    before = getattr(health, damage_type)
    if before == 0:
        raise RuleError("nothing_to_heal", damage_type=damage_type)
    after = max(0, before - levels)
    effects.change(f"health.{damage_type}", before, after)
    return health.model_copy(update={damage_type: after})


# --- what a player checks between rolls ------------------------------------------------------


def resources(sheet: JsonObject) -> tuple[Resource, ...]:
    """The tracks a player checks between rolls (Discord's ``/sheet``), in codes and numbers:
    Willpower (current of permanent), the blood pool and its per-turn limit (V20-18), the damage
    levels taken and the wound penalty they make (V20-16; None: incapacitated)."""
    willpower, blood, health = (
        sheet.get("willpower") or {},
        sheet.get("blood") or {},
        sheet.get("health") or {},
    )
    out = [Resource("willpower", "ratio", (willpower.get("current"), willpower.get("permanent")))]
    if blood.get("max"):
        numbers = (blood.get("current", blood["max"]), blood["max"], blood.get("per_turn") or 1)
        out.append(Resource("blood_pool", "blood_pool", numbers))
    counts = [health.get(kind) or 0 for kind in ("bashing", "lethal", "aggravated")]
    out.append(Resource("health", "damage", (*counts, rules.wound_penalty(sum(counts)))))
    return tuple(out)
