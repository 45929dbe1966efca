"""A removed character is marked on its row: ``characters.removed_at`` (the time of its ``removal``
entry), which every look-up filters on, instead of a search of the log on each one.

Characters already removed by the log get the time of their (first) ``removal`` entry.

Revision ID: 0005_character_removed
Revises: 0004_fair_seeds
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_character_removed"
down_revision = "0004_fair_seeds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("characters", sa.Column("removed_at", sa.String(32), nullable=True))
    op.execute(
        "UPDATE characters SET removed_at = (SELECT MIN(e.created_at) FROM log_entries e "
        "WHERE e.kind = 'removal' AND e.character_id = characters.id AND e.chronicle_id = characters.chronicle_id) "
        "WHERE EXISTS (SELECT 1 FROM log_entries e WHERE e.kind = 'removal' AND e.character_id = characters.id "
        "AND e.chronicle_id = characters.chronicle_id)")


def downgrade() -> None:
    op.drop_column("characters", "removed_at")
