"""Presence (issue 34, "Presence and notifications"): which members of a chronicle have a live feed
open, on every server process. Each process keeps one row per member it serves a feed to
(``server.presence`` writes them: when the member's first feed opens there, at each heartbeat, and
gone when their last feed there closes); a member is online while one of those rows is fresh, so a
process that died without a word stops counting after ``FRESH``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from rollbook.server.models import Member, Presence

FRESH = timedelta(seconds=30)  # three heartbeats (server.presence.HEARTBEAT)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def mark(session: Session, process: str, present: list[tuple[int, int]]) -> None:
    """These (chronicle, member) pairs have a feed open in ``process``, now."""
    moment = _stamp(datetime.now(UTC))
    for chronicle_id, member_id in present:
        session.execute(delete(Presence).where(Presence.chronicle_id == chronicle_id, Presence.member_id == member_id,
                                               Presence.process == process))
        session.add(Presence(chronicle_id=chronicle_id, member_id=member_id, process=process, seen_at=moment))


def unmark(session: Session, process: str, gone: list[tuple[int, int]]) -> None:
    """These (chronicle, member) pairs have no feed open in ``process`` any more."""
    for chronicle_id, member_id in gone:
        session.execute(delete(Presence).where(Presence.chronicle_id == chronicle_id, Presence.member_id == member_id,
                                               Presence.process == process))


def online(session: Session, member: Member) -> set[int]:
    """The members of ``member``'s chronicle with a live feed open on some process (a fresh row)."""
    cutoff = _stamp(datetime.now(UTC) - FRESH)
    return set(session.scalars(select(Presence.member_id).where(Presence.chronicle_id == member.chronicle_id,
                                                                Presence.seen_at >= cutoff)))
