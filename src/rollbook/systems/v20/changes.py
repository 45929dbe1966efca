"""V20 changes without dice (SPEC V20-9, V20-16): spends, damage, healing, experience.

- Blood (V20-16, V20-18): one spend may not exceed the per-turn limit of the Generation; healing
  costs one blood per level of bashing or lethal.
- Experience (V20 Book costs, one dot at a time; sources in docs/book-sources.md): Attribute
  current×4; new Ability 3, Ability current×2; new Discipline 10, clan Discipline current×5, other
  Discipline current×7, a Caitiff's Discipline current×6; Virtue current×2; Humanity current×2;
  Willpower current×1. Traits cannot be raised past the Generation's maximum (5 at 8th and above,
  6 at 7th, 7 at 6th, 8 at 5th, 9 at 4th).
"""

from __future__ import annotations

from typing import Literal

from rollbook.play.common import (
    AwardExperience,
    Effects,
    Model,
    Performed,
    Recorded,
    SpendExperience,
    SpendWillpower,
    award,
    by_kind,
    change_receipt,
    check_raise,
    filled,
    pay_experience,
    performed,
    rating,
    storyteller_only,
)
from rollbook.rules.base import RuleError
from rollbook.systems.v20.sheet import (
    ABILITY_GROUPS,
    ATTRIBUTES,
    SYSTEM,
    VIRTUES,
    DamageType,
    Sheet,
    heal,
    take_damage,
    trait_maximum,
)

# --- changes (no dice) ---------------------------------------------------------------------------


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


CHANGES = by_kind(SpendWillpower, SpendBlood, TakeDamage, Restore, AwardExperience, SpendExperience)
Change = (
    SpendWillpower | SpendBlood | TakeDamage | Restore | AwardExperience | SpendExperience
)  # one of CHANGES
STORYTELLER_CHANGES = frozenset({"restore", "award_experience"})
CHANGE_RECORDS: dict[str, Recorded] = {}  # a change records its effects only


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
        return "willpower", filled(sheet.willpower.permanent), filled(sheet.willpower.permanent), 10
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


def adjust(sheet: Sheet, change: Change, *, role: str) -> Performed:
    if change.kind in STORYTELLER_CHANGES:
        storyteller_only(role, change.kind)
    effects = Effects()
    new = sheet.model_copy(deep=True)
    if isinstance(change, SpendWillpower):
        current = filled(sheet.willpower.current)
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
        if change.amount > filled(blood.per_turn):  # V20-16: blood per turn by Generation
            raise RuleError("blood_per_turn_exceeded", amount=change.amount, per_turn=filled(blood.per_turn))
        if change.amount > filled(blood.current):
            raise RuleError("not_enough_blood", amount=change.amount, current=filled(blood.current))
        if change.heal is not None:
            if getattr(sheet.health, change.heal) < change.amount:
                raise RuleError(
                    "nothing_to_heal", damage_type=change.heal, levels=getattr(sheet.health, change.heal)
                )
            new.health = heal(sheet.health, change.amount, change.heal, effects)
        new.blood.current = filled(blood.current) - change.amount
        effects.change("blood", filled(blood.current), new.blood.current)
    elif isinstance(change, TakeDamage):
        new.health = take_damage(sheet.health, change.levels, change.damage_type, effects)
    elif isinstance(change, Restore):
        if change.resource == "willpower":
            new.willpower.current = min(
                filled(sheet.willpower.permanent), filled(sheet.willpower.current) + change.amount
            )
            effects.change("willpower", filled(sheet.willpower.current), new.willpower.current)
        elif change.resource == "blood":
            new.blood.current = min(filled(sheet.blood.max), filled(sheet.blood.current) + change.amount)
            effects.change("blood", filled(sheet.blood.current), new.blood.current)
        else:
            if change.damage_type is None:
                raise RuleError("missing_field", field="damage_type")
            new.health = heal(sheet.health, change.amount, change.damage_type, effects)
    elif isinstance(change, AwardExperience):
        award(sheet, new, change.amount, effects)
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
            new.willpower.current = filled(sheet.willpower.current) + 1
            effects.change("willpower", filled(sheet.willpower.current), new.willpower.current)
        else:
            getattr(new, where)[change.trait] = current + 1
        resource = {"humanity": "humanity", "willpower": "willpower.permanent"}.get(
            where, f"{where}.{change.trait}"
        )
        effects.change(resource, current, current + 1, cost=cost)
        effects.change("experience", sheet.experience.available, new.experience.available)
    receipt = change_receipt(SYSTEM, change, effects)
    return performed(new, receipt, effects, loaded=sheet)
