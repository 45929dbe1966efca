"""An open live feed outlived its member's token. The API and the pages answered
401 at once after a sign-out, a key rotation, a removal by the Storyteller or a session's expiry,
but ``/api/chronicles/{id}/events`` and the page's ``/chronicles/{id}/live`` went on streaming
every new entry: the feed checked the member only when it connected. Now the revocation puts the
end in that member's queues (``hub.Hub``), in every app process; the page's feed says plainly why
in the reader's language.

In the process that commits it, the revocation ends the feed at once (the hub is
called after the commit, ``Database.after_revoke``), not at the next catch-up; and whichever process
revoked it, nothing committed with or after the revocation reaches the revoked feed (the tokens are
read in the snapshot the entries are read in)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import UTC
from typing import Self

import httpx
import pytest

from rollbook import settings as rollbook_settings
from rollbook.app.app import create_app

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, bearer
from .feed_helpers import EventReader, until

ENDS_WITHIN = 30.0  # a generous bound on the wait: the quiet server never catches up meanwhile


def _chronicle(http: httpx.Client) -> dict:
    created = http.post("/api/chronicles", json={"name": "Revoked", "system": "v20"}).json()
    joined = http.post("/api/join", json={"invitation": created["invitation"], "name": "Player"}).json()
    base = f"/api/chronicles/{created['chronicle']['id']}"
    character = http.post(
        f"{base}/characters", headers=bearer(created["token"]), json={"name": "L", "sheet": V20_SHEET}
    ).json()
    return {
        "base": base,
        "id": created["chronicle"]["id"],
        "st": bearer(created["token"]),
        "key": bearer(joined["token"]),
        "member": joined["member"]["id"],
        "character": character["id"],
    }


def _head(http: httpx.Client, table: dict) -> int:
    return http.get(f"{table['base']}/log", headers=table["st"], params={"limit": 1}).json()["head"]["seq"]


def _revoke(http: httpx.Client, table: dict, how: str, feed_headers: dict) -> dict:
    if how == "sign-out":
        answer = http.delete("/api/session", headers=feed_headers)
    elif how == "key rotation":
        answer = http.post(f"{table['base']}/members/me/key", headers=feed_headers)
    else:
        answer = http.delete(f"{table['base']}/members/{table['member']}", headers=table["st"])
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def _feed_headers(http: httpx.Client, table: dict, how: str) -> dict:
    if how == "sign-out":
        opened = http.post("/api/session", headers=table["key"])
        assert opened.status_code == 201, opened.text
        return bearer(opened.json()["token"])
    return table["key"]


REASONS = {"sign-out": "revoked", "key rotation": "revoked", "removal": "removed"}


@pytest.fixture()
def quiet_server(database_url):
    """A server whose per-process catch-up is an hour apart: a feed it ends during a test was ended
    by the revocation's own path in this process (``Hub.revoked``), not found by the catch-up."""
    app = create_app(database_url)
    app.state.hub.poll_interval = 3600.0
    with ThreadedServer(app) as running:
        yield running


def _roll(http: httpx.Client, table: dict) -> int:
    answer = http.post(
        f"{table['base']}/characters/{table['character']}/rolls",
        headers=table["st"],
        json={"action": V20_TEST},
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["entry"]["seq"]


class Roller:
    """The Storyteller rolling without pause in a thread: each roll's seq with the moment it was
    sent, so that a roll sent after a revocation's answer is known to be committed after it."""

    def __init__(self, url: str, table: dict) -> None:
        self.url, self.table = url, table
        self.sent: list[tuple[float, int]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=30) as http:
            while not self.stop.is_set():
                moment = time.monotonic()
                self.sent.append((moment, _roll(http, self.table)))

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=60)

    def after(self, moment: float) -> set[int]:
        return {seq for sent, seq in self.sent if sent > moment}


@contextlib.contextmanager
def _two_feeds(server, how: str) -> Iterator[tuple[httpx.Client, dict, dict, EventReader, EventReader]]:
    """A table with the player's feed (opened with the token ``how`` revokes) and the Storyteller's,
    both from the log's head: (client, table, the player's headers, the player's feed, the Storyteller's)."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = _chronicle(http)
        headers = _feed_headers(http, table, how)
        after = _head(http, table)
        with (
            EventReader(server.url, f"{table['base']}/events", headers, {"after": after}) as feed,
            EventReader(
                server.url,
                f"{table['base']}/events",
                table["st"],
                {"after": after, "idle_timeout": 30},
                cut=True,
            ) as storyteller,
        ):
            yield http, table, headers, feed, storyteller


@pytest.mark.parametrize("how", sorted(REASONS))
def test_revocation_ends_the_feed_at_once_and_nothing_after_it_reaches_it(quiet_server, how):
    """A player's feed open while the Storyteller rolls without pause: the revocation ends it in this
    process without a catch-up (an hour apart here), and no roll sent after the revocation's answer
    (the roller's, and one sent right after) is ever in it, nor the removal's own entry."""
    with _two_feeds(quiet_server, how) as (http, table, headers, feed, storyteller):
        with Roller(quiet_server.url, table) as roller:
            assert until(lambda: len(feed.seqs()) >= 3), "the player's feed did not hear the rolls"
            answer = _revoke(http, table, how, headers)
            revoked_at = time.monotonic()
            right_after = _roll(http, table)
            assert until(lambda: len(roller.after(revoked_at)) >= 3)
        assert feed.ended.wait(ENDS_WITHIN), f"the feed went on after the {how} (no catch-up ran)"
        assert feed.named("end")[-1]["data"] == {"reason": REASONS[how]}
        assert feed.events[-1]["event"] == "end"
        late = roller.after(revoked_at) | {right_after}
        if how == "removal":
            late.add(answer["entry"]["seq"])  # committed with the revocation
        assert not late & set(feed.seqs()), "an entry committed after the revocation reached the revoked feed"
        # the Storyteller's feed is not ended: it heard every one of them
        assert until(lambda: late - {answer.get("entry", {}).get("seq")} <= set(storyteller.seqs()))
        assert not storyteller.named("end")
        assert http.get(f"{table['base']}/events", headers=headers).status_code == 401


@pytest.mark.parametrize("how", sorted(REASONS))
def test_feed_outlives_revocation(quiet_server, how):
    with _two_feeds(quiet_server, how) as (http, table, headers, feed, storyteller):
        assert (
            http.post(
                f"{table['base']}/characters/{table['character']}/rolls",
                headers=table["st"],
                json={"action": V20_TEST},
            ).status_code
            == 201
        )
        assert until(lambda: any(e["data"]["kind"] == "roll" for e in feed.named("entry")))
        _revoke(http, table, how, headers)
        assert feed.ended.wait(ENDS_WITHIN), "the feed went on after its token was revoked"
        assert feed.named("end")[-1]["data"] == {"reason": REASONS[how]}
        assert feed.events[-1]["event"] == "end"
        # the Storyteller's own feed is not ended: it still hears the next roll
        seq = http.post(
            f"{table['base']}/characters/{table['character']}/rolls",
            headers=table["st"],
            json={"action": V20_TEST},
        ).json()["entry"]["seq"]
        assert until(lambda: seq in storyteller.seqs())
        assert not storyteller.named("end")
        assert http.get(f"{table['base']}/events", headers=headers).status_code == 401


def test_feed_outlives_session_expiry(quiet_server):
    """The session's expiry ends its feed on the hub's expiry timer (no catch-up runs here, and
    nothing else wakes the feed), not before the session's time."""
    server = quiet_server
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = _chronicle(http)
        before = rollbook_settings.install(rollbook_settings.Settings(session_hours=1.5 / 3600))  # 1.5 s
        try:
            opened = http.post("/api/session", headers=table["key"]).json()
        finally:
            rollbook_settings.install(before)
        expires = opened["expires_at"]
        with EventReader(
            server.url, f"{table['base']}/events", bearer(opened["token"]), {"after": _head(http, table)}
        ) as feed:
            assert feed.ended.wait(ENDS_WITHIN), "the feed went on after its session expired"
        from datetime import datetime

        left = (
            datetime.strptime(expires, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC) - datetime.now(UTC)
        ).total_seconds()
        assert left <= 0.05  # not before the session expired (the timer fires just after)
        assert feed.named("end")[-1]["data"] == {"reason": "expired"}


def test_page_feed_of_a_removed_player_says_so_in_their_language(quiet_server):
    """The page's feed ends with an ``ended`` event: a banner saying the Storyteller removed the
    reader (not "your token belongs to another chronicle"), in French for a French reader."""
    server = quiet_server
    with httpx.Client(base_url=server.url, timeout=30) as http:
        table = _chronicle(http)
        path = f"/chronicles/{table['id']}/live"
        with EventReader(server.url, path, table["key"], {"after": _head(http, table), "lang": "fr"}) as feed:
            _revoke(http, table, "removal", table["key"])
            assert feed.ended.wait(ENDS_WITHIN)
        ended = feed.named("ended")
        assert len(ended) == 1 and feed.events[-1]["event"] == "ended"
        assert "Le Conteur vous a retiré de cette chronique" in ended[0]["data"]


@pytest.mark.postgres
def test_feed_outlives_revocation_in_another_process(pg_url):
    """Two app processes on one PostgreSQL (two servers, each its own hub and listener): the feed
    is open on the second, the Storyteller removes the player through the first; the second hears
    it on the chronicle's channel (migration 0009) and ends the feed: its catch-up is an hour apart,
    so the feed ended by the NOTIFY (a wait on that condition, not a budget of a second)."""
    first, second = create_app(pg_url), create_app(pg_url)
    second.state.hub.poll_interval = 3600.0
    with (
        ThreadedServer(first) as one,
        ThreadedServer(second) as two,
        httpx.Client(base_url=one.url, timeout=30) as http,
    ):
        for how in ("removal", "key rotation"):
            table = _chronicle(http)
            headers = _feed_headers(http, table, how)
            with EventReader(
                two.url, f"{table['base']}/events", headers, {"after": _head(http, table)}
            ) as feed:
                assert until(lambda table=table: table["id"] in second.state.hub.listened)
                heard = second.state.hub.notifications
                _revoke(http, table, how, headers)
                right_after = _roll(http, table)  # through the first process, right after
                assert feed.ended.wait(ENDS_WITHIN), f"the other process's feed went on after the {how}"
            assert feed.named("end")[-1]["data"] == {"reason": REASONS[how]}
            assert right_after not in feed.seqs()
            assert second.state.hub.notifications > heard  # it was heard, not polled
