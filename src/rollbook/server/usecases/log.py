"""The chronicle's log: reading it as a member may see it, revealing a hidden roll, exporting it."""

from __future__ import annotations

import json
from collections.abc import Iterator

from sqlalchemy import select
from sqlalchemy.orm import Session

from rollbook.entries import RevealReceipt, RollReceipt, receipt_of
from rollbook.server.access import find_entry, lock_chronicle, require_storyteller
from rollbook.server.models import Caller, Chronicle, LogEntry, LoggedEntry
from rollbook.server.problems import ProblemError
from rollbook.server.store import AppendedEntry, actor_of, append_entry, log_head
from rollbook.server.views import FollowUps, entry_view, rerolled_by, revealed_by, steps_taken


def entries_after(session: Session, member: Caller, after: int = 0, limit: int = 100) -> list[dict]:
    """Up to ``limit`` entries with seq > ``after``, oldest first, as this member may see them."""
    rows = list(
        session.scalars(
            select(LogEntry)
            .where(LogEntry.chronicle_id == member.chronicle_id, LogEntry.seq > after)
            .order_by(LogEntry.seq)
            .limit(limit)
        )
    )
    revealed = revealed_by(
        session, member.chronicle_id, [row.seq for row in rows if row.visibility == "hidden"]
    )
    return [entry_view(row, member, revealed) for row in rows]


def log_page(session: Session, member: Caller, *, after: int = 0, limit: int = 100) -> dict:
    """Entries with seq > ``after``, oldest first; ``next`` is the ``after`` of the next page (None at the end)."""
    entries = entries_after(session, member, after, limit + 1)
    more = len(entries) > limit
    entries = entries[:limit]
    return {
        "entries": entries,
        "next": entries[-1]["seq"] if more else None,
        "head": log_head(session, member.chronicle_id),
    }


def log_entry(session: Session, member: Caller, seq: int) -> dict:
    entry = find_entry(session, member, seq)
    return entry_view(entry, member, revealed_by(session, member.chronicle_id, [seq]))


def followed_up(session: Session, member: Caller, seqs: list[int]) -> FollowUps:
    """seq of a roll -> seq of the reroll that followed it up (V5-8: follow the latest receipt), and
    the steps their cards offered that are taken (``views.FollowUps``)."""
    followed = FollowUps(rerolled_by(session, member.chronicle_id, seqs))
    followed.taken = steps_taken(session, member.chronicle_id, seqs)
    return followed


def last_actions(session: Session, member: Caller, character_id: int) -> list[dict]:
    """The actions of this member's latest rolls for the character, newest first (among the
    character's last 25 rolls): the web's roll form starts from the latest of its kind
    (``latest_action``), so the form survives a reload (the state lives in the log). Read once for
    every kind the sheet page looks for."""
    rows = session.execute(
        select(LogEntry.actor, LogEntry.receipt)
        .where(
            LogEntry.chronicle_id == member.chronicle_id,
            LogEntry.character_id == character_id,
            LogEntry.kind == "roll",
        )
        .order_by(LogEntry.seq.desc())
        .limit(25)
    ).all()
    actions = []
    for actor, receipt in rows:
        if isinstance(actor, dict) and actor.get("member") == member.id and isinstance(receipt, dict):
            action = RollReceipt.of(receipt).action
            if isinstance(action, dict) and action.get("kind"):
                actions.append(action)
    return actions


def latest_action(actions: list[dict], kind: str | None = None) -> dict | None:
    """The newest of ``last_actions``' (of that ``kind``, if given), or None."""
    return next((action for action in actions if kind in (None, action.get("kind"))), None)


ROLL_ENTRY_KINDS = ("roll", "reroll", "quick_roll")  # entries whose receipts carry dice (and a "fair" record)


def reveal(session: Session, member: Caller, seq: int) -> dict:
    """The Storyteller reveals a hidden roll: a new public entry referencing it (never an update)."""
    require_storyteller(member, "reveal")
    chronicle = lock_chronicle(session, member.chronicle_id)
    target = find_entry(session, member, seq)
    if target.visibility != "hidden":
        raise ProblemError(409, "not_hidden", seq=seq)
    earlier = revealed_by(session, chronicle.id, [seq]).get(seq)
    if earlier is not None:
        raise ProblemError(409, "already_revealed", seq=seq, by=earlier)
    entry = reveal_entry(session, chronicle, member, target)
    return {"entry": entry_view(entry, member), "revealed": entry_view(target, member, {seq: entry.seq})}


def reveal_entry(
    session: Session, chronicle: Chronicle, member: Caller, target: LoggedEntry
) -> AppendedEntry:
    """Reveal one hidden entry (the caller checked it is hidden and not revealed yet): a public
    ``reveal`` entry referencing it. A roll made under a grant brings its hidden ask and grant with it
    (they were hidden because the roll was: A-2 is then checked on a player's export too)."""
    read = receipt_of(target.kind, target.receipt)
    authority = read.authority if isinstance(read, RollReceipt) else None
    if isinstance(authority, dict):
        decided = [seq for seq in (authority.get("ask"), authority.get("grant")) if isinstance(seq, int)]
        hidden = (
            session.scalars(
                select(LogEntry).where(
                    LogEntry.chronicle_id == chronicle.id,
                    LogEntry.seq.in_(decided),
                    LogEntry.visibility == "hidden",
                    LogEntry.kind.in_(("ask", "grant")),
                )
            ).all()
            if decided
            else []
        )
        already = revealed_by(session, chronicle.id, [row.seq for row in hidden])
        for row in sorted(hidden, key=lambda r: r.seq):
            if row.seq not in already:
                _reveal_one(session, chronicle, member, row)
    return _reveal_one(session, chronicle, member, target)


def _reveal_one(session: Session, chronicle: Chronicle, member: Caller, target: LoggedEntry) -> AppendedEntry:
    return append_entry(
        session,
        chronicle,
        kind="reveal",
        actor=actor_of(member),
        visibility="public",
        receipt=RevealReceipt(reveals=target.seq, entry_hash=target.entry_hash),
        character_id=target.character_id,
        refers_to=target.seq,
    )


def export_lines(session: Session, member: Caller, batch: int = 500) -> Iterator[str]:
    """The whole log as JSON Lines (what ``rollbook log verify`` reads), in seq order."""
    after = 0
    while True:
        entries = entries_after(session, member, after, batch)
        for entry in entries:
            entry.pop("revealed_by", None)
            yield json.dumps(entry, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"
        if len(entries) < batch:
            return
        after = entries[-1]["seq"]
