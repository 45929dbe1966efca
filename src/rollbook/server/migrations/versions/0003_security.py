"""Security: tokens in their own table (keys and sessions, revocable, optionally expiring), members
removable, idempotency records that expire.

- ``member_tokens``: every ``members.token_hash`` becomes a ``key`` row; the column goes.
- ``members.removed_at``: the Storyteller removed the member (their tokens are revoked).
- ``idempotency_keys.expires_at``: a stored response is kept a day, then swept (existing rows expire
  at once).

Revision ID: 0003_security
Revises: 0002_authority
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_security"
down_revision = "0002_authority"
branch_labels = None
depends_on = None


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def upgrade() -> None:
    if _sqlite():
        op.execute("CREATE TEMPORARY TABLE member_keys_0003 AS SELECT id, token_hash, created_at FROM members")
        _rebuild_members_on_sqlite()
    op.create_table(
        "member_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("member_id", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.String(32), nullable=True),
        sa.Column("revoked_at", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_member_tokens"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_member_tokens_member_id_members"),
        sa.UniqueConstraint("token_hash", name="uq_member_tokens_token_hash"),
    )
    op.create_index("ix_member_tokens_member_id", "member_tokens", ["member_id"])
    source = "member_keys_0003" if _sqlite() else "members"
    op.execute("INSERT INTO member_tokens (member_id, token_hash, kind, created_at) "
               f"SELECT id, token_hash, 'key', created_at FROM {source}")
    if _sqlite():
        op.execute("DROP TABLE member_keys_0003")
    else:
        op.drop_constraint("uq_members_token_hash", "members", type_="unique")
        op.drop_column("members", "token_hash")
        op.add_column("members", sa.Column("removed_at", sa.String(32), nullable=True))

    op.add_column("idempotency_keys", sa.Column("expires_at", sa.String(32), nullable=True))
    op.execute("UPDATE idempotency_keys SET expires_at = created_at")
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.alter_column("expires_at", existing_type=sa.String(32), nullable=False)
    op.create_index("ix_idempotency_keys_expires_at", "idempotency_keys", ["expires_at"])


def _rebuild_members_on_sqlite() -> None:
    """SQLite cannot drop a UNIQUE column: ``members`` is rebuilt (a new table, the rows copied with
    their ids, the old one dropped, the new one renamed). Dropping a table that others reference
    needs its foreign keys off, which SQLite allows only between transactions: the migrations so far
    are committed (at revision 0002), the keys switched off, and the rebuild runs in a new write
    transaction that ``PRAGMA foreign_key_check`` must find clean (``db.upgrade`` switches the keys
    back on when the migration is over)."""
    bind = op.get_bind()
    bind.exec_driver_sql("COMMIT")
    bind.exec_driver_sql("PRAGMA foreign_keys = OFF")
    bind.exec_driver_sql("BEGIN IMMEDIATE")
    op.create_table(
        "members_0003",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("removed_at", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_members"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_members_chronicle_id_chronicles"),
    )
    op.execute("INSERT INTO members_0003 (id, chronicle_id, name, role, created_at) "
               "SELECT id, chronicle_id, name, role, created_at FROM members")
    op.execute("DROP TABLE members")
    op.execute("ALTER TABLE members_0003 RENAME TO members")
    op.create_index("ix_members_chronicle_id", "members", ["chronicle_id"])
    broken = bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"0003_security: foreign keys broken by the rebuild of members: {broken[:5]}")


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_expires_at", table_name="idempotency_keys")
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("expires_at")
    if _sqlite():
        op.execute("PRAGMA defer_foreign_keys = ON")
    with op.batch_alter_table("members") as batch:
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
        batch.drop_column("removed_at")
    # the oldest live key of each member becomes its token again (sessions are lost)
    op.execute("UPDATE members SET token_hash = (SELECT t.token_hash FROM member_tokens t WHERE t.member_id = members.id "
               "AND t.kind = 'key' AND t.revoked_at IS NULL ORDER BY t.id LIMIT 1)")
    op.execute("UPDATE members SET token_hash = 'revoked-' || id WHERE token_hash IS NULL")
    with op.batch_alter_table("members") as batch:
        batch.alter_column("token_hash", existing_type=sa.String(64), nullable=False)
        batch.create_unique_constraint("uq_members_token_hash", ["token_hash"])
    op.drop_index("ix_member_tokens_member_id", table_name="member_tokens")
    op.drop_table("member_tokens")
