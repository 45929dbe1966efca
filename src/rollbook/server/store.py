"""The two writes every change makes, in the caller's transaction (which holds the chronicle's lock):

- ``save_sheet``: ``UPDATE characters SET sheet, version = version + 1 WHERE id AND version``
  (0 rows: ``tx.StaleSheet``, and ``tx.run`` retries the whole transaction);
- ``append_entry``: the next entry of the chronicle's hash-chained log (seq = last + 1;
  ``UNIQUE (chronicle_id, seq)`` refuses a duplicate whatever happens), answered as a frozen
  ``AppendedEntry``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from rollbook.entries import RECEIPTS, Receipt
from rollbook.server.chain import GENESIS_HASH, committed_hash, content_hash, plain
from rollbook.server.db import changed_rows
from rollbook.server.models import Caller, Character, Chronicle, LogEntry
from rollbook.server.tx import StaleSheet, now

_CHARACTERS = Character.__table__
_SAVE_SHEET = (
    update(_CHARACTERS)
    .where(_CHARACTERS.c.id == bindparam("character"), _CHARACTERS.c.version == bindparam("seen"))
    .values(sheet=bindparam("new_sheet"), version=bindparam("new_version"), updated_at=bindparam("stamp"))
)


def save_sheet(session: Session, character: Character, sheet: dict) -> None:
    """``UPDATE characters SET sheet, version = version + 1 WHERE id = :id AND version = :v``; the
    character (the session's own object) holds the stored values after it."""
    sheet = plain(sheet)
    stamp = now()
    changed = changed_rows(
        session.execute(
            _SAVE_SHEET,
            {
                "character": character.id,
                "seen": character.version,
                "new_sheet": sheet,
                "new_version": character.version + 1,
                "stamp": stamp,
            },
        )
    )
    if changed != 1:
        raise StaleSheet(character.id)
    set_committed_value(character, "sheet", sheet)
    set_committed_value(character, "version", character.version + 1)
    set_committed_value(character, "updated_at", stamp)


def sheet_changed(character: Character, sheet: dict) -> bool:
    """Whether ``sheet`` differs from the stored one. Compared as it is, not as the JSON it would be
    stored as: values equal in Python are equal once stored (a tuple never equals the stored list,
    a key equal to a stored key is that string), and a sheet unequal only in form is saved, no harm."""
    return sheet != character.sheet


_LOG = LogEntry.__table__
_LAST_ENTRY = (
    select(_LOG.c.seq, _LOG.c.entry_hash, _LOG.c.visibility)
    .where(_LOG.c.chronicle_id == bindparam("chronicle"))
    .order_by(_LOG.c.seq.desc())
    .limit(1)
)
_INSERT_ENTRY = _LOG.insert().returning(_LOG.c.id)


@dataclass(frozen=True, slots=True, eq=False)
class AppendedEntry:
    """The entry ``append_entry`` wrote, as the log holds it (a ``LogEntry``'s columns, read the same
    way): frozen, since the row is append-only and nothing of the store would follow a change. Not an
    ORM object: built without the mapper's instrumentation (a ``LogEntry`` made by its constructor
    cost ~120 Python calls a roll), and compared by identity, as the ORM's objects are."""

    id: int
    chronicle_id: int
    seq: int
    prev_hash: str
    entry_hash: str
    created_at: str
    kind: str
    actor: dict
    visibility: str
    receipt: dict
    character_id: int | None
    refers_to: int | None
    effects: list


def log_head(session: Session, chronicle_id: int) -> dict:
    """``{"seq", "entry_hash"}`` of the chronicle's last entry (seq 0 and the genesis hash when empty)."""
    last = session.execute(_LAST_ENTRY, {"chronicle": chronicle_id}).first()
    return (
        {"seq": last.seq, "entry_hash": last.entry_hash} if last else {"seq": 0, "entry_hash": GENESIS_HASH}
    )


def append_entry(
    session: Session,
    chronicle: Chronicle,
    *,
    kind: str,
    actor: dict,
    visibility: str,
    receipt: Receipt,
    character_id: int | None = None,
    refers_to: int | None = None,
    effects: list | None = None,
) -> AppendedEntry:
    """Append one entry to a chronicle's log: ``receipt`` the model of its ``kind`` (``rollbook.entries``),
    stored as its ``dump()``. The caller holds the chronicle's lock."""
    if type(receipt) is not RECEIPTS[kind]:
        raise TypeError(
            f"a {kind} entry's receipt is a {RECEIPTS[kind].__name__}, not {type(receipt).__name__}"
        )
    # An append-only row: one INSERT … RETURNING id, without the unit of work (whose flush costs a
    # large share of a roll's CPU for a row nothing changes later). What the ORM holds pending goes
    # first, then both statements run on the transaction's connection: Core statements, nothing left
    # for the session's autoflush and ORM execution to do (a dozen Python calls each).
    session.flush()
    connection = session.connection()
    last = connection.execute(_LAST_ENTRY, {"chronicle": chronicle.id}).first()
    seq: int = last.seq + 1 if last else 1
    prev_hash: str = last.entry_hash if last else GENESIS_HASH
    created_at = now()
    actor = plain(actor)
    stored = plain(receipt.dump())
    effects = plain(list(effects or []))
    content = content_hash(
        {
            "actor": actor,
            "receipt": stored,
            "character": character_id,
            "refers_to": refers_to,
            "effects": effects,
        }
    )
    digest = committed_hash(
        chronicle=chronicle.id,
        seq=seq,
        prev_hash=prev_hash,
        created_at=created_at,
        kind=kind,
        visibility=visibility,
        content_hash=content,
        prev_visibility=last.visibility if last else None,
    )  # every exported field, a redaction checkable (chain.py)
    values: dict[str, Any] = dict(
        chronicle_id=chronicle.id,
        seq=seq,
        prev_hash=prev_hash,
        entry_hash=digest,
        created_at=created_at,
        kind=kind,
        actor=actor,
        visibility=visibility,
        receipt=stored,
        character_id=character_id,
        refers_to=refers_to,
        effects=effects,
    )
    values["id"] = connection.execute(_INSERT_ENTRY, values).scalar_one()
    entry = AppendedEntry(**values)
    session.info.setdefault("chronicles", set()).add(chronicle.id)  # Database.after_commit wakes the feeds
    return entry


def actor_of(member: Caller, character: Character | None = None) -> dict:
    """Who acted, as the log records it."""
    return {
        "member": member.id,
        "name": member.name,
        "role": member.role,
        "character": character.id if character is not None else None,
    }
