"""A revoked token ends the live feeds opened with it, in every app process.

- ``ix_member_tokens_revoked_at``: the per-process catch-up of the live feeds reads the tokens
  revoked since its last look (``usecases.feeds.revoked_since``), a short range of this index
  (SQLite and PostgreSQL alike: on SQLite it is how another process's sign-out reaches a feed).
- PostgreSQL: a token's revocation (sign-out, key rotation, a member removed) notifies
  ``revoked`` on its chronicle's channel (``rollbook_log_<chronicle>``, migration 0006), whichever
  process made it; a process listening there (it has a feed of that chronicle open) checks the
  tokens of those feeds at once (``events.Hub``). A process of an older release hears it as a wake
  for new entries and reads nothing new.

Revision ID: 0009_feed_revocation
Revises: 0008_table_rules
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0009_feed_revocation"
down_revision = "0008_table_rules"
branch_labels = None
depends_on = None

NOTIFY = """
CREATE OR REPLACE FUNCTION rollbook_token_revoked_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('rollbook_log_' || members.chronicle_id::text, 'revoked')
    FROM members WHERE members.id = NEW.member_id;
    RETURN NULL;
END
$$
"""

TRIGGER = """
CREATE TRIGGER member_tokens_revoked_notify AFTER UPDATE OF revoked_at ON member_tokens
FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
EXECUTE FUNCTION rollbook_token_revoked_notify()
"""


def upgrade() -> None:
    op.create_index("ix_member_tokens_revoked_at", "member_tokens", ["revoked_at"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY)
        op.execute(TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS member_tokens_revoked_notify ON member_tokens")
        op.execute("DROP FUNCTION IF EXISTS rollbook_token_revoked_notify()")
    op.drop_index("ix_member_tokens_revoked_at", table_name="member_tokens")
