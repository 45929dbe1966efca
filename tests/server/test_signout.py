"""Signing out of the browser clears every cookie the server set, on both stores."""

from __future__ import annotations

import re
from http.cookies import SimpleCookie

SERVER_COOKIES = (
    "rollbook_token",
    "rollbook_keys",
    "rollbook_new_key",
    "rollbook_invitation",
    "rollbook_lang",
)


def _cleared(response) -> dict[str, set[str]]:
    """name -> the paths this response deletes it on (an expired Set-Cookie)."""
    out: dict[str, set[str]] = {}
    for header in response.headers.get_list("set-cookie"):
        cookie = SimpleCookie()
        cookie.load(header)
        for name, morsel in cookie.items():
            if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                out.setdefault(name, set()).add(morsel["path"] or "/")
    return out


def test_signout_leaves_the_new_key_cookie(client):
    made = client.post(
        "/chronicles?lang=fr",
        data={"name": "Lyon", "system": "v20", "storyteller": "Ana"},
        follow_redirects=False,
    )
    chronicle = made.headers["location"]
    cid = chronicle.rsplit("/", 1)[1]
    key = client.cookies.get("rollbook_new_key")
    token = client.cookies.get("rollbook_token")
    assert key and token and client.cookies.get("rollbook_invitation")
    assert re.search(r'id="access-key">([^<]+)<', client.get(chronicle).text).group(1) == key

    out = client.post("/signout", follow_redirects=False)
    assert out.status_code == 303
    cleared = _cleared(out)
    assert cleared["rollbook_new_key"] == {f"/chronicles/{cid}"}
    assert cleared["rollbook_invitation"] == {f"/chronicles/{cid}"}
    assert {"rollbook_token", "rollbook_keys", "rollbook_lang"} <= set(cleared)
    assert set(SERVER_COOKIES) <= set(cleared)
    assert not any(client.cookies.get(name) for name in SERVER_COOKIES)  # the browser holds none
    # the old cookie opens nothing any more, by cookie or as a bearer token
    client.cookies.set("rollbook_token", token)
    assert client.get("/api/me").status_code == 401
    client.cookies.clear()
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert client.get(chronicle, follow_redirects=False).status_code == 401
