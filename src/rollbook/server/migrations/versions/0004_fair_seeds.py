"""Provably fair dice (SPEC F-1 … F-6): each chronicle's sealed server seed and its nonce, members'
client seeds.

Revision ID: 0004_fair_seeds
Revises: 0003_security
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_fair_seeds"
down_revision = "0003_security"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fair_seeds",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("sealed", sa.Text, nullable=False),
        sa.Column("nonce", sa.Integer, nullable=False),
        sa.Column("committed_seq", sa.Integer, nullable=False),
        sa.Column("revealed_seq", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_fair_seeds"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_fair_seeds_chronicle_id_chronicles"),
        sa.UniqueConstraint("commitment", name="uq_fair_seeds_commitment"),
    )
    op.create_index("ix_fair_seeds_chronicle_id", "fair_seeds", ["chronicle_id"])
    # F-1, F-5: one seed in use per chronicle, refused by the database itself.
    op.create_index("uq_fair_seeds_one_in_use", "fair_seeds", ["chronicle_id"], unique=True,
                    sqlite_where=sa.text("revealed_seq IS NULL"), postgresql_where=sa.text("revealed_seq IS NULL"))
    op.create_table(
        "client_seeds",
        sa.Column("member_id", sa.Integer, nullable=False),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("client_seed", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("member_id", name="pk_client_seeds"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_client_seeds_member_id_members"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_client_seeds_chronicle_id_chronicles"),
    )
    op.create_index("ix_client_seeds_chronicle_id", "client_seeds", ["chronicle_id"])


def downgrade() -> None:
    op.drop_index("ix_client_seeds_chronicle_id", table_name="client_seeds")
    op.drop_table("client_seeds")
    op.drop_index("uq_fair_seeds_one_in_use", table_name="fair_seeds")
    op.drop_index("ix_fair_seeds_chronicle_id", table_name="fair_seeds")
    op.drop_table("fair_seeds")
