"""V20 sheets and actions (SPEC V20-1 … V20-16): pools named by traits, built from the sheet.

Book choices, kept simple and documented here:
- Wound penalties (V20-16, ``rules.v20.wound_penalty``) reduce every action pool except soak;
  a character at Incapacitated (7 levels) cannot act (soak still allowed). A pool never goes
  below 0 dice (V20-1: an empty pool rolls nothing).
- Health: 7 levels of bashing/lethal/aggravated. When the track is full, each further level
  upgrades the least severe level below its own type (bashing→lethal for bashing or lethal,
  bashing/lethal→aggravated for aggravated); what cannot be marked is reported as
  ``{"flag": "health_overflow", "levels": n}`` (torpor or Final Death is the Storyteller's call).
- Soak (V20-16): ``rules.v20.SoakRequest``: vampires soak bashing and lethal with Stamina +
  Fortitude and aggravated with Fortitude; mortals soak bashing with Stamina only.
- Blood: maximum and per-turn from Generation (``rules.v20.blood_pool``); they are derived
  (recomputed on every validation). One spend may not exceed the per-turn limit. Healing costs
  one blood per level of bashing or lethal.
- Experience (V20 Book costs, one dot at a time; sources in docs/book-sources.md): Attribute
  current×4; new Ability 3, Ability current×2; new Discipline 10, clan Discipline current×5, other
  Discipline current×7, a Caitiff's Discipline current×6; Virtue current×2; Humanity current×2;
  Willpower current×1. Traits cannot be raised past the
  Generation's maximum (5 at 8th and above, 6 at 7th, 7 at 6th, 8 at 5th, 9 at 4th).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from rollbook import dice
from rollbook.play.common import (
    Effects, Experience, Label, Model, Performed, Prepared, Short, Shim, Text, TraitName, change_receipt,
    check_chained, check_raise, compare, follows_note, pay_experience, performed, rating, replay, roll_receipt,
    storyteller_only,
)
from rollbook.rules import get_system
from rollbook.rules import v20 as rules
from rollbook.rules.base import RuleError, to_plain

SYSTEM = "v20"

ATTRIBUTES = ("strength", "dexterity", "stamina", "charisma", "manipulation", "appearance",
              "perception", "intelligence", "wits")
TALENTS = ("alertness", "athletics", "awareness", "brawl", "empathy", "expression", "intimidation",
           "leadership", "streetwise", "subterfuge")
SKILLS = ("animal_ken", "crafts", "drive", "etiquette", "firearms", "larceny", "melee", "performance",
          "stealth", "survival")
KNOWLEDGES = ("academics", "computer", "finance", "investigation", "law", "medicine", "occult", "politics",
              "science", "technology")
VIRTUES = ("conscience", "self_control", "courage")
ABILITY_GROUPS = {"talents": ("talent", TALENTS), "skills": ("skill", SKILLS), "knowledges": ("knowledge", KNOWLEDGES)}
HEALTH_TRACK = len(rules.HEALTH_LEVELS)  # 7
DEFAULT_GENERATION = 13

# Book: the highest rating a trait may reach by Generation (8th and above: 5).
TRAIT_MAX_BY_GENERATION = {4: 9, 5: 8, 6: 7, 7: 6}

PLAYER_FIELDS = frozenset({"name", "player", "concept", "nature", "demeanor", "notes"})

# Book tables shown to forms (describe_actions); plain JSON.
TABLES = {
    "blood_by_generation": {str(g): {"max": m, "per_turn": t} for g, (m, t) in rules.BLOOD_BY_GENERATION.items()},
    "trait_max_by_generation": {str(g): TRAIT_MAX_BY_GENERATION.get(g, 5) for g in rules.BLOOD_BY_GENERATION},
    "health_levels": [{"level": name, "penalty": penalty} for name, penalty in rules.HEALTH_LEVELS],
    "experience_costs": {"attribute": "current*4", "new_ability": "3", "ability": "current*2",
                         "new_discipline": "10", "clan_discipline": "current*5", "other_discipline": "current*7",
                         "caitiff_discipline": "current*6",
                         "virtue": "current*2", "humanity": "current*2", "willpower": "current*1"},
}


# Book: V20's weapon charts (melee p. 280, ranged p. 281; docs/book-sources.md) as sheet weapons: a
# hand-to-hand weapon's damage adds to Strength, a firearm's is the whole base pool (V20-17). Blunt
# weapons are bashing, blades lethal; firearms lethal (bashing to a vampire unless aimed at the head).
WEAPON_CHART = (
    ("sap", "hand_to_hand", 1, "bashing"), ("club", "hand_to_hand", 2, "bashing"),
    ("knife", "hand_to_hand", 1, "lethal"), ("sword", "hand_to_hand", 2, "lethal"),
    ("axe", "hand_to_hand", 3, "lethal"), ("stake", "hand_to_hand", 1, "lethal"),
    ("light_revolver", "firearm", 4, "lethal"), ("heavy_revolver", "firearm", 6, "lethal"),
    ("light_pistol", "firearm", 4, "lethal"), ("heavy_pistol", "firearm", 5, "lethal"),
    ("rifle", "firearm", 8, "lethal"), ("small_smg", "firearm", 4, "lethal"), ("large_smg", "firearm", 4, "lethal"),
    ("assault_rifle", "firearm", 7, "lethal"), ("shotgun", "firearm", 8, "lethal"),
    ("semi_auto_shotgun", "firearm", 8, "lethal"), ("crossbow", "firearm", 5, "lethal"),
)
TABLES["weapon_chart"] = [{"name": name, "kind": kind, "damage": damage, "damage_type": damage_type}
                          for name, kind, damage, damage_type in WEAPON_CHART]


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
    damage_type: Literal["bashing", "lethal", "aggravated"] = "lethal"

    @model_validator(mode="after")
    def _firearm_has_a_rating(self) -> Weapon:
        if self.kind == "firearm" and self.damage < 1:
            raise RuleError("out_of_range", field="damage", value=self.damage, low=1, high=20)
        return self


class Sheet(Model):
    system: Literal["v20"] = "v20"
    name: Label
    player: Short = ""
    concept: Short = ""
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
        seen: dict[str, str] = {name: "attributes" for name in ATTRIBUTES}
        seen.update({name: "virtues" for name in VIRTUES})
        for group, (_, standard) in ABILITY_GROUPS.items():
            given = getattr(self, group)
            filled = {name: given.get(name, 0) for name in standard}
            filled.update(given)
            for name, value in filled.items():
                _check_rating(f"{group}.{name}", value, 0, 5)
                if name in seen:
                    raise RuleError("duplicate_trait", field=f"{group}.{name}", trait=name, other=seen[name])
                seen[name] = group
            setattr(self, group, filled)
        for name, value in self.disciplines.items():
            _check_rating(f"disciplines.{name}", value, 0, 10)
            if name in seen:
                raise RuleError("duplicate_trait", field=f"disciplines.{name}", trait=name, other=seen[name])
        for name in self.clan_disciplines:
            if name in seen:
                raise RuleError("duplicate_trait", field="clan_disciplines", trait=name, other=seen[name])
        # Specialties: on an Attribute or Ability rated 4 or 5 (V20-7).
        for trait, names in self.specialties.items():
            value = _trait_rating(self, trait)
            if value is None:
                raise RuleError("unknown_trait", field=f"specialties.{trait}", trait=trait)
            if value < 4:  # V20-7
                raise RuleError("specialty_rating_too_low", field=f"specialties.{trait}", trait=trait, rating=value)
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


def _check_rating(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise RuleError("out_of_range", field=field, value=value, low=low, high=high)


def _trait_rating(sheet: Sheet, trait: str) -> int | None:
    """The rating of an Attribute or Ability (the traits a specialty may sit on)."""
    if trait in ATTRIBUTES:
        return getattr(sheet.attributes, trait)
    for group in ABILITY_GROUPS:
        ratings = getattr(sheet, group)
        if trait in ratings:
            return ratings[trait]
    return None


def _ability(sheet: Sheet, name: str) -> tuple[str, int]:
    for group in ABILITY_GROUPS:
        ratings = getattr(sheet, group)
        if name in ratings:
            return group, ratings[name]
    raise RuleError("unknown_trait", field="ability", trait=name)


def trait_maximum(sheet: Sheet) -> int:
    if sheet.generation is None:
        return 5
    return TRAIT_MAX_BY_GENERATION.get(sheet.generation, 5)


# --- actions (rolls) ------------------------------------------------------------------------------

AttributeName = Literal[ATTRIBUTES]  # type: ignore[valid-type]
DamageType = Literal["bashing", "lethal", "aggravated"]


class TestAction(Model):
    """Attribute + Ability (or + Discipline) against a difficulty (V20-1 … V20-12)."""

    kind: Literal["test"]
    attribute: AttributeName
    ability: TraitName | None = None
    discipline: TraitName | None = None
    specialty: Label | None = None  # a specialty the sheet holds on the attribute or ability (V20-7)
    difficulty: int = rating(2, 10, rules.DEFAULT_DIFFICULTY)  # V20-2
    required: int = rating(1, 20, 1)  # V20-2
    modifier: int = rating(-20, 20, 0)  # dice added or removed (equipment, circumstances)
    willpower: bool = False  # V20-9: spend one Willpower for an automatic success
    auto_successes: int = rating(0, 10, 0)  # from powers (V20-9), recorded apart
    knowledge_allowed: bool = False  # V20-3 Book: the Storyteller allows an untrained Knowledge


class WillpowerRollAction(Model):
    """A roll of permanent Willpower (V20-9: no Willpower success on it)."""

    kind: Literal["willpower"]
    difficulty: int = rating(2, 10, rules.DEFAULT_DIFFICULTY)
    required: int = rating(1, 20, 1)
    modifier: int = rating(-20, 20, 0)


class VirtueRollAction(Model):
    """A roll of a Virtue (Conscience, Self-Control, Courage)."""

    kind: Literal["virtue"]
    virtue: Literal[VIRTUES]  # type: ignore[valid-type]
    difficulty: int = rating(2, 10, rules.DEFAULT_DIFFICULTY)
    required: int = rating(1, 20, 1)
    modifier: int = rating(-20, 20, 0)


class DamageAction(Model):
    """The damage roll of a successful attack (V20-17): the weapon's pool plus one die per attack
    success beyond the first, taken from the attack's receipt (the roll this one follows). No weapon:
    a punch, Strength in bashing damage."""

    kind: Literal["damage"]
    weapon: Label | None = None
    aimed_at_head: bool = False  # Book: a bullet aimed at the head stays lethal against a vampire


class SoakAction(Model):
    """A soak roll at difficulty 6 (V20-16); the damage left is marked on the health track. Following a
    damage roll (the combat chain), its levels and damage type come from that receipt; otherwise
    they are typed in."""

    kind: Literal["soak"]
    damage: int | None = Field(None, ge=0, le=30)
    damage_type: DamageType | None = None


ACTIONS: dict[str, type[Model]] = {
    "test": TestAction,
    "willpower": WillpowerRollAction,
    "virtue": VirtueRollAction,
    "damage": DamageAction,
    "soak": SoakAction,
}
FOLLOWUPS: dict[str, type[Model]] = {}
STORYTELLER_ACTIONS: frozenset[str] = frozenset()
# The combat chain (V20-17): attack (a test) -> damage -> soak -> health track.
CHAINS: dict[str, tuple[str, ...]] = {"damage": ("test",), "soak": ("damage",)}


def _wound(sheet: Sheet) -> int:
    penalty = rules.wound_penalty(sheet.health.damage)  # V20-16
    if penalty is None:
        raise RuleError("incapacitated", damage=sheet.health.damage)
    return penalty


def _pool(parts: list[dict], modifiers: list[dict], wound: int) -> dict:
    raw = sum(p["rating"] for p in parts) + sum(m["dice"] for m in modifiers) + wound
    return {"parts": parts, "modifiers": modifiers, "wound_penalty": wound, "total": max(0, raw)}  # V20-1


def prepare(sheet: Sheet, action: Model, *, mode: str, role: str, follows: dict | None = None) -> Prepared:
    """Build the roll from the sheet (pool and rules request) and make every refusal; no die drawn."""
    if isinstance(action, SoakAction):
        return _prepare_soak(sheet, action, follows)
    if isinstance(action, DamageAction):
        return _prepare_damage(sheet, action, follows)
    modifiers = [{"source": "modifier", "dice": action.modifier}] if action.modifier else []
    wound = _wound(sheet)
    untrained = None
    specialty_rating = None
    willpower = False
    auto = 0
    knowledge_allowed = False
    if isinstance(action, TestAction):
        parts = [{"trait": action.attribute, "rating": getattr(sheet.attributes, action.attribute)}]
        if action.ability is not None and action.discipline is not None:
            raise RuleError("one_trait_only", fields=["ability", "discipline"])
        if action.ability is not None:
            group, value = _ability(sheet, action.ability)
            part = {"trait": action.ability, "rating": value, "group": group}
            if value == 0:  # V20-3: a Talent rolls the Attribute alone; a Skill or Knowledge adds +1
                untrained = ABILITY_GROUPS[group][0]
                part["untrained"] = untrained
            parts.append(part)
        if action.discipline is not None:
            value = sheet.disciplines.get(action.discipline, 0)
            if value == 0:
                raise RuleError("trait_not_possessed", field="discipline", trait=action.discipline)
            parts.append({"trait": action.discipline, "rating": value, "group": "disciplines"})
        if action.specialty is not None:  # V20-7: the chosen trait's stored rating decides
            holders = [t for t in (action.attribute, action.ability)
                       if t is not None and action.specialty in sheet.specialties.get(t, [])]
            if not holders:
                raise RuleError("unknown_specialty", field="specialty", specialty=action.specialty)
            trait = holders[-1]
            specialty_rating = _trait_rating(sheet, trait)
            for part in parts:
                if part["trait"] == trait:
                    part["specialty"] = action.specialty
        willpower = action.willpower
        auto = action.auto_successes
        knowledge_allowed = action.knowledge_allowed
        # V20-3 Book and V20-9: the Storyteller's leave for an untrained Knowledge, and successes
        # granted by powers, are the Storyteller's to give, not a player's to claim.
        if knowledge_allowed:
            storyteller_only(role, "test.knowledge_allowed")
        if auto:
            storyteller_only(role, "test.auto_successes")
        difficulty, required = action.difficulty, action.required
        willpower_roll = False
    elif isinstance(action, WillpowerRollAction):
        parts = [{"trait": "willpower", "rating": sheet.willpower.permanent}]
        difficulty, required, willpower_roll = action.difficulty, action.required, True
    else:
        assert isinstance(action, VirtueRollAction)
        parts = [{"trait": action.virtue, "rating": getattr(sheet.virtues, action.virtue)}]
        difficulty, required, willpower_roll = action.difficulty, action.required, False
    pool = _pool(parts, modifiers, wound)
    # The request validates itself before any die is drawn (V20-3, V20-7, V20-9 refusals).
    request = rules.V20Request(
        pool=pool["total"],
        difficulty=difficulty,
        required=required,
        mode=mode,
        untrained=untrained,
        knowledge_allowed=knowledge_allowed,
        specialty=specialty_rating is not None,
        specialty_rating=specialty_rating,
        willpower=willpower,
        willpower_roll=willpower_roll,
        willpower_current=sheet.willpower.current if willpower else None,
        auto_successes=auto,
    )
    return Prepared(request, pool, get_system(SYSTEM))


def apply(sheet: Sheet, action: Model, prepared: Prepared, faces: tuple, result: object, *,
          source: dice.DiceSource) -> Performed:
    """The consequences of the drawn dice, on a copy of the sheet (``play.perform`` draws them)."""
    effects = Effects()
    new = sheet.model_copy(deep=True)
    if isinstance(action, SoakAction):  # V20-17: the levels left after soak, marked in the soak's transaction
        new.health = _take_damage(sheet.health, result.damage_taken, prepared.request.damage_type, effects)
    elif isinstance(action, DamageAction):
        pass  # V20-17: a damage roll changes nothing on the attacker's sheet; the defender's soak marks it
    elif prepared.request.willpower:  # V20-9: the spend lowers current Willpower in the same transaction
        new.willpower.current = sheet.willpower.current - 1
        effects.change("willpower", sheet.willpower.current, new.willpower.current)
    receipt = roll_receipt(SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, effects,
                           **follows_note(prepared.context.get("follows")))
    return performed(new, receipt, effects)


SOAK_SYSTEM = Shim(rules.soak_needed, rules.resolve_soak)
DAMAGE_SYSTEM = Shim(rules.damage_needed, rules.resolve_damage)


def attack_successes_of(follows: dict) -> int:
    """V20-17: a damage roll follows a successful attack; its successes beyond the first add dice."""
    result = follows["result"]
    if result.get("outcome") != "success":
        raise RuleError("attack_missed")
    return result["successes"]


def _prepare_damage(sheet: Sheet, action: DamageAction, follows: dict | None) -> Prepared:
    """V20-17 Book: Strength + the weapon's bonus (hand-to-hand) or the weapon's rating (firearms), plus
    one die per attack success beyond the first (from the attack's receipt); difficulty 6, no botch.
    Reading: wound penalties do not reduce a damage pool (as soak, V20-16)."""
    if follows is None:
        raise RuleError("follows_required", kind="damage", follows="test")
    successes = attack_successes_of(follows)
    strength = sheet.attributes.strength
    if action.weapon is None:  # Book: a punch is Strength, bashing
        weapon = Weapon(name="unarmed", kind="hand_to_hand", damage=0, damage_type="bashing")
    else:
        weapon = _weapon(sheet, action.weapon)
    firearm = weapon.kind == "firearm"
    base, extra = rules.damage_pool(strength, weapon.damage, firearm, successes)
    parts = [] if firearm else [{"trait": "strength", "rating": strength}]
    parts.append({"trait": "weapon", "weapon": weapon.name, "rating": weapon.damage})
    modifiers = [{"source": "attack_successes", "dice": extra, "successes": successes}] if extra else []
    request = rules.DamageRequest(pool=base + extra, damage_type=weapon.damage_type)
    pool = {"parts": parts, "modifiers": modifiers, "wound_penalty": 0, "total": request.pool,
            "weapon": {"name": weapon.name, "kind": weapon.kind, "damage": weapon.damage,
                       "damage_type": weapon.damage_type}}
    return Prepared(request, pool, DAMAGE_SYSTEM, {"follows": follows})


def _weapon(sheet: Sheet, name: str) -> Weapon:
    for weapon in sheet.weapons:
        if weapon.name == name:
            return weapon
    raise RuleError("unknown_weapon", field="weapon", weapon=name)


def _damage_from(sheet: Sheet, follows: dict) -> tuple[int, str, dict]:
    """The levels and damage type a soak takes from the damage receipt it follows (V20-17), with the
    Book's rule for bullets against vampires (``rules.v20.damage_type_against``)."""
    result, weapon = follows["result"], follows["pool"]["weapon"]
    damage_type = rules.damage_type_against(result["damage_type"], firearm=weapon["kind"] == "firearm",
                                            vampire=sheet.creature == "vampire",
                                            aimed_at_head=follows["action"].get("aimed_at_head", False))
    taken = {"levels": result["levels"], "damage_type": result["damage_type"], "weapon": weapon["name"]}
    if damage_type != result["damage_type"]:
        taken["soaked_as"] = damage_type
    return result["levels"], damage_type, taken


def _prepare_soak(sheet: Sheet, action: SoakAction, follows: dict | None) -> Prepared:
    check_chained(action, follows, ("damage", "damage_type"))
    if follows is None:
        levels, damage_type, taken = action.damage, action.damage_type, None
    else:
        levels, damage_type, taken = _damage_from(sheet, follows)
    stamina = sheet.attributes.stamina
    fortitude = sheet.disciplines.get("fortitude", 0)
    request = rules.SoakRequest(damage=levels, damage_type=damage_type, stamina=stamina,
                                fortitude=fortitude, vampire=sheet.creature == "vampire")
    parts = []
    if sheet.creature == "vampire":
        if damage_type != "aggravated":
            parts.append({"trait": "stamina", "rating": stamina})
        parts.append({"trait": "fortitude", "rating": fortitude})
    elif damage_type == "bashing":
        parts.append({"trait": "stamina", "rating": stamina})
    pool = {"parts": parts, "modifiers": [], "wound_penalty": 0, "total": rules.soak_pool(request)}
    if taken is not None:
        pool["damage_from"] = taken
    return Prepared(request, pool, SOAK_SYSTEM, {"follows": follows})


SEVERITY = ("bashing", "lethal", "aggravated")


def _take_damage(health: Health, levels: int, damage_type: str, effects: Effects) -> Health:
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


def _heal(health: Health, levels: int, damage_type: str, effects: Effects) -> Health:
    before = getattr(health, damage_type)
    if before == 0:
        raise RuleError("nothing_to_heal", damage_type=damage_type)
    after = max(0, before - levels)
    effects.change(f"health.{damage_type}", before, after)
    return health.model_copy(update={damage_type: after})


def followup(sheet: Sheet, receipt: dict, action: dict, *, mode: str, role: str,
             source: dice.DiceSource) -> Performed:
    raise RuleError("no_followup", system=SYSTEM)


# --- changes (no dice) ---------------------------------------------------------------------------

class SpendWillpower(Model):
    """Spend Willpower outside a roll (e.g. to resist); a roll's own spend goes on the action."""

    kind: Literal["spend_willpower"]
    amount: int = rating(1, 10, 1)


class SpendBlood(Model):
    """Spend blood (V20-16): at most the per-turn limit at once; ``heal`` mends one level per blood."""

    kind: Literal["spend_blood"]
    amount: int = rating(1, 50, 1)
    heal: Literal["bashing", "lethal"] | None = None


class TakeDamage(Model):
    """Mark damage that was not soaked (or cannot be) on the health track."""

    kind: Literal["damage"]
    levels: int = rating(1, 30)
    damage_type: DamageType


class Restore(Model):
    """Storyteller: restore Willpower or blood (feeding), or heal health levels of one type."""

    kind: Literal["restore"]
    resource: Literal["willpower", "blood", "health"]
    amount: int = rating(1, 50)
    damage_type: DamageType | None = None  # health only


class AwardExperience(Model):
    kind: Literal["award_experience"]
    amount: int = rating(1, 1000)


class SpendExperience(Model):
    """Raise one trait by one dot at its Book cost (module docstring)."""

    kind: Literal["spend_experience"]
    trait: TraitName


CHANGES: dict[str, type[Model]] = {
    "spend_willpower": SpendWillpower,
    "spend_blood": SpendBlood,
    "damage": TakeDamage,
    "restore": Restore,
    "award_experience": AwardExperience,
    "spend_experience": SpendExperience,
}
STORYTELLER_CHANGES = frozenset({"restore", "award_experience"})


def xp_cost(sheet: Sheet, trait: str) -> tuple[str, int, int, int]:
    """(where, current rating, cost of the next dot, maximum) for a trait, Book costs."""
    top = trait_maximum(sheet)
    if trait in ATTRIBUTES:
        current = getattr(sheet.attributes, trait)
        if current == 0:
            raise RuleError("trait_cannot_be_raised", trait=trait)
        return "attributes", current, 4 * current, top
    for group in ABILITY_GROUPS:
        ratings = getattr(sheet, group)
        if trait in ratings:
            current = ratings[trait]
            return group, current, 3 if current == 0 else 2 * current, 5
    if trait in VIRTUES:
        current = getattr(sheet.virtues, trait)
        return "virtues", current, 2 * current, 5
    if trait == "humanity":
        return "humanity", sheet.humanity, 2 * sheet.humanity, 10
    if trait == "willpower":
        return "willpower", sheet.willpower.permanent, sheet.willpower.permanent, 10
    current = sheet.disciplines.get(trait, 0)
    if current == 0:
        cost = 10
    elif sheet.clan.strip().lower() == "caitiff":  # Book: a Caitiff has no clan Disciplines, every one × 6
        cost = 6 * current
    elif trait in sheet.clan_disciplines:
        cost = 5 * current
    else:
        cost = 7 * current
    return "disciplines", current, cost, top


def adjust(sheet: Sheet, change: Model, *, role: str) -> Performed:
    if change.kind in STORYTELLER_CHANGES:
        storyteller_only(role, change.kind)
    effects = Effects()
    new = sheet.model_copy(deep=True)
    if isinstance(change, SpendWillpower):
        current = sheet.willpower.current
        if current <= 0:
            raise RuleError("willpower_exhausted")
        if change.amount > current:
            raise RuleError("not_enough_willpower", amount=change.amount, current=current)
        new.willpower.current = current - change.amount
        effects.change("willpower", current, new.willpower.current)
    elif isinstance(change, SpendBlood):
        blood = sheet.blood
        if sheet.creature != "vampire":
            raise RuleError("no_blood_pool", creature=sheet.creature)
        if change.amount > blood.per_turn:  # V20-16: blood per turn by Generation
            raise RuleError("blood_per_turn_exceeded", amount=change.amount, per_turn=blood.per_turn)
        if change.amount > blood.current:
            raise RuleError("not_enough_blood", amount=change.amount, current=blood.current)
        if change.heal is not None:
            if getattr(sheet.health, change.heal) < change.amount:
                raise RuleError("nothing_to_heal", damage_type=change.heal, levels=getattr(sheet.health, change.heal))
            new.health = _heal(sheet.health, change.amount, change.heal, effects)
        new.blood.current = blood.current - change.amount
        effects.change("blood", blood.current, new.blood.current)
    elif isinstance(change, TakeDamage):
        new.health = _take_damage(sheet.health, change.levels, change.damage_type, effects)
    elif isinstance(change, Restore):
        if change.resource == "willpower":
            new.willpower.current = min(sheet.willpower.permanent, sheet.willpower.current + change.amount)
            effects.change("willpower", sheet.willpower.current, new.willpower.current)
        elif change.resource == "blood":
            new.blood.current = min(sheet.blood.max, sheet.blood.current + change.amount)
            effects.change("blood", sheet.blood.current, new.blood.current)
        else:
            if change.damage_type is None:
                raise RuleError("missing_field", field="damage_type")
            new.health = _heal(sheet.health, change.amount, change.damage_type, effects)
    elif isinstance(change, AwardExperience):
        new.experience = sheet.experience.awarded(change.amount)
        effects.change("experience", sheet.experience.available, new.experience.available)
    else:
        assert isinstance(change, SpendExperience)
        where, current, cost, top = xp_cost(sheet, change.trait)
        check_raise(change.trait, current, top)
        new.experience = pay_experience(sheet.experience, cost, current + 1)
        if where == "attributes":
            setattr(new.attributes, change.trait, current + 1)
        elif where == "virtues":
            setattr(new.virtues, change.trait, current + 1)
        elif where == "humanity":
            new.humanity = current + 1
        elif where == "willpower":
            new.willpower.permanent = current + 1
            new.willpower.current = sheet.willpower.current + 1
            effects.change("willpower", sheet.willpower.current, new.willpower.current)
        else:
            getattr(new, where)[change.trait] = current + 1
        resource = {"humanity": "humanity", "willpower": "willpower.permanent"}.get(where, f"{where}.{change.trait}")
        effects.change(resource, current, current + 1, cost=cost)
        effects.change("experience", sheet.experience.available, new.experience.available)
    receipt = change_receipt(SYSTEM, change, effects)
    return performed(new, receipt, effects)


# --- verification ----------------------------------------------------------------------------

def verify(receipt: dict) -> list[str]:
    kind = receipt.get("kind")
    if kind == "soak":
        request, result = replay(rules.SoakRequest, rules.resolve_soak, receipt)
        expected_total = rules.soak_pool(request)
    elif kind == "damage":
        request, result = replay(rules.DamageRequest, rules.resolve_damage, receipt)
        expected_total = request.pool
    else:
        request, result = replay(rules.V20Request, rules.resolve, receipt)
        expected_total = request.pool
    problems = compare(receipt.get("result"), to_plain(result), "result")
    pool = receipt.get("pool") or {}
    if pool.get("total") != expected_total:
        problems.append("pool_mismatch:total")
    if kind != "soak" and isinstance(pool.get("parts"), list):
        try:
            raw = (sum(p["rating"] for p in pool["parts"]) + sum(m["dice"] for m in pool.get("modifiers", []))
                   + pool.get("wound_penalty", 0))
        except (KeyError, TypeError):
            problems.append("pool_mismatch:parts")
        else:
            if max(0, raw) != pool.get("total"):
                problems.append("pool_mismatch:parts")
    return problems
