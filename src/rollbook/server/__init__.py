"""The chronicle server: FastAPI + SQLAlchemy 2 + Alembic.

- ``app.create_app(database_url=None)``: the ASGI app (JSON API under ``/api``, OpenAPI at
  ``/openapi.json``); mounts ``rollbook.web`` when that package provides ``mount(app)``.
- ``service``: plain functions taking a ``Session`` (the JSON API and the web pages both call them).
- ``db``: engines, transactions (``BEGIN IMMEDIATE`` on SQLite, row locks on PostgreSQL), migrations.
- ``chain``: the hash-chained receipt log's canonical form and its verifier (no database needed).
"""
