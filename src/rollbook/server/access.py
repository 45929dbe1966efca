"""Who reaches which rows: every look-up is scoped to the member's chronicle, and every change
locks the chronicle row, then the character row, always in that order (``SELECT ... FOR UPDATE``
on PostgreSQL; on SQLite the write transaction began with ``BEGIN IMMEDIATE`` and holds the lock);
``lock_character`` takes both in one statement.

Refusals are ``ProblemError``: 404 for what is not in the member's chronicle, 403 for what their
role may not do.
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from rollbook.server.models import Caller, Character, Chronicle, LogEntry, Member
from rollbook.server.problems import ProblemError

STORYTELLER = "storyteller"
PLAYER = "player"


REMOVED_KIND = "removal"


def present():
    """The condition "this character is still at the table": a character the Storyteller removed
    (``removed_at``, set in the transaction of its ``removal`` entry) keeps its row and its history
    in the log, but is no longer found, listed or rolled for."""
    return Character.removed_at.is_(None)


# The hot path's statements, built once (their SQL and cache key are computed once, not per request).
_LOCK_CHRONICLE = (
    select(Chronicle)
    .where(Chronicle.id == bindparam("chronicle"))
    .with_for_update()
    .execution_options(populate_existing=True)
)
# A character and its chronicle locked by one statement: ``FOR UPDATE OF chronicles, characters``
# takes the rows in that order (the one lock order), and on PostgreSQL both rows are re-read at their
# latest version once their locks are held, so the statement that locks them sees them current.
_LOCK_CHARACTER = (
    select(Chronicle, Character)
    .join(Character, Character.chronicle_id == Chronicle.id)
    .where(Chronicle.id == bindparam("chronicle"), Character.id == bindparam("character"), present())
    .with_for_update(of=[Chronicle.__table__, Character.__table__])
    .execution_options(populate_existing=True)
)


def lock_chronicle(session: Session, chronicle_id: int) -> Chronicle:
    """The chronicle row, locked for this transaction (PostgreSQL ``FOR UPDATE``)."""
    chronicle = session.scalars(_LOCK_CHRONICLE, {"chronicle": chronicle_id}).first()
    if chronicle is None:
        raise ProblemError(404, "chronicle_not_found", chronicle=chronicle_id)
    return chronicle


def lock_character(session: Session, member: Caller, character_id: int) -> tuple[Chronicle, Character]:
    """A character of the member's chronicle and that chronicle, both locked in one statement (the
    chronicle first: one lock order). A caller that locked the chronicle already (to read something
    before it knows the character) takes it again at no cost: the lock is its own."""
    found = session.execute(
        _LOCK_CHARACTER, {"character": character_id, "chronicle": member.chronicle_id}
    ).first()
    if found is None:
        raise missing_character(session, member.chronicle_id, character_id)
    return found.Chronicle, found.Character


def find_chronicle(session: Session, member: Caller, chronicle_id: int | None = None) -> Chronicle:
    """The member's chronicle (read, not locked); another chronicle's id is refused."""
    if chronicle_id is not None and chronicle_id != member.chronicle_id:
        raise ProblemError(403, "wrong_chronicle")
    chronicle = session.get(Chronicle, member.chronicle_id)
    if chronicle is None:  # pragma: no cover - a member always has its chronicle
        raise ProblemError(404, "chronicle_not_found", chronicle=member.chronicle_id)
    return chronicle


def find_character(session: Session, member: Caller, character_id: int) -> Character:
    """A character of the member's chronicle (read, not locked)."""
    character = session.scalars(
        select(Character).where(
            Character.id == character_id, Character.chronicle_id == member.chronicle_id, present()
        )
    ).first()
    if character is None:
        raise missing_character(session, member.chronicle_id, character_id)
    return character


def missing_character(session: Session, chronicle_id: int, character_id: int) -> ProblemError:
    """The 404 of a character that is not at the table: a removed one is named (its name is in the log
    already: its removal entry), any other id stays a number for the API and out of the message."""
    gone = session.scalars(
        select(Character.name).where(Character.id == character_id, Character.chronicle_id == chronicle_id)
    ).first()
    if gone is not None:
        return ProblemError(404, "character_removed", character=character_id, name=gone)
    return ProblemError(404, "character_not_found", character=character_id)


def find_entry(session: Session, member: Caller, seq: int) -> LogEntry:
    """A log entry of the member's chronicle (whether they may read it is ``views.entry_view``'s call)."""
    entry = session.scalars(
        select(LogEntry).where(LogEntry.chronicle_id == member.chronicle_id, LogEntry.seq == seq)
    ).first()
    if entry is None:
        raise ProblemError(404, "entry_not_found", seq=seq)
    return entry


def find_member(session: Session, chronicle_id: int, member_id: int) -> Member:
    found = session.scalars(
        select(Member).where(
            Member.id == member_id, Member.chronicle_id == chronicle_id, Member.removed_at.is_(None)
        )
    ).first()
    if found is None:
        raise ProblemError(404, "member_not_found", member=member_id)
    return found


def require_storyteller(member: Caller, action: str) -> None:
    if member.role != STORYTELLER:
        raise ProblemError(403, "storyteller_only", action=action, role=member.role)


def may_open(member: Caller, character: Character) -> bool:
    """V: a player opens (and acts for) only their own characters; the Storyteller any."""
    return member.role == STORYTELLER or character.owner_id == member.id


def may_act_for(member: Caller, character: Character) -> None:
    if not may_open(member, character):
        raise ProblemError(403, "not_your_character")
