"""A member's tokens (``member_tokens``): sessions opened and closed, a key rotated, a member
removed by the Storyteller (every token revoked, a ``member_removed`` log entry).

A member holds one live **key** (given when they create or join a chronicle) and any number of
**sessions** opened with it (the web table's sign-in; they expire after ``auth.session_ttl()``
when the server sets one). Every function takes the caller's ``Session`` and never commits.
"""

from __future__ import annotations

from datetime import timedelta
from enum import Enum, auto
from typing import Literal

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from rollbook.entries import MemberRemovedReceipt
from rollbook.server import auth
from rollbook.server.access import STORYTELLER, find_member, lock_chronicle, require_storyteller
from rollbook.server.models import Caller, Character, Chronicle, Member, MemberToken
from rollbook.server.problems import ProblemError
from rollbook.server.store import actor_of, append_entry
from rollbook.server.tx import now
from rollbook.server.views import member_view


class _Default(Enum):
    """``open_session``'s ``ttl`` when none is given (``None`` is a ttl: a session that lasts)."""

    SERVERS = auto()  # the server's setting


def open_session(
    session: Session, member: Caller, *, ttl: timedelta | None | Literal[_Default.SERVERS] = _Default.SERVERS
) -> dict:
    """A new session token for the member: ``{"token", "expires_at"}`` (``expires_at`` null: it lasts
    until closed). ``ttl`` defaults to the server's setting (``auth.session_ttl()``)."""
    lock_chronicle(
        session, member.chronicle_id
    )  # one order of locks; a removal waits for it, or it for the removal
    _require_present(session, member)
    return auth.issue(
        session, member, auth.SESSION, ttl=auth.session_ttl() if ttl is _Default.SERVERS else ttl
    )


def close_session(session: Session, token: str | None) -> dict:
    """Revoke a session token (signing out). A key is not a session: rotate it instead."""
    row = auth.live_token(session, token)
    if row is None:
        raise ProblemError(401, "token_invalid")
    if row.kind != auth.SESSION:
        raise ProblemError(409, "not_a_session")
    row.revoked_at = now()
    session.flush()
    _revoked(session, session.get_one(Member, row.member_id).chronicle_id)
    return {"closed": True}


def rotate_key(session: Session, member: Caller) -> dict:
    """A new key for the member; every older key and every session of theirs is revoked."""
    lock_chronicle(session, member.chronicle_id)
    _require_present(session, member)
    _revoke_all(session, member.id)
    _revoked(session, member.chronicle_id)
    issued = auth.issue(session, member, auth.KEY)
    return {"member": member_view(member), "token": issued["token"]}


def remove_member(session: Session, storyteller: Caller, member_id: int) -> dict:
    """The Storyteller removes a member: every token of theirs is revoked, their characters become
    the Storyteller's to give (no owner), and the log records it (``member_removed``). The invitation
    is replaced (the removed player cannot rejoin with the code they joined by); the
    answer holds the new one (``invitation``, shown once, sealed in a stored idempotent answer)."""
    require_storyteller(storyteller, "remove_member")
    chronicle = lock_chronicle(session, storyteller.chronicle_id)
    target = find_member(session, storyteller.chronicle_id, member_id)
    if target.removed_at is not None:
        raise ProblemError(404, "member_not_found", member=member_id)
    if target.role == STORYTELLER:
        raise ProblemError(409, "storyteller_not_removable")
    stamp = now()
    target.removed_at = stamp
    invitation = auth.new_invitation()
    chronicle.invitation_hash = auth.digest(invitation)
    _revoke_all(session, target.id, stamp)
    _revoked(session, chronicle.id)
    released = (
        session.execute(
            update(Character)
            .where(Character.chronicle_id == chronicle.id, Character.owner_id == target.id)
            .values(owner_id=None, version=Character.version + 1, updated_at=stamp)
            .returning(Character.id)
            .execution_options(synchronize_session=False)
        )
        .scalars()
        .all()
    )
    entry = append_entry(
        session,
        chronicle,
        kind="member_removed",
        actor=actor_of(storyteller),
        visibility="public",
        receipt=MemberRemovedReceipt(
            member=target.id, name=target.name, role=target.role, characters=sorted(released)
        ),
    )
    # their pending asks go with them, each withdrawal logged after the removal
    from rollbook.server.usecases.grants import withdraw_pending

    withdraw_pending(session, chronicle, storyteller, target.id, "member_removed")
    session.flush()
    return {
        "member": {**member_view(target), "removed_at": stamp},
        "characters": sorted(released),
        "entry": {"seq": entry.seq, "entry_hash": entry.entry_hash},
        "invitation": invitation,
    }


def invitation_current(session: Session, member: Caller, invitation: str | None) -> bool:
    """Whether ``invitation`` is the chronicle's invitation in force (a page shows a code it holds only
    while it still opens the chronicle: a removal or a new code replaced it otherwise)."""
    if not invitation:
        return False
    hashed = session.scalars(
        select(Chronicle.invitation_hash).where(Chronicle.id == member.chronicle_id)
    ).first()
    return hashed is not None and hashed == auth.digest(invitation)


def _require_present(session: Session, member: Caller) -> None:
    current = session.get(Member, member.id)
    if current is None or current.removed_at is not None:
        raise ProblemError(401, "token_invalid")


def _revoked(session: Session, chronicle_id: int) -> None:
    """Tokens of this chronicle's members were revoked in this transaction: once it commits, the
    process's hub ends the live feeds opened with them at once (``Database.after_revoke``), not at its
    next catch-up. Other processes hear it by NOTIFY (PostgreSQL, migration 0009)
    or their catch-up (SQLite)."""
    session.info.setdefault("revoked", set()).add(chronicle_id)


def _revoke_all(session: Session, member_id: int, stamp: str | None = None) -> None:
    session.execute(
        update(MemberToken)
        .where(MemberToken.member_id == member_id, MemberToken.revoked_at.is_(None))
        .values(revoked_at=stamp or now())
        .execution_options(synchronize_session=False)
    )
