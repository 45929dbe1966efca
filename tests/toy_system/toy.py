"""A fifth, toy game system defined outside the package: a plain d6 pool, each 5 or 6 a success.

It proves the registry's extension point (``rollbook.rules.register``, ``rollbook.play.systems.register``):
the system is one module registered from here, with no branch on its id in ``src/``. Its rules, its
sheet, its two actions (a pool of one trait plus the Storyteller's extra dice; a push, the same pool
where a 4 succeeds too, declared once here: ``PushAction`` and its lines below) and one change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from rollbook import dice
from rollbook.i18n import N_
from rollbook.play.common import (
    Drawn,
    Effects,
    Identity,
    JsonObject,
    Mismatch,
    Mode,
    Model,
    Performed,
    Prepared,
    Recorded,
    Resource,
    TraitName,
    by_kind,
    change_receipt,
    drawn_once,
    kind_of,
    parse_kind,
    performed,
    quick_number,
    rating,
    replay,
    roll_receipt,
    verified,
)
from rollbook.rules import get_system
from rollbook.rules.base import Faces, RuleError, check_faces
from tests.toy_system import words

SYSTEM = "toy"
SIDES = 6
SUCCESS_AT = 5  # a 5 or a 6 is a success
PUSH_AT = 4  # Toy-2: a push counts a 4, a 5 or a 6
MAX_POOL = 30


# --- the rules --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToyRequest:
    pool: int


@dataclass(frozen=True)
class ToyReceipt:
    pool: int
    faces: tuple[int, ...]
    successes: int
    outcome: str  # "success" or "failure"
    system: str = SYSTEM


@dataclass(frozen=True)
class PushRequest:
    """Toy-2, the second action's request: a pool pushed, each 4, 5 or 6 a success."""

    pool: int


@dataclass(frozen=True)
class PushReceipt:
    pool: int
    faces: tuple[int, ...]
    successes: int
    outcome: str  # "success" or "failure"
    success_at: int = PUSH_AT  # the face that counts from, which its view marks
    system: str = SYSTEM


def success_at(request: ToyRequest | PushRequest) -> int:
    """The face a request's successes count from: Toy-1's 5, or a push's 4 (Toy-2)."""
    return PUSH_AT if isinstance(request, PushRequest) else SUCCESS_AT


def needed(request: ToyRequest | PushRequest, faces: Faces, /) -> tuple[int, ...]:
    return (SIDES,) * max(0, request.pool - len(faces))


def resolve(request: ToyRequest | PushRequest, faces: Faces, /) -> ToyReceipt | PushReceipt:
    if not 1 <= request.pool <= MAX_POOL:
        raise RuleError("out_of_range", field="pool", value=request.pool, low=1, high=MAX_POOL)
    check_faces(faces, SIDES)
    if len(faces) != request.pool:
        raise RuleError("face_count", expected=request.pool, given=len(faces))
    successes = sum(1 for face in faces if face >= success_at(request))
    outcome = "success" if successes else "failure"
    if isinstance(request, PushRequest):
        return PushReceipt(request.pool, tuple(faces), successes, outcome)
    return ToyReceipt(request.pool, tuple(faces), successes, outcome)


class _Contests:
    """The toy's part of contested and extended rolls (SPEC TR-3, TR-4; ``rules.contests``): a side is a
    pool of its trait, its successes all it says; nothing ends an extended action early."""

    ABILITY_FIELD = "trait"
    SIDE_DIFFICULTY = False

    @staticmethod
    def check_side(kind: object, has_difficulty: bool, field: str) -> None:
        if has_difficulty:
            raise RuleError("field_not_for_kind", field=field, kind=kind)

    @staticmethod
    def side(result: Mapping[str, Any], successes: int) -> dict[str, Any]:
        return {"successes": successes}

    @staticmethod
    def ends(part: Mapping[str, Any]) -> tuple[str, bool] | None:
        return None

    @staticmethod
    def complications(part: Mapping[str, Any]) -> int:
        return 0


class _Rules:
    needed = staticmethod(needed)
    resolve = staticmethod(resolve)
    CONTESTS = _Contests()  # declared here, read by ``rules.contests`` from the rules registry


RULES = _Rules()


# --- the play module --------------------------------------------------------------------------


class Sheet(Identity):
    system: Literal["toy"] = "toy"
    traits: dict[TraitName, int] = Field(default_factory=dict)  # 1-10 dice each


class PoolAction(Model):
    kind: Literal["pool"]
    trait: TraitName
    # extra dice: the Storyteller's (an edge, A-1); its label on every face (the web form's, Discord's
    # option) is its title, a msgid of the shipped catalogues, so it speaks each language they hold
    extra: int = Field(0, ge=0, le=10, title=N_("Dice modifier"))


class PushAction(Model):
    """Toy-2: the same pool pushed (a 4 succeeds too); the same edge, the Storyteller's extra dice."""

    kind: Literal["push"]
    trait: TraitName
    extra: int = Field(0, ge=0, le=10, title=N_("Dice modifier"))


class GiveTrait(Model):
    kind: Literal["give_trait"]
    trait: TraitName
    dice: int = rating(1, 10)


ACTIONS = by_kind(PoolAction, PushAction)
FOLLOWUPS: dict[str, type[Model]] = {}
CHANGES = by_kind(GiveTrait)
CHAINS: dict[str, tuple[str, ...]] = {}
READS_TABLE_RULES = False  # ``prepare`` takes no table rules
READS_COMPULSION = False  # nor a compulsion
DECLARED_FIELD = None  # a pool names its trait, no action declared in words
STORYTELLER_ACTIONS: frozenset[str] = frozenset()
STORYTELLER_CHANGES = frozenset({"give_trait"})
PLAYER_FIELDS = frozenset({"name", "player", "concept"})
TABLES: dict[str, Any] = {"success_at": SUCCESS_AT}
ROLL_RECORDS = {"pool": Recorded(ToyRequest, ToyReceipt), "push": Recorded(PushRequest, PushReceipt)}
REQUESTS = {"pool": ToyRequest, "push": PushRequest}  # each kind's rules request
CHANGE_RECORDS: dict[str, Recorded] = {}
# the action's fields, the player's and the Storyteller's (read by ``play.authority``).
ACTION_PLAYER_FIELDS = {"pool": frozenset({"kind", "trait"}), "push": frozenset({"kind", "trait"})}
EDGE_FIELDS = {"pool": frozenset({"extra"}), "push": frozenset({"extra"})}
TRAIT_FIELDS = (("traits", "trait"),)  # a sheet's section and the action field its trait fills
STORYTELLER_SHEET_FIELDS: frozenset[str] = frozenset()  # nothing on a sheet is the Storyteller's alone
PLAYER_ADDS: frozenset[str] = frozenset()  # a player adds to nothing
STORYTELLER_VALUES: dict[str, list[str]] = {}  # no value of an action field is the Storyteller's alone
TURNS = None  # no per-turn limit
EXAMPLES: dict[str, JsonObject] = {  # kind -> a worked example (``play.catalogue``)
    "pool": {"kind": "pool", "trait": "might"},
    "push": {"kind": "push", "trait": "might"},
}
EXAMPLE_SHEET: JsonObject = {"name": "Toby", "traits": {"might": 3}}  # who can make the examples


def check_mode(sheet: Sheet, mode: str) -> None:
    """No check a chronicle's mode makes of a toy sheet."""


def played_cards(sheet: JsonObject, names: Any) -> list[JsonObject] | None:
    """No card is played with a roll (R-6 is roll-under's): None."""
    return None


def step_takes(kind: str, receipt: JsonObject, result: Mapping[str, Any]) -> JsonObject | None:
    """No combat chain: a step takes nothing."""
    return {}


WORDS = words  # its words beside a roll (``rollbook.present.words``): a pool counted in dice


class _Quick:
    # its pool, and which of its actions rolls it (a pool's by default; the CLI's ``--kind``)
    FIELDS = ("pool", "kind")
    KIND = "pool"
    REQUEST = ToyRequest

    @staticmethod
    def request(mode: str, values: Mapping[str, Any]) -> ToyRequest | PushRequest:
        kind = kind_of(REQUESTS, {"kind": values.get("kind") or "pool"}, "quick")
        return REQUESTS[kind](pool=quick_number(values, "pool", 3))


QUICK = _Quick()


def prepare(
    sheet: Sheet,
    action: PoolAction | PushAction,
    *,
    mode: Mode,
    role: str,
    follows: JsonObject | None = None,
) -> Prepared:
    if action.trait not in sheet.traits:
        raise RuleError("unknown_trait", field="trait", trait=action.trait)
    rated = sheet.traits[action.trait]
    request = REQUESTS[action.kind](pool=rated + action.extra)
    pool: JsonObject = {
        "parts": [{"trait": action.trait, "rating": rated, "group": "traits"}],
        "modifiers": [{"source": "extra", "value": action.extra}] if action.extra else [],
        "wound_penalty": 0,
        "total": request.pool,
    }
    return Prepared(request, pool, get_system(SYSTEM), {})


def resources(sheet: JsonObject) -> tuple[Resource, ...]:
    """No track beside the traits (Discord's ``/sheet`` shows those)."""
    return ()


def apply(
    sheet: Sheet,
    action: PoolAction | PushAction,
    prepared: Prepared,
    faces: Faces,
    result: ToyReceipt | PushReceipt,
    *,
    source: dice.DiceSource,
) -> Performed:
    effects = Effects()
    receipt = roll_receipt(
        SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, effects
    )
    return performed(sheet.model_copy(deep=True), receipt, effects, loaded=sheet)


def followup(
    sheet: Sheet, receipt: JsonObject, action: JsonObject, *, mode: Mode, role: str, source: dice.DiceSource
) -> Performed:
    parse_kind(FOLLOWUPS, action, "action")  # the toy has no follow-up: always refused
    raise AssertionError("unreachable")  # pragma: no cover


def adjust(sheet: Sheet, change: GiveTrait, *, role: str) -> Performed:
    effects = Effects()
    new = sheet.model_copy(deep=True)
    new.traits = {**sheet.traits, change.trait: change.dice}
    effects.change(f"traits.{change.trait}", sheet.traits.get(change.trait), change.dice)
    return performed(new, change_receipt(SYSTEM, change, effects), effects, loaded=sheet)


def request_type(receipt: JsonObject) -> type:
    """The rules request a stored roll was made with, by its kind (a pool's, or a push's)."""
    return REQUESTS.get(str(receipt.get("kind")), ToyRequest)


def verify(receipt: JsonObject) -> list[str]:
    request, result = replay(request_type(receipt), resolve, receipt)
    return verified(receipt, result, request.pool)


# What ``rollbook log verify`` checks beyond the arithmetic: the request takes no action field
# unchanged (its pool is the trait's plus the extra dice), no effect, no sheet value read.
REQUEST_FROM_ACTION: tuple[str, ...] = ()


def request_problems(receipt: JsonObject) -> list[Mismatch]:
    return []


def effect_problems(
    entry_kind: str, receipt: JsonObject, effects: Mapping[str, list[JsonObject]]
) -> list[Mismatch]:
    return []


def sheet_reads(request: JsonObject) -> tuple[tuple[str, Any], ...]:
    return ()


def drawn(receipt: JsonObject) -> tuple[Drawn, ...]:
    """The dice it drew: its one pool's (``fair.replay``)."""
    return drawn_once(RULES, request_type(receipt), receipt)


# --- the odds ---------------------------------------------------------------------------------


def odds(request: ToyRequest | PushRequest) -> dict[str, Any]:
    """The odds contract's dict: the chance of at least one success, 1 - (4/6)^pool exactly (a push's:
    1 - (3/6)^pool), at the face the resolver counts from."""
    from fractions import Fraction

    failure = Fraction(success_at(request) - 1, SIDES) ** request.pool
    outcomes = {"success": 1 - failure, "failure": failure}
    return {
        "system": SYSTEM,
        "request": {"pool": request.pool},
        "outcomes": {code: f"{p.numerator}/{p.denominator}" for code, p in outcomes.items()},
        "floats": {code: float(p) for code, p in outcomes.items()},
    }


def contest_shape(request: ToyRequest | PushRequest) -> Any:
    """The pool as a contest or an extended action sees it (``odds.contests``): its successes, each die
    a success with chance 1/3; nothing ends an extended action."""
    from fractions import Fraction
    from math import comb

    from rollbook.odds._exact import RollShape

    p = Fraction(SIDES - success_at(request) + 1, SIDES)
    successes = {
        k: comb(request.pool, k) * p**k * (1 - p) ** (request.pool - k) for k in range(request.pool + 1)
    }
    return RollShape(Fraction(0), successes, dict(successes))


CONTEST_SHAPE = contest_shape  # declared in the play module, read by ``odds.contests``
CONTEST_SIDE_ODDS = None  # a side says nothing beyond its successes (TR-3)
EXCHANGE = None  # no combat chain (``play.systems.OutsideParts``)
EXCHANGE_ODDS = None
SOLO = None  # no scenario is played in it (``solo.system``)
COMPULSIONS = POWERS = PRESENT = None  # no compulsions, no powers, nothing at the table beyond its rolls
LEDGER = None  # no entries of its own for ``rollbook log verify`` to follow
INTEROP = None  # no other tool's file holds its characters (``interop.formats``)


# --- the receipt's view (the web's card, Discord's embed, the CLI) ------------------------------


def view(receipt: JsonObject, lang: str) -> Any:
    """The rules receipt as the faces show it, in the reader's language (the shipped msgids): each die
    (a 5 or 6 marked a success), the outcome, the successes counted."""
    from rollbook.i18n import translate
    from rollbook.render.base import DieView, Line, ReceiptView

    result = receipt
    at = receipt.get("success_at", SUCCESS_AT)  # a push's receipt says it counts from 4 (Toy-2)
    dice = tuple(DieView(face, SIDES, marks=("success",) if face >= at else ()) for face in receipt["faces"])
    return ReceiptView(
        system=SYSTEM,
        system_name="Toy",
        title=f"{translate('Pool', lang)} {result['pool']}",
        outcome=result["outcome"],
        outcome_label=translate(words.OUTCOMES[result["outcome"]], lang),
        tone="good" if result["successes"] else "bad",
        dice=dice,
        lines=(Line(translate("Successes", lang), str(result["successes"])),),
    )


# --- the resolve contract's line (``rollbook resolve``) ------------------------------------------


class _Contract:
    from rollbook.contract.base import LineBase

    class Line(LineBase):
        system: Literal["toy"]
        pool: int
        faces: list[int] = []

    @staticmethod
    def resolve(line: Any) -> dict[str, Any]:
        from rollbook.rules.base import to_plain_object

        return to_plain_object(resolve(ToyRequest(pool=line.pool), tuple(line.faces)))


CONTRACT = _Contract()
