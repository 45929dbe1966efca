"""Chronicles, members, characters, the append-only receipt log and idempotency keys.

Revision ID: 0001_chronicles
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0001_chronicles"
down_revision = None
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")

# The log refuses UPDATE and DELETE in the database itself, whoever connects.
SQLITE_TRIGGERS = (
    """
    CREATE TRIGGER log_entries_no_update BEFORE UPDATE ON log_entries
    BEGIN SELECT RAISE(ABORT, 'rollbook: log entries are append-only (UPDATE refused)'); END
    """,
    """
    CREATE TRIGGER log_entries_no_delete BEFORE DELETE ON log_entries
    BEGIN SELECT RAISE(ABORT, 'rollbook: log entries are append-only (DELETE refused)'); END
    """,
)

POSTGRESQL_TRIGGERS = (
    """
    CREATE FUNCTION rollbook_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'rollbook: log entries are append-only (% refused)', TG_OP
            USING ERRCODE = 'restrict_violation';
    END
    $$
    """,
    """
    CREATE TRIGGER log_entries_no_update_delete BEFORE UPDATE OR DELETE ON log_entries
    FOR EACH ROW EXECUTE FUNCTION rollbook_log_append_only()
    """,
    """
    CREATE TRIGGER log_entries_no_truncate BEFORE TRUNCATE ON log_entries
    FOR EACH STATEMENT EXECUTE FUNCTION rollbook_log_append_only()
    """,
    # Every app process LISTENs on this channel: a roll committed anywhere wakes every live feed.
    """
    CREATE FUNCTION rollbook_log_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('rollbook_log', NEW.chronicle_id::text || ':' || NEW.seq::text);
        RETURN NULL;
    END
    $$
    """,
    """
    CREATE TRIGGER log_entries_notify AFTER INSERT ON log_entries
    FOR EACH ROW EXECUTE FUNCTION rollbook_log_notify()
    """,
)


def upgrade() -> None:
    op.create_table(
        "chronicles",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("difficulty", sa.Integer, nullable=True),
        sa.Column("invitation_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chronicles"),
        sa.UniqueConstraint("invitation_hash", name="uq_chronicles_invitation_hash"),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_members"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_members_chronicle_id_chronicles"),
        sa.UniqueConstraint("token_hash", name="uq_members_token_hash"),
    )
    op.create_index("ix_members_chronicle_id", "members", ["chronicle_id"])
    op.create_table(
        "characters",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("owner_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("sheet", Json, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("difficulty", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_characters"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_characters_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["owner_id"], ["members.id"], name="fk_characters_owner_id_members"),
    )
    op.create_index("ix_characters_chronicle_id", "characters", ["chronicle_id"])
    op.create_index("ix_characters_owner_id", "characters", ["owner_id"])
    op.create_table(
        "log_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("entry_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("actor", Json, nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False),
        sa.Column("receipt", Json, nullable=False),
        sa.Column("character_id", sa.Integer, nullable=True),
        sa.Column("refers_to", sa.Integer, nullable=True),
        sa.Column("effects", Json, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_log_entries"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_log_entries_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["character_id"], ["characters.id"], name="fk_log_entries_character_id_characters"),
        sa.UniqueConstraint("chronicle_id", "seq", name="uq_log_entries_chronicle_seq"),
    )
    op.create_index("ix_log_entries_chronicle_id", "log_entries", ["chronicle_id"])
    op.create_table(
        "idempotency_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("scope", sa.String(64), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_idempotency_keys"),
        sa.UniqueConstraint("scope", "key_hash", name="uq_idempotency_keys_scope_key"),
    )

    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for statement in SQLITE_TRIGGERS:
            op.execute(statement)
    elif dialect == "postgresql":
        for statement in POSTGRESQL_TRIGGERS:
            op.execute(statement)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS log_entries_notify ON log_entries")
        op.execute("DROP TRIGGER IF EXISTS log_entries_no_truncate ON log_entries")
        op.execute("DROP TRIGGER IF EXISTS log_entries_no_update_delete ON log_entries")
        op.execute("DROP FUNCTION IF EXISTS rollbook_log_notify()")
        op.execute("DROP FUNCTION IF EXISTS rollbook_log_append_only()")
    elif dialect == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS log_entries_no_update")
        op.execute("DROP TRIGGER IF EXISTS log_entries_no_delete")
    op.drop_table("idempotency_keys")
    op.drop_table("log_entries")
    op.drop_table("characters")
    op.drop_table("members")
    op.drop_table("chronicles")
