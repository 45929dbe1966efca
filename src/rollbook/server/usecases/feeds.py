"""What a process's live feeds read (``hub.Hub``): a chronicle's new entries once for all its
feeds (with the tokens revoked lately, in the same snapshot), the tokens the feeds were opened
with (when a feed joins, and when a revocation is heard), and the one catch-up that covers every
open feed.

Each function takes the caller's read ``Session``. The entries are the stored rows; each feed's
member view is derived from them in memory (``views.entry_view``), never read again per feed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row, bindparam, func, select
from sqlalchemy.orm import Session

from rollbook.server.access import present
from rollbook.server.models import Character, Chronicle, LogEntry, Member, MemberToken
from rollbook.server.store import log_head
from rollbook.server.usecases.fairness import revealed_seeds
from rollbook.server.views import chronicle_view, rerolled_by, revealed_by

REVOKED = "revoked"  # signed out, or the key was rotated
REMOVED = "removed"  # the Storyteller removed the member
EXPIRED = "expired"  # the session's time is up


_LOG = LogEntry.__table__
_ENTRY_COLUMNS = [column for column in _LOG.c if column.key != "id"]  # named as LogEntry's attributes


def head(connection: Connection, chronicle_id: int) -> int:
    """The seq of the chronicle's last entry (0 when empty)."""
    return (
        connection.execute(select(func.max(_LOG.c.seq)).where(_LOG.c.chronicle_id == chronicle_id)).scalar()
        or 0
    )


# A chronicle's entries after a seq, oldest first, at most a limit: built once (a wake reads it for
# every roll), its parameters bound at each read.
_NEW_ENTRIES = (
    select(*_ENTRY_COLUMNS)
    .where(_LOG.c.chronicle_id == bindparam("chronicle"), _LOG.c.seq > bindparam("after"))
    .order_by(_LOG.c.seq)
    .limit(bindparam("limit"))
)
_TOKENS = MemberToken.__table__
# The digests of the tokens revoked at or after a moment, joined by spaces (a digest is hex: no
# space in it; none revoked: NULL): one uncorrelated value, computed once per statement.
_REVOKED_LATELY = (
    select(func.aggregate_strings(_TOKENS.c.token_hash, " "))
    .where(_TOKENS.c.revoked_at >= bindparam("moment"))
    .scalar_subquery()
    .label("revoked_lately")
)
# A wake's read: the new entries, each row carrying the digests revoked lately, in one statement.
_NEW_ENTRIES_FOR = _NEW_ENTRIES.add_columns(_REVOKED_LATELY)


def new_entries(
    connection: Connection, chronicle_id: int, after: int, limit: int
) -> tuple[Sequence[Row[Any]], dict[int, int]]:
    """Up to ``limit`` entries with seq > ``after``, oldest first, as stored (rows with the
    attributes of ``LogEntry``), and which of their hidden ones were revealed (seq -> the reveal's
    seq): every member's view is made from these. One statement, a second only when one of them
    is hidden."""
    rows = connection.execute(_NEW_ENTRIES, {"chronicle": chronicle_id, "after": after, "limit": limit}).all()
    return rows, _revealed(connection, chronicle_id, rows)


def _revealed(connection: Connection, chronicle_id: int, rows: Sequence[Row[Any]]) -> dict[int, int]:
    hidden = [row.seq for row in rows if row.visibility == "hidden"]
    return revealed_by(connection, chronicle_id, hidden) if hidden else {}


def new_entries_for(
    connection: Connection, chronicle_id: int, after: int, limit: int, since: str
) -> tuple[Sequence[Row[Any]], dict[int, int], set[str]]:
    """``new_entries``, and when there is any, the digests of the tokens revoked at or after
    ``since`` (``revoked_since``'s) read by the same statement (one snapshot, whatever the
    store's isolation): an entry is given only to the feeds none of whose tokens is among them
    (a feed whose token is, has its tokens read again before it is given anything), so nothing
    committed with or after a revocation reaches the revoked feed, whichever process revoked it
    and however late its word comes. The feeds' own tokens are not read: the cost is one look-up
    in the revocations' index, whatever the number of feeds, in the statement that reads the
    entries (a wake is one statement, a second only when an entry is hidden: on PostgreSQL each
    statement is a round trip through the driver)."""
    rows = connection.execute(
        _NEW_ENTRIES_FOR, {"chronicle": chronicle_id, "after": after, "limit": limit, "moment": since}
    ).all()
    revoked = rows[0].revoked_lately if rows else None
    return rows, _revealed(connection, chronicle_id, rows), set(revoked.split(" ")) if revoked else set()


@dataclass(frozen=True)
class TokenState:
    token_hash: str
    member_id: int
    revoked_at: str | None
    expires_at: str | None
    removed_at: str | None  # the member's

    def ended(self, moment: str) -> str | None:
        """Why this token no longer opens the feed (``REMOVED``, ``REVOKED``, ``EXPIRED``), or None."""
        if self.removed_at is not None:
            return REMOVED
        if self.revoked_at is not None:
            return REVOKED
        if self.expires_at is not None and self.expires_at <= moment:
            return EXPIRED
        return None


def token_states(session: Session | Connection, hashes: list[str]) -> dict[str, TokenState]:
    """The state of each token (by its digest) that exists, with its member's removal."""
    wanted = sorted(set(hashes))
    found: dict[str, TokenState] = {}
    for start in range(0, len(wanted), 500):  # bound the statement's parameters (many feeds joining at once)
        rows = session.execute(
            select(
                MemberToken.token_hash,
                MemberToken.member_id,
                MemberToken.revoked_at,
                MemberToken.expires_at,
                Member.removed_at,
            )
            .join(Member, Member.id == MemberToken.member_id)
            .where(MemberToken.token_hash.in_(wanted[start : start + 500]))
        )
        found.update((row.token_hash, TokenState(*row)) for row in rows)
    return found


def heads(session: Session | Connection, chronicle_ids: list[int]) -> dict[int, int]:
    """The last seq of each chronicle (an index look-up each: the cost of the per-process catch-up
    grows with the chronicles watched, never with their logs or their feeds)."""
    last = (
        select(func.max(LogEntry.seq))
        .where(LogEntry.chronicle_id == Chronicle.id)
        .correlate(Chronicle)
        .scalar_subquery()
    )
    found: dict[int, int] = {}
    for start in range(0, len(chronicle_ids), 500):  # bound the statement's parameters
        chunk = chronicle_ids[start : start + 500]
        for chronicle_id, seq in session.execute(select(Chronicle.id, last).where(Chronicle.id.in_(chunk))):
            found[chronicle_id] = seq or 0
    return found


_REVOKED_SINCE = select(_TOKENS.c.token_hash).where(_TOKENS.c.revoked_at >= bindparam("moment"))


def revoked_since(session: Session | Connection, moment: str) -> set[str]:
    """The digests of the tokens revoked at or after ``moment`` (signed out, rotated, removed):
    ``ix_member_tokens_revoked_at`` makes it a short range of the index (none, most of the time)."""
    return set(session.execute(_REVOKED_SINCE, {"moment": moment}).scalars())


@dataclass(frozen=True)
class TableContext:
    """What every web viewer's card of new entries is drawn from, read once for all of them: the
    chronicle (with its log's head), its characters as stored (each viewer's roster is derived with
    ``views.roster_view``), which of the entries were followed up, the seeds revealed so far."""

    chronicle: dict
    characters: list[Character]
    followed: dict[int, int]
    revealed_seeds: dict[str, bytes]


def table_context(session: Session, chronicle_id: int, seqs: list[int]) -> TableContext:
    chronicle = chronicle_view(session.get_one(Chronicle, chronicle_id))
    chronicle["log_head"] = log_head(session, chronicle_id)
    characters = list(
        session.scalars(
            select(Character).where(Character.chronicle_id == chronicle_id, present()).order_by(Character.id)
        )
    )
    return TableContext(
        chronicle, characters, rerolled_by(session, chronicle_id, seqs), revealed_seeds(session, chronicle_id)
    )
