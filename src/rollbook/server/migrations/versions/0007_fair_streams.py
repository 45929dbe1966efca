"""Two seed streams per chronicle (SPEC F-7): ``fair_seeds.stream`` (``public`` or ``hidden``), one
seed in use per chronicle *and stream*. Seeds committed before are the public stream's.

Revision ID: 0007_fair_streams
Revises: 0006_notify_per_chronicle
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_fair_streams"
down_revision = "0006_notify_per_chronicle"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("fair_seeds", sa.Column("stream", sa.String(8), nullable=False, server_default="public"))
    op.drop_index("uq_fair_seeds_one_in_use", table_name="fair_seeds")
    op.create_index("uq_fair_seeds_one_in_use", "fair_seeds", ["chronicle_id", "stream"], unique=True,
                    sqlite_where=sa.text("revealed_seq IS NULL"), postgresql_where=sa.text("revealed_seq IS NULL"))


def downgrade() -> None:
    # a hidden seed in use cannot fit the one-stream schema: it is dropped (never revealed, its rolls
    # stay pending for ever), which only a downgrade can do
    op.execute("DELETE FROM fair_seeds WHERE stream = 'hidden' AND revealed_seq IS NULL")
    op.drop_index("uq_fair_seeds_one_in_use", table_name="fair_seeds")
    op.create_index("uq_fair_seeds_one_in_use", "fair_seeds", ["chronicle_id"], unique=True,
                    sqlite_where=sa.text("revealed_seq IS NULL"), postgresql_where=sa.text("revealed_seq IS NULL"))
    op.drop_column("fair_seeds", "stream")
