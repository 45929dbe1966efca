"""The JSON API of the odds: the exact odds of a whole exchange between two characters of the
chronicle, before the attack is rolled (``usecases.odds``), and of one roll (``usecases.rolls.roll_odds``:
the request the roll would make). Thin, like ``app/api.py`` (whose
helpers it shares): one read transaction, nothing written.

``GET /api/chronicles/{c}/odds/exchange?attacker=1&target=2&weapon=knife&dodge=true`` (the attack named
by query parameters) or ``POST`` the same as JSON with the attack's whole ``action``;
``POST /api/chronicles/{c}/characters/{id}/odds`` with a roll's ``action``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import Field

from rollbook.app.api import ERRORS, Auth, Db, Id, _signed_read
from rollbook.app.api_models import Strict
from rollbook.app.openapi import ActionJSON, operation_id
from rollbook.server.usecases import odds, rolls

router = APIRouter(prefix="/api", generate_unique_id_function=operation_id)

Label = Annotated[str, Field(min_length=1, max_length=200)]


class ExchangeOddsRequest(Strict):
    attacker: Annotated[int, Field(ge=1, le=2**31 - 1, description="The attacking character.")]
    target: Annotated[int, Field(ge=1, le=2**31 - 1, description="The defending character.")]
    action: dict[str, Any] | None = Field(
        None,
        description="The attack roll's action, as a roll takes it (V20: "
        "a test; Tiers: a skill roll). Default: from the weapon.",
    )
    weapon: Label | None = Field(
        None,
        description="V20: the attacker's weapon for the damage roll (none: a "
        "punch); Tiers: the weapon of the shot.",
    )
    aimed_at_head: bool = Field(False, description="V20: a bullet aimed at the head (lethal to a vampire).")
    dodge: bool = Field(False, description="The defender dodges (V20: Dexterity + Athletics; Tiers: T-4).")
    location: Label | None = Field(None, description="Tiers: the body location hit (default torso).")


def _read(db, auth, chronicle_id: int, body: ExchangeOddsRequest) -> JSONResponse:
    fields = body.model_dump()
    return _signed_read(
        db, auth, chronicle_id, lambda session, member: odds.exchange_odds(session, member, **fields)
    )


@router.get("/chronicles/{chronicle_id}/odds/exchange", response_model=dict, tags=["odds"], responses=ERRORS)
def exchange_odds(
    db: Db,
    auth: Auth,
    chronicle_id: Id,
    attacker: Annotated[int, Query(ge=1, le=2**31 - 1)],
    target: Annotated[int, Query(ge=1, le=2**31 - 1)],
    weapon: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    aimed_at_head: bool = False,
    dodge: bool = False,
    location: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    attribute: Annotated[str | None, Query(max_length=64)] = None,
    ability: Annotated[str | None, Query(max_length=64)] = None,
    skill: Annotated[str | None, Query(max_length=64)] = None,
    difficulty: Annotated[int | None, Query(ge=2, le=10)] = None,
    bullets: Annotated[int | None, Query(ge=1, le=1000)] = None,
    willpower: bool = False,
) -> JSONResponse:
    """The exact odds of an exchange (V20-16, V20-17; T-3 … T-5) built from both sheets: the outcomes
    of the attack (the odds contract: ``p/q`` summing to 1), the levels marked, the wound level after
    it. The attack is named by ``attribute`` and ``ability`` (V20), or ``skill`` and ``bullets``
    (Tiers); none: from the weapon. The Storyteller (or a player who may open the defender's sheet)
    also gets the defender's numbers; any other player only the probabilities of outcomes."""
    action = None
    if attribute or ability or skill or difficulty or bullets or willpower:
        if skill is not None:  # Tiers
            action = {
                "kind": "skill",
                "skill": skill,
                **({"weapon": weapon} if weapon else {}),
                **({"bullets": bullets} if bullets else {}),
            }
        else:
            action = {
                "kind": "test",
                "attribute": attribute or "dexterity",
                **({"ability": ability} if ability else {}),
                **({"difficulty": difficulty} if difficulty else {}),
                **({"willpower": True} if willpower else {}),
            }
    body = ExchangeOddsRequest(
        attacker=attacker,
        target=target,
        action=action,
        weapon=weapon,
        aimed_at_head=aimed_at_head,
        dodge=dodge,
        location=location,
    )
    return _read(db, auth, chronicle_id, body)


@router.post("/chronicles/{chronicle_id}/odds/exchange", response_model=dict, tags=["odds"], responses=ERRORS)
def exchange_odds_for(db: Db, auth: Auth, chronicle_id: Id, body: ExchangeOddsRequest) -> JSONResponse:
    """The same, the attack's whole ``action`` in a JSON body (nothing is written: any retry is safe)."""
    return _read(db, auth, chronicle_id, body)


class RollOddsRequest(Strict):
    action: ActionJSON = Field(description="The roll, as ``POST …/rolls`` takes it (named by traits).")
    hidden: bool = Field(False, description="As the roll would ask (A-1: the Storyteller's call).")


@router.post(
    "/chronicles/{chronicle_id}/characters/{character_id}/odds",
    response_model=dict,
    tags=["odds"],
    responses=ERRORS,
)
def roll_odds(db: Db, auth: Auth, chronicle_id: Id, character_id: Id, body: RollOddsRequest) -> JSONResponse:
    """The exact odds of the roll ``POST …/rolls`` would make of this action (A-1: the standing
    difficulty and grants; TR-1: the table rules; the wound penalties and the compulsion in force):
    ``odds`` (the odds contract, ``p/q``; null for a roll without odds, a V20 soak), ``asked`` (the
    edges it would ask for: the odds are then those of the roll as asked), ``action``, ``request``
    and ``pool``. Nothing is written."""
    return _signed_read(
        db,
        auth,
        chronicle_id,
        lambda session, member: rolls.roll_odds(
            session, member, character_id, body.action, hidden=body.hidden
        ),
    )
