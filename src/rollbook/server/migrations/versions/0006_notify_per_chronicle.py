"""PostgreSQL: the log's insert trigger notifies on a channel per chronicle,
``rollbook_log_<chronicle>`` (payload: the seq), instead of one channel for every chronicle
(``rollbook_log``, payload ``<chronicle>:<seq>``). An app process listens on the channels of the
chronicles it has a live feed open for (``events.Hub``), so a roll wakes only the processes someone
watches that chronicle from; with one channel each roll woke every process (77–115 µs of CPU in
each, bench/README.md, "Twelfth pass"). SQLite has no trigger to change.

App processes of an older release still running against the upgraded database hear nothing: their
live feeds fall back to their poll (every 5 s) until they are restarted.

Revision ID: 0006_notify_per_chronicle
Revises: 0005_character_removed
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0006_notify_per_chronicle"
down_revision = "0005_character_removed"
branch_labels = None
depends_on = None

PER_CHRONICLE = """
CREATE OR REPLACE FUNCTION rollbook_log_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('rollbook_log_' || NEW.chronicle_id::text, NEW.seq::text);
    RETURN NULL;
END
$$
"""

ONE_CHANNEL = """
CREATE OR REPLACE FUNCTION rollbook_log_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('rollbook_log', NEW.chronicle_id::text || ':' || NEW.seq::text);
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(PER_CHRONICLE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(ONE_CHANNEL)
