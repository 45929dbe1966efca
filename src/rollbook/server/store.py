"""The two writes every change makes, in the caller's transaction (which holds the chronicle's lock):

- ``save_sheet``: ``UPDATE characters SET sheet, version = version + 1 WHERE id AND version``
  (0 rows: ``tx.StaleSheet``, and ``tx.run`` retries the whole transaction);
- ``append_entry``: the next entry of the chronicle's hash-chained log (seq = last + 1;
  ``UNIQUE (chronicle_id, seq)`` refuses a duplicate whatever happens).
"""

from __future__ import annotations

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import Session, configure_mappers
from sqlalchemy.orm.attributes import instance_state, manager_of_class, set_committed_value

from rollbook.server.chain import GENESIS_HASH, entry_hash, plain
from rollbook.server.direct import Statement
from rollbook.server.models import Character, Chronicle, LogEntry, Member
from rollbook.server.tx import StaleSheet, now


_CHARACTERS = Character.__table__
_SAVE_SHEET = Statement(update(_CHARACTERS)
                        .where(_CHARACTERS.c.id == bindparam("character"), _CHARACTERS.c.version == bindparam("seen"))
                        .values(sheet=bindparam("new_sheet"), version=bindparam("new_version"),
                                updated_at=bindparam("stamp")))


def save_sheet(session: Session, character: Character, sheet: dict) -> None:
    """``UPDATE characters SET sheet, version = version + 1 WHERE id = :id AND version = :v``."""
    sheet = plain(sheet)
    stamp = now()
    session.flush()  # what the ORM holds pending goes first, as session.execute would
    changed = _SAVE_SHEET.rowcount(session.connection(), {
        "character": character.id, "seen": character.version, "new_sheet": sheet,
        "new_version": character.version + 1, "stamp": stamp})
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
_LAST_ENTRY = Statement(select(_LOG.c.seq, _LOG.c.entry_hash).where(_LOG.c.chronicle_id == bindparam("chronicle"))
                        .order_by(_LOG.c.seq.desc()).limit(1))
_ENTRY_FIELDS = ("chronicle_id", "seq", "prev_hash", "entry_hash", "created_at", "kind", "actor", "visibility",
                 "receipt", "character_id", "refers_to", "effects")
_INSERT_ENTRY = Statement(_LOG.insert().values({name: bindparam(name) for name in _ENTRY_FIELDS}).returning(_LOG.c.id))
_MANAGER = manager_of_class(LogEntry)


def log_head(session: Session, chronicle_id: int) -> dict:
    """``{"seq", "entry_hash"}`` of the chronicle's last entry (seq 0 and the genesis hash when empty)."""
    last = _LAST_ENTRY.first(session.connection(), {"chronicle": chronicle_id})
    return {"seq": last.seq, "entry_hash": last.entry_hash} if last else {"seq": 0, "entry_hash": GENESIS_HASH}


def append_entry(session: Session, chronicle: Chronicle, *, kind: str, actor: dict, visibility: str,
                 receipt: dict, character_id: int | None = None, refers_to: int | None = None,
                 effects: list | None = None) -> LogEntry:
    """Append one entry to a chronicle's log. The caller holds the chronicle's lock."""
    head = log_head(session, chronicle.id)
    seq = head["seq"] + 1
    prev_hash = head["entry_hash"]
    created_at = now()
    actor = plain(actor)
    receipt = plain(receipt)
    effects = plain(list(effects or []))
    digest = entry_hash(chronicle=chronicle.id, seq=seq, prev_hash=prev_hash, created_at=created_at, kind=kind,
                        actor=actor, visibility=visibility, receipt=receipt, character=character_id,
                        refers_to=refers_to, effects=effects)  # every exported field (chain.py)
    values = dict(
        chronicle_id=chronicle.id, seq=seq, prev_hash=prev_hash, entry_hash=digest, created_at=created_at,
        kind=kind, actor=actor, visibility=visibility, receipt=receipt, character_id=character_id,
        refers_to=refers_to, effects=effects,
    )
    session.flush()  # what the ORM holds pending goes first, as when the entry was flushed with it
    # One INSERT … RETURNING id (SQLAlchemy Core on the session's connection: no unit of work for an
    # append-only row); the entry handed back is a plain, transient LogEntry with the stored values.
    values["id"] = _INSERT_ENTRY.first(session.connection(), values).id
    if not _MANAGER.mapper.configured:  # built without its constructor: the mappers must be ready
        configure_mappers()
    entry = _MANAGER.new_instance()
    instance_state(entry).dict.update(values)
    session.info.setdefault("chronicles", set()).add(chronicle.id)  # Database.after_commit wakes the feeds
    return entry


def actor_of(member: Member, character: Character | None = None) -> dict:
    """Who acted, as the log records it."""
    return {"member": member.id, "name": member.name, "role": member.role,
            "character": character.id if character is not None else None}
