"""Discord: links of Discord users to members, channels bound to chronicles, and the
entries an interaction already showed in a channel (``rollbook.discord.store``).

Revision ID: 0011_discord
Revises: 0010_legacy_hidden_seed
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_discord"
down_revision = "0010_legacy_hidden_seed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "discord_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.String(32), nullable=False),
        sa.Column("channel_id", sa.String(32), nullable=False),
        sa.Column("discord_user_id", sa.String(32), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("token_sealed", sa.Text(), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name="fk_discord_links_member_id_members"),
        sa.PrimaryKeyConstraint("id", name="pk_discord_links"),
        sa.UniqueConstraint("guild_id", "channel_id", "discord_user_id", name="uq_discord_links_where_who"),
    )
    op.create_index("ix_discord_links_member_id", "discord_links", ["member_id"])
    op.create_table(
        "discord_channels",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.String(32), nullable=False),
        sa.Column("channel_id", sa.String(32), nullable=False),
        sa.Column("chronicle_id", sa.Integer(), nullable=False),
        sa.Column("bound_by", sa.Integer(), nullable=False),
        sa.Column("webhook_sealed", sa.Text(), nullable=True),
        sa.Column("last_posted", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["chronicle_id"], ["chronicles.id"], name="fk_discord_channels_chronicle_id_chronicles"),
        sa.ForeignKeyConstraint(["bound_by"], ["members.id"], name="fk_discord_channels_bound_by_members"),
        sa.PrimaryKeyConstraint("id", name="pk_discord_channels"),
        sa.UniqueConstraint("channel_id", name="uq_discord_channels_channel_id"),
    )
    op.create_index("ix_discord_channels_chronicle_id", "discord_channels", ["chronicle_id"])
    op.create_table(
        "discord_answered",
        sa.Column("channel_row", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["channel_row"], ["discord_channels.id"],
                                name="fk_discord_answered_channel_row_discord_channels"),
        sa.PrimaryKeyConstraint("channel_row", "seq", name="pk_discord_answered"),
    )


def downgrade() -> None:
    op.drop_table("discord_answered")
    op.drop_index("ix_discord_channels_chronicle_id", table_name="discord_channels")
    op.drop_table("discord_channels")
    op.drop_index("ix_discord_links_member_id", table_name="discord_links")
    op.drop_table("discord_links")
