"""F-7 for chronicles made before it: the one seed in use of a chronicle whose hidden rolls under it
are not all revealed continues as the chronicle's *hidden* seed, so it is revealed only with those
rolls (otherwise the next rotation would give their faces away); the next visible roll commits a new
public seed. ``rollbook.fair.check_log`` reads such a seed (committed without a ``"stream"``) the same
way: a public commitment made while it is in use moves it to the hidden stream.

Revision ID: 0010_legacy_hidden_seed
Revises: 0009_feed_revocation
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0010_legacy_hidden_seed"
down_revision = "0009_feed_revocation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Before F-7 every roll drew from the one seed in use: a hidden roll logged after its commitment
    # used it. A hidden roll is revealed by a "reveal" entry referring to it.
    op.execute(
        "UPDATE fair_seeds SET stream = 'hidden' WHERE revealed_seq IS NULL AND stream = 'public' "
        "AND NOT EXISTS (SELECT 1 FROM fair_seeds other WHERE other.chronicle_id = fair_seeds.chronicle_id "
        "AND other.stream = 'hidden' AND other.revealed_seq IS NULL) "
        "AND EXISTS (SELECT 1 FROM log_entries e WHERE e.chronicle_id = fair_seeds.chronicle_id "
        "AND e.visibility = 'hidden' AND e.kind IN ('roll', 'reroll', 'quick_roll') "
        "AND e.seq > fair_seeds.committed_seq "
        "AND NOT EXISTS (SELECT 1 FROM log_entries r WHERE r.chronicle_id = e.chronicle_id AND r.kind = 'reveal' "
        "AND r.refers_to = e.seq))")


def downgrade() -> None:
    pass  # the seed stays in the hidden stream: 0007's downgrade drops hidden seeds in use anyway
