"""The table's authority (SPEC A-1 … A-4): scenes and turns, asks, grants, standing grants.

Revision ID: 0002_authority
Revises: 0001_chronicles
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0002_authority"
down_revision = "0001_chronicles"
branch_labels = None
depends_on = None

Json = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "scenes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("turn_seq", sa.Integer, nullable=True),
        sa.Column("opened_seq", sa.Integer, nullable=False),
        sa.Column("closed_seq", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_scenes"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_scenes_chronicle_id_chronicles"),
        sa.UniqueConstraint("chronicle_id", "number", name="uq_scenes_chronicle_number"),
    )
    op.create_index("ix_scenes_chronicle_id", "scenes", ["chronicle_id"])
    # at most one open scene per chronicle, refused by the database itself.
    op.create_index("uq_scenes_one_open", "scenes", ["chronicle_id"], unique=True,
                    sqlite_where=sa.text("closed_seq IS NULL"), postgresql_where=sa.text("closed_seq IS NULL"))
    op.create_table(
        "asks",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("character_id", sa.Integer, nullable=False),
        sa.Column("member_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("player", Json, nullable=False),
        sa.Column("asked", Json, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_asks"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_asks_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["character_id"], ["characters.id"], name="fk_asks_character_id_characters"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_asks_member_id_members"),
    )
    op.create_index("ix_asks_chronicle_id", "asks", ["chronicle_id"])
    op.create_index("ix_asks_character_id", "asks", ["character_id"])
    op.create_table(
        "grants",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("ask_id", sa.Integer, nullable=False),
        sa.Column("member_id", sa.Integer, nullable=False),
        sa.Column("decision", sa.String(16), nullable=False),
        sa.Column("edges", Json, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("roll_seq", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_grants"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_grants_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["ask_id"], ["asks.id"], name="fk_grants_ask_id_asks"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_grants_member_id_members"),
        # one decision per ask, whatever races: a grant cannot be used twice.
        sa.UniqueConstraint("ask_id", name="uq_grants_ask_id"),
    )
    op.create_index("ix_grants_chronicle_id", "grants", ["chronicle_id"])
    op.create_table(
        "standing_grants",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("chronicle_id", sa.Integer, nullable=False),
        sa.Column("character_id", sa.Integer, nullable=True),
        sa.Column("scene_id", sa.Integer, nullable=True),
        sa.Column("edges", Json, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("ended_seq", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_standing_grants"),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"],
                                name="fk_standing_grants_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["character_id"], ["characters.id"],
                                name="fk_standing_grants_character_id_characters"),
        sa.ForeignKeyConstraint(["scene_id"], ["scenes.id"], name="fk_standing_grants_scene_id_scenes"),
    )
    op.create_index("ix_standing_grants_chronicle_id", "standing_grants", ["chronicle_id"])


def downgrade() -> None:
    op.drop_index("ix_standing_grants_chronicle_id", table_name="standing_grants")
    op.drop_table("standing_grants")
    op.drop_index("ix_grants_chronicle_id", table_name="grants")
    op.drop_table("grants")
    op.drop_index("ix_asks_character_id", table_name="asks")
    op.drop_index("ix_asks_chronicle_id", table_name="asks")
    op.drop_table("asks")
    op.drop_index("uq_scenes_one_open", table_name="scenes")
    op.drop_index("ix_scenes_chronicle_id", table_name="scenes")
    op.drop_table("scenes")
