"""V5: Hunger dice that replace normal dice (SPEC V5-1 … V5-15).

Faces are passed flat, normal dice first then Hunger dice; the request says how many of
each (the server extracts Hunger from the sheet, V5-13). Willpower rerolls are a pure
follow-up on a receipt (``reroll``), recorded as history.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rollbook.rules.base import Faces, RuleError, check_count, check_faces, check_range
from rollbook.systems.v5 import contests as contests_v5

SIDES = 10
CONTESTS = contests_v5  # its part of contested and extended rolls (TR-3, TR-4: ``rules.contests``)
SUCCESS_FACE = 6  # V5-1
MAX_HUNGER = 5
MAX_POOL = 100
MAX_REROLL_DICE = 3  # V5-8
# V5-10 Book (V5 core p. 211): a Rouse forced at Hunger 5 calls for "an immediate hunger frenzy test at
# Difficulty 4" (p. 220); the Storyteller calls it (V5-14), the resolver only flags the risk.
HUNGER_FRENZY_DIFFICULTY = 4

Kind = Literal["test", "rouse", "willpower", "remorse", "frenzy"]
Creature = Literal["vampire", "thin_blood", "ghoul", "mortal"]
Mode = Literal["strict", "casual"]
Outcome = Literal["critical", "messy_critical", "success", "failure", "total_failure", "bestial_failure"]

MODES: tuple[Mode, ...] = ("strict", "casual")
KINDS: tuple[Kind, ...] = ("test", "rouse", "willpower", "remorse", "frenzy")
CREATURES: tuple[Creature, ...] = ("vampire", "thin_blood", "ghoul", "mortal")
OUTCOMES: tuple[Outcome, ...] = (
    "critical",
    "messy_critical",
    "success",
    "failure",
    "total_failure",
    "bestial_failure",
)
HUNGRY_CREATURES = ("vampire", "thin_blood")  # V5-12: thin-bloods are vampires at Blood Potency 0


@dataclass(frozen=True, slots=True)
class V5Request:
    pool: int
    hunger: int = 0  # the sheet's Hunger before this roll's own Rouse (V5-2)
    difficulty: int = 1
    kind: Kind = "test"
    mode: Mode = "strict"
    creature: Creature = "vampire"
    blood_potency_reroll: bool = False  # V5-10 Book: a Rouse rerolled for Blood Potency, keep the better

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RuleError("bad_choice", field="kind", value=self.kind, choices=list(KINDS))
        if self.mode not in ("strict", "casual"):
            raise RuleError("bad_choice", field="mode", value=self.mode, choices=["strict", "casual"])
        if self.creature not in CREATURES:
            raise RuleError("bad_choice", field="creature", value=self.creature, choices=list(CREATURES))
        check_range("hunger", self.hunger, 0, MAX_HUNGER)
        if self.kind == "rouse":
            check_range("pool", self.pool, 1, 1)  # V5-10: one die
            if (
                self.creature not in HUNGRY_CREATURES
            ):  # V5-12: a ghoul or a mortal has no vampiric blood to rouse
                raise RuleError("no_rouse_for_creature", creature=self.creature)
        else:
            check_range("pool", self.pool, 1, MAX_POOL)
            check_range("difficulty", self.difficulty, 1, None)  # V5-1
        if self.blood_potency_reroll and self.kind != "rouse":
            raise RuleError("rouse_only", field="blood_potency_reroll")

    @property
    def hunger_dice(self) -> int:
        """V5-2, V5-9, V5-12: Hunger replaces dice, never more than the pool, only on tests of vampires."""
        if self.kind != "test" or self.creature not in HUNGRY_CREATURES:
            return 0
        return min(self.hunger, self.pool)

    @property
    def normal_dice(self) -> int:
        return self.pool - self.hunger_dice


@dataclass(frozen=True, slots=True)
class Reroll:
    dice: tuple[int, ...]  # indices into the normal dice
    old: Faces
    new: Faces


@dataclass(frozen=True, slots=True)
class V5Receipt:
    kind: Kind
    creature: Creature
    mode: Mode
    difficulty: int
    pool: int
    hunger_level: int
    original_normal: Faces
    normal: Faces  # final, after rerolls
    hunger: Faces  # Hunger dice never change (V5-8)
    rerolls: tuple[Reroll, ...]
    tens: int
    critical_pairs: int
    successes: int
    margin: int
    win: bool
    critical: bool
    messy: bool
    bestial: bool
    outcome: Outcome
    rouse_faces: Faces = ()
    hunger_gain: int = 0  # rouse only (V5-10)
    hunger_frenzy_risk: bool = False  # rouse at Hunger 5 (V5-10 Book)
    system: str = "v5"


def needed(request: V5Request, faces: Faces) -> tuple[int, ...]:
    count = 2 if request.kind == "rouse" and request.blood_potency_reroll else request.pool
    return (SIDES,) * max(0, count - len(faces))


def count_successes(faces: Faces) -> tuple[int, int, int]:
    """V5-1, V5-3: (successes, tens, pairs of tens) over all dice, normal and Hunger together."""
    tens = sum(1 for face in faces if face == 10)
    pairs = tens // 2
    return sum(1 for face in faces if face >= SUCCESS_FACE) + 2 * pairs, tens, pairs


def classify(
    normal: Faces, hunger: Faces, difficulty: int
) -> tuple[int, int, int, bool, bool, bool, bool, Outcome]:
    """The outcome of final faces (V5-3 … V5-7): successes, tens, pairs, win, critical, messy, bestial, outcome."""
    successes, tens, pairs = count_successes(normal + hunger)
    win = successes >= difficulty  # V5-4
    critical = win and pairs >= 1  # V5-5
    messy = critical and 10 in hunger  # V5-5: any Hunger 10 among the tens of a winning pair roll
    bestial = not win and 1 in hunger  # V5-6
    if messy:  # V5-7 precedence
        outcome: Outcome = "messy_critical"
    elif critical:
        outcome = "critical"
    elif win:
        outcome = "success"
    elif bestial:
        outcome = "bestial_failure"
    elif successes == 0:
        outcome = "total_failure"
    else:
        outcome = "failure"
    return successes, tens, pairs, win, critical, messy, bestial, outcome


def resolve(request: V5Request, faces: Faces) -> V5Receipt:
    faces = check_faces(faces, SIDES)
    if request.kind == "rouse":
        return _resolve_rouse(request, faces)
    check_count("faces", faces, request.pool)
    split = request.normal_dice
    return _receipt(request, faces[:split], faces[split:], faces[:split], ())


def _receipt(
    request: V5Request, original: Faces, hunger: Faces, normal: Faces, rerolls: tuple[Reroll, ...]
) -> V5Receipt:
    successes, tens, pairs, win, critical, messy, bestial, outcome = classify(
        normal, hunger, request.difficulty
    )
    return V5Receipt(
        kind=request.kind,
        creature=request.creature,
        mode=request.mode,
        difficulty=request.difficulty,
        pool=request.pool,
        hunger_level=request.hunger,
        original_normal=original,
        normal=normal,
        hunger=hunger,
        rerolls=rerolls,
        tens=tens,
        critical_pairs=pairs,
        successes=successes,
        margin=successes - request.difficulty,
        win=win,
        critical=critical,
        messy=messy,
        bestial=bestial,
        outcome=outcome,
    )


def _resolve_rouse(request: V5Request, faces: Faces) -> V5Receipt:
    """V5-10: one die, no difficulty, never bestial; 6+ keeps Hunger, otherwise Hunger +1."""
    check_count("faces", faces, 2 if request.blood_potency_reroll else 1)
    kept = max(faces)  # Book: Blood Potency's reroll keeps the better
    win = kept >= SUCCESS_FACE
    at_max = request.hunger >= MAX_HUNGER
    return V5Receipt(
        kind="rouse",
        creature=request.creature,
        mode=request.mode,
        difficulty=1,
        pool=1,
        hunger_level=request.hunger,
        original_normal=(kept,),
        normal=(kept,),
        hunger=(),
        rerolls=(),
        tens=int(kept == 10),
        critical_pairs=0,
        successes=int(win),
        margin=int(win) - 1,
        win=win,
        critical=False,
        messy=False,
        bestial=False,
        outcome="success" if win else "failure",
        rouse_faces=faces,
        hunger_gain=0 if win or at_max else 1,
        hunger_frenzy_risk=not win and at_max,  # Book: Hunger 5 cannot rise; the character must feed
    )


def reroll(
    request: V5Request,
    receipt: V5Receipt,
    dice: tuple[int, ...],
    new_faces: Faces,
    willpower_current: int | None = None,
) -> V5Receipt:
    """V5-8: a Willpower reroll of up to three normal dice; the receipt keeps the history."""
    if request.kind != "test":
        raise RuleError("reroll_not_allowed", kind=request.kind)
    if request.mode == "strict" and receipt.rerolls:
        raise RuleError("reroll_limit_strict")
    if willpower_current is not None and willpower_current <= 0:
        raise RuleError("willpower_exhausted")
    dice = tuple(dice)
    if not 1 <= len(dice) <= MAX_REROLL_DICE:
        raise RuleError("reroll_dice_count", given=len(dice), most=MAX_REROLL_DICE)
    if len(set(dice)) != len(dice):
        raise RuleError("reroll_duplicate_die")
    for index in dice:
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise RuleError(
                "reroll_bad_index", index=index, number=index + 1 if isinstance(index, int) else index
            )
        if index >= len(receipt.normal):  # past the normal dice lie the Hunger dice (V5-8)
            # index: the position the API sends (0-based); number: the die as people count them
            raise RuleError("reroll_hunger_die", index=index, number=index + 1)
    new_faces = check_faces(new_faces, SIDES, field="reroll.faces")
    check_count("reroll.faces", new_faces, len(dice))
    normal = list(receipt.normal)
    old = tuple(normal[i] for i in dice)
    for index, face in zip(dice, new_faces, strict=True):
        normal[index] = face
    history = receipt.rerolls + (Reroll(dice=dice, old=old, new=new_faces),)
    return _receipt(request, receipt.original_normal, receipt.hunger, tuple(normal), history)


# --- Named reroll choices (V5-8): helpers that pick dice; a player may also pick by hand ---
# How many dice a picker takes from each scoring group (1, 2–5, 6–9, 10 — normal dice) must depend
# only on how many dice each group holds: the odds engine (rollbook.systems.v5.odds) counts rolls by those
# groups, so a picker that, say, took a 5 but left a 2 standing would make its odds silently wrong.


def _normal_by_face(normal: Faces, keep: Callable[[int], bool]) -> list[int]:
    return sorted((i for i, face in enumerate(normal) if keep(face)), key=lambda i: (normal[i], i))


def pick_failures(normal: Faces, hunger: Faces = ()) -> tuple[int, ...]:
    """Reroll failures: up to three normal dice below 6, lowest first."""
    return tuple(_normal_by_face(normal, lambda f: f < SUCCESS_FACE)[:MAX_REROLL_DICE])


def pick_criticals(normal: Faces, hunger: Faces = ()) -> tuple[int, ...]:
    """Maximise criticals: failures first, then successes that are not 10s (chasing 10s), lowest first."""
    return tuple(_normal_by_face(normal, lambda f: f != 10)[:MAX_REROLL_DICE])


def pick_avoid_messy(normal: Faces, hunger: Faces = ()) -> tuple[int, ...]:
    """Avoid a messy critical: when a single Hunger 10 would pair with normal 10s, reroll the normal
    10s (a Hunger 10 cannot be rerolled, two Hunger 10s cannot be undone), then failures."""
    hunger_tens = sum(1 for face in hunger if face == 10)
    picked: list[int] = []
    if hunger_tens == 1:
        picked = [i for i, face in enumerate(normal) if face == 10][:MAX_REROLL_DICE]
    failures = [i for i in _normal_by_face(normal, lambda f: f < SUCCESS_FACE) if i not in picked]
    return tuple((picked + failures)[:MAX_REROLL_DICE])


def pick_risky(normal: Faces, hunger: Faces = ()) -> tuple[int, ...]:
    """Risky: the three lowest normal dice, successes included, even a 10 when nothing lower is left."""
    return tuple(_normal_by_face(normal, lambda f: True)[:MAX_REROLL_DICE])


REROLL_CHOICES = {
    "failures": pick_failures,
    "crits": pick_criticals,
    "avoid-messy": pick_avoid_messy,
    "risky": pick_risky,
}


# --- Rolls that never carry Hunger (V5-9) and their sheet helpers ---


def rouse_request(
    hunger: int, blood_potency_reroll: bool = False, creature: Creature = "vampire"
) -> V5Request:
    return V5Request(
        pool=1, hunger=hunger, kind="rouse", creature=creature, blood_potency_reroll=blood_potency_reroll
    )


def remorse_dice(humanity: int, stains: int) -> int:
    """V5-15 Book: one die per empty, unstained Humanity box, minimum 1."""
    check_range("humanity", humanity, 0, 10)
    check_range("stains", stains, 0, 10)
    return max(1, 10 - humanity - stains)


def remorse_humanity_loss(receipt: V5Receipt) -> int:
    """V5-15 Book: any success keeps Humanity; otherwise Humanity −1 (stains clear either way)."""
    return 0 if receipt.successes >= 1 else 1


def frenzy_pool(willpower_current: int, humanity: int) -> int:
    """Book: frenzy resistance rolls current Willpower + a third of Humanity (rounded down), at least 1."""
    check_range("willpower_current", willpower_current, 0, 10)
    check_range("humanity", humanity, 0, 10)
    return max(1, willpower_current + humanity // 3)
