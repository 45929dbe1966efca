"""Presence: which members of a chronicle have a live feed
open, on every server process. Each process keeps one row per member it serves a feed to
(``server.presence`` writes them: when the member's first feed opens there, gone when their last
feed there closes, and all of its rows refreshed by one heartbeat statement); a member is online
while one of those rows is fresh, so a process that died without a word stops counting after
``FRESH``.

Each function is one statement whatever the number of members (an idle feed costs
nothing per member; the heartbeat is one UPDATE per process).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, bindparam, or_, select
from sqlalchemy.orm import Session

from rollbook.server.db import changed_rows
from rollbook.server.models import Caller, Presence

FRESH = timedelta(seconds=30)  # three heartbeats (server.presence.HEARTBEAT)
# A member who plays on Discord has no feed open: each of their interactions marks them "at the table"
# under this process name, fresh for a while (a player between two rolls is still at the table)
DISCORD = "discord"
DISCORD_FRESH = timedelta(minutes=20)

_ROWS = Presence.__table__
_FORGET = _ROWS.delete().where(
    _ROWS.c.chronicle_id == bindparam("chronicle"),
    _ROWS.c.member_id == bindparam("member"),
    _ROWS.c.process == bindparam("here"),
)
_INSERT = _ROWS.insert().values(
    chronicle_id=bindparam("chronicle"),
    member_id=bindparam("member"),
    process=bindparam("here"),
    seen_at=bindparam("moment"),
)
_REFRESH = _ROWS.update().where(_ROWS.c.process == bindparam("here")).values(seen_at=bindparam("moment"))


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def mark(session: Session, process: str, present: list[tuple[int, int]]) -> None:
    """These (chronicle, member) pairs have a feed open in ``process``, now (a pair marked already
    keeps one row: its old one is replaced)."""
    if not present:
        return
    unmark(session, process, present)
    moment = _stamp(datetime.now(UTC))
    session.execute(
        _INSERT,
        [
            {"chronicle": chronicle_id, "member": member_id, "here": process, "moment": moment}
            for chronicle_id, member_id in present
        ],
    )


def unmark(session: Session, process: str, gone: list[tuple[int, int]]) -> None:
    """These (chronicle, member) pairs have no feed open in ``process`` any more."""
    if gone:
        session.execute(
            _FORGET,
            [
                {"chronicle": chronicle_id, "member": member_id, "here": process}
                for chronicle_id, member_id in gone
            ],
        )


def refresh(session: Session, process: str) -> int:
    """The heartbeat: every row of ``process`` is fresh again, now (one statement); how many."""
    return changed_rows(session.execute(_REFRESH, {"here": process, "moment": _stamp(datetime.now(UTC))}))


def seen_on_discord(session: Session, chronicle_id: int, member_id: int) -> None:
    """The member acted on Discord now: at the table for ``DISCORD_FRESH``."""
    mark(session, DISCORD, [(chronicle_id, member_id)])


def online(session: Session, member: Caller) -> set[int]:
    """The members of ``member``'s chronicle with a live feed open on some process (a fresh row), or who
    acted on Discord lately."""
    now = datetime.now(UTC)
    return set(
        session.scalars(
            select(Presence.member_id).where(
                Presence.chronicle_id == member.chronicle_id,
                or_(
                    and_(Presence.process != DISCORD, Presence.seen_at >= _stamp(now - FRESH)),
                    and_(Presence.process == DISCORD, Presence.seen_at >= _stamp(now - DISCORD_FRESH)),
                ),
            )
        )
    )
