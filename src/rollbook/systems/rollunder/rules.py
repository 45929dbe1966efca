"""Roll-under d20: a kept d20 at or under the level succeeds (SPEC R-1 … R-8, seed 003).

Pure functions only. A check needs one d20, or two with advantage or disadvantage (R-3);
an opposed roll needs the dice of its expression, in order (R-7); an absurd or trivial
task needs none (R-8). Cards are played before the roll and recorded on its receipt; a card
played after the roll is refused (R-6).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from rollbook.rules.base import Faces, RuleError, check_count, check_faces, check_range, present

SIDES = 20
CONTESTS = None  # no contested or extended rolls (TR-3, TR-4 name V20 and V5: ``rules.contests``)
CRITICAL_SUCCESS_FACE = 1
CRITICAL_FAILURE_FACE = 20
MIN_COUNT, MAX_COUNT = 1, 100  # dice per term of an expression
MIN_SIDES, MAX_SIDES = 2, 1000  # sides of a die in an expression
MAX_LEVEL = 1000
MAX_CARDS = 20

Kind = Literal["check", "opposed"]
Task = Literal["normal", "absurd", "trivial"]
Outcome = Literal["critical_success", "success", "failure", "critical_failure"]

KINDS: tuple[Kind, ...] = ("check", "opposed")
TASKS: tuple[Task, ...] = ("normal", "absurd", "trivial")
OUTCOMES: tuple[Outcome, ...] = ("critical_success", "success", "failure", "critical_failure")


# --- Dice expressions (R-7) ---------------------------------------------------------------------

_TERM = re.compile(r"\s*(?:(\d*)[dD](\d+)|(\d+))\s*")  # NdS, dS (one die) or a number
MAX_MODIFIER = 1000  # a number added to or taken from the dice's total (R-7: "2d6+2", "3d6-1")


@dataclass(frozen=True, slots=True)
class DiceTerm:
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


@dataclass(frozen=True, slots=True)
class DiceExpression:
    terms: tuple[DiceTerm, ...]
    modifier: int = 0  # the numbers added (or taken away) after the dice

    @property
    def sizes(self) -> tuple[int, ...]:
        """The size of every die, in the expression's order."""
        return tuple(term.sides for term in self.terms for _ in range(term.count))

    @property
    def minimum(self) -> int:
        return sum(term.count for term in self.terms) + self.modifier

    @property
    def maximum(self) -> int:
        return sum(term.count * term.sides for term in self.terms) + self.modifier

    def __str__(self) -> str:
        dice = "+".join(str(term) for term in self.terms)
        return f"{dice}{self.modifier:+d}" if self.modifier else dice


def parse_dice(expression: str) -> DiceExpression:
    """R-7 ("any type and any number of dice"): ``NdS`` terms (``dS`` is one die: ``d20``, ``d100``)
    joined by ``+``, and numbers added or taken away (``2d6+2``, ``3d6-1``); spaces around terms
    allowed. Only numbers may be taken away; at least one die."""
    if not isinstance(expression, str):
        raise RuleError("dice_expression_syntax", expression=expression, term=expression)
    if not expression.strip():
        raise RuleError("dice_expression_empty")
    terms = []
    modifier = 0
    pieces = re.split(r"([+-])", expression)
    for index in range(0, len(pieces), 2):
        text, sign = pieces[index], "+" if index == 0 else pieces[index - 1]
        if not text.strip():  # "2d6+" or "+1d4": a sign with nothing on one side
            raise RuleError("dice_expression_empty_term", expression=expression)
        match = _TERM.fullmatch(text)
        if match is None or (match.group(3) is None and sign == "-"):
            raise RuleError("dice_expression_syntax", expression=expression, term=text.strip())
        if match.group(3) is not None:  # a number: added or taken away after the dice
            value = int(match.group(3))
            if value > MAX_MODIFIER:
                raise RuleError("out_of_range", field="dice", value=value, low=0, high=MAX_MODIFIER)
            modifier += value if sign == "+" else -value
            continue
        count, sides = int(match.group(1) or 1), int(match.group(2))
        if not MIN_COUNT <= count <= MAX_COUNT:
            raise RuleError(
                "dice_count_out_of_range", term=text.strip(), count=count, low=MIN_COUNT, high=MAX_COUNT
            )
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise RuleError(
                "dice_sides_out_of_range", term=text.strip(), sides=sides, low=MIN_SIDES, high=MAX_SIDES
            )
        terms.append(DiceTerm(count, sides))
    if not terms:  # "2": a number is not a roll
        raise RuleError("dice_expression_syntax", expression=expression, term=expression.strip())
    return DiceExpression(tuple(terms), modifier)


# --- Requests and receipts --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollUnderRequest:
    action: str  # declared before the roll
    kind: Kind = "check"
    level: int | None = None  # check: the skill, or the attribute for an attribute check
    bonus: int = 0
    malus: int = 0
    advantage: bool = False
    disadvantage: bool = False
    task: Task = "normal"
    dice: str | None = None  # opposed
    threshold: int | None = None  # opposed
    cards: tuple[str, ...] = ()  # played before the roll

    def __post_init__(self) -> None:
        if not isinstance(self.action, str) or not self.action.strip():
            raise RuleError("action_required")
        if self.kind not in KINDS:
            raise RuleError("bad_choice", field="kind", value=self.kind, choices=list(KINDS))
        if self.task not in TASKS:
            raise RuleError("bad_choice", field="task", value=self.task, choices=list(TASKS))
        for name in ("advantage", "disadvantage"):
            if not isinstance(getattr(self, name), bool):
                raise RuleError("not_a_boolean", field=name, value=getattr(self, name))
        check_range("bonus", self.bonus, 0, MAX_LEVEL)
        check_range("malus", self.malus, 0, MAX_LEVEL)
        for index, card in enumerate(self.cards):
            if not isinstance(card, str) or not card.strip():
                raise RuleError("card_empty", index=index)
        if len(self.cards) > MAX_CARDS:
            raise RuleError("too_many_cards", given=len(self.cards), most=MAX_CARDS)
        if self.kind == "check":
            for name in ("dice", "threshold"):
                if getattr(self, name) is not None:
                    raise RuleError("field_not_for_kind", field=name, kind=self.kind)
            if self.level is None:  # the receipt reports its target, even with no dice
                raise RuleError("field_required", field="level", kind=self.kind)
            check_range("level", self.level, 0, MAX_LEVEL)
        else:
            # the game master's dice and threshold decide; the check's modifiers do not apply.
            if self.level is not None:
                raise RuleError("field_not_for_kind", field="level", kind=self.kind)
            for name in ("bonus", "malus", "advantage", "disadvantage"):
                if getattr(self, name):
                    raise RuleError("field_not_for_kind", field=name, kind=self.kind)
            if self.dice is None:
                raise RuleError("field_required", field="dice", kind=self.kind)
            parse_dice(self.dice)
            if self.threshold is None:  # the receipt reports its target, even with no dice
                raise RuleError("field_required", field="threshold", kind=self.kind)
            check_range("threshold", self.threshold, 0, None)

    @property
    def target(self) -> int:
        """R-1, R-4: the level this roll is checked against (the threshold for an opposed roll)."""
        if self.kind == "opposed":
            return present(self.threshold, "threshold")
        return present(self.level, "level") + self.bonus - self.malus  # for this roll only

    @property
    def keep(self) -> Literal["single", "lower", "higher"]:
        """R-3: advantage keeps the lower of 2d20, disadvantage the higher; both cancel (Reading)."""
        if self.advantage == self.disadvantage:
            return "single"
        return "lower" if self.advantage else "higher"

    @property
    def rolled(self) -> bool:
        return self.task == "normal"  # absurd and trivial tasks roll nothing


@dataclass(frozen=True, slots=True)
class CheckReceipt:
    kind: Literal["check"]
    action: str
    task: Task
    rolled: bool
    level: int
    bonus: int
    malus: int
    target: int
    advantage: bool
    disadvantage: bool
    keep: str  # single | lower | higher
    faces: Faces
    kept: int | None
    dropped: Faces
    outcome: Outcome
    success: bool
    cards: tuple[str, ...]
    time_spent: bool  # an absurd attempt spends its time and fails
    system: str = "rollunder"


@dataclass(frozen=True, slots=True)
class OpposedReceipt:
    kind: Literal["opposed"]
    action: str
    task: Task
    rolled: bool
    dice: str  # normalised expression
    sizes: tuple[int, ...]
    threshold: int
    target: int
    faces: Faces
    total: int | None
    all_ones: bool
    all_max: bool
    outcome: Outcome
    success: bool
    cards: tuple[str, ...]
    time_spent: bool
    system: str = "rollunder"


RollUnderReceipt = CheckReceipt | OpposedReceipt


def dice_needed(request: RollUnderRequest) -> tuple[int, ...]:
    """The size of every die the request rolls, in order."""
    if not request.rolled:
        return ()
    if request.kind == "opposed":
        return parse_dice(present(request.dice, "dice")).sizes
    return (SIDES,) * (1 if request.keep == "single" else 2)


def needed(request: RollUnderRequest, faces: Faces) -> tuple[int, ...]:
    return dice_needed(request)[len(faces) :]


def resolve(request: RollUnderRequest, faces: Faces) -> RollUnderReceipt:
    faces = tuple(faces)
    if not request.rolled:
        check_count("faces", faces, 0)  # recorded with no faces
        outcome: Outcome = "failure" if request.task == "absurd" else "success"
        return _receipt(request, faces, outcome, kept=None, dropped=(), total=None)
    if request.kind == "opposed":
        return _resolve_opposed(request, faces)
    faces = check_faces(faces, SIDES)
    check_count("faces", faces, len(dice_needed(request)))
    if request.keep == "lower":
        kept = min(faces)  # advantage keeps the better (lower) die
    elif request.keep == "higher":
        kept = max(faces)  # disadvantage keeps the worse (higher) die
    else:
        kept = faces[0]
    dropped = list(faces)
    dropped.remove(kept)
    if kept == CRITICAL_SUCCESS_FACE:
        outcome = "critical_success"  # R-2, whatever the level
    elif kept == CRITICAL_FAILURE_FACE:
        outcome = "critical_failure"  # R-2, whatever the level
    elif kept <= request.target:
        outcome = "success"  # at or under the effective level
    else:
        outcome = "failure"
    return _receipt(request, faces, outcome, kept=kept, dropped=tuple(dropped), total=None)


def _resolve_opposed(request: RollUnderRequest, faces: Faces) -> RollUnderReceipt:
    sizes = dice_needed(request)
    check_count("faces", faces, len(sizes))
    for index, (face, sides) in enumerate(
        zip(faces, sizes, strict=True)
    ):  # each face within its own die
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise RuleError("face_out_of_range", field="faces", index=index, face=face, sides=sides)
    total = sum(faces) + parse_dice(present(request.dice, "dice")).modifier  # "2d6+2" adds 2 to the dice
    if all(face == 1 for face in faces):
        outcome: Outcome = "critical_success"  # R-7 Reading: every die shows 1
    elif all(face == sides for face, sides in zip(faces, sizes, strict=True)):
        outcome = "critical_failure"  # R-7 Reading: every die shows its highest face
    elif total <= request.target:
        outcome = "success"  # total at or under the threshold
    else:
        outcome = "failure"
    return _receipt(request, faces, outcome, kept=None, dropped=(), total=total)


class _ReceiptFields(TypedDict):
    """What a check and an opposed roll both put on their receipt."""

    action: str
    task: Task
    rolled: bool
    target: int
    faces: Faces
    outcome: Outcome
    success: bool
    cards: tuple[str, ...]
    time_spent: bool


def _receipt(
    request: RollUnderRequest,
    faces: Faces,
    outcome: Outcome,
    *,
    kept: int | None,
    dropped: Faces,
    total: int | None,
) -> RollUnderReceipt:
    success = outcome in ("critical_success", "success")
    common = _ReceiptFields(
        action=request.action,
        task=request.task,
        rolled=request.rolled,
        target=request.target,
        faces=faces,
        outcome=outcome,
        success=success,
        cards=tuple(request.cards),  # played before the roll, kept on its receipt
        time_spent=request.task == "absurd",
    )
    if request.kind == "opposed":
        expression = parse_dice(present(request.dice, "dice"))
        return OpposedReceipt(
            kind="opposed",
            dice=str(expression),
            sizes=expression.sizes,
            threshold=request.target,
            total=total,
            all_ones=bool(faces) and all(face == 1 for face in faces),
            all_max=bool(faces)
            and all(face == sides for face, sides in zip(faces, expression.sizes, strict=True)),
            **common,
        )
    return CheckReceipt(
        kind="check",
        level=present(request.level, "level"),
        bonus=request.bonus,
        malus=request.malus,
        advantage=request.advantage,
        disadvantage=request.disadvantage,
        keep=request.keep,
        kept=kept,
        dropped=dropped,
        **common,
    )


def play_card_after(receipt: RollUnderReceipt | Mapping[str, Any], card: str) -> RollUnderReceipt:
    """R-6: a card or ability is played before the roll; once the roll is made (``receipt``, as resolved
    or as stored) it is refused."""
    raise RuleError("card_after_roll", card=card)
