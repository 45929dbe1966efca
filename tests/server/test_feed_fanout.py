"""Every open feed polled the log on its own timer (every 0.5 s on SQLite: 250
idle feeds burnt 58% of a core) and read the log on its own on every wake. Now a process reads a
chronicle's new entries once per wake for all its feeds (``hub.Hub``): 2,000 feeds open and
idle read nothing, and one roll is one read of the log in the process, not one per feed."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import threading

import httpx
import pytest

from rollbook.app.app import create_app
from rollbook.settings import load

from .conftest import V20_SHEET, V20_TEST, ThreadedServer, bearer
from .feed_helpers import EventReader, until

FEEDS = 2000
CHRONICLES = 10
BOUNDS = {"feeds_per_member": FEEDS, "feeds_per_process": FEEDS}


class Feeds:
    """``FEEDS`` live feeds held open by one asyncio loop in a thread; ``seen[i]``: the seqs of feed i."""

    def __init__(self, url: str, specs: list[tuple[str, dict, int]]) -> None:
        self.url, self.specs = url, specs
        self.seen: list[list[int]] = [[] for _ in specs]
        self.open = 0
        self.errors: list[str] = []
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(
            target=self._loop.run_until_complete, args=(self._run(),), daemon=True
        )

    async def _one(self, index: int, gate: asyncio.Semaphore) -> None:
        """One feed on its own connection, in plain HTTP/1.1 (a client this light lets one test
        process hold thousands): the seq of every event."""
        path, headers, after = self.specs[index]
        writer = None
        try:
            async with gate:
                host, port = self.url.removeprefix("http://").split(":")
                reader, writer = await asyncio.open_connection(host, int(port))
                lines = [
                    f"GET {path}?after={after} HTTP/1.1",
                    f"Host: {host}",
                    "Accept: text/event-stream",
                    *(f"{name}: {value}" for name, value in headers.items()),
                    "",
                    "",
                ]
                writer.write("\r\n".join(lines).encode())
                status = await reader.readline()
                if b" 200 " not in status:
                    raise RuntimeError(status.decode().strip())
            self.open += 1
            while line := await reader.readline():
                if line.startswith(b"id: "):
                    self.seen[index].append(int(line[4:]))
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self.errors.append(repr(error))
        finally:
            if writer is not None:
                writer.close()

    async def _run(self) -> None:
        self._stop = asyncio.Event()
        gate = asyncio.Semaphore(64)
        tasks = [asyncio.create_task(self._one(i, gate)) for i in range(len(self.specs))]
        await self._stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __enter__(self) -> Feeds:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        until(lambda: self._stop is not None, 10)
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=60)
        self._loop.close()


@pytest.fixture()
def many_fds():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 16384) if hard != resource.RLIM_INFINITY else 16384
    if wanted < 3 * FEEDS:
        pytest.skip(f"needs {3 * FEEDS} file descriptors; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_idle_feeds_read_nothing_and_a_roll_is_one_read_per_process(database_url, many_fds):
    # a hundred feeds a member: past the default bound of a member's feeds, raised here (test_feed_bounds)
    app = create_app(database_url, settings=load().model_copy(update=BOUNDS))
    hub = app.state.hub
    hub.poll_interval = 0.25  # the per-process catch-up, often: it must not read the log
    with ThreadedServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        tables = []
        for index in range(CHRONICLES):
            created = http.post("/api/chronicles", json={"name": f"Fan-out {index}", "system": "v20"}).json()
            joined = http.post("/api/join", json={"invitation": created["invitation"], "name": "P"}).json()
            base = f"/api/chronicles/{created['chronicle']['id']}"
            st, player = bearer(created["token"]), bearer(joined["token"])
            character = http.post(
                f"{base}/characters", headers=st, json={"name": "L", "sheet": V20_SHEET}
            ).json()
            # a chronicle's first roll also commits its fair-dice seed (F-1): two entries, two NOTIFYs that
            # may wake the reader twice; the roll measured below is an ordinary one, a single entry
            warm = http.post(
                f"{base}/characters/{character['id']}/rolls", headers=st, json={"action": V20_TEST}
            )
            assert warm.status_code == 201, warm.text
            head = http.get(f"{base}/log", headers=st, params={"limit": 1}).json()["head"]["seq"]
            tables.append(
                {
                    "id": created["chronicle"]["id"],
                    "base": base,
                    "st": st,
                    "player": player,
                    "character": character["id"],
                    "head": head,
                }
            )
        # half the feeds the Storyteller's, half a player's: both views made from the one read
        specs = [
            (f"{t['base']}/events", t["st"] if i % 2 else t["player"], t["head"])
            for i in range(FEEDS)
            for t in [tables[i % CHRONICLES]]
        ]
        with Feeds(server.url, specs) as feeds:
            assert until(lambda: feeds.open == FEEDS or feeds.errors, 120), feeds.errors[:3]
            assert not feeds.errors
            assert until(lambda: sum(len(c.feeds) for c in hub.channels.values()) == FEEDS, 30)
            assert until(lambda: all(c.ready.is_set() for c in hub.channels.values()), 30)
            assert len(hub.channels) == CHRONICLES
            reads, catch_ups = hub.reads, hub.catch_ups
            assert until(lambda: hub.catch_ups >= catch_ups + 4, 30)  # a while, every process check made
            assert hub.reads == reads  # idle: not one read of the log
            assert hub.backlog_reads == 0  # every feed opened at the head: nothing to read on its own

            hub.poll_interval = 3600  # no catch-up during the roll: the count is the roll's alone
            catch_ups = hub.catch_ups
            assert until(lambda: hub.catch_ups == catch_ups + 1, 10)
            rolled = tables[0]
            seq = http.post(
                f"{rolled['base']}/characters/{rolled['character']}/rolls",
                headers=rolled["st"],
                json={"action": V20_TEST},
            ).json()["entry"]["seq"]
            mine = [i for i, spec in enumerate(specs) if spec[0] == f"{rolled['base']}/events"]
            assert until(lambda: all(seq in feeds.seen[i] for i in mine), 30)
            assert hub.reads == reads + 1  # one read in this process for its FEEDS // CHRONICLES feeds
            assert not any(feeds.seen[i] for i in range(FEEDS) if i not in set(mine))


def test_idle_feeds_issue_no_statement_of_their_own_and_the_listener_sleeps(database_url):
    """Idle feeds cost nothing but their keep-alive, on either store. While twelve feeds
    of three chronicles wait, the process's only statements are its catch-up's (two a round: the
    heads, the tokens revoked lately) and at most one presence heartbeat, whatever the number of
    feeds; on PostgreSQL the listener thread does not wake at all (it used to poll every 0.2 s). A
    roll then still reaches them."""
    from sqlalchemy import event

    app = create_app(database_url)
    hub = app.state.hub
    hub.poll_interval = 0.25  # the catch-up, often: the clock of the idle window below
    statements: list[str] = []
    event.listen(
        app.state.db.engine,
        "before_cursor_execute",
        lambda conn, cursor, statement, *rest: statements.append(statement),
    )
    with ThreadedServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        tables = []
        for index in range(3):
            created = http.post("/api/chronicles", json={"name": f"Idle {index}", "system": "v20"}).json()
            base = f"/api/chronicles/{created['chronicle']['id']}"
            st = bearer(created["token"])
            character = http.post(
                f"{base}/characters", headers=st, json={"name": "L", "sheet": V20_SHEET}
            ).json()
            head = http.get(f"{base}/log", headers=st, params={"limit": 1}).json()["head"]["seq"]
            tables.append((created["chronicle"]["id"], base, st, character["id"], head))
        readers = [
            EventReader(server.url, f"{base}/events", st, {"after": head, "idle_timeout": 30}, cut=True)
            for _, base, st, _, head in tables
            for _ in range(4)
        ]
        with contextlib.ExitStack() as stack:
            for reader in readers:
                stack.enter_context(reader)
            assert until(lambda: sum(len(c.feeds) for c in hub.channels.values()) == len(readers), 30)
            assert until(lambda: all(c.ready.is_set() for c in hub.channels.values()), 30)
            if hub.listener is not None:
                assert until(lambda: hub.listened == {t[0] for t in tables}, 30)
            settled = hub.presence.writes
            assert until(lambda: not hub.presence.changes and hub.presence.writes >= settled, 30)
            catch_ups = hub.catch_ups
            assert until(lambda: hub.catch_ups >= catch_ups + 1, 10)  # a round begins: count from here
            catch_ups, turns, said = hub.catch_ups, hub.listener and hub.listener.turns, len(statements)
            assert until(lambda: hub.catch_ups >= catch_ups + 8, 30)  # two seconds or so, idle
            idle = [s for s in statements[said:] if s.split()[0] not in ("BEGIN", "COMMIT", "ROLLBACK")]
            rounds = hub.catch_ups - catch_ups + 1  # the one under way as the count ends, perhaps
            assert len(idle) <= 2 * rounds + 1, idle  # the catch-ups', a heartbeat: none per feed
            if hub.listener is not None:
                assert hub.listener.turns == turns  # not one wake-up of the listener while idle
            _, base, st, character, _ = tables[0]
            rolled = http.post(f"{base}/characters/{character}/rolls", headers=st, json={"action": V20_TEST})
            assert rolled.status_code == 201, rolled.text
            seq = rolled.json()["entry"]["seq"]
            assert until(lambda: all(seq in reader.seqs() for reader in readers[:4]), 10)
            hub.poll_interval = 3600.0
