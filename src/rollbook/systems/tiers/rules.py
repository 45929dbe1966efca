"""Tiers (paliers): one d10 subtracted from the skill (SPEC T-1 … T-8, seed 002).

Pure functions only. ``resolve(request, faces)`` takes the first die then each critical
reroll in order (T-2); ``needed`` asks for one more d10 while the last face drawn is a 1.
The stateful rules (magazine, Essence, wound track, experience) are pure functions over
small frozen state values: state in, new state and a receipt out.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from rollbook.rules.base import Faces, RuleError, check_faces, check_range, present

SIDES = 10  # T-1: every skill roll is 1d10
CONTESTS = None  # no contested or extended rolls (TR-3, TR-4 name V20 and V5: ``rules.contests``)
CRITICAL_FACE = 1  # T-2
MAX_SKILL = 100
MAX_BULLETS = 1000
XP_COST_PER_RATING = 10  # T-8

Kind = Literal["skill", "dodge", "soak"]
Outcome = Literal["success", "failure"]

KINDS: tuple[Kind, ...] = ("skill", "dodge", "soak")
OUTCOMES: tuple[Outcome, ...] = ("success", "failure")


# --- The roll: skill, dodge and soak ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TiersRequest:
    kind: Kind = "skill"
    skill: int | None = None  # skill and dodge
    bonus: int = 0  # T-7: weapon bonus (see ``weapon_bonus`` for two weapons)
    bullets: int | None = None  # T-3: firearms only, declared before the roll
    attack_tier: int | None = None  # dodge and soak (T-4, T-5)
    endurance: int | None = None  # soak (T-5)
    armor: int | None = None  # soak: the armour of the body location hit (T-5)
    magazine: int | None = None  # T-3: rounds in the magazine, when known (checked, not spent here)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RuleError("bad_choice", field="kind", value=self.kind, choices=list(KINDS))
        check_range("bonus", self.bonus, 0, MAX_SKILL)
        if self.kind == "soak":
            # T-5: Endurance + armour replaces the skill; the other roll fields do not apply.
            _refuse_fields(self.kind, skill=self.skill, bullets=self.bullets, magazine=self.magazine)
            if self.bonus:
                raise RuleError("field_not_for_kind", field="bonus", kind=self.kind)
            _require(self.kind, endurance=self.endurance, armor=self.armor, attack_tier=self.attack_tier)
            check_range("endurance", self.endurance, 0, MAX_SKILL)
            check_range("armor", self.armor, 0, MAX_SKILL)
        else:
            _refuse_fields(self.kind, endurance=self.endurance, armor=self.armor)
            _require(self.kind, skill=self.skill)
            check_range("skill", self.skill, 0, MAX_SKILL)
            if self.kind == "dodge":  # T-4
                _refuse_fields(self.kind, bullets=self.bullets, magazine=self.magazine)
                _require(self.kind, attack_tier=self.attack_tier)
            else:
                _refuse_fields(self.kind, attack_tier=self.attack_tier)
        if self.attack_tier is not None:
            check_range("attack_tier", self.attack_tier, 0, None)  # an attack that hit has a tier ≥ 0 (T-1)
        if self.bullets is not None:
            check_range("bullets", self.bullets, 1, MAX_BULLETS)  # T-3
        if self.magazine is not None:
            check_range("magazine", self.magazine, 0, MAX_BULLETS)
            if self.bullets is None:
                raise RuleError("field_required", field="bullets", kind=self.kind)
            check_bullets(self.bullets, self.magazine)  # T-3

    @property
    def effective(self) -> int:
        """T-1/T-7: skill + weapon bonus; T-5: for a soak, Endurance + armour."""
        if self.kind == "soak":
            return present(self.endurance, "endurance") + present(self.armor, "armor")
        return present(self.skill, "skill") + self.bonus


def _require(kind: str, **values: object) -> None:
    for name, value in values.items():
        if value is None:
            raise RuleError("field_required", field=name, kind=kind)


def _refuse_fields(kind: str, **values: object) -> None:
    for name, value in values.items():
        if value is not None:
            raise RuleError("field_not_for_kind", field=name, kind=kind)


@dataclass(frozen=True, slots=True)
class ChainFields:
    """What every Tiers receipt shows of its chain of dice (T-1, T-2)."""

    faces: Faces
    first_face: int
    base_tier: int  # effective − first face (T-1)
    critical: bool  # the first face is a 1 (T-2)
    rerolls: Faces  # the critical rerolls, in order
    critical_tiers: int  # rerolls that met the effective value (T-2)
    critical_lift: int  # T-2 Reading: tiers added so that a critical is a success (tier 0 at least)


@dataclass(frozen=True, slots=True)
class Chain(ChainFields):
    """The first die and its critical rerolls (T-1, T-2), with the effective value they were rolled against."""

    effective: int
    chained_tier: int  # base_tier + critical_tiers + critical_lift


@dataclass(frozen=True, slots=True)
class SkillReceipt(ChainFields):
    kind: Literal["skill"]
    skill: int
    bonus: int
    effective_skill: int
    tier_before_bullets: int
    bullets: int | None
    multiplier: int
    tier: int
    success: bool
    outcome: Outcome
    system: str = "tiers"


@dataclass(frozen=True, slots=True)
class DodgeReceipt(ChainFields):
    kind: Literal["dodge"]
    skill: int
    bonus: int
    effective_skill: int
    tier: int
    attack_tier: int
    dodged: bool
    success: bool
    outcome: Outcome
    system: str = "tiers"


@dataclass(frozen=True, slots=True)
class SoakReceipt(ChainFields):
    kind: Literal["soak"]
    endurance: int
    armor: int
    soak_value: int
    soak_tier: int
    attack_tier: int
    damage: int
    success: bool
    outcome: Outcome
    system: str = "tiers"


TiersReceipt = SkillReceipt | DodgeReceipt | SoakReceipt


def needed(request: TiersRequest, faces: Faces) -> tuple[int, ...]:
    """T-2: one d10 to start; one more while the last face drawn is a 1."""
    if not faces or faces[-1] == CRITICAL_FACE:
        return (SIDES,)
    return ()


def roll_chain(effective: int, faces: Faces, *, critical_success: bool = True) -> Chain:
    """T-1 and T-2 over the faces: the first die, then each critical reroll in order.
    ``critical_success``: the T-2 Reading "a 1 is a critical success" (False only to verify receipts
    resolved before that Reading, which carry no ``critical_lift``: ``systems.tiers.play.verify``)."""
    faces = check_faces(faces, SIDES)
    if not faces:
        raise RuleError("wrong_face_count", field="faces", expected=1, given=0)
    for position, face in enumerate(faces):
        if face != CRITICAL_FACE:
            if position + 1 < len(faces):  # the chain ended on this face (T-2)
                raise RuleError(
                    "extra_faces_after_chain", position=position, face=face, extra=len(faces) - position - 1
                )
            break
    else:  # T-2: the last face is a 1, so its reroll is still owed
        raise RuleError("critical_reroll_missing", position=len(faces))
    first = faces[0]
    base = effective - first  # T-1
    rerolls = faces[1:]
    critical = first == CRITICAL_FACE  # T-2
    critical_tiers = sum(1 for face in rerolls if face <= effective)  # T-2 (Reading: equal counts)
    # T-2 Reading: a 1 is a critical *success*: where effective − 1 is negative (a skill of 0), the
    # roll still succeeds, at tier 0.
    lift = max(0, -(base + critical_tiers)) if critical and critical_success else 0
    return Chain(
        effective=effective,
        faces=faces,
        first_face=first,
        base_tier=base,
        critical=critical,
        rerolls=rerolls,
        critical_tiers=critical_tiers,
        critical_lift=lift,
        chained_tier=base + critical_tiers + lift,
    )


def resolve(request: TiersRequest, faces: Faces, *, critical_success: bool = True) -> TiersReceipt:
    chain = roll_chain(request.effective, tuple(faces), critical_success=critical_success)
    common = {field.name: getattr(chain, field.name) for field in fields(ChainFields)}
    if request.kind == "soak":
        soak_tier = chain.chained_tier  # T-5: soak_tier = value − 1d10, criticals as T-2
        attack = present(request.attack_tier, "attack_tier")
        damage = 0 if soak_tier > attack else attack - soak_tier  # T-5
        return SoakReceipt(
            kind="soak",
            endurance=present(request.endurance, "endurance"),
            armor=present(request.armor, "armor"),
            soak_value=chain.effective,
            soak_tier=soak_tier,
            attack_tier=attack,
            damage=damage,
            success=damage == 0,
            outcome=_outcome(damage == 0),
            **common,
        )
    if request.kind == "dodge":
        tier = chain.chained_tier
        attack = present(request.attack_tier, "attack_tier")
        dodged = tier > attack  # T-4: strictly greater
        return DodgeReceipt(
            kind="dodge",
            skill=present(request.skill, "skill"),
            bonus=request.bonus,
            effective_skill=chain.effective,
            tier=tier,
            attack_tier=attack,
            dodged=dodged,
            success=dodged,
            outcome=_outcome(dodged),
            **common,
        )
    multiplier = request.bullets if request.bullets is not None else 1
    tier = chain.chained_tier * multiplier  # T-3: the tier after criticals × bullets fired
    success = tier >= 0  # T-1 (bullets ≥ 1 never change the sign)
    return SkillReceipt(
        kind="skill",
        skill=present(request.skill, "skill"),
        bonus=request.bonus,
        effective_skill=chain.effective,
        tier_before_bullets=chain.chained_tier,
        bullets=request.bullets,
        multiplier=multiplier,
        tier=tier,
        success=success,
        outcome=_outcome(success),
        **common,
    )


def _outcome(success: bool) -> Outcome:
    return "success" if success else "failure"


# --- T-7: weapon bonuses ------------------------------------------------------------------------


def weapon_bonus(bonuses: tuple[int, ...] | list[int], two_weapons: bool = False) -> int:
    """T-7: a weapon's bonus adds to the skill used. Two weapons need the Two Weapons skill,
    and then the bonuses are not doubled: the larger of the two applies, once (Reading)."""
    bonuses = tuple(bonuses)
    for index, bonus in enumerate(bonuses):
        check_range(f"weapon_bonus[{index}]", bonus, 0, MAX_SKILL)
    if len(bonuses) > 2:
        raise RuleError("too_many_weapons", given=len(bonuses), most=2)
    if len(bonuses) == 2 and not two_weapons:
        raise RuleError("two_weapons_skill_required")
    if two_weapons and len(bonuses) != 2:
        raise RuleError("two_weapons_needs_two", given=len(bonuses))
    return max(bonuses, default=0)  # T-7 Reading: the larger bonus, once


# --- T-3: magazines ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Magazine:
    capacity: int
    loaded: int
    turn_spent: bool = False  # T-3: changing the magazine spends the rest of the turn

    def __post_init__(self) -> None:
        check_range("capacity", self.capacity, 1, MAX_BULLETS)
        check_range("loaded", self.loaded, 0, self.capacity)


@dataclass(frozen=True, slots=True)
class FireReceipt:
    bullets: int
    loaded_before: int
    loaded_after: int
    empty: bool
    system: str = "tiers"
    kind: str = "fire"


@dataclass(frozen=True, slots=True)
class ReloadReceipt:
    capacity: int
    loaded_before: int
    discarded: int  # rounds left in the magazine taken out
    loaded_after: int
    turn_spent: bool
    system: str = "tiers"
    kind: str = "reload"


def full_magazine(capacity: int) -> Magazine:
    return Magazine(capacity=capacity, loaded=capacity)


def check_bullets(bullets: int, loaded: int) -> int:
    """T-3: a shot may not declare more bullets than the magazine holds."""
    check_range("bullets", bullets, 1, MAX_BULLETS)
    if loaded == 0:
        raise RuleError("magazine_empty")
    if bullets > loaded:
        raise RuleError("bullets_exceed_magazine", bullets=bullets, loaded=loaded)
    return bullets


def fire(magazine: Magazine, bullets: int) -> tuple[Magazine, FireReceipt]:
    """T-3: the declared bullets leave the magazine (before the roll is resolved)."""
    if magazine.turn_spent:
        raise RuleError("turn_spent")  # T-3: no other action in the turn of a reload
    check_bullets(bullets, magazine.loaded)
    after = Magazine(capacity=magazine.capacity, loaded=magazine.loaded - bullets)
    return after, FireReceipt(
        bullets=bullets, loaded_before=magazine.loaded, loaded_after=after.loaded, empty=after.loaded == 0
    )


def reload(magazine: Magazine, capacity: int | None = None) -> tuple[Magazine, ReloadReceipt]:
    """T-3: change the magazine for a full one; this spends the rest of the turn.
    Reading: a magazine that is not empty may be changed too; its rounds are recorded as discarded."""
    if magazine.turn_spent:
        raise RuleError("turn_spent")
    capacity = magazine.capacity if capacity is None else capacity
    after = Magazine(capacity=capacity, loaded=capacity, turn_spent=True)  # T-3
    return after, ReloadReceipt(
        capacity=capacity,
        loaded_before=magazine.loaded,
        discarded=magazine.loaded,
        loaded_after=capacity,
        turn_spent=True,
    )


def new_turn(magazine: Magazine) -> Magazine:
    """A new turn: the character may act again after a reload (T-3)."""
    return Magazine(capacity=magazine.capacity, loaded=magazine.loaded)


# --- T-6: Essence -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Essence:
    current: int
    maximum: int  # T-6: the Arcanes skill

    def __post_init__(self) -> None:
        check_range("maximum", self.maximum, 0, MAX_SKILL)
        check_range("current", self.current, 0, self.maximum)


@dataclass(frozen=True, slots=True)
class CastReceipt:
    essence_before: int
    cost: int
    essence_after: int
    spell_success: bool | None  # the spell's own roll, when given; the cost is the same (T-6)
    system: str = "tiers"
    kind: str = "cast"


def essence_for(arcanes: int) -> Essence:
    """T-6: maximum Essence equals the Arcanes skill; a rested caster is full."""
    check_range("arcanes", arcanes, 0, MAX_SKILL)
    return Essence(current=arcanes, maximum=arcanes)


def cast(essence: Essence, spell_success: bool | None = None) -> tuple[Essence, CastReceipt]:
    """T-6: every spell costs one Essence, succeed or fail; casting at 0 is refused."""
    if essence.current <= 0:
        raise RuleError("essence_exhausted")  # T-6
    after = Essence(current=essence.current - 1, maximum=essence.maximum)  # T-6: even on a failed spell
    return after, CastReceipt(
        essence_before=essence.current, cost=1, essence_after=after.current, spell_success=spell_success
    )


# --- T-5: the wound track ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WoundTrack:
    length: int  # the number of wound levels on the sheet
    level: int = 0  # levels taken so far

    def __post_init__(self) -> None:
        check_range("length", self.length, 1, MAX_SKILL)
        check_range("level", self.level, 0, self.length)


@dataclass(frozen=True, slots=True)
class WoundReceipt:
    damage: int
    level_before: int
    level_after: int
    overflow: int  # levels past the end of the track (Reading: the track stops at its last level)
    full: bool
    system: str = "tiers"
    kind: str = "wound"


def apply_damage(track: WoundTrack, damage: int) -> tuple[WoundTrack, WoundReceipt]:
    """T-5: one damage tier is one wound level; the track advances that many levels."""
    check_range("damage", damage, 0, None)
    reached = track.level + damage  # T-5
    after = WoundTrack(length=track.length, level=min(reached, track.length))
    return after, WoundReceipt(
        damage=damage,
        level_before=track.level,
        level_after=after.level,
        overflow=max(0, reached - track.length),
        full=after.level == track.length,
    )


# --- T-8: experience --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Experience:
    points: int = 0

    def __post_init__(self) -> None:
        check_range("points", self.points, 0, None)


@dataclass(frozen=True, slots=True)
class XpReceipt:
    points_before: int
    change: int  # + awarded, − spent
    points_after: int
    new_rating: int | None = None
    current_rating: int | None = None
    cost: int = 0
    system: str = "tiers"
    kind: str = "xp"


def award_xp(experience: Experience, points: int) -> tuple[Experience, XpReceipt]:
    """T-8: the game master awards points at the end of a session."""
    check_range("points", points, 0, None)
    after = Experience(points=experience.points + points)
    return after, XpReceipt(points_before=experience.points, change=points, points_after=after.points)


def xp_cost(new_rating: int, current_rating: int | None = None) -> int:
    """T-8: raising a trait to rating r costs 10 × r. Reading: a raise of several ratings at once
    pays each step (from current + 1 up to the new rating)."""
    check_range("new_rating", new_rating, 1, MAX_SKILL)
    if current_rating is None:
        return XP_COST_PER_RATING * new_rating  # T-8
    check_range("current_rating", current_rating, 0, MAX_SKILL)
    if new_rating <= current_rating:
        raise RuleError("not_a_raise", current_rating=current_rating, new_rating=new_rating)
    return sum(XP_COST_PER_RATING * rating for rating in range(current_rating + 1, new_rating + 1))


def spend_xp(
    experience: Experience, new_rating: int, current_rating: int | None = None
) -> tuple[Experience, XpReceipt]:
    """T-8: pay for a raise; a spend beyond the points available is refused."""
    cost = xp_cost(new_rating, current_rating)
    if cost > experience.points:  # T-8
        raise RuleError("not_enough_xp", cost=cost, points=experience.points, new_rating=new_rating)
    after = Experience(points=experience.points - cost)
    return after, XpReceipt(
        points_before=experience.points,
        change=-cost,
        points_after=after.points,
        new_rating=new_rating,
        current_rating=current_rating,
        cost=cost,
    )
