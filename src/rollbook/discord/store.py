"""The Discord tables (``server.models``: ``discord_links``, ``discord_channels``,
``discord_answered``), read and written in the caller's transaction; nothing here commits.

A link holds a **session** of the member (``usecases.members.open_session``), sealed under the
operator's secret (``server.seal``, its context naming the guild, channel and user): an interaction
opens it with ``auth.authenticate``, the one check of a token the API and the pages use, so a
member removed or a key rotated ends the link at once, with no second copy of that query.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, select, text, update
from sqlalchemy.orm import Session

from rollbook.server import auth, seal
from rollbook.server.access import require_storyteller
from rollbook.server.db import changed_rows
from rollbook.server.models import Caller, Character, DiscordAnswered, DiscordChannel, DiscordLink, Member
from rollbook.server.problems import ProblemError
from rollbook.server.store import log_head
from rollbook.server.tx import now
from rollbook.server.usecases import members as member_cases


@dataclass(frozen=True)
class Channel:
    id: int
    guild_id: str
    channel_id: str
    chronicle_id: int
    last_posted: int
    has_webhook: bool


def _channel(row: DiscordChannel) -> Channel:
    return Channel(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        chronicle_id=row.chronicle_id,
        last_posted=row.last_posted,
        has_webhook=row.webhook_sealed is not None,
    )


def _link_context(guild_id: str, channel_id: str, user_id: str) -> str:
    return f"discord-link:{guild_id}:{channel_id}:{user_id}"


def _webhook_context(channel_id: str) -> str:
    return f"discord-webhook:{channel_id}"


# --- links ---------------------------------------------------------------------------------------


def _link_row(session: Session, guild_id: str, channel_id: str, user_id: str) -> DiscordLink | None:
    return session.scalars(
        select(DiscordLink).where(
            DiscordLink.guild_id == guild_id,
            DiscordLink.channel_id == channel_id,
            DiscordLink.discord_user_id == user_id,
        )
    ).first()


def link(session: Session, guild_id: str, channel_id: str, user_id: str, member: Caller) -> None:
    """Make ``user_id`` act as ``member`` in this channel (an earlier link there is closed first)."""
    unlink(session, guild_id, channel_id, user_id)
    token = member_cases.open_session(session, member, ttl=None)["token"]
    sealed = seal.seal(
        token.encode("ascii"), member.chronicle_id, _link_context(guild_id, channel_id, user_id)
    )
    session.add(
        DiscordLink(
            guild_id=guild_id,
            channel_id=channel_id,
            discord_user_id=user_id,
            member_id=member.id,
            token_sealed=sealed,
            created_at=now(),
        )
    )
    session.flush()


def _token(row: DiscordLink, chronicle_id: int) -> str | None:
    try:
        return seal.unseal(
            row.token_sealed, chronicle_id, _link_context(row.guild_id, row.channel_id, row.discord_user_id)
        ).decode("ascii")
    except seal.SecretKeyError:  # the operator's secret changed: the link opens nothing
        return None


def linked_member(session: Session, guild_id: str, channel_id: str, user_id: str) -> auth.MemberRow | None:
    """The member this Discord user acts as here, checked now (``auth.authenticate``); None when
    unlinked, or when the member was removed or their session revoked."""
    row = _link_row(session, guild_id, channel_id, user_id)
    if row is None:
        return None
    chronicle_id = session.scalars(select(Member.chronicle_id).where(Member.id == row.member_id)).one()
    token = _token(row, chronicle_id)
    return auth.authenticate(session, token) if token else None


def unlink(session: Session, guild_id: str, channel_id: str, user_id: str) -> bool:
    """End this user's link here (its session revoked): whether there was one."""
    row = _link_row(session, guild_id, channel_id, user_id)
    if row is None:
        return False
    chronicle_id = session.scalars(select(Member.chronicle_id).where(Member.id == row.member_id)).one()
    token = _token(row, chronicle_id)
    if token is not None and auth.live_token(session, token) is not None:
        member_cases.close_session(session, token)
    session.delete(row)
    session.flush()
    return True


def users_acting_for(
    session: Session,
    guild_id: str,
    channel_ids: Iterable[str],
    chronicle_id: int,
    character_ids: Iterable[int],
) -> list[str]:
    """The Discord users linked in these channels (a thread's and its channel's) who act for these
    characters, in their order: each one's player, an NPC's Storyteller (``access.may_act_for``'s
    rule), their link checked now (``linked_member``): whom a step is offered to, mentioned."""
    channels = [c for c in channel_ids if c]
    tellers: list[int] | None = None
    found: list[str] = []
    for character_id in character_ids:
        if character_id is None:
            continue
        owner = session.scalars(
            select(Character.owner_id).where(
                Character.chronicle_id == chronicle_id, Character.id == int(character_id)
            )
        ).first()
        if owner is None:  # an NPC (or no such character): the Storyteller acts for it
            if tellers is None:
                tellers = storytellers(session, chronicle_id)
            members = tellers
        else:
            members = [owner]
        for user in users_of(session, guild_id, channels, members):
            if user not in found:
                found.append(user)
    return found


def users_of(
    session: Session, guild_id: str, channel_ids: Iterable[str], members: Iterable[int]
) -> list[str]:
    """The Discord users linked in these channels as one of ``members``, their link checked now."""
    rows = session.scalars(
        select(DiscordLink)
        .where(
            DiscordLink.guild_id == guild_id,
            DiscordLink.channel_id.in_([c for c in channel_ids if c]),
            DiscordLink.member_id.in_(sorted(set(members))),
        )
        .order_by(DiscordLink.id)
    )
    found: list[str] = []
    for row in rows:
        if row.discord_user_id not in found and (
            linked_member(session, row.guild_id, row.channel_id, row.discord_user_id) is not None
        ):
            found.append(row.discord_user_id)
    return found


def storytellers(session: Session, chronicle_id: int) -> list[int]:
    """The chronicle's Storyteller members (not removed)."""
    return list(
        session.scalars(
            select(Member.id).where(
                Member.chronicle_id == chronicle_id,
                Member.role == "storyteller",
                Member.removed_at.is_(None),
            )
        )
    )


# --- channels ------------------------------------------------------------------------------------


def bind_channel(session: Session, guild_id: str, channel_id: str, storyteller: Caller) -> Channel:
    """The Storyteller binds the channel to their chronicle; posting starts after the log's head
    (no history is posted). A channel bound to a chronicle stays its table until that chronicle's
    Storyteller unbinds it (``unbind_channel``): anyone else's bind is refused, or whoever can make
    a chronicle could take the table's channel and post through its webhook."""
    require_storyteller(storyteller, "discord_bind")
    head = log_head(session, storyteller.chronicle_id)["seq"]
    row = session.scalars(select(DiscordChannel).where(DiscordChannel.channel_id == channel_id)).first()
    if row is not None and row.chronicle_id != storyteller.chronicle_id:
        raise ProblemError(403, "discord_channel_taken")
    stamp = now()
    if row is None:
        row = DiscordChannel(
            guild_id=guild_id,
            channel_id=channel_id,
            chronicle_id=storyteller.chronicle_id,
            bound_by=storyteller.id,
            last_posted=head,
            created_at=stamp,
            updated_at=stamp,
        )
        session.add(row)
    elif row.chronicle_id != storyteller.chronicle_id:
        row.chronicle_id, row.bound_by, row.last_posted, row.updated_at = (
            storyteller.chronicle_id,
            storyteller.id,
            head,
            stamp,
        )
        session.execute(delete(DiscordAnswered).where(DiscordAnswered.channel_row == row.id))
    session.flush()
    if (
        session.get_bind().dialect.name == "postgresql"
    ):  # every process's poster follows it now (server.listen)
        session.execute(
            text("SELECT pg_notify('rollbook_discord', :chronicle)"), {"chronicle": str(row.chronicle_id)}
        )
    return _channel(row)


def unbind_channel(session: Session, channel_id: str, storyteller: Caller) -> bool:
    """The bound chronicle's Storyteller ends the channel's binding (its webhook and answered marks
    go with it): whether it was bound. Anyone else is refused, as ``bind_channel`` refuses them."""
    require_storyteller(storyteller, "discord_unbind")
    row = session.scalars(select(DiscordChannel).where(DiscordChannel.channel_id == channel_id)).first()
    if row is None:
        return False
    if row.chronicle_id != storyteller.chronicle_id:
        raise ProblemError(403, "discord_channel_taken")
    session.execute(delete(DiscordAnswered).where(DiscordAnswered.channel_row == row.id))
    session.delete(row)
    session.flush()
    if session.get_bind().dialect.name == "postgresql":  # every process's poster lets it go
        session.execute(
            text("SELECT pg_notify('rollbook_discord', :chronicle)"),
            {"chronicle": str(storyteller.chronicle_id)},
        )
    return True


def channel_of(session: Session, channel_id: str) -> Channel | None:
    row = session.scalars(select(DiscordChannel).where(DiscordChannel.channel_id == channel_id)).first()
    return None if row is None else _channel(row)


def channels_of(session: Session, chronicle_id: int) -> list[Channel]:
    rows = session.scalars(
        select(DiscordChannel).where(DiscordChannel.chronicle_id == chronicle_id).order_by(DiscordChannel.id)
    )
    return [_channel(row) for row in rows]


def webhook_url(session: Session, channel_row_id: int) -> str | None:
    row = session.get(DiscordChannel, channel_row_id)
    if row is None or row.webhook_sealed is None:
        return None
    try:
        return seal.unseal(row.webhook_sealed, row.chronicle_id, _webhook_context(row.channel_id)).decode(
            "utf-8"
        )
    except seal.SecretKeyError:
        return None


def set_webhook(session: Session, channel_row_id: int, url: str) -> None:
    row = session.get(DiscordChannel, channel_row_id)
    if row is None:
        return
    row.webhook_sealed = seal.seal(url.encode("utf-8"), row.chronicle_id, _webhook_context(row.channel_id))
    row.updated_at = now()
    session.flush()


def answered(session: Session, channel_row_id: int, after: int, upto: int) -> set[int]:
    return set(
        session.scalars(
            select(DiscordAnswered.seq).where(
                DiscordAnswered.channel_row == channel_row_id,
                DiscordAnswered.seq > after,
                DiscordAnswered.seq <= upto,
            )
        )
    )


def advance(session: Session, channel_row_id: int, seq: int) -> bool:
    """``last_posted = seq`` only when it was below (never moved back): whether this call moved it."""
    moved = changed_rows(
        session.execute(
            update(DiscordChannel)
            .where(DiscordChannel.id == channel_row_id, DiscordChannel.last_posted < seq)
            .values(last_posted=seq, updated_at=now())
            .execution_options(synchronize_session=False)
        )
    )
    return moved == 1


def mark_answered(session: Session, chronicle_id: int, channel_id: str, seqs: Iterable[int]) -> None:
    """The entries an interaction showed in ``channel_id``, when that channel is bound to their
    chronicle: the poster skips them there."""
    row = session.scalars(
        select(DiscordChannel).where(
            DiscordChannel.channel_id == channel_id, DiscordChannel.chronicle_id == chronicle_id
        )
    ).first()
    if row is None:
        return
    for seq in sorted(set(seqs)):
        if seq > row.last_posted:
            session.add(DiscordAnswered(channel_row=row.id, seq=seq))
    session.flush()


def unshown(session: Session, channel_row_id: int, seqs: Iterable[int]) -> list[int]:
    """Of ``seqs``, those no interaction has shown in the channel yet (``discord_answered``), marked
    shown now: a hidden ask the Storyteller is told of once (the poster never posts a hidden entry,
    so these rows only say it was shown)."""
    wanted = sorted(set(seqs))
    if not wanted:
        return []
    seen = set(
        session.scalars(
            select(DiscordAnswered.seq).where(
                DiscordAnswered.channel_row == channel_row_id, DiscordAnswered.seq.in_(wanted)
            )
        )
    )
    fresh = [seq for seq in wanted if seq not in seen]
    for seq in fresh:
        session.add(DiscordAnswered(channel_row=channel_row_id, seq=seq))
    session.flush()
    return fresh
