"""The Alembic migrations build exactly the schema the models declare, on SQLite and PostgreSQL,
and the migration history has a single head (every engineer's migration chained on main's head)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from rollbook.server.migrate import alembic_config
from rollbook.server.models import Base


def test_migrations_have_a_single_head():
    heads = ScriptDirectory.from_config(alembic_config()).get_heads()
    assert len(heads) == 1, heads


def test_migrated_schema_matches_the_models(app):
    with app.state.db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": False})
        differences = compare_metadata(context, Base.metadata)
    assert differences == []
