"""SQLAlchemy 2 models. The schema itself is created by the Alembic migrations (``migrations/``).

Timestamps are ISO 8601 UTC strings (``2025-01-31T20:15:03.123456Z``): the log hashes its
``created_at`` exactly as stored, so no database may round or re-zone it.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, MetaData, String, Text, UniqueConstraint
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


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Chronicle(Base):
    __tablename__ = "chronicles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(16))
    mode: Mapped[str] = mapped_column(String(8))  # strict | casual
    language: Mapped[str] = mapped_column(String(8))  # en | fr | es
    difficulty: Mapped[int | None] = mapped_column(Integer, nullable=True)  # standing difficulty
    invitation_hash: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    created_at: Mapped[str] = mapped_column(String(32))


class Member(Base):
    __tablename__ = "members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    chronicle_id: Mapped[int] = mapped_column(ForeignKey("chronicles.id"), index=True)
    name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))  # storyteller | player
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the bearer token
    created_at: Mapped[str] = mapped_column(String(32))


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


class LogEntry(Base):
    """One entry of a chronicle's append-only, hash-chained log (no UPDATE, no DELETE: triggers)."""

    __tablename__ = "log_entries"
    __table_args__ = (UniqueConstraint("chronicle_id", "seq", name="uq_log_entries_chronicle_seq"),)

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
    refers_to: Mapped[int | None] = mapped_column(Integer, nullable=True)  # seq of the entry followed up / revealed
    effects: Mapped[list[Any] | None] = mapped_column(Json, nullable=True)


class IdempotencyRecord(Base):
    """The stored response of a state-changing request, by (scope, sha256 of the key)."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("scope", "key_hash", name="uq_idempotency_keys_scope_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(64))  # member:<id> or anonymous
    key_hash: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str] = mapped_column(String(64))  # sha256 of method, path and canonical body
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[str] = mapped_column(Text)  # the response body; a bearer token in it is sealed
    created_at: Mapped[str] = mapped_column(String(32))
