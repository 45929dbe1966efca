"""Who reaches which rows: every look-up is scoped to the member's chronicle, and every change
locks the chronicle row, then the character row, always in that order (``SELECT ... FOR UPDATE``
on PostgreSQL; on SQLite the write transaction began with ``BEGIN IMMEDIATE`` and holds the lock).

Refusals are ``ProblemError``: 404 for what is not in the member's chronicle, 403 for what their
role may not do.
"""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.orm import Session, configure_mappers, make_transient_to_detached
from sqlalchemy.orm.attributes import instance_state
from sqlalchemy.orm.instrumentation import ClassManager

from rollbook.server.direct import Statement
from rollbook.server.models import Character, Chronicle, LogEntry, Member
from rollbook.server.problems import ProblemError

T = TypeVar("T")

STORYTELLER = "storyteller"
PLAYER = "player"


REMOVED_KIND = "removal"


def present():
    """The condition "this character is still at the table": a character the Storyteller removed
    (``removed_at``, set in the transaction of its ``removal`` entry) keeps its row and its history
    in the log, but is no longer found, listed or rolled for."""
    return Character.removed_at.is_(None)


# The hot path's statements, built once (their SQL and cache key are computed once, not per request).
_LOCK_CHRONICLE = (select(Chronicle).where(Chronicle.id == bindparam("chronicle")).with_for_update()
                   .execution_options(populate_existing=True))
_LOCK_CHARACTER = (select(Character).where(Character.id == bindparam("character"),
                                           Character.chronicle_id == bindparam("chronicle"),
                                           present())
                   .with_for_update().execution_options(populate_existing=True))


_CHRONICLES = Chronicle.__table__
_CHARACTERS = Character.__table__
_LOCK_CHRONICLE_ROW = Statement(select(_CHRONICLES).where(_CHRONICLES.c.id == bindparam("chronicle")).with_for_update())
_LOCK_CHARACTER_ROW = Statement(select(_CHARACTERS).where(_CHARACTERS.c.id == bindparam("character"),
                                                          _CHARACTERS.c.chronicle_id == bindparam("chronicle"),
                                                          _CHARACTERS.c.removed_at.is_(None))
                                .with_for_update())


# class -> its class manager and its (attribute, column key) pairs
_COLUMNS_OF: dict[type, tuple[ClassManager, tuple[tuple[str, str], ...]]] = {}


def detached(cls: type[T], row) -> T:
    """An ORM object holding ``row`` (every column), detached: read its attributes; change the row
    with Core statements only (``store.save_sheet``), the unit of work does not know it. (Built
    without the mapped constructor, whose attribute events cost twice as much: bench/README.md,
    "Ninth pass".)"""
    known = _COLUMNS_OF.get(cls)
    if known is None:
        mapper = inspect(cls)
        if not mapper.configured:  # built without its constructor: the mappers must be ready
            configure_mappers()
        known = _COLUMNS_OF[cls] = (mapper.class_manager,
                                    tuple((prop.key, prop.columns[0].key) for prop in mapper.column_attrs))
    manager, pairs = known
    instance = manager.new_instance()
    instance_state(instance).dict.update([(key, getattr(row, column)) for key, column in pairs])
    make_transient_to_detached(instance)
    return instance


def lock_chronicle_row(session: Session, chronicle_id: int) -> Chronicle:
    """``lock_chronicle`` for a use case that reads the chronicle only: the same lock and refusal,
    one Core statement (no ORM load); the chronicle is detached (``detached``)."""
    row = _LOCK_CHRONICLE_ROW.first(session.connection(), {"chronicle": chronicle_id})
    if row is None:
        raise ProblemError(404, "chronicle_not_found", chronicle=chronicle_id)
    return detached(Chronicle, row)


def lock_character_row(session: Session, member: Member, character_id: int) -> Character:
    """``lock_character`` for a use case that changes the character through ``store.save_sheet``
    only: the same lock (after the chronicle's) and refusal, one Core statement; detached."""
    row = _LOCK_CHARACTER_ROW.first(session.connection(), {"character": character_id, "chronicle": member.chronicle_id})
    if row is None:
        raise ProblemError(404, "character_not_found", character=character_id)
    return detached(Character, row)


def lock_chronicle(session: Session, chronicle_id: int) -> Chronicle:
    """The chronicle row, locked for this transaction (PostgreSQL ``FOR UPDATE``)."""
    chronicle = session.scalars(_LOCK_CHRONICLE, {"chronicle": chronicle_id}).first()
    if chronicle is None:
        raise ProblemError(404, "chronicle_not_found", chronicle=chronicle_id)
    return chronicle


def lock_character(session: Session, member: Member, character_id: int) -> Character:
    """A character of the member's chronicle, locked (after its chronicle: one lock order)."""
    character = session.scalars(_LOCK_CHARACTER, {"character": character_id, "chronicle": member.chronicle_id}).first()
    if character is None:
        raise ProblemError(404, "character_not_found", character=character_id)
    return character


def find_chronicle(session: Session, member: Member, chronicle_id: int | None = None) -> Chronicle:
    """The member's chronicle (read, not locked); another chronicle's id is refused."""
    if chronicle_id is not None and chronicle_id != member.chronicle_id:
        raise ProblemError(403, "wrong_chronicle")
    chronicle = session.get(Chronicle, member.chronicle_id)
    if chronicle is None:  # pragma: no cover - a member always has its chronicle
        raise ProblemError(404, "chronicle_not_found", chronicle=member.chronicle_id)
    return chronicle


def find_character(session: Session, member: Member, character_id: int) -> Character:
    """A character of the member's chronicle (read, not locked)."""
    character = session.scalars(
        select(Character).where(Character.id == character_id, Character.chronicle_id == member.chronicle_id,
                                present())
    ).first()
    if character is None:
        raise ProblemError(404, "character_not_found", character=character_id)
    return character


def find_entry(session: Session, member: Member, seq: int) -> LogEntry:
    """A log entry of the member's chronicle (whether they may read it is ``views.entry_view``'s call)."""
    entry = session.scalars(
        select(LogEntry).where(LogEntry.chronicle_id == member.chronicle_id, LogEntry.seq == seq)
    ).first()
    if entry is None:
        raise ProblemError(404, "entry_not_found", seq=seq)
    return entry


def find_member(session: Session, chronicle_id: int, member_id: int) -> Member:
    found = session.scalars(select(Member).where(Member.id == member_id, Member.chronicle_id == chronicle_id,
                                                 Member.removed_at.is_(None))).first()
    if found is None:
        raise ProblemError(404, "member_not_found", member=member_id)
    return found


def require_storyteller(member: Member, action: str) -> None:
    if member.role != STORYTELLER:
        raise ProblemError(403, "storyteller_only", action=action, role=member.role)


def may_open(member: Member, character: Character) -> bool:
    """V: a player opens (and acts for) only their own characters; the Storyteller any."""
    return member.role == STORYTELLER or character.owner_id == member.id


def may_act_for(member: Member, character: Character) -> None:
    if not may_open(member, character):
        raise ProblemError(403, "not_your_character")
