"""Issue 30 point 2: ``close_app`` is not the end of an app object. uvicorn may serve the same app
again (a lifespan run anew: a test's session app served by a ``ThreadedServer``, then by another);
the hub closed by the first lifespan's end starts again with the next, binding the new server's
loop, its catch-up and, on PostgreSQL, its listener: a feed of the second server hears a roll as
the first's did. Before, the listener stayed stopped for good and the catch-up (every 5 s on
PostgreSQL) was the feed's only news."""

from __future__ import annotations

import httpx

from rollbook.server.app import create_app

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, bearer
from .feed_helpers import EventReader, until


def _served_once(app, backend: str) -> None:
    hub = app.state.hub
    with ThreadedServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/api/chronicles", json={"name": "Twice", "system": "v20"}).json()
        st = bearer(created["token"])
        base = f"/api/chronicles/{created['chronicle']['id']}"
        character = http.post(f"{base}/characters", headers=st, json={"name": "L", "sheet": V20_SHEET}).json()
        after = http.get(f"{base}/log", headers=st, params={"limit": 1}).json()["head"]["seq"]
        with EventReader(server.url, f"{base}/events", st, {"after": after, "idle_timeout": 10}) as feed:
            if backend == "postgresql":  # the roll is heard by NOTIFY, not found by the catch-up
                assert until(lambda: created["chronicle"]["id"] in hub.listened), "the listener does not listen"
                heard = hub.notifications
            rolled = http.post(f"{base}/characters/{character['id']}/rolls", headers=st, json={"action": V20_TEST})
            assert rolled.status_code == 201, rolled.text
            seq = rolled.json()["entry"]["seq"]
            assert until(lambda: seq in feed.seqs(), 30), "the feed did not hear the roll"
            if backend == "postgresql":
                assert hub.notifications > heard
    if hub.listener is not None:
        assert not hub.listener.alive  # the lifespan's end (close_app) stopped it


def test_an_app_served_again_after_close_app_serves_its_feeds_again_issue30_2(database_url, backend):
    app = create_app(database_url)
    app.state.hub.poll_interval = 3600.0  # no catch-up during the test: the feed hears the roll's wake
    _served_once(app, backend)
    _served_once(app, backend)  # the same app object, a new server and loop, after close_app
