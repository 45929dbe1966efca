"""``close_app`` is not the end of an app object. uvicorn may serve the same app
again (a lifespan run anew: a test's session app served by a ``ThreadedServer``, then by another);
the hub closed by the first lifespan's end starts again with the next, binding the new server's
loop, its catch-up and, on PostgreSQL, its listener: a feed of the second server hears a roll as
the first's did. Before, the listener stayed stopped for good and the catch-up (every 5 s on
PostgreSQL) was the feed's only news."""

from __future__ import annotations

import threading

import httpx
import pytest

from rollbook.app.app import create_app

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
        with EventReader(
            server.url, f"{base}/events", st, {"after": after, "idle_timeout": 30}, cut=True
        ) as feed:
            if backend == "postgresql":  # the roll is heard by NOTIFY, not found by the catch-up
                assert until(lambda: created["chronicle"]["id"] in hub.listened), (
                    "the listener does not listen"
                )
                heard = hub.notifications
            rolled = http.post(
                f"{base}/characters/{character['id']}/rolls", headers=st, json={"action": V20_TEST}
            )
            assert rolled.status_code == 201, rolled.text
            seq = rolled.json()["entry"]["seq"]
            assert until(lambda: seq in feed.seqs(), 30), "the feed did not hear the roll"
            if backend == "postgresql":
                # its NOTIFY: sent by the listener thread after the commit (paced), heard back
                assert until(lambda: hub.notifications > heard, 30), "the listener heard nothing"
    if hub.listener is not None:
        assert not hub.listener.alive  # the lifespan's end (close_app) stopped it


def test_an_app_served_again_after_close_app_serves_its_feeds_again(database_url, backend):
    app = create_app(database_url)
    app.state.hub.poll_interval = 3600.0  # no catch-up during the test: the feed hears the roll's wake
    _served_once(app, backend)
    _served_once(app, backend)  # the same app object, a new server and loop, after close_app


@pytest.mark.postgres
def test_a_server_left_with_a_feed_open_still_closes_its_app(pg_url):
    """A test's server left while a feed was still open waited for it (uvicorn's
    graceful shutdown) for ever, past the 10 s the test gave it; the lifespan's end, which closes the
    app, never came, and the app's listener outlived the test and reconnected to its dropped
    database. Leaving a ``ThreadedServer`` now cuts what is still open after its grace, ends the
    server and closes the app: no listener of it is left running."""
    app = create_app(pg_url)
    hub = app.state.hub
    server = ThreadedServer(app, grace=1)  # the open feed may hold the stop a second, then is cut
    with server, httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/api/chronicles", json={"name": "Left open", "system": "v20"}).json()
        base = f"/api/chronicles/{created['chronicle']['id']}"
        opened = threading.Event()

        def read_until_cut() -> None:  # a client that never leaves: the server's end cuts it
            try:
                with (
                    httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=60)) as client,
                    client.stream(
                        "GET", f"{base}/events", headers=bearer(created["token"]), params={"idle_timeout": 20}
                    ) as stream,
                ):
                    opened.set()
                    for _ in stream.iter_lines():
                        pass
            except httpx.HTTPError:
                pass  # cut when the server was made to stop: expected
            finally:
                opened.set()

        reader = threading.Thread(target=read_until_cut, daemon=True)
        reader.start()
        assert opened.wait(30)
        assert until(lambda: created["chronicle"]["id"] in hub.listened), (
            "the feed's channel is not listened to"
        )
    assert not server.thread.is_alive(), "the server went on after the test left it"
    assert not hub.listener.alive, "the app's listener outlived its server"
    reader.join(timeout=60)
