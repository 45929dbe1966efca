"""Two real app processes (``rollbook serve --workers 2``) on one store, both with the Discord channel
poster running, the rolls spread over both: every public entry reaches the bound channel exactly once
and in order (on PostgreSQL one process at a time drains a channel, under its advisory
lock; on SQLite the one process holding ``<database>.discord``'s lock posts). Both stores."""

from __future__ import annotations

import httpx

from rollbook.discord import store
from rollbook.server import auth, tx
from rollbook.server.db import Database
from tests.conftest import wait_until
from tests.discord.helpers import GUILD, posted_seqs, snowflake
from tests.server.conftest import V20_SHEET, V20_TEST
from tests.server.workers import serve_workers, worker_pids


def test_two_serving_processes_post_each_public_entry_once_in_order(database_url, tmp_path, discord_api):
    env = {
        "DISCORD_APPLICATION_ID": discord_api.application_id,
        "DISCORD_API_BASE": discord_api.base,
        "DISCORD_BOT_TOKEN": discord_api.bot_token,
    }
    channel_id = snowflake()
    with serve_workers(database_url, tmp_path, env=env) as (process, port):
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=60) as client:
            created = client.post("/api/chronicles", json={"name": "Two processes", "system": "v20"}).json()
            st = {"Authorization": f"Bearer {created['token']}"}
            chronicle = created["chronicle"]["id"]
            character = client.post(
                f"/api/chronicles/{chronicle}/characters",
                headers=st,
                json={"name": "Lucita", "sheet": V20_SHEET},
            ).json()
        db = Database(database_url)
        try:
            bound = tx.run(
                db,
                lambda session: store.bind_channel(
                    session, GUILD, channel_id, auth.authenticate(session, created["token"])
                ),
            )
            rolls = f"{base}/api/chronicles/{chronicle}/characters/{character['id']}/rolls"
            made = []
            for _ in range(10):
                with httpx.Client(timeout=60) as own:  # a connection each: uvicorn spreads them over both
                    answer = own.post(rolls, headers=st, json={"action": V20_TEST})
                    assert answer.status_code == 201, answer.text
                    made.append(answer.json()["entry"]["seq"])

            def cursor() -> int:
                with db.read() as session:
                    return next(
                        row.last_posted for row in store.channels_of(session, chronicle) if row.id == bound.id
                    )

            wait_until(lambda: cursor() >= made[-1], 30, what="every roll handled by one of the processes")
            with httpx.Client(base_url=base, timeout=60) as client:
                public = [
                    entry["seq"]
                    for entry in client.get(f"/api/chronicles/{chronicle}/log", headers=st).json()["entries"]
                    if entry["seq"] > bound.last_posted and entry["visibility"] != "hidden"
                ]
        finally:
            db.dispose()
        assert len(worker_pids(process)) == 2
    assert posted_seqs(discord_api.posted(channel_id)) == public
    assert set(made) <= set(public)
    assert len(discord_api.requests(rf"POST /channels/{channel_id}/webhooks")) == 1
