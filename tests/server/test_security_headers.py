"""Every answer carries the security headers (``server.headers``), on both stores: a page, the
JSON API, a refusal, a static file; a strict policy (no inline script, no style attribute, no
framing) everywhere but FastAPI's own /docs."""

from __future__ import annotations

import pytest

from rollbook.server.headers import DOCS_POLICY, POLICY
from tests.server.conftest import BACKENDS

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def _secured(response, policy: str = POLICY) -> None:
    assert response.headers["content-security-policy"] == policy
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"


def test_every_answer_carries_the_security_headers(database_url, client, make_table):
    table = make_table("v5")
    answers = {
        "home page": client.get("/"),
        "chronicle page": client.get(f"/chronicles/{table.id}", headers=table.st),
        "api": client.get(table.base, headers=table.st),
        "api refusal": client.get(table.base),
        "missing page": client.get("/nowhere"),
        "static": client.get("/static/table.css"),
        "cross-site form": client.post(
            "/chronicles", data={"name": "x"}, headers={"Origin": "https://evil.example"}
        ),
    }
    for what, response in answers.items():
        assert response.status_code < 500, what
        _secured(response)
    assert answers["api refusal"].status_code == 401
    assert answers["cross-site form"].status_code == 403
    _secured(client.get("/docs"), DOCS_POLICY)


def test_the_policy_is_strict(database_url):
    directives = dict(part.split(" ", 1) for part in POLICY.split("; "))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in POLICY
