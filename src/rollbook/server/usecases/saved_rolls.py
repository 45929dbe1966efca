"""Saved rolls: a member names a roll of a character ("Shoot with the Glock",
"Rouse") and repeats it in one tap. A saved roll is the member's own (listed, repeated and deleted by
them only) and holds the action as they sent it: it is validated like any roll when it is saved (the
same planner and refusals as a roll or an ask, ``authority.plan_roll`` then ``play.preview``, no die
drawn), and each repeat is an ordinary roll (``rolls.roll``): an edge in it is asked again (A-1), a
sheet changed since refuses what it no longer allows.
"""

from __future__ import annotations

import copy

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from rollbook import play
from rollbook.dice import DiceSource
from rollbook.rules.base import RuleError
from rollbook.server.access import STORYTELLER, find_character, lock_chronicle, may_act_for, may_open, present
from rollbook.server.models import Caller, Character, SavedRoll
from rollbook.server.problems import ProblemError
from rollbook.server.tx import now
from rollbook.server.usecases import authority, rolls
from rollbook.server.usecases.checks import check_name

NAME_MAX = 80
MOST = 50  # saved rolls per member and chronicle


def _view(row: SavedRoll, character_name: str) -> dict:
    return {
        "id": row.id,
        "character": row.character_id,
        "character_name": character_name,
        "name": row.name,
        "action": row.action,
        "hidden": bool(row.hidden),
        "created_at": row.created_at,
    }


def list_saved(session: Session, member: Caller, character_id: int | None = None) -> list[dict]:
    """The member's saved rolls (of one character, or all), of characters still at the table and theirs
    to roll, by character then name."""
    query = (
        select(SavedRoll, Character)
        .join(Character, Character.id == SavedRoll.character_id)
        .where(SavedRoll.member_id == member.id, SavedRoll.chronicle_id == member.chronicle_id, present())
    )
    if character_id is not None:
        query = query.where(SavedRoll.character_id == character_id)
    out = []
    for row, character in session.execute(query.order_by(Character.name, SavedRoll.name, SavedRoll.id)):
        if may_open(member, character):  # a character given away drops out of its old owner's list
            out.append(_view(row, character.name))
    return out


def save(
    session: Session, member: Caller, character_id: int, name: object, action: object, *, hidden: bool = False
) -> dict:
    """Save a named roll of a character the member may roll for. Every refusal the roll would meet,
    asked or not, is made now (as an ask's: ``play.preview`` under the Storyteller's authority)."""
    if isinstance(character_id, bool) or not isinstance(character_id, int):
        raise ProblemError(422, "not_an_integer", field="character", value=str(character_id))
    check_name(name)
    assert isinstance(name, str)  # check_name refused anything else
    name = name.strip()
    if len(name) > NAME_MAX:
        raise RuleError("too_long", field="name", most=NAME_MAX)
    chronicle = lock_chronicle(session, member.chronicle_id)  # the count below is the chronicle's, in order
    character = find_character(session, member, character_id)
    may_act_for(member, character)
    if callable(action):  # a page's roll form, read as the chronicle's game's (``checks.Resolve``)
        action = action(chronicle, character)
    plan = authority.plan_roll(session, chronicle, character, member, action, hidden=bool(hidden))
    play.preview(
        chronicle.system,
        copy.deepcopy(character.sheet),
        plan.action,
        mode=chronicle.mode,
        role=STORYTELLER,
        table_rules=chronicle.table_rules or (),
    )
    held = session.execute(
        select(func.count())
        .select_from(SavedRoll)
        .where(SavedRoll.member_id == member.id, SavedRoll.chronicle_id == member.chronicle_id)
    ).scalar_one()
    if held >= MOST:
        raise ProblemError(409, "too_many_saved_rolls", most=MOST)
    taken = session.scalar(
        select(SavedRoll.id).where(
            SavedRoll.member_id == member.id, SavedRoll.character_id == character.id, SavedRoll.name == name
        )
    )
    if taken is not None:
        raise ProblemError(409, "saved_roll_exists", name=name)
    row = SavedRoll(
        chronicle_id=chronicle.id,
        member_id=member.id,
        character_id=character.id,
        name=name,
        action=copy.deepcopy(action),
        hidden=1 if hidden else 0,
        created_at=now(),
    )
    session.add(row)
    try:
        session.flush()
    except IntegrityError:  # the same name saved meanwhile by the same member (another tab)
        raise ProblemError(409, "saved_roll_exists", name=name) from None
    return _view(row, character.name)


def _own(session: Session, member: Caller, saved_id: int) -> SavedRoll:
    row = session.scalars(
        select(SavedRoll).where(
            SavedRoll.id == saved_id,
            SavedRoll.member_id == member.id,
            SavedRoll.chronicle_id == member.chronicle_id,
        )
    ).first()
    if row is None:
        raise ProblemError(404, "saved_roll_not_found", saved=saved_id)
    return row


def delete_saved(session: Session, member: Caller, saved_id: int) -> dict:
    """Forget one of the member's saved rolls."""
    row = _own(session, member, saved_id)
    session.execute(delete(SavedRoll).where(SavedRoll.id == row.id))
    return {"deleted": saved_id}


def repeat(session: Session, member: Caller, saved_id: int, *, source: DiceSource | None = None) -> dict:
    """Roll a saved roll again: an ordinary roll (``rolls.roll``): a player's edges make an ask."""
    row = _own(session, member, saved_id)
    return rolls.roll(
        session,
        member,
        row.character_id,
        copy.deepcopy(row.action),
        hidden=bool(row.hidden),
        ask=member.role != STORYTELLER,
        source=source,
    )
