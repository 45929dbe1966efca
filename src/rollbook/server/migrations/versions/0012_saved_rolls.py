"""Saved rolls: a member's named roll of a character, repeated in one tap
(``usecases.saved_rolls``).

Revision ID: 0012_saved_rolls
Revises: 0011_discord
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0012_saved_rolls"
down_revision = "0011_discord"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "saved_rolls",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chronicle_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("action", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.Column("hidden", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_saved_rolls_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_saved_rolls_member_id_members"),
        sa.ForeignKeyConstraint(["character_id"], ["characters.id"], name="fk_saved_rolls_character_id_characters"),
        sa.PrimaryKeyConstraint("id", name="pk_saved_rolls"),
        sa.UniqueConstraint("member_id", "character_id", "name", name="uq_saved_rolls_member_character_name"),
    )
    op.create_index("ix_saved_rolls_chronicle_id", "saved_rolls", ["chronicle_id"])
    op.create_index("ix_saved_rolls_member_id", "saved_rolls", ["member_id"])


def downgrade() -> None:
    op.drop_index("ix_saved_rolls_member_id", table_name="saved_rolls")
    op.drop_index("ix_saved_rolls_chronicle_id", table_name="saved_rolls")
    op.drop_table("saved_rolls")
