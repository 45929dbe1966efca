"""Tiers changes without dice (SPEC T-3, T-5, T-6, T-8): a reload, a new turn, damage not soaked by a
roll, the Storyteller's restores, experience awarded and spent."""

from __future__ import annotations

from typing import Literal

from rollbook.play import common
from rollbook.play.common import (
    Effects,
    JsonObject,
    Label,
    Model,
    Performed,
    Recorded,
    by_kind,
    change_receipt,
    check_raise,
    filled,
    performed,
    rating,
)
from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.tiers import rules
from rollbook.systems.tiers.sheet import MAX, SYSTEM, EssencePool, Sheet, Wounds, weapon_named, wound


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
Change = Reload | NewTurn | TakeDamage | Restore | AwardExperience | SpendExperience  # one of ``CHANGES``
STORYTELLER_CHANGES = frozenset({"restore", "award_experience"})
CHANGE_RECORDS: dict[str, Recorded] = {  # T-8: experience changes record the rules' receipt
    "award_experience": Recorded(always={"xp": rules.XpReceipt}),
    "spend_experience": Recorded(always={"xp": rules.XpReceipt}),
}


def adjust(sheet: Sheet, change: Change, *, role: str) -> Performed:
    effects = Effects()
    new = sheet.model_copy(deep=True)
    extra: JsonObject = {}
    if isinstance(change, Reload):
        index, gun = weapon_named(sheet, change.weapon, "weapon")
        if not gun.firearm:
            raise RuleError("not_a_firearm", weapon=gun.name)
        if gun.loaded == gun.capacity:
            raise RuleError("magazine_full", weapon=gun.name)
        if gun.loaded:  # T-3 Reading: a magazine is changed only when empty
            raise RuleError("magazine_not_empty", weapon=gun.name, loaded=gun.loaded)
        if gun.spare == 0:
            raise RuleError("no_spare_ammunition", weapon=gun.name)
        capacity, in_magazine = filled(gun.capacity), filled(gun.loaded)  # a firearm's (checked above)
        magazine = rules.Magazine(capacity=capacity, loaded=in_magazine, turn_spent=sheet.turn_spent)
        rules.reload(magazine)  # T-3: refused when the turn is already spent
        rounds = in_magazine + gun.spare
        loaded = min(capacity, rounds)
        new.weapons[index] = gun.model_copy(update={"loaded": loaded, "spare": rounds - loaded})
        new.turn_spent = True  # T-3: the rest of the turn
        effects.change("ammunition.loaded", gun.loaded, loaded, weapon=gun.name)
        effects.change("ammunition.spare", gun.spare, rounds - loaded, weapon=gun.name)
        effects.change("turn_spent", sheet.turn_spent, True)
    elif isinstance(change, NewTurn):
        new.turn_spent = False
        effects.change("turn_spent", sheet.turn_spent, False)
    elif isinstance(change, TakeDamage):
        new.wounds = wound(sheet.wounds, change.levels, effects)
    elif isinstance(change, Restore):
        if change.resource == "ammunition":
            if change.weapon is None:
                raise RuleError("missing_field", field="weapon")
            index, gun = weapon_named(sheet, change.weapon, "weapon")
            if not gun.firearm:
                raise RuleError("not_a_firearm", weapon=gun.name)
            new.weapons[index] = gun.model_copy(update={"spare": gun.spare + change.amount})
            effects.change("ammunition.spare", gun.spare, gun.spare + change.amount, weapon=gun.name)
        elif change.resource == "essence":
            after = min(filled(sheet.essence.max), filled(sheet.essence.current) + change.amount)
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
        _, xp = rules.spend_xp(
            rules.Experience(points=sheet.experience.available), current + 1, current
        )  # T-8
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
