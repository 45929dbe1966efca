"""The table rules in force in a chronicle (SPEC TR-1): ``chronicles.table_rules``, a JSON list of
TR-2 ids, changed only with a ``settings`` entry of the log made by the Storyteller (A-5).

Revision ID: 0008_table_rules
Revises: 0007_fair_streams
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0008_table_rules"
down_revision = "0007_fair_streams"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chronicles", sa.Column("table_rules", sa.JSON().with_variant(JSONB(), "postgresql"),
                                          nullable=False, server_default=sa.text("'[]'")))


def downgrade() -> None:
    op.drop_column("chronicles", "table_rules")
