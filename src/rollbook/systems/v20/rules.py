"""V20, classic Vampire: d10 pools against a difficulty (SPEC V20-1 … V20-17).

Pure functions only. ``resolve(request, faces)`` gives a receipt that keeps every number
of V20-14 apart; the Book pieces of V20-16 (blood by Generation, wound penalties, soak
rolls) are small functions the chronicle server's sheets call. V20-17: the damage roll
(``DamageRequest`` / ``resolve_damage``) and the soak (``SoakRequest`` / ``resolve_soak``) count
levels at difficulty 6, never botch, and their 1s cancel nothing; each has its own
``needed``/``resolve`` pair for the dice source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rollbook.rules.base import Faces, RuleError, check_count, check_faces, check_range
from rollbook.rules.table import check_table_rules
from rollbook.systems.v20 import contests as contests_v20
from rollbook.systems.v20.table_rules import ONES_DO_NOT_CANCEL, SPECIALTY_REROLL_TENS

SIDES = 10
CONTESTS = contests_v20  # its part of contested and extended rolls (TR-3, TR-4: ``rules.contests``)
DEFAULT_DIFFICULTY = 6  # V20-2
MAX_POOL = 100
# TR-2 ``v20.specialty_reroll_tens``: the chain of rerolls one die of the pool may start is bounded
# (EXAMPLES item 10: bound the loop). A 10 rolled as the REROLL_LIMIT-th reroll of its chain is a
# success that is not rerolled again; the receipt says the bound and how many tens met it.
REROLL_LIMIT = 10

Mode = Literal["strict", "casual"]
Untrained = Literal["talent", "skill", "knowledge"]
MODES: tuple[Mode, ...] = ("strict", "casual")  # V20-5
UNTRAINED: tuple[Untrained, ...] = ("talent", "skill", "knowledge")  # V20-3
Outcome = Literal["success", "failure", "botch"]
Degree = Literal["marginal", "moderate", "complete", "exceptional", "phenomenal"]

DEGREES: tuple[Degree, ...] = ("marginal", "moderate", "complete", "exceptional", "phenomenal")


@dataclass(frozen=True, slots=True)
class V20Request:
    pool: int
    difficulty: int = DEFAULT_DIFFICULTY
    required: int = 1
    mode: Mode = "strict"
    untrained: Untrained | None = None
    knowledge_allowed: bool = False  # V20-3 Book: the Storyteller's leave for an untrained Knowledge
    specialty: bool = False
    specialty_rating: int | None = None
    willpower: bool = False
    willpower_roll: bool = False
    willpower_current: int | None = None  # the sheet's current Willpower, when known (V20-9)
    auto_successes: int = 0  # from powers, recorded apart from Willpower (V20-9)
    table_rules: tuple[str, ...] = ()  # TR-1: the table rules in force (canonical: sorted, once each)

    def __post_init__(self) -> None:
        if self.table_rules != ():  # TR-1 (the usual empty set needs no check)
            object.__setattr__(self, "table_rules", check_table_rules("v20", self.table_rules))
        check_range("pool", self.pool, 0, MAX_POOL)  # V20-1: 0 dice is a legal pool
        check_range("difficulty", self.difficulty, 2, 10)  # V20-2
        check_range("required", self.required, 1, None)  # V20-2
        check_range("auto_successes", self.auto_successes, 0, None)
        if self.mode not in ("strict", "casual"):
            raise RuleError("bad_choice", field="mode", value=self.mode, choices=["strict", "casual"])
        if self.untrained not in (None, "talent", "skill", "knowledge"):
            raise RuleError(
                "bad_choice",
                field="untrained",
                value=self.untrained,
                choices=["talent", "skill", "knowledge"],
            )
        if self.untrained == "knowledge" and not self.knowledge_allowed:
            raise RuleError("untrained_knowledge_refused")  # V20-3 Book
        if self.specialty:  # V20-7
            # V20-7 Reading: the rating is that of the trait the specialty belongs to; an Attribute's
            # specialty (rated 4–5) applies even when the Ability rolled with it is untrained.
            if self.specialty_rating is None:
                raise RuleError("specialty_rating_missing")
            check_range("specialty_rating", self.specialty_rating, 0, 10)
            if self.specialty_rating < 4:
                raise RuleError("specialty_rating_too_low", rating=self.specialty_rating)
        elif self.specialty_rating is not None:
            check_range("specialty_rating", self.specialty_rating, 0, 10)
        if self.willpower:  # V20-9
            if self.willpower_roll:
                raise RuleError("willpower_on_willpower_roll")
            if self.willpower_current is not None and self.willpower_current <= 0:
                raise RuleError("willpower_exhausted")


@dataclass(frozen=True, slots=True)
class V20Receipt:
    pool: int
    requested_difficulty: int
    evaluated_difficulty: int  # V20-4, after the untrained +1 and the over-10 rule
    difficulty: int  # applied (V20-5)
    mode: Mode
    requested_required: int
    required: int  # after V20-4
    untrained: Untrained | None
    untrained_penalty: int
    specialty: bool
    faces: Faces
    ones: int
    successful_dice: int
    specialty_tens: int  # successful 10s that count double (V20-7)
    rolled_successes: int  # in success units: a specialty 10 is two (V20-7, V20-8)
    cancelled: int
    willpower_success: int
    power_successes: int
    auto_successes: int
    successes: int  # V20-10
    outcome: Outcome
    degree: Degree | None
    system: str = "v20"
    auto_sources: dict[str, int] = field(default_factory=dict)
    table_rules: tuple[str, ...] = ()  # TR-1: the table rules the roll was resolved under
    # TR-2 v20.specialty_reroll_tens: the bound of a chain (None when no die is rerolled by the rule),
    # the rerolled dice (the faces after the pool's), and the tens that met the bound, not rerolled
    reroll_limit: int | None = None
    rerolled: int = 0
    reroll_capped: int = 0


def rerolls_tens(request: V20Request) -> bool:
    """TR-2 ``v20.specialty_reroll_tens``: a specialty roll rerolls its tens (instead of V20-7's double)."""
    return request.specialty and SPECIALTY_REROLL_TENS in request.table_rules


def ones_cancel(request: V20Request) -> bool:
    """V20-8, unless TR-2 ``v20.ones_do_not_cancel`` is in force."""
    return ONES_DO_NOT_CANCEL not in request.table_rules


def evaluated_difficulty(request: V20Request) -> tuple[int, int, int]:
    """V20-3/V20-4: (untrained penalty, evaluated difficulty, required successes)."""
    penalty = 1 if request.untrained in ("skill", "knowledge") else 0  # a Talent adds nothing
    difficulty = request.difficulty + penalty
    required = request.required
    if difficulty > 10:  # V20-4 Book: each point over 10 becomes one more required success
        required += difficulty - 10
        difficulty = 10
    return penalty, difficulty, required


def applied_difficulty(evaluated: int, mode: Mode) -> int:
    """V20-5: Strict uses it as is; Casual halves it exactly once, rounding down, never below 1."""
    if mode == "casual":
        return max(1, evaluated // 2)
    return evaluated


def total_of(rolled: int, ones: int, auto: int, cancel: bool = True) -> int:
    """V20-8, V20-10: each 1 cancels one rolled success, never below zero; automatic ones add after.
    ``cancel=False``: TR-2 ``v20.ones_do_not_cancel`` (1s cancel nothing)."""
    return rolled - (min(ones, rolled) if cancel else 0) + auto


def outcome_of(rolled: int, ones: int, auto: int, required: int, cancel: bool = True) -> Outcome:
    """V20-11, V20-12 from the counts alone (the odds engine classifies with this too). The botch
    test is the same with or without TR-2 ``v20.ones_do_not_cancel``."""
    if rolled == 0 and ones >= 1 and auto == 0:  # V20-11: cancelled-to-zero is not a botch
        return "botch"
    return "success" if total_of(rolled, ones, auto, cancel) >= required else "failure"  # V20-12


@dataclass(frozen=True, slots=True)
class Counting:
    """How one request turns the counts of its dice (rolled success units, 1s) into a total and an
    outcome (V20-8, V20-10 … V20-12), the table rules in force included (TR-1): the resolver counts
    with it and the odds engine classifies with it, so a table rule that changes the count changes
    both here and nowhere else."""

    auto: int  # V20-9: Willpower and powers
    required: int  # after V20-4
    cancel: bool = True  # V20-8 (off under TR-2 v20.ones_do_not_cancel)

    def cancelled(self, rolled: int, ones: int) -> int:
        return min(ones, rolled) if self.cancel else 0  # V20-8

    def total(self, rolled: int, ones: int) -> int:
        return total_of(rolled, ones, self.auto, self.cancel)  # V20-10

    def outcome(self, rolled: int, ones: int) -> Outcome:
        return outcome_of(rolled, ones, self.auto, self.required, self.cancel)  # V20-11, V20-12


def counting(request: V20Request) -> Counting:
    """The ``Counting`` of a request (its pool aside)."""
    auto = (1 if request.willpower else 0) + request.auto_successes  # V20-9: at most one, never a die
    return Counting(auto, evaluated_difficulty(request)[2], ones_cancel(request))


def degree_of(outcome: Outcome, total: int) -> Degree | None:
    """V20-12 Book: the degree of a success by its net successes."""
    return DEGREES[min(total, 5) - 1] if outcome == "success" and total >= 1 else None


def multiple_action_difficulty(difficulty: int, actions: int) -> tuple[int, int]:
    """V20-13: the helper a Storyteller may use *before* the roll — each action after the first
    adds 1 to the difficulty; past 10 each point becomes one more required success (as V20-4).
    Returns (difficulty, extra successes required). The resolver itself never adds this penalty."""
    check_range("difficulty", difficulty, 2, 10)
    check_range("actions", actions, 1, None)
    raised = difficulty + actions - 1
    return min(raised, 10), max(0, raised - 10)


def _generations(request: V20Request, faces: Faces) -> tuple[int, int, int]:
    """TR-2 ``v20.specialty_reroll_tens``: the faces read generation by generation — the pool, then
    one die for each 10 of the generation before (drawn at once, in order), while the chain is
    shorter than REROLL_LIMIT. Returns (faces the roll takes, given what is there so far — more
    than ``len(faces)`` when dice are still to draw; the tens that met the bound; the reroll dice)."""
    start, size, depth = 0, request.pool, 0
    while True:
        end = start + size
        if end > len(faces):
            return end, 0, end - request.pool
        tens = sum(1 for face in faces[start:end] if face == 10)
        if depth >= REROLL_LIMIT or tens == 0:
            return end, tens if depth >= REROLL_LIMIT else 0, end - request.pool
        start, size, depth = end, tens, depth + 1


def needed(request: V20Request, faces: Faces) -> tuple[int, ...]:
    if rerolls_tens(request):  # TR-2: each 10 adds one die, which may be a 10 again (bounded)
        return (SIDES,) * max(0, _generations(request, faces)[0] - len(faces))
    return (SIDES,) * max(0, request.pool - len(faces))


def resolve(request: V20Request, faces: Faces) -> V20Receipt:
    faces = check_faces(faces, SIDES)
    rerolling = rerolls_tens(request)
    capped = rerolled = 0
    if rerolling:
        expected, capped, rerolled = _generations(request, faces)
        check_count("faces", faces, expected)
    else:
        check_count("faces", faces, request.pool)
    penalty, evaluated, required = evaluated_difficulty(request)
    difficulty = applied_difficulty(evaluated, request.mode)

    pool_faces = faces[: request.pool]
    ones = sum(1 for face in pool_faces if face == 1)  # TR-2 Reading: a reroll's 1 does not cancel
    successful_dice = sum(1 for face in faces if face >= difficulty)  # V20-6 (a 1 at difficulty 1 too)
    specialty_tens = 0
    if request.specialty and not rerolling:  # V20-7 (TR-2 v20.specialty_reroll_tens replaces it)
        specialty_tens = sum(1 for face in faces if face == 10 and face >= difficulty)
    rolled = successful_dice + specialty_tens  # V20-7: a specialty 10 is two units
    counts = counting(request)
    cancelled = counts.cancelled(rolled, ones)  # V20-8 (off under TR-2 v20.ones_do_not_cancel)
    willpower_success = 1 if request.willpower else 0  # V20-9: at most one, never a die
    auto = counts.auto
    total = counts.total(rolled, ones)  # V20-10

    outcome = counts.outcome(rolled, ones)
    degree = degree_of(outcome, total)

    sources = {}
    if willpower_success:
        sources["willpower"] = willpower_success
    if request.auto_successes:
        sources["powers"] = request.auto_successes
    # V20-14: every number kept apart
    return V20Receipt(
        pool=request.pool,
        requested_difficulty=request.difficulty,
        evaluated_difficulty=evaluated,
        difficulty=difficulty,
        mode=request.mode,
        requested_required=request.required,
        required=required,
        untrained=request.untrained,
        untrained_penalty=penalty,
        specialty=request.specialty,
        faces=faces,
        ones=ones,
        successful_dice=successful_dice,
        specialty_tens=specialty_tens,
        rolled_successes=rolled,
        cancelled=cancelled,
        willpower_success=willpower_success,
        power_successes=request.auto_successes,
        auto_successes=auto,
        successes=total,
        outcome=outcome,
        degree=degree,
        auto_sources=sources,
        table_rules=request.table_rules,
        reroll_limit=REROLL_LIMIT if rerolling else None,
        rerolled=rerolled,
        reroll_capped=capped,
    )


# --- V20-16 (Book): blood, health and soak ------------------------------------------------

# Generation -> (maximum blood pool, blood points spendable per turn).
BLOOD_BY_GENERATION: dict[int, tuple[int, int]] = {
    4: (50, 10),
    5: (40, 8),
    6: (30, 6),
    7: (20, 4),
    8: (15, 3),
    9: (14, 2),
    10: (13, 1),
    11: (12, 1),
    12: (11, 1),
    13: (10, 1),
    14: (10, 1),
    15: (10, 1),
}


def blood_pool(generation: int) -> tuple[int, int]:
    """V20-16: (maximum blood pool, blood per turn) for a Generation 4–15."""
    check_range("generation", generation, 4, 15)
    return BLOOD_BY_GENERATION[generation]


# Health levels from the top; the penalty is dice removed from pools, None = cannot act.
HEALTH_LEVELS: tuple[tuple[str, int | None], ...] = (
    ("bruised", 0),
    ("hurt", -1),
    ("injured", -1),
    ("wounded", -2),
    ("mauled", -2),
    ("crippled", -5),
    ("incapacitated", None),
)
DamageType = Literal["bashing", "lethal", "aggravated"]
DAMAGE_TYPES: tuple[DamageType, ...] = ("bashing", "lethal", "aggravated")


def _health_row(damage: int) -> tuple[str, int | None] | None:
    """V20-16: the (level, penalty) row reached by that many levels of damage; None when unhurt; past
    the track, torpor (no penalty: the character cannot act)."""
    check_range("damage", damage, 0, None)
    if damage == 0:
        return None
    return HEALTH_LEVELS[damage - 1] if damage <= len(HEALTH_LEVELS) else ("torpor", None)


def health_level(damage: int) -> str | None:
    """V20-16: the health level reached by that many levels of damage (None when unhurt, 'torpor' past the track)."""
    row = _health_row(damage)
    return None if row is None else row[0]


def wound_penalty(damage: int) -> int | None:
    """V20-16: dice removed from every pool at that much damage; None = the character cannot act."""
    row = _health_row(damage)
    return 0 if row is None else row[1]


SOAK_DIFFICULTY = 6  # V20-16 Book
DAMAGE_DIFFICULTY = 6  # V20-17 Book


def levels_of(faces: Faces) -> int:
    """V20-16/V20-17 Book: on a soak or a damage roll each face ≥ 6 is one level; such a roll cannot
    botch and its 1s cancel nothing."""
    return sum(1 for face in faces if face >= SOAK_DIFFICULTY)


def check_damage_type(value: object) -> DamageType:
    """A damage type (V20-16, V20-17): one of ``DAMAGE_TYPES``, or a RuleError."""
    for damage_type in DAMAGE_TYPES:
        if value == damage_type:
            return damage_type
    raise RuleError("bad_choice", field="damage_type", value=value, choices=list(DAMAGE_TYPES))


# --- V20-17 (Book): the damage roll -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DamageRequest:
    """V20-17: the pool (weapon + one die per attack success beyond the first) is built by the caller.
    V20-21: ``potence`` (a Brawl or Melee attack's) adds as many automatic successes, recorded apart."""

    pool: int
    damage_type: DamageType
    potence: int = 0

    def __post_init__(self) -> None:
        check_range("pool", self.pool, 0, MAX_POOL)
        check_range("potence", self.potence, 0, 10)
        check_damage_type(self.damage_type)


@dataclass(frozen=True, slots=True)
class DamageReceipt:
    pool: int
    damage_type: str
    faces: Faces
    ones: int  # shown, never cancelling (V20-17)
    levels: int  # each success is one level of the weapon's damage type (V20-17), Potence's included
    outcome: Literal["damage", "no_damage"]
    difficulty: int = DAMAGE_DIFFICULTY
    system: str = "v20"
    kind: str = "damage"
    auto_successes: int = 0  # V20-21: Potence's levels, never rolled (recorded apart from the faces')
    auto_sources: dict[str, int] = field(default_factory=dict)


def damage_pool(strength: int, weapon_damage: int, firearm: bool, attack_successes: int) -> tuple[int, int]:
    """V20-17 Book: (base pool, extra dice). Hand-to-hand: Strength + the weapon's bonus; firearms: the
    weapon's rating; then one die per attack success beyond the first."""
    check_range("attack_successes", attack_successes, 1, None)  # only a successful attack deals damage
    base = weapon_damage if firearm else strength + weapon_damage
    return base, attack_successes - 1


def damage_needed(request: DamageRequest, faces: Faces) -> tuple[int, ...]:
    return (SIDES,) * max(0, request.pool - len(faces))


def resolve_damage(request: DamageRequest, faces: Faces) -> DamageReceipt:
    """V20-17 Book: difficulty 6; each success is one level; no botch; 1s cancel nothing. V20-21:
    Potence's automatic successes are levels too, and still no botch."""
    faces = check_faces(faces, SIDES)
    check_count("faces", faces, request.pool)
    levels = levels_of(faces) + request.potence
    return DamageReceipt(
        pool=request.pool,
        damage_type=request.damage_type,
        faces=faces,
        ones=sum(1 for face in faces if face == 1),
        levels=levels,
        outcome="damage" if levels else "no_damage",
        auto_successes=request.potence,
        auto_sources={"potence": request.potence} if request.potence else {},
    )


def damage_type_against(
    damage_type: DamageType, *, firearm: bool, vampire: bool, aimed_at_head: bool = False
) -> DamageType:
    """Book (V20 p. 281, Ranged Weapons Chart notes; docs/book-sources.md): bullets are lethal to mortals
    but only bashing to a vampire, unless the shot was aimed at the head."""
    if firearm and vampire and damage_type == "lethal" and not aimed_at_head:
        return "bashing"
    return damage_type


# --- V20-16 (Book): the soak roll -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SoakRequest:
    damage: int  # levels of damage taken before soaking
    damage_type: DamageType
    stamina: int
    fortitude: int = 0
    vampire: bool = True

    def __post_init__(self) -> None:
        check_range("damage", self.damage, 0, None)
        check_range("stamina", self.stamina, 0, 10)
        check_range("fortitude", self.fortitude, 0, 10)
        check_damage_type(self.damage_type)


@dataclass(frozen=True, slots=True)
class SoakReceipt:
    damage: int
    damage_type: str
    soak_pool: int
    faces: Faces
    soaked: int
    damage_taken: int  # the levels left to mark on the health track (never negative)
    outcome: Literal["soaked", "damaged"]
    difficulty: int = SOAK_DIFFICULTY
    system: str = "v20"
    kind: str = "soak"


def soak_pool(request: SoakRequest) -> int:
    """V20-16 Book: vampires soak bashing and lethal with Stamina + Fortitude and aggravated with
    Fortitude alone; mortals soak bashing with Stamina and cannot soak lethal or aggravated."""
    if request.vampire:
        if request.damage_type == "aggravated":
            return request.fortitude
        return request.stamina + request.fortitude
    return request.stamina if request.damage_type == "bashing" else 0


def soak_needed(request: SoakRequest, faces: Faces) -> tuple[int, ...]:
    return (SIDES,) * max(0, soak_pool(request) - len(faces))


def resolve_soak(request: SoakRequest, faces: Faces) -> SoakReceipt:
    """V20-16 Book: each face ≥ 6 removes one level of damage; a soak roll cannot botch and its 1s
    cancel nothing. What is left is never below zero."""
    pool = soak_pool(request)
    faces = check_faces(faces, SIDES)
    check_count("faces", faces, pool)
    soaked = min(request.damage, levels_of(faces))
    taken = request.damage - soaked
    return SoakReceipt(
        damage=request.damage,
        damage_type=request.damage_type,
        soak_pool=pool,
        faces=faces,
        soaked=soaked,
        damage_taken=taken,
        outcome="damaged" if taken else "soaked",
    )
