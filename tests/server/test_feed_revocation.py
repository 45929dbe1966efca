"""Issue 31 point 3: an open live feed outlived its member's token. The API and the pages answered
401 at once after a sign-out, a key rotation, a removal by the Storyteller or a session's expiry,
but ``/api/chronicles/{id}/events`` and the page's ``/chronicles/{id}/live`` went on streaming
every new entry: the feed checked the member only when it connected. Now the revocation puts the
end in that member's queues (``hub.Hub``), in every app process, within a second; the page's
feed says plainly why in the reader's language."""

from __future__ import annotations

import time
from datetime import UTC

import httpx
import pytest

from rollbook import settings as rollbook_settings
from rollbook.server.app import create_app

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, bearer
from .feed_helpers import EventReader, until

WITHIN = 1.0  # seconds from the revocation's answer to the feed's end


def _chronicle(http: httpx.Client) -> dict:
    created = http.post("/api/chronicles", json={"name": "Revoked", "system": "v20"}).json()
    joined = http.post("/api/join", json={"invitation": created["invitation"], "name": "Player"}).json()
    base = f"/api/chronicles/{created['chronicle']['id']}"
    character = http.post(f"{base}/characters", headers=bearer(created["token"]),
                          json={"name": "L", "sheet": V20_SHEET}).json()
    return {"base": base, "id": created["chronicle"]["id"], "st": bearer(created["token"]),
            "key": bearer(joined["token"]), "member": joined["member"]["id"], "character": character["id"]}


def _head(http: httpx.Client, table: dict) -> int:
    return http.get(f"{table['base']}/log", headers=table["st"], params={"limit": 1}).json()["head"]["seq"]


def _revoke(http: httpx.Client, table: dict, how: str, feed_headers: dict) -> None:
    if how == "sign-out":
        answer = http.delete("/api/session", headers=feed_headers)
    elif how == "key rotation":
        answer = http.post(f"{table['base']}/members/me/key", headers=feed_headers)
    else:
        answer = http.delete(f"{table['base']}/members/{table['member']}", headers=table["st"])
    assert answer.status_code in (200, 201), answer.text


def _feed_headers(http: httpx.Client, table: dict, how: str) -> dict:
    if how == "sign-out":
        opened = http.post("/api/session", headers=table["key"])
        assert opened.status_code == 201, opened.text
        return bearer(opened.json()["token"])
    return table["key"]


REASONS = {"sign-out": "revoked", "key rotation": "revoked", "removal": "removed"}


@pytest.fixture()
def server(database_url):
    with ThreadedServer(create_app(database_url)) as running:
        yield running


@pytest.mark.parametrize("how", sorted(REASONS))
def test_feed_outlives_revocation_issue31_3(server, how):
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = _chronicle(http)
        headers = _feed_headers(http, table, how)
        after = _head(http, table)
        with EventReader(server.url, f"{table['base']}/events", headers, {"after": after}) as feed, \
                EventReader(server.url, f"{table['base']}/events", table["st"],
                            {"after": after, "idle_timeout": 3}) as storyteller:
            assert http.post(f"{table['base']}/characters/{table['character']}/rolls", headers=table["st"],
                             json={"action": V20_TEST}).status_code == 201
            assert until(lambda: any(e["data"]["kind"] == "roll" for e in feed.named("entry")))
            _revoke(http, table, how, headers)
            revoked_at = time.monotonic()
            assert feed.ended.wait(5), "the feed went on after its token was revoked"
            assert feed.ended_at - revoked_at < WITHIN
            assert feed.named("end")[-1]["data"] == {"reason": REASONS[how]}
            assert feed.events[-1]["event"] == "end"
            # the Storyteller's own feed is not ended: it still hears the next roll
            seq = http.post(f"{table['base']}/characters/{table['character']}/rolls", headers=table["st"],
                            json={"action": V20_TEST}).json()["entry"]["seq"]
            assert until(lambda: seq in storyteller.seqs())
            assert not storyteller.named("end")
            assert http.get(f"{table['base']}/events", headers=headers).status_code == 401


def test_feed_outlives_session_expiry_issue31_3(server):
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = _chronicle(http)
        before = rollbook_settings.install(rollbook_settings.Settings(session_hours=1.5 / 3600))  # 1.5 s
        try:
            opened = http.post("/api/session", headers=table["key"]).json()
        finally:
            rollbook_settings.install(before)
        expires = opened["expires_at"]
        with EventReader(server.url, f"{table['base']}/events", bearer(opened["token"]),
                         {"after": _head(http, table)}) as feed:
            assert feed.ended.wait(10), "the feed went on after its session expired"
        from datetime import datetime

        left = (datetime.strptime(expires, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
                - datetime.now(UTC)).total_seconds()
        assert -WITHIN < left <= 0.05  # it ended when the session expired, not long after
        assert feed.named("end")[-1]["data"] == {"reason": "expired"}


def test_page_feed_of_a_removed_player_says_so_in_their_language_issue31_3(server):
    """The page's feed ends with an ``ended`` event: a banner saying the Storyteller removed the
    reader (not "your token belongs to another chronicle"), in French for a French reader."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = _chronicle(http)
        path = f"/chronicles/{table['id']}/live"
        with EventReader(server.url, path, table["key"], {"after": _head(http, table), "lang": "fr"}) as feed:
            _revoke(http, table, "removal", table["key"])
            revoked_at = time.monotonic()
            assert feed.ended.wait(5)
            assert feed.ended_at - revoked_at < WITHIN
        ended = feed.named("ended")
        assert len(ended) == 1 and feed.events[-1]["event"] == "ended"
        assert "Le Conteur vous a retiré de cette chronique" in ended[0]["data"]


@pytest.mark.postgres
def test_feed_outlives_revocation_in_another_process_issue31_3(pg_url):
    """Two app processes on one PostgreSQL (two servers, each its own hub and listener): the feed
    is open on the second, the Storyteller removes the player through the first; the second hears
    it on the chronicle's channel (migration 0009) and ends the feed within a second."""
    first, second = create_app(pg_url), create_app(pg_url)
    with ThreadedServer(first) as one, ThreadedServer(second) as two, httpx.Client(base_url=one.url, timeout=30) as http:
        for how in ("removal", "key rotation"):
            table = _chronicle(http)
            headers = _feed_headers(http, table, how)
            with EventReader(two.url, f"{table['base']}/events", headers, {"after": _head(http, table)}) as feed:
                assert until(lambda: table["id"] in second.state.hub.listened)
                heard = second.state.hub.notifications
                _revoke(http, table, how, headers)
                revoked_at = time.monotonic()
                assert feed.ended.wait(5), f"the other process's feed went on after the {how}"
                assert feed.ended_at - revoked_at < WITHIN
            assert feed.named("end")[-1]["data"] == {"reason": REASONS[how]}
            assert second.state.hub.notifications > heard  # it was heard, not polled (every 5 s)
