"""Sign-in and join have a budget (server/ratelimit.py), on SQLite and PostgreSQL: per address and
per code (an invitation code, a key), a minute each; beyond either, 429 ``too_many_signins`` with
``Retry-After``, on the API and on the pages' forms, and the minute past, the next attempt is taken."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import close_app, create_app
from rollbook.server.ratelimit import WINDOW, Signins
from rollbook.settings import Settings

from .helpers import problem


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def budgeted(database_url):
    """An app whose budgets are 4 attempts an address and 2 a code, on a clock the test moves."""
    settings = Settings(database_url=database_url, signins_per_address=4, signins_per_code=2)
    app = create_app(database_url, settings=settings)
    clock = Clock()
    app.state.signins = Signins(settings.signins_per_address, settings.signins_per_code, clock=clock)
    try:
        yield app, clock
    finally:
        close_app(app)


def _client(app, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


def _chronicle(client: TestClient) -> dict:
    made = client.post("/api/chronicles", json={"name": "Budget", "system": "v20"})
    assert made.status_code == 201, made.text
    return made.json()


def test_joins_beyond_a_code_or_an_address_budget_are_429_until_the_minute_passes(budgeted):
    app, clock = budgeted
    with _client(app, "10.0.0.1") as one, _client(app, "10.0.0.2") as other:
        code = _chronicle(one)["invitation"]
        for name in ("Ana", "Bea"):
            assert one.post("/api/join", json={"invitation": code, "name": name}).status_code == 201
        refused = one.post("/api/join", json={"invitation": code, "name": "Cid"})
        body = problem(refused, 429, "too_many_signins")
        assert body["params"]["per"] == "code" and body["params"]["most"] == 2
        assert refused.headers["Retry-After"] == str(int(WINDOW))
        # the code's budget is the code's: another address is refused too
        problem(other.post("/api/join", json={"invitation": code, "name": "Cid"}), 429, "too_many_signins")

        # an address's budget: wrong codes count as well, and nothing is looked up beyond it
        for n in range(1):
            missing = one.post("/api/join", json={"invitation": f"no-such-code-{n}", "name": "X"})
            assert missing.status_code == 404, missing.text
        body = problem(
            one.post("/api/join", json={"invitation": "another-code", "name": "X"}), 429, "too_many_signins"
        )
        assert body["params"]["per"] == "address" and body["params"]["most"] == 4

        clock.now += WINDOW  # a minute later, both budgets are whole again
        assert one.post("/api/join", json={"invitation": code, "name": "Cid"}).status_code == 201


def test_a_session_from_a_key_and_the_pages_forms_spend_the_budget(budgeted):
    app, clock = budgeted
    with _client(app, "10.0.0.3") as client:
        token = _chronicle(client)["token"]
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(2):
            assert client.post("/api/session", headers=headers).status_code == 201
        problem(client.post("/api/session", headers=headers), 429, "too_many_signins")

        # the page's sign-in form: refused in place, in the reader's words, with the status
        page = client.post("/signin", data={"token": "not-a-key"}, headers={"Origin": "http://testserver"})
        assert page.status_code != 429, page.text  # the fourth attempt of the address
        page = client.post("/signin", data={"token": "not-a-key"}, headers={"Origin": "http://testserver"})
        assert page.status_code == 429, page.text
        assert "Too many attempts to sign in or join" in page.text
        french = client.post(
            "/signin",
            data={"token": "not-a-key"},
            headers={"Origin": "http://testserver", "Accept-Language": "fr"},
        )
        assert french.status_code == 429 and "Trop de tentatives" in french.text

        clock.now += WINDOW
        page = client.post(
            "/join", data={"invitation": "nope", "name": "Ana"}, headers={"Origin": "http://testserver"}
        )
        assert page.status_code == 404, page.text
