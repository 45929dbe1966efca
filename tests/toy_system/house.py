"""The toy pool with a table rule of its own (SPEC TR-1, TR-2), defined outside the package: a
chronicle of ``toy_house`` may switch on ``toy_house.fours_succeed`` ("a 4 is a success too",
replacing the toy's rule that a 5 or a 6 is). Only the declaration (``RULE``, registered by
``tests.toy_system.house_registered``) and the deviation (``success_at``, which the resolver and the
odds both read) are the rule's; the rest is the toy's own play module under another id, so the toy's
receipts stay as they were."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from rollbook import dice
from rollbook.play.common import (
    Drawn,
    Effects,
    Identity,
    JsonObject,
    Mode,
    Performed,
    Prepared,
    Recorded,
    TraitName,
    by_kind,
    drawn_once,
    performed,
    replay,
    roll_receipt,
    verified,
)
from rollbook.rules import get_system
from rollbook.rules.base import Faces, RuleError, check_faces
from rollbook.rules.table import TableRule, check_table_rules
from tests.toy_system import toy
from tests.toy_system.toy import (  # noqa: F401 - the play module's members, shared with the toy
    CHAINS,
    CHANGE_RECORDS,
    CHANGES,
    DECLARED_FIELD,
    FOLLOWUPS,
    PLAYER_ADDS,
    PLAYER_FIELDS,
    READS_COMPULSION,
    REQUEST_FROM_ACTION,
    STORYTELLER_ACTIONS,
    STORYTELLER_CHANGES,
    STORYTELLER_SHEET_FIELDS,
    STORYTELLER_VALUES,
    TABLES,
    TRAIT_FIELDS,
    TURNS,
    adjust,
    check_mode,
    effect_problems,
    followup,
    played_cards,
    request_problems,
    resources,
    sheet_reads,
    step_takes,
)

SYSTEM = "toy_house"
# its one action, the toy's pool (the toy's push, Toy-2, is not the house's): its fields, A-1
ACTIONS = by_kind(toy.PoolAction)
ACTION_PLAYER_FIELDS = {"pool": toy.ACTION_PLAYER_FIELDS["pool"]}
EDGE_FIELDS = {"pool": toy.EDGE_FIELDS["pool"]}
EXAMPLES = {"pool": toy.EXAMPLES["pool"]}
EXAMPLE_SHEET = toy.EXAMPLE_SHEET
FOURS_SUCCEED = "toy_house.fours_succeed"
# the declaration: its id, its system, the rule it replaces (the toy's "a 5 or a 6 is a success")
RULE = TableRule(FOURS_SUCCEED, SYSTEM, "Toy-1")  # the toy has no SPEC id: its own numbering
READS_TABLE_RULES = True  # TR-1: ``prepare`` takes the chronicle's set in force
# its parts of the other rooms (``play.systems.OutsideParts``): none, roll-under's words, no contests
WORDS = EXCHANGE = EXCHANGE_ODDS = CONTEST_SHAPE = CONTEST_SIDE_ODDS = SOLO = INTEROP = None
COMPULSIONS = POWERS = PRESENT = None  # no compulsions, no powers, nothing at the table beyond its rolls
LEDGER = None  # no entries of its own for ``rollbook log verify`` to follow


@dataclass(frozen=True)
class HouseRequest:
    pool: int
    table_rules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.table_rules:
            object.__setattr__(self, "table_rules", check_table_rules(SYSTEM, self.table_rules))


@dataclass(frozen=True)
class HouseReceipt:
    pool: int
    faces: tuple[int, ...]
    successes: int
    outcome: str
    table_rules: tuple[str, ...] = ()
    system: str = SYSTEM


def success_at(request: HouseRequest) -> int:
    """The deviation: Toy-1's 5, or 4 under ``toy_house.fours_succeed``."""
    return 4 if FOURS_SUCCEED in request.table_rules else toy.SUCCESS_AT


def needed(request: HouseRequest, faces: Faces, /) -> tuple[int, ...]:
    return (toy.SIDES,) * max(0, request.pool - len(faces))


def resolve(request: HouseRequest, faces: Faces, /) -> HouseReceipt:
    if not 1 <= request.pool <= toy.MAX_POOL:
        raise RuleError("out_of_range", field="pool", value=request.pool, low=1, high=toy.MAX_POOL)
    check_faces(faces, toy.SIDES)
    if len(faces) != request.pool:
        raise RuleError("face_count", expected=request.pool, given=len(faces))
    successes = sum(1 for face in faces if face >= success_at(request))
    outcome = "success" if successes else "failure"
    return HouseReceipt(request.pool, tuple(faces), successes, outcome, request.table_rules)


class _Rules:
    needed = staticmethod(needed)
    resolve = staticmethod(resolve)
    CONTESTS = None  # no contests of its own (``rollbook.rules.SystemRules``)


RULES = _Rules()


class Sheet(Identity):
    system: Literal["toy_house"] = "toy_house"
    traits: dict[TraitName, int] = Field(default_factory=dict)


ROLL_RECORDS = {"pool": Recorded(HouseRequest, HouseReceipt)}


class _Quick(type(toy.QUICK)):  # type: ignore[misc]
    FIELDS = ("pool",)  # its pool only: the house has the toy's pool, not its push
    REQUEST = HouseRequest

    @staticmethod
    def request(mode: str, values: Any) -> HouseRequest:
        return HouseRequest(pool=toy.QUICK.request(mode, values).pool)


QUICK = _Quick()


def prepare(
    sheet: Sheet,
    action: toy.PoolAction,
    *,
    mode: Mode,
    role: str,
    follows: JsonObject | None = None,
    table_rules: tuple[str, ...] = (),
) -> Prepared:
    if action.trait not in sheet.traits:
        raise RuleError("unknown_trait", field="trait", trait=action.trait)
    rated = sheet.traits[action.trait]
    request = HouseRequest(pool=rated + action.extra, table_rules=table_rules)
    pool: JsonObject = {
        "parts": [{"trait": action.trait, "rating": rated, "group": "traits"}],
        "modifiers": [{"source": "extra", "value": action.extra}] if action.extra else [],
        "wound_penalty": 0,
        "total": request.pool,
    }
    return Prepared(request, pool, get_system(SYSTEM), {})


def apply(
    sheet: Sheet,
    action: toy.PoolAction,
    prepared: Prepared,
    faces: Faces,
    result: HouseReceipt,
    *,
    source: dice.DiceSource,
) -> Performed:
    receipt = roll_receipt(
        SYSTEM, action.kind, action, prepared.pool, prepared.request, faces, result, Effects()
    )
    return performed(sheet.model_copy(deep=True), receipt, Effects(), loaded=sheet)


def verify(receipt: JsonObject) -> list[str]:
    request, result = replay(HouseRequest, resolve, receipt)
    return verified(receipt, result, request.pool)


def drawn(receipt: JsonObject) -> tuple[Drawn, ...]:
    """The dice it drew: its one pool's (``fair.replay``)."""
    return drawn_once(RULES, HouseRequest, receipt)


def odds(request: HouseRequest) -> dict[str, Any]:
    """The chance of at least one success, exactly, at the threshold the resolver counts with."""
    failure = Fraction(success_at(request) - 1, toy.SIDES) ** request.pool
    outcomes = {"success": 1 - failure, "failure": failure}
    return {
        "system": SYSTEM,
        "request": {"pool": request.pool, "table_rules": list(request.table_rules)},
        "outcomes": {code: f"{p.numerator}/{p.denominator}" for code, p in outcomes.items()},
        "floats": {code: float(p) for code, p in outcomes.items()},
    }


def view(receipt: JsonObject, lang: str) -> Any:
    """Each die (a success marked at the threshold counted), the outcome, and beside the successes
    the words of a table rule in force that replaces Toy-1 (``render.base.table_rule_note``)."""
    from rollbook.render.base import DieView, Line, ReceiptView, table_rule_note

    at = success_at(HouseRequest(receipt["pool"], tuple(receipt.get("table_rules") or ())))
    dice_views = tuple(
        DieView(face, toy.SIDES, marks=("success",) if face >= at else ()) for face in receipt["faces"]
    )
    return ReceiptView(
        system=SYSTEM,
        system_name="Toy house",
        title=f"Pool {receipt['pool']}",
        outcome=receipt["outcome"],
        outcome_label=f"{receipt['successes']} successes",
        tone="good" if receipt["successes"] else "bad",
        dice=dice_views,
        lines=(
            Line("successes", str(receipt["successes"]), table_rule_note(receipt, "Toy-1", lang) or "5 or 6"),
        ),
    )
