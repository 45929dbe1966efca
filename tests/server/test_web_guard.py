"""The web's cross-site request guard and the cookie's Secure flag (rollbook.web.guard)."""

from __future__ import annotations

import pytest
from starlette.requests import Request

from rollbook.settings import Settings, install
from rollbook.web import guard

from .conftest import V20_SHEET


@pytest.fixture()
def signed_in(client, make_table):
    """A Storyteller signed in by cookie only (as the web table does)."""
    table = make_table("v20")
    client.cookies.set("rollbook_token", table.created["token"])
    yield table
    client.cookies.clear()


def _invite(client, table, **headers):
    return client.post(f"/api/chronicles/{table.id}/invitation", headers=headers)


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://testserver.evil.example"},
        {"Referer": "https://evil.example/page"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://testserver"},
    ],
)
def test_a_cross_site_cookie_request_is_refused(client, signed_in, headers):
    response = _invite(client, signed_in, **headers)
    assert response.status_code == 403 and response.json()["code"] == "origin_refused"
    assert response.headers["content-type"].startswith("application/problem+json")
    page = client.post(f"/chronicles/{signed_in.id}/characters", data={"name": "X"}, headers=headers)
    assert page.status_code == 403


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://testserver"},
        {"Origin": "http://TESTSERVER:80"},
        {"Referer": "http://testserver/chronicles/1"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
        {},  # not a browser's cross-site request
    ],
)
def test_a_same_origin_request_passes(client, signed_in, headers):
    assert _invite(client, signed_in, **headers).status_code == 201


def test_a_bearer_token_is_never_a_forgery(client, make_table):
    table = make_table("v20")
    response = client.post(
        f"/api/chronicles/{table.id}/characters",
        headers={**table.st, "Origin": "https://app.example"},
        json={"name": "L", "sheet": V20_SHEET},
    )
    assert response.status_code == 201


def test_safe_methods_pass(client, signed_in):
    assert (
        client.get(f"/api/chronicles/{signed_in.id}", headers={"Origin": "https://evil.example"}).status_code
        == 200
    )


def _request(scheme: str, headers: dict[str, str]) -> Request:
    return Request(
        {
            "type": "http",
            "scheme": scheme,
            "method": "POST",
            "path": "/",
            "query_string": b"",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "server": ("127.0.0.1", 8000),
        }
    )


def test_cookies_are_secure_over_https_and_the_proxy_is_believed_only_when_configured(monkeypatch):
    install(Settings(trust_proxy=False))
    assert guard.cookie_secure(_request("https", {"host": "table.example"}))
    assert not guard.cookie_secure(_request("http", {"host": "table.example"}))
    behind = _request(
        "http", {"host": "table.example", "x-forwarded-proto": "https", "x-forwarded-host": "play.example"}
    )
    assert not guard.cookie_secure(behind)
    assert guard.origin_of(behind.scope) == "http://table.example"
    install(Settings(trust_proxy=True))
    assert guard.cookie_secure(behind)
    assert guard.origin_of(behind.scope) == "https://play.example"
    assert not guard.cross_site(
        {**behind.scope, "headers": behind.scope["headers"] + [(b"origin", b"https://play.example")]}
    )


@pytest.mark.parametrize("authorization", ["Basic dXNlcjpwYXNz", "Bearer", "Bearer   ", "Token abc"])
def test_cross_site_post_with_basic_header(client, signed_in, authorization):
    """A header that holds no bearer token does not skip the guard, and the cookie behind it is never
    read: a cross-site POST with the victim's cookie is refused."""
    headers = {"Origin": "https://evil.example", "Authorization": authorization}
    before = signed_in.log()
    response = _invite(client, signed_in, **headers)
    assert response.status_code == 403 and response.json()["code"] == "origin_refused"
    page = client.post(f"/chronicles/{signed_in.id}/characters", data={"name": "X"}, headers=headers)
    assert page.status_code == 403
    assert signed_in.log() == before


@pytest.mark.parametrize("authorization", ["Basic dXNlcjpwYXNz", "Bearer"])
def test_a_header_without_a_bearer_token_never_falls_back_to_the_cookie(client, signed_in, authorization):
    """Exactly one means: same-origin, the cookie behind a non-bearer header opens nothing."""
    response = _invite(client, signed_in, Authorization=authorization, Origin="http://testserver")
    assert response.status_code == 401
    assert client.get("/api/me", headers={"Authorization": authorization}).status_code == 401
    assert (
        client.get(f"/chronicles/{signed_in.id}", headers={"Authorization": authorization}).status_code == 401
    )
    assert client.get("/api/me").status_code == 200  # the cookie alone still opens it
