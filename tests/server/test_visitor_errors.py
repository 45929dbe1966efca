"""Errors are never swallowed: a database error while a chronicle page reads who
the visitor is (``web.deps.visitor``: a bearer token or the older single cookie) is a 5xx with a log
line, as on ``/api/me`` — not an anonymous visitor told to sign in (401). SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from rollbook.app.app import create_app

from .conftest import BACKENDS, bearer, fresh_pg_database, postgres_problem


@pytest.fixture(params=BACKENDS)
def own_url(request, tmp_path) -> Iterator[str]:
    """A database of this test's own: the test breaks it."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'broken.sqlite3'}"
        return
    problem = postgres_problem()
    if problem:
        pytest.skip(problem)
    with fresh_pg_database() as url:
        yield url


def test_a_database_error_reading_the_visitor_is_a_5xx_with_a_log_line(own_url, caplog):
    app = create_app(own_url)
    with TestClient(app, raise_server_exceptions=False) as client:
        created = client.post("/api/chronicles", json={"name": "Broken", "system": "v20"})
        assert created.status_code == 201, created.text
        chronicle_id, token = created.json()["chronicle"]["id"], created.json()["token"]
        page = f"/chronicles/{chronicle_id}"
        assert client.get(page, headers=bearer(token)).status_code == 200
        with app.state.db.engine.begin() as connection:  # every token lookup fails from now on
            connection.execute(text("ALTER TABLE member_tokens RENAME TO member_tokens_gone"))
        caplog.clear()
        with caplog.at_level(logging.ERROR):
            read = client.get(page, headers=bearer(token))
        assert read.status_code >= 500, (read.status_code, read.text)
        assert any(
            record.levelno >= logging.ERROR and page in record.getMessage() for record in caplog.records
        )
        client.cookies.set("rollbook_token", token)  # the older single cookie: the same path
        assert client.get(page).status_code >= 500
        assert client.get("/api/me", headers=bearer(token)).status_code >= 500
