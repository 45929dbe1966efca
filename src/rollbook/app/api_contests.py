"""The JSON API of the table rules (SPEC TR-1, A-5) and of contested and extended rolls (TR-3, TR-4).
Thin, like ``app/api.py`` (whose helpers it shares): parse, authenticate, call a use case in a
transaction, answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import ERRORS, Auth, Db, Id, IdempotencyKey, _signed_read, _signed_write
from rollbook.app.api_models import Strict
from rollbook.app.openapi import ActionJSON, operation_id
from rollbook.rules.table import TABLE_RULES
from rollbook.server.deps import dice_source
from rollbook.server.usecases import chronicles, contests

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)


def _declared(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    idempotency_key: IdempotencyKey,
    body: Strict,
    declare: Callable[[Any, Any, dict], Any],
) -> JSONResponse:
    """A Storyteller's declaration (a contest, an extended action): a signed write answered 201 with
    what ``declare(session, member, data)`` returns, ``data`` the body as JSON."""
    data = body.model_dump(mode="json")
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=data,
        work=lambda s, member: (201, declare(s, member, data)),
    )


def _declared_ids(schema: dict[str, Any]) -> None:
    """TR-2: the enum of every declared table rule (``rules.table``), read when the schema is built."""
    schema["enum"] = sorted(TABLE_RULES)


TableRuleId = Annotated[
    str,
    Field(max_length=64, description="A table rule's id (SPEC TR-2).", json_schema_extra=_declared_ids),
]


class TableRulesRequest(Strict):
    # TR-1: ``rules.table.check_table_rules`` refuses an id not declared for the chronicle's system
    table_rules: Annotated[list[TableRuleId], Field(max_length=len(TABLE_RULES))] = Field(
        description="Every table rule in force from now on (TR-1), each a declared id (the enum); [] for none."
    )


@router.put(
    "/chronicles/{chronicle_id}/table-rules", response_model=dict, tags=["chronicles"], responses=ERRORS
)
def set_table_rules(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: TableRulesRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: the table rules in force (TR-1). A change is a ``settings`` entry of the log (A-5);
    every later receipt records the set and is resolved under it."""
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (200, chronicles.update_chronicle(s, member, table_rules=body.table_rules)),
    )


# --- TR-3: contests -------------------------------------------------------------------------------

Character = Annotated[int, Field(ge=1, le=2**31 - 1, description="A character of the chronicle.")]


class ContestSide(Strict):
    character: Character
    action: ActionJSON = Field(description="The roll this side makes, named by traits (e.g. a V20 test).")


class ContestRequest(Strict):
    attacker: ContestSide
    defender: ContestSide


class SideRequest(Strict):
    side: Literal["attacker", "defender"] = Field(description="Which side rolls its part.")


class ExtendedRequest(Strict):
    character: Character
    action: ActionJSON = Field(description="The roll repeated until the target is reached, named by traits.")
    target: Annotated[int, Field(ge=1, le=100, description="Successes to gather (TR-4).")]
    max_rolls: Annotated[int, Field(ge=1, le=50)] | None = Field(None, description="The most rolls allowed.")


@router.post("/chronicles/{chronicle_id}/contests", status_code=201, tags=["contests"], responses=ERRORS)
def declare_contest(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: ContestRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: declare a contest (TR-3): who against whom, which roll each side makes."""
    return _declared(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body,
        lambda s, member, data: contests.declare_contest(
            s, member, attacker=data["attacker"], defender=data["defender"]
        ),
    )


@router.get(
    "/chronicles/{chronicle_id}/contests/{contest_seq}",
    response_model=dict,
    tags=["contests"],
    responses=ERRORS,
)
def get_contest(db: Db, auth: Auth, chronicle_id: Id, contest_seq: Id) -> JSONResponse:
    """A contest as it stands: each side's roll, and the result once both have rolled."""
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: contests.get_contest(session, member, contest_seq)
    )


@router.post(
    "/chronicles/{chronicle_id}/contests/{contest_seq}/rolls",
    status_code=201,
    tags=["contests"],
    responses=ERRORS,
)
def roll_contest_side(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    contest_seq: Id,
    body: SideRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """One side rolls its declared part (whoever may act for that side's character); the second roll
    logs the contest's result (both sides, the winner, the margin)."""
    source = dice_source(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=body.model_dump(mode="json"),
        work=lambda s, member: (
            201,
            contests.roll_contest_side(s, member, contest_seq, body.side, source=source),
        ),
    )


# --- TR-4: extended actions --------------------------------------------------------------------------


@router.post("/chronicles/{chronicle_id}/extended", status_code=201, tags=["contests"], responses=ERRORS)
def declare_extended(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    body: ExtendedRequest,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Storyteller: declare an extended action (TR-4): the roll, the target, the most rolls."""
    return _declared(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body,
        lambda s, member, data: contests.declare_extended(
            s,
            member,
            character_id=data["character"],
            action=data["action"],
            target=data["target"],
            max_rolls=data["max_rolls"],
        ),
    )


@router.get(
    "/chronicles/{chronicle_id}/extended/{extended_seq}",
    response_model=dict,
    tags=["contests"],
    responses=ERRORS,
)
def get_extended(db: Db, auth: Auth, chronicle_id: Id, extended_seq: Id) -> JSONResponse:
    """An extended action as it stands: the running total, the rolls left, the status."""
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: contests.get_extended(session, member, extended_seq)
    )


@router.post(
    "/chronicles/{chronicle_id}/extended/{extended_seq}/rolls",
    status_code=201,
    tags=["contests"],
    responses=ERRORS,
)
def roll_extended(
    request: Request,
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    extended_seq: Id,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """The next roll of an extended action (whoever may act for its character)."""
    source = dice_source(request)
    return _signed_write(
        request,
        db,
        auth,
        chronicle_id,
        idempotency_key,
        body=None,
        work=lambda s, member: (201, contests.roll_extended(s, member, extended_seq, source=source)),
    )
