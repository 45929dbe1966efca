"""Presence: who has a live feed of their chronicle open, one row per member and server
process, refreshed by a heartbeat (``server.presence``).

Revision ID: 0013_presence
Revises: 0012_saved_rolls
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_presence"
down_revision = "0012_saved_rolls"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("chronicle_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("process", sa.String(80), nullable=False),
        sa.Column("seen_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_presence_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_presence_member_id_members"),
        sa.PrimaryKeyConstraint("chronicle_id", "member_id", "process", name="pk_presence"),
    )


def downgrade() -> None:
    op.drop_table("presence")
