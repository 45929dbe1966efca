"""The log's compulsion entries indexed by character (V5-14): each V5 test reads its character's
latest ``compulsion`` or ``compulsion_end`` entry (``usecases.compulsions.in_force``), and with no
index on the character the read walked the chronicle's log back from its last entry, to its first
when no compulsion was ever called: a V5 roll's cost grew with the chronicle's log (a sixth of a V5
roll's CPU at 1,300 entries, bench/README.md). A partial index, on these two kinds only: the other
entries (every roll) do not write it, and it holds as many rows as compulsions called and ended.

Revision ID: 0015_compulsion_index
Revises: 0014_notify_after_commit
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_compulsion_index"
down_revision = "0014_notify_after_commit"
branch_labels = None
depends_on = None

KINDS = "kind IN ('compulsion', 'compulsion_end')"  # models.COMPULSION_KINDS_SQL when this was written


def upgrade() -> None:
    op.create_index(
        "ix_log_entries_compulsions",
        "log_entries",
        ["character_id", "seq"],
        sqlite_where=sa.text(KINDS),
        postgresql_where=sa.text(KINDS),
    )


def downgrade() -> None:
    op.drop_index("ix_log_entries_compulsions", table_name="log_entries")
