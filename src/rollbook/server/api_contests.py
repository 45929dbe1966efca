"""The JSON API of the table rules (SPEC TR-1, A-5) and of contested and extended rolls (TR-3, TR-4).
Thin, like ``server/api.py`` (whose helpers it shares): parse, authenticate, call a use case in a
transaction, answer."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.rules.table import TABLE_RULES
from rollbook.server.api import ERRORS, Auth, Db, Id, IdempotencyKey, Strict, _signed_write
from rollbook.server.usecases import chronicles

router = APIRouter(prefix="/api")

TableRuleId = Annotated[str, Field(max_length=64, description="A table rule's id (SPEC TR-2).",
                                   json_schema_extra={"enum": sorted(TABLE_RULES)})]


class TableRulesRequest(Strict):
    table_rules: Annotated[list[TableRuleId], Field(max_length=len(TABLE_RULES))] = Field(
        description="Every table rule in force from now on (TR-1), e.g. [\"v20.ones_do_not_cancel\"]; [] for none.")


@router.put("/chronicles/{chronicle_id}/table-rules", response_model=dict, tags=["chronicles"], responses=ERRORS)
async def set_table_rules(request: Request, db: Db, auth: Auth, chronicle_id: Id, body: TableRulesRequest,
                          idempotency_key: IdempotencyKey = None) -> JSONResponse:
    """Storyteller: the table rules in force (TR-1). A change is a ``settings`` entry of the log (A-5);
    every later receipt records the set and is resolved under it."""
    return await _signed_write(request, db, auth, chronicle_id, idempotency_key,
                               body=body.model_dump(mode="json"),
                               work=lambda s, member: (200, chronicles.update_chronicle(
                                   s, member, table_rules=body.table_rules)))
