"""The live feed's ``LISTEN`` on PostgreSQL (``events.Hub``): heard in the server's event loop on an
asyncpg connection of its own, reconnected when PostgreSQL ends it, closed with the server. SQLite
has no listener (its feeds are woken in the process and poll every 0.5 s)."""

from __future__ import annotations

import asyncio
import time

import psycopg
from fastapi.testclient import TestClient

from rollbook.server.app import create_app

from .conftest import PG_ADMIN_URL, V20_SHEET, V20_TEST, Table, in_a_loop
from .test_reconnect import end_every_connection_named, tagged


def _until(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _backends(name: str) -> int:
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
        return admin.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s "
                             "AND backend_type = 'client backend'", (name,)).fetchone()[0]


def test_the_listener_hears_every_roll_comes_back_after_a_restart_and_stops_with_the_server(database_url, backend):
    url, name = tagged(database_url) if backend == "postgresql" else (database_url, "")
    app = create_app(url)
    hub = app.state.hub
    try:
        with TestClient(app) as client:
            if backend == "sqlite":
                assert hub.listen_url is None and hub._listener is None
                return
            assert _until(lambda: hub.listening == 1)
            created = client.post("/api/chronicles", json={"name": "Listen", "system": "v20", "difficulty": 6})
            table = Table(client, created.json())
            player = table.join()
            character = table.character(player, V20_SHEET)
            heard = hub.notifications
            assert table.roll(player, character["id"], V20_TEST).status_code == 201
            assert _until(lambda: hub.notifications >= heard + 1), (heard, hub.notifications, hub.listening)

            assert end_every_connection_named(name) >= 1  # a restart: the listener's connection too
            assert _until(lambda: hub.listening == 2)  # listening again, a second later
            heard = hub.notifications
            assert table.roll(player, character["id"], V20_TEST).status_code == 201
            assert _until(lambda: hub.notifications >= heard + 1), (heard, hub.notifications, hub.listening)
        app.state.db.dispose()
        assert hub._listener.done()
        assert _until(lambda: _backends(name) == 0)  # nothing left open
    finally:
        if name:
            end_every_connection_named(name)


def test_closing_the_hub_ends_its_listen_connection_while_the_loop_runs_on(database_url, backend):
    """``Hub.close`` (the lifespan's end) stops the listener in its loop, before the loop itself ends."""
    if backend == "sqlite":
        return  # no listener to close (the test above checks there is none)
    url, name = tagged(database_url)
    app = create_app(url)
    app.state.db.dispose()  # the migration's pooled connection: only the listener's is counted below
    hub = app.state.hub

    async def main() -> tuple[int, int, bool]:
        hub.start_listener()
        for _ in range(200):
            if hub.listening:
                break
            await asyncio.sleep(0.05)
        before = await asyncio.to_thread(_backends, name)
        await hub.close()
        gone = await asyncio.to_thread(_until, lambda: _backends(name) == 0, 5.0)
        return before, gone, hub._listener.done()

    try:
        before, gone, done = in_a_loop(main())
        assert hub.listening == 1 and before >= 1
        assert gone and done
    finally:
        end_every_connection_named(name)
