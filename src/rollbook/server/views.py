"""What each role may see: rows as plain JSON, and the look-ups a view needs (which hidden rolls
were revealed, which rolls were followed up). The JSON API answers these dicts; the web pages
render them; ``rollbook log export`` writes ``entry_export`` lines.

A player sees a hidden entry redacted (its hashes only) until the Storyteller reveals it; a
player sees the names of every character but the sheets of their own only.

Hidden entries besides hidden rolls: a hidden ask and its decision (the public part says
only that a hidden ask was made and decided: its kind, never its traits, difficulty or pool; F-7), a
``sheet_edit`` (before/after values of a sheet) and a ``removal`` (the removed character's last
sheet). Each is readable by the Storyteller and by its one *private reader*: the player who made the
ask, the owner of the character whose sheet it shows (``receipt["owner"]``) — a player sees ratings
of their own characters only.
"""

from __future__ import annotations

from sqlalchemy import Connection, func, select
from sqlalchemy.orm import Session

from rollbook.entries import RemovalReceipt, RollReceipt, SheetEditReceipt, receipt_of
from rollbook.server.access import STORYTELLER, may_open
from rollbook.server.chain import redaction_of
from rollbook.server.models import Caller, Character, Chronicle, LogEntry, LoggedEntry

# Each view's keys, in order, and the row attribute each one reads.
CHRONICLE_FIELDS = {
    name: name
    for name in ("id", "name", "system", "mode", "language", "difficulty", "table_rules", "created_at")
}
MEMBER_FIELDS = {
    "id": "id",
    "chronicle": "chronicle_id",
    "name": "name",
    "role": "role",
    "created_at": "created_at",
}
CHARACTER_FIELDS = {
    "id": "id",
    "chronicle": "chronicle_id",
    "owner": "owner_id",
    "name": "name",
    "sheet": "sheet",
    "version": "version",
    "difficulty": "difficulty",
    "created_at": "created_at",
    "updated_at": "updated_at",
}
ENTRY_FIELDS = {
    "chronicle": "chronicle_id",
    "seq": "seq",
    "prev_hash": "prev_hash",
    "entry_hash": "entry_hash",
    "created_at": "created_at",
    "kind": "kind",
    "actor": "actor",
    "visibility": "visibility",
    "receipt": "receipt",
    "character": "character_id",
    "refers_to": "refers_to",
    "effects": "effects",
}


def _row(row, fields: dict[str, str]) -> dict:
    return {key: getattr(row, attribute) for key, attribute in fields.items()}


def chronicle_view(chronicle: Chronicle) -> dict:
    return _row(chronicle, CHRONICLE_FIELDS)


def member_view(member: Caller) -> dict:
    return _row(member, MEMBER_FIELDS)


def character_view(character: Character) -> dict:
    return _row(character, CHARACTER_FIELDS)


def roster_view(character: Character, member: Caller) -> dict:
    """A character as one line of the table: every member sees its name and owner; its sheet
    (``None`` otherwise) only the Storyteller and its owner (``may_open``)."""
    opens = may_open(member, character)
    view = character_view(character)
    # a homebrew trait's name as typed (the sheet's ``names``): every member reads it in the receipts
    view.update(
        sheet=character.sheet if opens else None,
        may_open=opens,
        trait_names=dict((character.sheet or {}).get("names") or {}),
    )
    return view


def entry_export(entry: LoggedEntry) -> dict:
    """The full entry, as exported and as ``rollbook log verify`` reads it."""
    view = _row(entry, ENTRY_FIELDS)
    view["effects"] = entry.effects or []
    return view


SHEET_KINDS = ("sheet_edit", "removal")  # entries that show a sheet's values: hidden, for its owner


def private_reader(entry: LoggedEntry) -> int | None:
    """The one player besides the Storyteller who reads this hidden entry: who made a hidden ask, the
    owner of the character whose sheet a ``sheet_edit`` or ``removal`` shows; None for any other."""
    if entry.kind == "ask":
        actor = entry.actor if isinstance(entry.actor, dict) else {}
        return actor.get("member")
    if entry.kind in SHEET_KINDS:
        shown = receipt_of(entry.kind, entry.receipt)
        return shown.owner if isinstance(shown, SheetEditReceipt | RemovalReceipt) else None
    return None


def may_read(entry: LoggedEntry, member: Caller, by: int | None) -> bool:
    """Whether ``member`` reads this entry in full (``by``: the seq of the entry that revealed it)."""
    if entry.visibility != "hidden" or member.role == STORYTELLER or by is not None:
        return True
    reader = private_reader(entry)
    return reader is not None and reader == member.id


def entry_view(entry: LoggedEntry, member: Caller, revealed_by: dict[int, int] | None = None) -> dict:
    """An entry as this member may see it: a player sees a hidden entry redacted until revealed
    (unless they are its private reader, ``private_reader``)."""
    view = entry_export(entry)
    by = (revealed_by or {}).get(entry.seq)
    if entry.visibility == "hidden":
        view["revealed_by"] = by
        if not may_read(entry, member, by):
            view.update(actor=None, receipt=None, character=None, refers_to=None, effects=[], redacted=True)
            content = redaction_of(entry)  # what the redaction commits to (chain.py); none before it did
            if content is not None:
                view["content_hash"] = content
    return view


def follow_ups(
    session: Session | Connection, chronicle_id: int, kind: str, seqs: list[int]
) -> dict[int, int]:
    """seq -> the first entry of ``kind`` ("reveal", "reroll") that refers to it."""
    if not seqs:
        return {}
    rows = session.execute(
        select(LogEntry.refers_to, func.min(LogEntry.seq))
        .where(LogEntry.chronicle_id == chronicle_id, LogEntry.kind == kind, LogEntry.refers_to.in_(seqs))
        .group_by(LogEntry.refers_to)
    )
    return {refers: by for refers, by in rows if refers is not None}  # IN (seqs): never NULL


def revealed_by(session: Session | Connection, chronicle_id: int, seqs: list[int]) -> dict[int, int]:
    """seq of a hidden roll -> seq of the entry that revealed it."""
    return follow_ups(session, chronicle_id, "reveal", seqs)


class FollowUps(dict[int, int]):
    """seq of a roll -> seq of the reroll that followed it up; ``taken``: the steps a card offered that
    are taken, as (seq, step): a Rouse's hunger frenzy test called (V5-10), an extended action over
    (TR-4), both with the step ""; a contest's side rolled (TR-3), the step the side."""

    taken: frozenset[tuple[int, str]] = frozenset()


def steps_taken(session: Session, chronicle_id: int, seqs: list[int]) -> frozenset[tuple[int, str]]:
    """(seq, step) of the steps the entries ``seqs`` offered that a later roll took (``FollowUps``)."""
    if not seqs:
        return frozenset()
    rows = session.execute(
        select(LogEntry.refers_to, LogEntry.receipt)
        .where(LogEntry.chronicle_id == chronicle_id, LogEntry.kind == "roll", LogEntry.refers_to.in_(seqs))
        .order_by(LogEntry.seq)
    )
    taken = set()
    for refers, stored in rows:
        if refers is None or not isinstance(stored, dict):
            continue
        roll = RollReceipt.of(stored)
        extended, contest = roll.extended, roll.contest
        if (
            isinstance(roll.frenzy_test, dict)
            or isinstance(extended, dict)
            and extended.get("status") != "going"
        ):  # V5-10: once per Rouse
            taken.add((refers, ""))
        elif isinstance(contest, dict) and contest.get("side"):  # TR-3: one roll per side
            taken.add((refers, str(contest["side"])))
    return frozenset(taken)


def rerolled_by(session: Session, chronicle_id: int, seqs: list[int]) -> dict[int, int]:
    """seq of a roll -> seq of the reroll that followed it up (V5-8: follow the latest receipt)."""
    return follow_ups(session, chronicle_id, "reroll", seqs)
