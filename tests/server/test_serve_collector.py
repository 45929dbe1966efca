"""The serving process settles the cyclic collector once start-up is done (``serving.settle_collector``):
start-up's objects are frozen out of the generations a full collection walks, so a collection in
service no longer stops every request for the whole app's objects (bench/README.md, "Stalls")."""

from __future__ import annotations

import gc
import weakref

import pytest
import uvicorn

from rollbook.app import serving

from .conftest import in_a_loop


@pytest.fixture
def unfrozen():
    thresholds = gc.get_threshold()
    gc.unfreeze()
    yield
    gc.unfreeze()  # the test process keeps collecting everything, as before
    gc.set_threshold(*thresholds)


class Held:
    """An object that lives through start-up."""


def test_settling_freezes_what_start_up_made_and_collects_what_it_left(unfrozen):
    held = Held()
    garbage = Held()
    garbage.cycle = garbage  # a cycle only a collection frees
    gone = weakref.ref(garbage)
    del garbage
    frozen = serving.settle_collector()
    assert frozen > 0 and gc.get_freeze_count() > 0  # (another thread may free a frozen object since)
    tracked = gc.get_objects()
    assert not any(found is held for found in tracked)  # out of every generation: never walked again
    assert gone() is None  # the cycle was collected first, not frozen with the rest
    made_after = Held()
    made_after.cycle = made_after
    assert any(found is made_after for found in gc.get_objects())  # what service makes is still collected


def test_settling_makes_young_collections_rarer_and_keeps_generation_ones_threshold(unfrozen):
    gc.set_threshold(700, 10, 10)
    serving.settle_collector()
    assert gc.get_threshold() == (serving.YOUNG_COLLECTION_EVERY, 10, serving.FULL_COLLECTION_AFTER)
    assert serving.YOUNG_COLLECTION_EVERY > 700
    before = gc.get_count()[0]
    made = [Held() for _ in range(serving.YOUNG_COLLECTION_EVERY - before - 100)]  # more than 700: none yet
    assert len(made) > 700 and gc.get_count()[0] >= before + len(made)
    del made


def collections_while_keeping(objects: int) -> tuple[int, int]:
    """The generation-1 and full collections the collector runs by itself while ``objects`` new
    lists are kept alive, the oldest generation empty at the start (everything frozen, then one
    collection)."""
    gc.freeze()
    gc.collect()
    generations: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "stop":
            generations.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        kept = [[] for _ in range(objects)]
    finally:
        gc.callbacks.remove(seen)
    assert len(kept) == objects
    return generations.count(1), generations.count(2)


def test_settled_full_collections_wait_for_more_generation_one_collections(unfrozen):
    """What a young collection promotes while serving is mostly requests in flight: CPython's trigger
    (10 generation-1 collections) set off a full collection, which walks every open feed's objects,
    about every minute of rolls at 400 tables; settled, it waits for ``FULL_COLLECTION_AFTER``."""
    objects = serving.YOUNG_COLLECTION_EVERY * 200  # about 18 generation-1 collections
    gc.set_threshold(serving.YOUNG_COLLECTION_EVERY, 10, 10)
    older, full = collections_while_keeping(objects)
    assert older > 10 and full >= 1  # CPython's own oldest threshold
    gc.unfreeze()
    serving.settle_collector()
    older, full = collections_while_keeping(objects)
    assert 10 < older < serving.FULL_COLLECTION_AFTER and full == 0


def test_the_served_process_settles_once_started(unfrozen, monkeypatch):
    async def started(self, sockets=None):
        self.started = True

    monkeypatch.setattr(uvicorn.Server, "startup", started)
    announced = []
    server = serving.AnnouncingServer(
        uvicorn.Config(lambda *_: None), lambda: announced.append(gc.get_freeze_count())
    )
    assert gc.get_freeze_count() == 0
    in_a_loop(server.startup())
    assert announced and announced[0] > 0  # settled before it says it serves


def test_a_server_that_did_not_start_does_not_settle(unfrozen, monkeypatch):
    async def failed(self, sockets=None):
        self.started = False

    monkeypatch.setattr(uvicorn.Server, "startup", failed)
    in_a_loop(serving.AnnouncingServer(uvicorn.Config(lambda *_: None), None).startup())
    assert gc.get_freeze_count() == 0


def test_the_served_process_runs_uvloop_and_httptools(monkeypatch):
    """The server's loop and HTTP parser are the C ones (``serving.EVENT_LOOP``, ``NoDelayHttpProtocol``):
    the loop uvicorn makes for ``rollbook serve`` is uvloop's where uvloop is installed, as here."""
    import asyncio

    import uvloop

    configs: list[uvicorn.Config] = []
    monkeypatch.setattr(
        serving.AnnouncingServer, "run", lambda self, sockets=None: configs.append(self.config)
    )
    # a bare callable stands for the app: nothing is served, only the config is read
    serving.run(lambda *_: None, host="127.0.0.1", port=0, log_level="warning")  # type: ignore[arg-type]
    (config,) = configs
    config.load()
    assert config.http_protocol_class is serving.NoDelayHttpProtocol
    factory = config.get_loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop, uvloop.Loop) and isinstance(loop, asyncio.AbstractEventLoop)
    finally:
        loop.close()
