"""SQLAlchemy 2 models. The schema itself is created by the Alembic migrations (``migrations/``).

Timestamps are ISO 8601 UTC strings (``2025-01-31T20:15:03.123456Z``): the log hashes its
``created_at`` exactly as stored, so no database may round or re-zone it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from sqlalchemy import JSON, ForeignKey, Index, Integer, MetaData, String, Table, Text, UniqueConstraint, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Json = JSON().with_variant(JSONB(), "postgresql")

# The log's compulsion entries (V5-14), as the partial index on them says it: a query uses the index
# only with this very condition, its kinds written out (``usecases.compulsions.in_force``).
COMPULSION_KINDS_SQL = "kind IN ('compulsion', 'compulsion_end')"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    if TYPE_CHECKING:  # every model here is declared with its own table (SQLAlchemy types it FromClause)
        __table__: ClassVar[Table]


class Chronicle(Base):
    __tablename__ = "chronicles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(16))
    mode: Mapped[str] = mapped_column(String(8))  # strict | casual
    language: Mapped[str] = mapped_column(String(8))  # en | fr | es
    difficulty: Mapped[int | None] = mapped_column(Integer, nullable=True)  # standing difficulty
    # TR-1: the table rules in force (TR-2 ids), changed only with a Storyteller's ``settings`` entry
    table_rules: Mapped[list] = mapped_column(Json, default=list, server_default=text("'[]'"))
    invitation_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    created_at: Mapped[str] = mapped_column(String(32))


class Member(Base):
    __tablename__ = "members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))  # storyteller | player
    created_at: Mapped[str] = mapped_column(String(32))
    removed_at: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the Storyteller removed them


class Caller(Protocol):
    """The member a use case acts for or reads as: the attributes it reads (a ``Member``'s columns).
    A signed request hands the use cases the frozen ``auth.MemberRow`` its token check read; solo
    play, a backup's replay and the Discord bot hand them an ORM ``Member``. Read-only: a change to
    a member is a use case's own UPDATE of its row, never of this object."""

    @property
    def id(self) -> int: ...
    @property
    def chronicle_id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def role(self) -> str: ...  # storyteller | player
    @property
    def created_at(self) -> str: ...
    @property
    def removed_at(self) -> str | None: ...


class MemberToken(Base):
    """A bearer token of a member, stored as its SHA-256 digest: their ``key`` (given when they create
    or join a chronicle, replaced by a rotation) or a ``session`` opened with it (revocable, and
    expiring when the server is configured so). A token opens nothing once revoked or expired."""

    __tablename__ = "member_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the bearer token
    kind: Mapped[str] = mapped_column(String(8))  # key | session
    created_at: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[str | None] = mapped_column(String(32), nullable=True)
    revoked_at: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)


class Character(Base):
    __tablename__ = "characters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(200))
    sheet: Mapped[dict[str, Any]] = mapped_column(Json)
    version: Mapped[int] = mapped_column(Integer, default=1)  # UPDATE ... WHERE version = :v
    difficulty: Mapped[int | None] = mapped_column(Integer, nullable=True)  # standing difficulty
    created_at: Mapped[str] = mapped_column(String(32))
    updated_at: Mapped[str] = mapped_column(String(32))
    # the Storyteller removed it (its ``removal`` entry's time): no longer found, listed or rolled for
    removed_at: Mapped[str | None] = mapped_column(String(32), nullable=True)


class LogEntry(Base):
    """One entry of a chronicle's append-only, hash-chained log (no UPDATE, no DELETE: triggers)."""

    __tablename__ = "log_entries"
    __table_args__ = (
        UniqueConstraint("chronicle_id", "seq", name="uq_log_entries_chronicle_seq"),
        # V5-14: a character's latest compulsion call or end, read by each of its V5 tests
        # (``usecases.compulsions.in_force``, whose kinds are these literals, as the planners require
        # to use a partial index): a seek, where the chronicle's log was walked back to its first entry
        # when none was ever called. Partial: the rolls' inserts do not write it (migration 0015).
        Index(
            "ix_log_entries_compulsions",
            "character_id",
            "seq",
            sqlite_where=text(COMPULSION_KINDS_SQL),
            postgresql_where=text(COMPULSION_KINDS_SQL),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    prev_hash: Mapped[str] = mapped_column(String(64))
    entry_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))  # roll | reroll | adjust | reveal
    actor: Mapped[dict[str, Any]] = mapped_column(Json)
    visibility: Mapped[str] = mapped_column(String(8))  # public | hidden
    receipt: Mapped[dict[str, Any]] = mapped_column(Json)
    # Not hashed: indexes for the server's own look-ups, derivable from the hashed part.
    character_id: Mapped[int | None] = mapped_column(ForeignKey("characters.id"), nullable=True)
    refers_to: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # seq of the entry followed up / revealed
    effects: Mapped[list[Any] | None] = mapped_column(Json, nullable=True)


class LoggedEntry(Protocol):
    """An entry of the log as a view or a use case reads it (a ``LogEntry``'s columns): the ORM
    ``LogEntry`` a query loads, or the frozen ``store.AppendedEntry`` ``append_entry`` returns for
    the entry it wrote. Read-only: the log is append-only."""

    @property
    def id(self) -> int: ...
    @property
    def chronicle_id(self) -> int: ...
    @property
    def seq(self) -> int: ...
    @property
    def prev_hash(self) -> str: ...
    @property
    def entry_hash(self) -> str: ...
    @property
    def created_at(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def actor(self) -> dict[str, Any]: ...
    @property
    def visibility(self) -> str: ...
    @property
    def receipt(self) -> dict[str, Any]: ...
    @property
    def character_id(self) -> int | None: ...
    @property
    def refers_to(self) -> int | None: ...
    @property
    def effects(self) -> list[Any] | None: ...


class IdempotencyRecord(Base):
    """The stored response of a state-changing request, by (scope, sha256 of the key)."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("scope", "key_hash", name="uq_idempotency_keys_scope_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(64))  # member:<id> or anonymous
    key_hash: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(64))  # sha256 of method, path and canonical body
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)  # the response body; one holding a secret is sealed (AES-GCM)
    created_at: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[str] = mapped_column(String(32), index=True)  # swept after it (a day)


# --- the table's authority (SPEC A-1 … A-4) -------------------------------------------------------
# The log is the record (every ask, grant, refusal, standing grant, scene and turn is an entry);
# these rows are the server's current state of them, written in the same transaction as the entry.


class Scene(Base):
    """A scene of a chronicle (A-3): at most one open at a time; ``turn`` 0 until the Storyteller
    starts the turns, then 1, 2, …; ``turn_seq`` is the log entry that began the running turn."""

    __tablename__ = "scenes"
    __table_args__ = (
        UniqueConstraint("chronicle_id", "number", name="uq_scenes_chronicle_number"),
        Index(
            "uq_scenes_one_open",
            "chronicle_id",
            unique=True,
            sqlite_where=text("closed_seq IS NULL"),
            postgresql_where=text("closed_seq IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, … in the chronicle
    name: Mapped[str] = mapped_column(String(200))
    turn: Mapped[int] = mapped_column(Integer, default=0)
    turn_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    opened_seq: Mapped[int] = mapped_column(Integer)
    closed_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[str] = mapped_column(String(32))


class Ask(Base):
    """A player's roll that carries edges (A-1): it waits for the Storyteller's decision."""

    __tablename__ = "asks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    character_id: Mapped[int] = mapped_column(ForeignKey("characters.id"), index=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))  # who asked
    kind: Mapped[str] = mapped_column(String(32))  # the action's kind
    player: Mapped[dict[str, Any]] = mapped_column(Json)  # the player's part of the action
    asked: Mapped[dict[str, Any]] = mapped_column(Json)  # the edges asked (``hidden`` included)
    seq: Mapped[int] = mapped_column(Integer)  # its log entry
    created_at: Mapped[str] = mapped_column(String(32))


class Grant(Base):
    """The Storyteller's decision on an ask: granted as asked, granted changed, or refused (or the
    player withdrew it). One per ask: ``UNIQUE (ask_id)`` makes a second decision fail in the
    database itself, so two concurrent grants of one ask make one roll."""

    __tablename__ = "grants"
    __table_args__ = (UniqueConstraint("ask_id", name="uq_grants_ask_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    ask_id: Mapped[int] = mapped_column(ForeignKey("asks.id"))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))  # who decided
    decision: Mapped[str] = mapped_column(String(16))  # as_asked | changed | refused | withdrawn
    edges: Mapped[dict[str, Any]] = mapped_column(Json)  # the edges granted (empty when refused)
    seq: Mapped[int] = mapped_column(Integer)  # its log entry
    roll_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the roll made under it
    created_at: Mapped[str] = mapped_column(String(32))


class StandingGrant(Base):
    """Edges the Storyteller grants ahead (A-1), like the standing difficulty: for one character
    or every character (``character_id`` null), until ended, or until the scene ends."""

    __tablename__ = "standing_grants"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    character_id: Mapped[int | None] = mapped_column(ForeignKey("characters.id"), nullable=True)
    scene_id: Mapped[int | None] = mapped_column(ForeignKey("scenes.id"), nullable=True)
    edges: Mapped[dict[str, Any]] = mapped_column(Json)
    seq: Mapped[int] = mapped_column(Integer)  # the log entry that set it
    ended_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the log entry that ended it
    created_at: Mapped[str] = mapped_column(String(32))


# --- provably fair dice (SPEC F-1 … F-6) ---------------------------------------------------------
# The log is the record (``seed_commit``, ``seed_reveal``, ``client_seed`` entries and each roll's
# ``"fair"``); these rows hold what the server needs to roll: the sealed seed and the last nonce.


class FairSeed(Base):
    """A chronicle's server seed (F-1): at most one in use (not revealed) per chronicle and stream
    (F-7: ``public`` for visible rolls, ``hidden`` for hidden rolls and their follow-ups); ``sealed``
    is the seed encrypted under the operator's secret (``server.seal``), never served; ``nonce``
    the last nonce a roll or follow-up took under it (F-3)."""

    __tablename__ = "fair_seeds"
    __table_args__ = (
        UniqueConstraint("commitment", name="uq_fair_seeds_commitment"),
        Index(
            "uq_fair_seeds_one_in_use",
            "chronicle_id",
            "stream",
            unique=True,
            sqlite_where=text("revealed_seq IS NULL"),
            postgresql_where=text("revealed_seq IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    commitment: Mapped[str] = mapped_column(String(64))
    stream: Mapped[str] = mapped_column(String(8), default="public", server_default="public")  # F-7
    sealed: Mapped[str] = mapped_column(Text)
    nonce: Mapped[int] = mapped_column(Integer, default=0)
    committed_seq: Mapped[int] = mapped_column(Integer)
    revealed_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[str] = mapped_column(String(32))


class ClientSeed(Base):
    """A member's client seed (F-2), as last set (the ``client_seed`` log entry ``seq``); a member
    with no row uses ``""``."""

    __tablename__ = "client_seeds"

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    client_seed: Mapped[str] = mapped_column(Text)
    seq: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[str] = mapped_column(String(32))


# --- Discord (rollbook.discord.store) --------------------------------------------------
# Discord ids are snowflakes: kept as the decimal strings Discord sends (they pass 2**53).


class DiscordLink(Base):
    """A Discord user acting as a member in one channel of one guild (``/link``): ``token_sealed``
    is a session of that member sealed under the operator's secret; every interaction opens it with
    ``auth.authenticate``, so a member removed, or a key rotated, ends the link at once."""

    __tablename__ = "discord_links"
    __table_args__ = (
        UniqueConstraint("guild_id", "channel_id", "discord_user_id", name="uq_discord_links_where_who"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[str] = mapped_column(String(32))
    channel_id: Mapped[str] = mapped_column(String(32))
    discord_user_id: Mapped[str] = mapped_column(String(32))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    token_sealed: Mapped[str] = mapped_column(Text)
    created_at: Mapped[str] = mapped_column(String(32))


class DiscordChannel(Base):
    """A Discord channel bound to a chronicle by its Storyteller (``/chronicle bind``): where the
    chronicle's public entries are posted (``webhook_sealed``: the channel webhook's URL, sealed);
    ``last_posted`` the seq of the last entry the poster handled."""

    __tablename__ = "discord_channels"
    __table_args__ = (UniqueConstraint("channel_id", name="uq_discord_channels_channel_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[str] = mapped_column(String(32))
    channel_id: Mapped[str] = mapped_column(String(32))
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    bound_by: Mapped[int] = mapped_column(ForeignKey("members.id"))
    webhook_sealed: Mapped[str | None] = mapped_column(Text, nullable=True)
    last_posted: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[str] = mapped_column(String(32))
    updated_at: Mapped[str] = mapped_column(String(32))


class DiscordAnswered(Base):
    """An entry an interaction already showed in a bound channel: the poster does not post it again."""

    __tablename__ = "discord_answered"

    channel_row: Mapped[int] = mapped_column(ForeignKey("discord_channels.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)


# --- saved rolls (usecases.saved_rolls) -----------------------------------


class SavedRoll(Base):
    """A roll a member named for one character ("Shoot with the Glock", "Rouse"), repeated in one tap:
    its ``action`` as the member sent it (an edge in it is asked again at each repeat, A-1) and whether
    it is hidden. A member's own: no one else lists, repeats or deletes it."""

    __tablename__ = "saved_rolls"
    __table_args__ = (
        UniqueConstraint("member_id", "character_id", "name", name="uq_saved_rolls_member_character_name"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    character_id: Mapped[int] = mapped_column(ForeignKey("characters.id"))
    name: Mapped[str] = mapped_column(String(80))
    action: Mapped[dict[str, Any]] = mapped_column(Json)
    hidden: Mapped[int] = mapped_column(Integer, default=0)  # 1: a hidden roll
    created_at: Mapped[str] = mapped_column(String(32))


# --- presence (server.presence) ----------------------------


class Presence(Base):
    """A member with a live feed of their chronicle open in one server process: written by that
    process when the member's first feed opens there, refreshed every heartbeat, deleted when their
    last feed there closes. A member is online while any process's row is fresh (a process that died
    stops refreshing: its rows age out)."""

    __tablename__ = "presence"

    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), primary_key=True)
    process: Mapped[str] = mapped_column(String(80), primary_key=True)
    seen_at: Mapped[str] = mapped_column(String(32))
