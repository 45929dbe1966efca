"""V5 sheets and actions (SPEC V5-1 … V5-15): the server builds the pool and extracts Hunger itself.

Book tables and readings used here:
- Blood Potency (V5 core book table, p. 216; sources in docs/book-sources.md): Blood Surge dice BP 0→1, 1–2→2, 3–4→3, 5–6→4, 7–8→5,
  9–10→6; Rouse reroll for Disciplines of level ≤ (BP 0: none, 1–2: 1, 3–4: 2, 5–6: 3, 7–8: 4,
  9–10: 5); mend amount (superficial Health healed by one Rouse) BP 0–1: 1, 2–3: 2, 4–7: 3,
  8–9: 4, 10: 5.
- Blood Surge costs a Rouse check (V5-11); the test keeps the Hunger from before that Rouse (V5-2).
  The test's dice are drawn first, then the Rouse die.
- Impaired (Book): a full Health track (superficial + aggravated = max) takes 2 dice from pools
  of physical Attributes; a full Willpower track takes 2 dice from social and mental pools.
  Reading: a modified pool never falls below 1 die (the rules roll at least one die).
- Damage tracks: superficial damage on a full track turns a superficial box aggravated; a track
  full of aggravated damage reports ``{"flag": "track_full", "track": ..., "aggravated": true}``.
- A Willpower reroll (V5-8) costs one superficial Willpower damage and is refused at 0 current
  Willpower; the Strict/Casual limit is the one recorded in the roll's request (the chronicle mode
  when the roll was made), so the stored receipt always replays.
- Experience (Book): Attribute new×5, Skill new×3, Specialty 3, clan Discipline new×5, other
  Discipline new×7, a Caitiff's Discipline new×6, Blood Potency new×10 (vampires only). Raising Stamina adds one Health box,
  Composure or Resolve one Willpower box.
- Stains beyond the empty Humanity boxes (Book) each deal one aggravated Willpower damage.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from rollbook import dice
from rollbook.play.common import (
    Effects, Experience, Label, Model, Performed, Prepared, Short, Shim, Text, TraitName, change_receipt,
    check_raise, check_within, compare, parse_kind, pay_experience, performed, rating, replay, request_from_plain,
    roll_receipt,
)
from rollbook.rules import get_system
from rollbook.rules import v5 as rules
from rollbook.rules.base import RuleError, to_plain

SYSTEM = "v5"

PHYSICAL = ("strength", "dexterity", "stamina")
SOCIAL = ("charisma", "manipulation", "composure")
MENTAL = ("intelligence", "wits", "resolve")
ATTRIBUTES = PHYSICAL + SOCIAL + MENTAL
SKILLS = (
    "athletics", "brawl", "craft", "drive", "firearms", "larceny", "melee", "stealth", "survival",
    "animal_ken", "etiquette", "insight", "intimidation", "leadership", "performance", "persuasion",
    "streetwise", "subterfuge",
    "academics", "awareness", "finance", "investigation", "medicine", "occult", "politics", "science",
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

TABLES = {
    "blood_surge_dice": list(SURGE_DICE),  # index = Blood Potency
    "rouse_reroll_level": list(ROUSE_REROLL_LEVEL),
    "mend_amount": list(MEND_AMOUNT),
    "impaired_penalty": IMPAIRED_PENALTY,
    "experience_costs": {"attribute": "new*5", "skill": "new*3", "specialty": "3", "clan_discipline": "new*5",
                         "other_discipline": "new*7", "caitiff_discipline": "new*6",
                         "blood_potency": "new*10"},
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

    max: int | None = Field(None, ge=1, le=20)  # default: Stamina + 3 (Health), Composure + Resolve (Willpower)
    superficial: int = rating(0, 20, 0)
    aggravated: int = rating(0, 20, 0)

    @property
    def current(self) -> int:
        return self.max - self.superficial - self.aggravated

    @property
    def full(self) -> bool:
        return self.superficial + self.aggravated >= self.max


class Sheet(Model):
    system: Literal["v5"] = "v5"
    name: Label
    player: Short = ""
    concept: Short = ""
    clan: Short = ""
    sire: Short = ""
    predator: Short = ""
    ambition: Short = ""
    desire: Short = ""
    notes: Text = ""
    creature: Literal[CREATURES] = "vampire"  # type: ignore[valid-type]  # V5-12
    attributes: Attributes = Field(default_factory=Attributes)
    skills: dict[TraitName, int] = Field(default_factory=dict)  # 0–5
    specialties: dict[TraitName, list[Label]] = Field(default_factory=dict)  # skill -> names
    disciplines: dict[TraitName, int] = Field(default_factory=dict)  # 0–5
    clan_disciplines: list[TraitName] = Field(default_factory=list)
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
        for name, default in (("health", self.attributes.stamina + 3),
                              ("willpower", self.attributes.composure + self.attributes.resolve)):
            track = getattr(self, name)
            maximum = default if track.max is None else track.max
            if track.superficial + track.aggravated > maximum:
                raise RuleError("out_of_range", field=name, value=track.superficial + track.aggravated, low=0,
                                high=maximum)
            setattr(self, name, Track(max=maximum, superficial=track.superficial, aggravated=track.aggravated))
        return self


# --- actions ------------------------------------------------------------------------------------

AttributeName = Literal[ATTRIBUTES]  # type: ignore[valid-type]


class TestAction(Model):
    """Attribute + Skill, Discipline or a second Attribute; Hunger dice come from the sheet (V5-13)."""

    kind: Literal["test"]
    attribute: AttributeName
    skill: TraitName | None = None
    discipline: TraitName | None = None
    second_attribute: AttributeName | None = None
    specialty: Label | None = None  # on the skill used: +1 die
    difficulty: int = rating(1, 30, 1)  # V5-1
    modifier: int = rating(-20, 20, 0)
    blood_surge: bool = False  # V5-11: normal dice by Blood Potency, costs a Rouse check


class RouseAction(Model):
    """A Rouse check (V5-10); ``discipline_level`` lets Blood Potency reroll it, ``mend`` heals."""

    kind: Literal["rouse"]
    discipline_level: int | None = Field(None, ge=1, le=10)
    mend: bool = False  # Book: mend superficial Health by Blood Potency


class WillpowerRollAction(Model):
    """A roll of current Willpower: normal dice only (V5-9)."""

    kind: Literal["willpower"]
    difficulty: int = rating(1, 30, 1)
    modifier: int = rating(-20, 20, 0)


class RemorseAction(Model):
    """End-of-session Remorse (V5-15): one die per empty unstained Humanity box."""

    kind: Literal["remorse"]


class FrenzyAction(Model):
    """Resisting frenzy (V5-14): Willpower + a third of Humanity against the Storyteller's difficulty."""

    kind: Literal["frenzy"]
    difficulty: int = rating(1, 30)


ACTIONS: dict[str, type[Model]] = {
    "test": TestAction,
    "rouse": RouseAction,
    "willpower": WillpowerRollAction,
    "remorse": RemorseAction,
    "frenzy": FrenzyAction,
}
STORYTELLER_ACTIONS: frozenset[str] = frozenset()
CHAINS: dict[str, tuple[str, ...]] = {}


class RerollFollowup(Model):
    """A Willpower reroll of 1–3 normal dice of a stored test (V5-8), by index into its normal dice."""

    kind: Literal["reroll"]
    dice: list[int] = Field(min_length=1, max_length=rules.MAX_REROLL_DICE)


FOLLOWUPS: dict[str, type[Model]] = {"reroll": RerollFollowup}


def _empty_pool() -> dict:
    return {"parts": [], "modifiers": [], "wound_penalty": 0, "total": 1, "hunger_dice": 0}


def _pool(parts: list[dict], modifiers: list[dict], wound: int) -> dict:
    raw = sum(p["rating"] for p in parts) + sum(m["dice"] for m in modifiers) + wound
    return {"parts": parts, "modifiers": modifiers, "wound_penalty": wound, "total": max(1, raw)}


def _impairment(sheet: Sheet, attribute: str) -> int:
    """Book: Impaired at a full Health track (physical pools) or Willpower track (social, mental)."""
    track = sheet.health if attribute in PHYSICAL else sheet.willpower
    return IMPAIRED_PENALTY if track.full else 0


def _hungry(sheet: Sheet) -> bool:
    return sheet.creature in HUNGRY


def prepare(sheet: Sheet, action: Model, *, mode: str, role: str, follows: dict | None = None) -> Prepared:
    """Build the roll from the sheet (pool, Hunger dice, rules request) and make every refusal;
    no die drawn. A Blood Surge's Rouse request is built here too (``context["rouse"]``)."""
    system = get_system(SYSTEM)
    if isinstance(action, TestAction):
        pool = _test_pool(sheet, action)
        # V5-2, V5-12, V5-13: Hunger from the sheet (before this roll's own Rouse), replaced by the rules.
        request = rules.V5Request(pool=pool["total"], hunger=sheet.hunger, difficulty=action.difficulty, kind="test",
                                  mode=mode, creature=sheet.creature)
        pool["hunger_dice"] = request.hunger_dice
        context = {}
        if action.blood_surge:  # V5-11: surging costs a Rouse check, made after the test's Hunger was read
            context["rouse"] = rules.rouse_request(sheet.hunger, creature=sheet.creature)
        return Prepared(request, pool, system, context)
    if isinstance(action, RouseAction):
        reroll = (action.discipline_level is not None
                  and action.discipline_level <= ROUSE_REROLL_LEVEL[sheet.blood_potency])  # V5-10 Book
        # The rules refuse a ghoul's or a mortal's Rouse (V5-12), for the CLI and the contract alike.
        request = rules.rouse_request(sheet.hunger, blood_potency_reroll=reroll, creature=sheet.creature)
        if action.mend and sheet.health.superficial == 0:
            raise RuleError("nothing_to_heal", damage_type="superficial")
        return Prepared(request, _empty_pool(), system)
    if isinstance(action, WillpowerRollAction):
        current = sheet.willpower.current
        if current <= 0:
            raise RuleError("empty_pool", trait="willpower")
        modifiers = [{"source": "modifier", "dice": action.modifier}] if action.modifier else []
        pool = _pool([{"trait": "willpower", "rating": current}], modifiers, 0)
        request = rules.V5Request(pool=pool["total"], hunger=sheet.hunger, difficulty=action.difficulty,
                                  kind="willpower", mode=mode, creature=sheet.creature)
        pool["hunger_dice"] = request.hunger_dice  # V5-9: always 0
        return Prepared(request, pool, system)
    if isinstance(action, RemorseAction):
        if sheet.stains == 0:
            raise RuleError("no_stains")
        count = rules.remorse_dice(sheet.humanity, sheet.stains)  # V5-15
        pool = {"parts": [{"trait": "empty_humanity_boxes", "rating": count}], "modifiers": [], "wound_penalty": 0,
                "total": count, "hunger_dice": 0}
        request = rules.V5Request(pool=count, hunger=sheet.hunger, difficulty=1, kind="remorse", mode=mode,
                                  creature=sheet.creature)
        return Prepared(request, pool, system)
    assert isinstance(action, FrenzyAction)
    count = rules.frenzy_pool(min(sheet.willpower.current, 10), sheet.humanity)
    pool = {"parts": [{"trait": "willpower", "rating": sheet.willpower.current},
                      {"trait": "humanity_third", "rating": sheet.humanity // 3}],
            "modifiers": [], "wound_penalty": 0, "total": count, "hunger_dice": 0}
    request = rules.V5Request(pool=count, hunger=sheet.hunger, difficulty=action.difficulty, kind="frenzy",
                              mode=mode, creature=sheet.creature)
    return Prepared(request, pool, system)


def apply(sheet: Sheet, action: Model, prepared: Prepared, faces: tuple, result: rules.V5Receipt, *,
          source: dice.DiceSource) -> Performed:
    """The consequences of the drawn dice, on a copy of the sheet (``play.perform`` draws them)."""
    effects = Effects()
    new = sheet.model_copy(deep=True)
    extra: dict = {}
    if isinstance(action, TestAction):
        rouse_request = prepared.context.get("rouse")
        if rouse_request is not None:  # V5-11: the test's dice are drawn first, then the Rouse die
            rouse_faces, rouse_result = dice.roll(prepared.system, rouse_request, source)
            _apply_rouse(new, rouse_result, effects)
            extra["rouse"] = {"request": to_plain(rouse_request), "faces": list(rouse_faces),
                              "result": to_plain(rouse_result)}
    elif isinstance(action, RouseAction):
        _apply_rouse(new, result, effects)
        if action.mend:
            healed = min(sheet.health.superficial, MEND_AMOUNT[sheet.blood_potency])
            new.health = new.health.model_copy(update={"superficial": sheet.health.superficial - healed})
            effects.change("health.superficial", sheet.health.superficial, new.health.superficial)
    elif isinstance(action, RemorseAction):
        new.humanity = max(0, sheet.humanity - rules.remorse_humanity_loss(result))  # V5-15: Humanity stops at 0
        new.stains = 0
        effects.change("humanity", sheet.humanity, new.humanity)
        effects.change("stains", sheet.stains, 0)
    # A Willpower roll changes nothing on the sheet; V5-14: the dice never write a frenzy onto it.
    receipt = roll_receipt(SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, effects,
                           **extra)
    return performed(new, receipt, effects)


def _test_pool(sheet: Sheet, action: TestAction) -> dict:
    parts = [{"trait": action.attribute, "rating": getattr(sheet.attributes, action.attribute)}]
    chosen = [name for name in ("skill", "discipline", "second_attribute") if getattr(action, name) is not None]
    if len(chosen) > 1:
        raise RuleError("one_trait_only", fields=chosen)
    if action.skill is not None:
        if action.skill not in sheet.skills:
            raise RuleError("unknown_trait", field="skill", trait=action.skill)
        parts.append({"trait": action.skill, "rating": sheet.skills[action.skill], "group": "skills"})
    if action.discipline is not None:
        value = sheet.disciplines.get(action.discipline, 0)
        if value == 0:
            raise RuleError("trait_not_possessed", field="discipline", trait=action.discipline)
        parts.append({"trait": action.discipline, "rating": value, "group": "disciplines"})
    if action.second_attribute is not None:
        parts.append({"trait": action.second_attribute, "rating": getattr(sheet.attributes, action.second_attribute)})
    modifiers = []
    if action.specialty is not None:
        if action.skill is None or action.specialty not in sheet.specialties.get(action.skill, []):
            raise RuleError("unknown_specialty", field="specialty", specialty=action.specialty)
        modifiers.append({"source": "specialty", "dice": 1, "specialty": action.specialty})
    if action.blood_surge:
        if not _hungry(sheet):
            raise RuleError("no_blood_surge_for_creature", creature=sheet.creature)  # V5-12
        modifiers.append({"source": "blood_surge", "dice": SURGE_DICE[sheet.blood_potency],
                          "blood_potency": sheet.blood_potency})  # V5-11: normal dice in the pool
    if action.modifier:
        modifiers.append({"source": "modifier", "dice": action.modifier})
    return _pool(parts, modifiers, _impairment(sheet, action.attribute))


def _apply_rouse(new: Sheet, result: rules.V5Receipt, effects: Effects) -> None:
    """V5-10: a failed Rouse raises Hunger by 1; at Hunger 5 it is flagged instead."""
    before = new.hunger
    new.hunger = before + result.hunger_gain
    effects.change("hunger", before, new.hunger)
    if result.hunger_frenzy_risk:
        effects.flag("hunger_frenzy_risk", hunger=before)


# --- damage tracks ---------------------------------------------------------------------------

def damage_track(track: Track, name: str, superficial: int, aggravated: int, effects: Effects) -> Track:
    sup, agg, overflow = track.superficial, track.aggravated, 0
    for kind in ["aggravated"] * aggravated + ["superficial"] * superficial:
        if sup + agg < track.max:
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
    if agg >= track.max and track.aggravated < track.max:
        effects.flag("track_full", track=name, aggravated=True)
    if overflow:
        effects.flag("track_overflow", track=name, levels=overflow)
    return after


# --- follow-up: the Willpower reroll (V5-8) ----------------------------------------------------

def _replay(receipt: dict) -> tuple[rules.V5Request, rules.V5Receipt]:
    request, result = replay(rules.V5Request, rules.resolve, receipt)
    for entry in receipt.get("rerolls", []):
        result = rules.reroll(request, result, tuple(entry["dice"]), tuple(entry["faces"]))
    return request, result


def followup(sheet: Sheet, receipt: dict, action: dict, *, mode: str, role: str,
             source: dice.DiceSource) -> Performed:
    validated = parse_kind(FOLLOWUPS, action, "action")
    problems = verify(receipt)
    if problems:
        raise RuleError("receipt_inconsistent", problems=problems)
    request, result = _replay(receipt)
    chosen = tuple(validated.dice)
    current = sheet.willpower.current
    # Refuse before drawing: the rules check eligibility (Hunger dice, Strict once, Willpower 0).
    rules.reroll(request, result, chosen, (1,) * len(chosen), willpower_current=current)
    shim = Shim(lambda _req, faces: (rules.SIDES,) * (len(chosen) - len(faces)),
                lambda _req, faces: rules.reroll(request, result, chosen, faces, willpower_current=current))
    faces, rerolled = dice.roll(shim, request, source)
    effects = Effects()
    new = sheet.model_copy(deep=True)
    new.willpower = damage_track(sheet.willpower, "willpower", 1, 0, effects)  # V5-8 Book: one superficial
    updated = dict(receipt)
    updated["rerolls"] = list(receipt.get("rerolls", [])) + [{"dice": list(chosen), "faces": list(faces)}]
    updated["result"] = to_plain(rerolled)
    updated["effects"] = list(receipt.get("effects", [])) + effects.plain()
    return performed(new, updated, effects)


# --- changes ---------------------------------------------------------------------------------

class SpendWillpower(Model):
    """Spend Willpower outside a roll: one superficial Willpower damage per point."""

    kind: Literal["spend_willpower"]
    amount: int = rating(1, 10, 1)


class TakeDamage(Model):
    """Mark damage on the Health or Willpower track (already halved by the Storyteller if needed)."""

    kind: Literal["damage"]
    track: Literal["health", "willpower"]
    superficial: int = rating(0, 20, 0)
    aggravated: int = rating(0, 20, 0)


class Restore(Model):
    """Storyteller: heal damage on the Health or Willpower track."""

    kind: Literal["restore"]
    resource: Literal["health", "willpower"]
    amount: int = rating(1, 20)
    damage: Literal["superficial", "aggravated"] = "superficial"


class ChangeHunger(Model):
    """Storyteller: feeding lowers Hunger, events raise it (clamped to 0–5)."""

    kind: Literal["hunger"]
    amount: int = rating(-5, 5)


class AddStains(Model):
    """Storyteller: stains on Humanity (V5-15)."""

    kind: Literal["stains"]
    amount: int = rating(1, 10)


class AwardExperience(Model):
    kind: Literal["award_experience"]
    amount: int = rating(1, 1000)


class SpendExperience(Model):
    """Raise a trait one dot (or buy a specialty on a skill) at its Book cost."""

    kind: Literal["spend_experience"]
    trait: TraitName
    specialty: Label | None = None


CHANGES: dict[str, type[Model]] = {
    "spend_willpower": SpendWillpower,
    "damage": TakeDamage,
    "restore": Restore,
    "hunger": ChangeHunger,
    "stains": AddStains,
    "award_experience": AwardExperience,
    "spend_experience": SpendExperience,
}
STORYTELLER_CHANGES = frozenset({"restore", "hunger", "stains", "award_experience"})


def xp_cost(sheet: Sheet, trait: str, specialty: str | None) -> tuple[str, int, int, int]:
    """(where, current rating, cost, maximum) — Book costs, one dot at a time."""
    if specialty is not None:
        if trait not in sheet.skills:
            raise RuleError("unknown_trait", field="trait", trait=trait)
        return "specialties", sheet.skills[trait], 3, 5
    if trait in ATTRIBUTES:
        current = getattr(sheet.attributes, trait)
        return "attributes", current, 5 * (current + 1), 5
    if trait in sheet.skills:
        current = sheet.skills[trait]
        return "skills", current, 3 * (current + 1), 5
    if trait == "blood_potency":
        if sheet.creature != "vampire":
            raise RuleError("no_blood_potency_for_creature", creature=sheet.creature)
        return "blood_potency", sheet.blood_potency, 10 * (sheet.blood_potency + 1), 10
    current = sheet.disciplines.get(trait, 0)
    if sheet.clan.strip().lower() == "caitiff":  # Book: a Caitiff's Disciplines cost new level × 6
        per_dot = 6
    else:
        per_dot = 5 if trait in sheet.clan_disciplines else 7
    return "disciplines", current, per_dot * (current + 1), 5


def adjust(sheet: Sheet, change: Model, *, role: str) -> Performed:
    effects = Effects()
    new = sheet.model_copy(deep=True)
    if isinstance(change, SpendWillpower):
        if sheet.willpower.current < change.amount:
            if sheet.willpower.current <= 0:
                raise RuleError("willpower_exhausted")
            raise RuleError("not_enough_willpower", amount=change.amount, current=sheet.willpower.current)
        new.willpower = damage_track(sheet.willpower, "willpower", change.amount, 0, effects)
    elif isinstance(change, TakeDamage):
        if change.superficial + change.aggravated == 0:
            raise RuleError("out_of_range", field="superficial", value=0, low=1, high=None)
        track = getattr(sheet, change.track)
        setattr(new, change.track, damage_track(track, change.track, change.superficial, change.aggravated, effects))
    elif isinstance(change, Restore):
        track = getattr(sheet, change.resource)
        before = getattr(track, change.damage)
        if before == 0:
            raise RuleError("nothing_to_heal", damage_type=change.damage)
        after = max(0, before - change.amount)
        setattr(new, change.resource, track.model_copy(update={change.damage: after}))
        effects.change(f"{change.resource}.{change.damage}", before, after)
    elif isinstance(change, ChangeHunger):
        if not _hungry(sheet):
            raise RuleError("no_hunger_for_creature", creature=sheet.creature)
        new.hunger = min(rules.MAX_HUNGER, max(0, sheet.hunger + change.amount))
        effects.change("hunger", sheet.hunger, new.hunger)
    elif isinstance(change, AddStains):
        room = 10 - sheet.humanity - sheet.stains
        marked = min(room, change.amount)
        new.stains = sheet.stains + marked
        effects.change("stains", sheet.stains, new.stains)
        if change.amount > marked:  # Book: each stain that finds no box deals aggravated Willpower damage
            new.willpower = damage_track(sheet.willpower, "willpower", 0, change.amount - marked, effects)
    elif isinstance(change, AwardExperience):
        new.experience = sheet.experience.awarded(change.amount)
        effects.change("experience", sheet.experience.available, new.experience.available)
    else:
        assert isinstance(change, SpendExperience)
        where, current, cost, top = xp_cost(sheet, change.trait, change.specialty)
        if where == "specialties":
            if current < 1:
                raise RuleError("specialty_untrained", trait=change.trait)
            if change.specialty in sheet.specialties.get(change.trait, []):
                raise RuleError("duplicate_name", field="specialty")
        else:
            check_raise(change.trait, current, top)
        new.experience = pay_experience(sheet.experience, cost, current + 1)
        if where == "specialties":
            new.specialties.setdefault(change.trait, []).append(change.specialty)
            effects.change(f"specialties.{change.trait}", len(sheet.specialties.get(change.trait, [])),
                           len(new.specialties[change.trait]), cost=cost, specialty=change.specialty)
        elif where == "attributes":
            setattr(new.attributes, change.trait, current + 1)
            effects.change(f"attributes.{change.trait}", current, current + 1, cost=cost)
            for track_name, raised_by in (("health", ("stamina",)), ("willpower", ("composure", "resolve"))):
                if change.trait in raised_by:
                    track = getattr(sheet, track_name)
                    setattr(new, track_name, track.model_copy(update={"max": track.max + 1}))
                    effects.change(f"{track_name}.max", track.max, track.max + 1)
        elif where == "blood_potency":
            new.blood_potency = current + 1
            effects.change("blood_potency", current, current + 1, cost=cost)
        else:
            getattr(new, where)[change.trait] = current + 1
            effects.change(f"{where}.{change.trait}", current, current + 1, cost=cost)
        effects.change("experience", sheet.experience.available, new.experience.available)
    receipt = change_receipt(SYSTEM, change, effects)
    return performed(new, receipt, effects)


# --- verification ----------------------------------------------------------------------------

def verify(receipt: dict) -> list[str]:
    request, result = _replay(receipt)
    problems = compare(receipt.get("result"), to_plain(result), "result")
    pool = receipt.get("pool") or {}
    if request.kind != "rouse":
        if pool.get("total") != request.pool:
            problems.append("pool_mismatch:total")
        if pool.get("hunger_dice") != request.hunger_dice:  # V5-13: the server's extraction
            problems.append("pool_mismatch:hunger_dice")
    if "rouse" in receipt:
        rouse = receipt["rouse"]
        rouse_request = request_from_plain(rules.V5Request, rouse.get("request"))
        if rouse_request.kind != "rouse":
            problems.append("rouse_mismatch:kind")
        rouse_result = rules.resolve(rouse_request, tuple(rouse.get("faces", ())))
        problems += compare(rouse.get("result"), to_plain(rouse_result), "rouse")
    return problems
