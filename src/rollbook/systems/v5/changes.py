"""V5 changes without dice (SPEC V5-8, V5-12, V5-15): spends, damage, healing, Hunger, stains, experience.

- Experience (Book; docs/book-sources.md): Attribute new×5, Skill new×3, Specialty 3, clan Discipline
  new×5, other Discipline new×7, a Caitiff's Discipline new×6, Blood Potency new×10 (vampires only).
  Raising Stamina adds one Health box, Composure or Resolve one Willpower box.
- Stains beyond the empty Humanity boxes (Book) each deal one aggravated Willpower damage.
- Feeding (Book, docs/book-sources.md): slakes Hunger level by level, never below 1 unless the vessel is
  drained to death; the Storyteller's change, logged as every change.
- Damage (Book): a vampire's superficial Health damage is halved, rounded up (``halve``); superficial
  damage on a full track turns a box aggravated, a full track impairs (``systems.v5.sheet.damage_track``).
"""

from __future__ import annotations

from typing import Literal

from rollbook.play import common
from rollbook.play.common import (
    AwardExperience,
    Effects,
    Label,
    Model,
    Performed,
    Recorded,
    SpendWillpower,
    award,
    by_kind,
    change_receipt,
    check_raise,
    filled,
    pay_experience,
    performed,
    rating,
)
from rollbook.rules.base import RuleError
from rollbook.systems.v5 import rules
from rollbook.systems.v5.sheet import ATTRIBUTES, SYSTEM, Sheet, damage_track, hungry

# --- changes ---------------------------------------------------------------------------------


class TakeDamage(Model):
    """Mark damage on the Health or Willpower track. ``halve``: the superficial Health damage a vampire
    takes is halved, rounded up (Book), here rather than by the Storyteller beforehand."""

    kind: Literal["damage"]
    track: Literal["health", "willpower"]
    superficial: int = rating(0, 20, 0)
    aggravated: int = rating(0, 20, 0)
    halve: bool = False


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


class Feed(Model):
    """Storyteller: feeding slakes Hunger (Book): by ``slake`` levels, never below 1 unless the vessel
    is drained to death (``kill``: only a kill slakes the last level)."""

    kind: Literal["feed"]
    slake: int = rating(1, 5)
    kill: bool = False


class AddStains(Model):
    """Storyteller: stains on Humanity (V5-15)."""

    kind: Literal["stains"]
    amount: int = rating(1, 10)


class SpendExperience(common.SpendExperience):
    """Raise a trait one dot (or buy a specialty on a skill) at its Book cost."""

    specialty: Label | None = None


CHANGES = by_kind(
    SpendWillpower, TakeDamage, Restore, ChangeHunger, Feed, AddStains, AwardExperience, SpendExperience
)
# one of ``CHANGES``
Change = (
    SpendWillpower
    | TakeDamage
    | Restore
    | ChangeHunger
    | Feed
    | AddStains
    | AwardExperience
    | SpendExperience
)
STORYTELLER_CHANGES = frozenset({"restore", "hunger", "feed", "stains", "award_experience"})
SLAKE_FLOOR = 1  # Book: Hunger falls below 1 only when the vessel is drained to death
CHANGE_RECORDS: dict[str, Recorded] = {}  # a change records its effects only


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
        return "blood_potency", filled(sheet.blood_potency), 10 * (filled(sheet.blood_potency) + 1), 10
    current = sheet.disciplines.get(trait, 0)
    if sheet.clan.strip().lower() == "caitiff":  # Book: a Caitiff's Disciplines cost new level × 6
        per_dot = 6
    else:
        per_dot = 5 if trait in sheet.clan_disciplines else 7
    return "disciplines", current, per_dot * (current + 1), 5


def adjust(sheet: Sheet, change: Change, *, role: str) -> Performed:
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
        superficial = change.superficial
        if change.halve and change.track == "health" and hungry(sheet) and superficial:
            superficial = (
                superficial + 1
            ) // 2  # Book: a vampire halves superficial Health damage, rounding up
            effects.flag("halved", track="health", superficial=change.superficial, marked=superficial)
        track = getattr(sheet, change.track)
        setattr(new, change.track, damage_track(track, change.track, superficial, change.aggravated, effects))
    elif isinstance(change, Restore):
        track = getattr(sheet, change.resource)
        before = getattr(track, change.damage)
        if before == 0:
            raise RuleError("nothing_to_heal", damage_type=change.damage)
        after = max(0, before - change.amount)
        setattr(new, change.resource, track.model_copy(update={change.damage: after}))
        effects.change(f"{change.resource}.{change.damage}", before, after)
    elif isinstance(change, ChangeHunger):
        if not hungry(sheet):
            raise RuleError("no_hunger_for_creature", creature=sheet.creature)
        new.hunger = min(rules.MAX_HUNGER, max(0, filled(sheet.hunger) + change.amount))
        effects.change("hunger", filled(sheet.hunger), new.hunger)
    elif isinstance(change, Feed):
        if not hungry(sheet):
            raise RuleError("no_hunger_for_creature", creature=sheet.creature)
        floor = 0 if change.kill else SLAKE_FLOOR
        if filled(sheet.hunger) <= floor:
            raise RuleError("hunger_slaked", hunger=filled(sheet.hunger), floor=floor)
        new.hunger = max(floor, filled(sheet.hunger) - change.slake)
        effects.change("hunger", filled(sheet.hunger), new.hunger)
    elif isinstance(change, AddStains):
        room = 10 - sheet.humanity - sheet.stains
        marked = min(room, change.amount)
        new.stains = sheet.stains + marked
        effects.change("stains", sheet.stains, new.stains)
        if change.amount > marked:  # Book: each stain that finds no box deals aggravated Willpower damage
            new.willpower = damage_track(sheet.willpower, "willpower", 0, change.amount - marked, effects)
    elif isinstance(change, AwardExperience):
        award(sheet, new, change.amount, effects)
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
            assert change.specialty is not None  # xp_cost: "specialties" only for a specialty
            new.specialties.setdefault(change.trait, []).append(change.specialty)
            effects.change(
                f"specialties.{change.trait}",
                len(sheet.specialties.get(change.trait, [])),
                len(new.specialties[change.trait]),
                cost=cost,
                specialty=change.specialty,
            )
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
    return performed(new, receipt, effects, loaded=sheet)
