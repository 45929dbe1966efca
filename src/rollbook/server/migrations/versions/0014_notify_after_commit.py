"""PostgreSQL: the log's insert trigger no longer notifies; the process that committed does, after
its commit (``Database.notify``: the hub's listener thread, or at once in a process without one, the
CLI; ``server.listen``), on the same channels (``rollbook_log_<chronicle>``, migration 0006) with
the chronicle's head seq as payload.

PostgreSQL serialises the commits of every transaction that notified, for the whole cluster, on one
lock held through the commit's WAL flush: with the trigger, each roll's commit waited for the one
before it (``Lock:object`` under 93% of PostgreSQL's slow rolls at 300 tables, bench/README.md).
Notified after the commit, by one thread per process for all its commits since its last NOTIFY, in
a transaction that writes no row, nothing a request waits for holds it.

A token's revocation keeps its trigger (migration 0009): a sign-out, a key rotation or a member
removed is rare beside the rolls (none in a roll's transaction), its NOTIFY must reach every
process whichever process (or script) revoked it, and its lock is held by those few commits only.

Processes of an older release still running against the upgraded database hear the new
processes' NOTIFYs (same channels, same payload), but their own commits notify no one: the others'
feeds read them at their catch-up (every 5 s), and their own feeds of a chronicle they listen on
too, until they are restarted. SQLite has no trigger to change.

Revision ID: 0014_notify_after_commit
Revises: 0013_presence
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0014_notify_after_commit"
down_revision = "0013_presence"
branch_labels = None
depends_on = None

# migration 0006's function and 0001's trigger, put back by the downgrade
PER_CHRONICLE = """
CREATE OR REPLACE FUNCTION rollbook_log_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('rollbook_log_' || NEW.chronicle_id::text, NEW.seq::text);
    RETURN NULL;
END
$$
"""

TRIGGER = """
CREATE TRIGGER log_entries_notify AFTER INSERT ON log_entries
FOR EACH ROW EXECUTE FUNCTION rollbook_log_notify()
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS log_entries_notify ON log_entries")
        op.execute("DROP FUNCTION IF EXISTS rollbook_log_notify()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(PER_CHRONICLE)
        op.execute("DROP TRIGGER IF EXISTS log_entries_notify ON log_entries")
        op.execute(TRIGGER)
