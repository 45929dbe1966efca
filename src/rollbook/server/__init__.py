"""The chronicle server: storage and use cases (SQLAlchemy 2 + Alembic); the HTTP shell that serves
them is ``rollbook.app``.

- ``usecases``: plain functions taking a ``Session``, grouped by area (the JSON API and the web
  pages both call them); ``tx`` transactions, retries and idempotency; ``access`` look-ups and
  locks; ``views`` what each role may see; ``store`` the sheet and log writes.
  See ``docs/ARCHITECTURE.md``.
- ``db``: ``Database``, the one way a change is committed (``engines``, ``lane``, ``writer``,
  ``migrate`` beside it: engines, the SQLite writer lane, its batch writer, migrations).
- ``chain``: the hash-chained receipt log's canonical form and its verifier (no database needed).
"""
