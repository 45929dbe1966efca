"""The live feeds are bounded, per member and per process, on both stores with two app processes on
one database: a member who opens more feeds than ``feeds_per_member`` has their oldest ended
(``end``, reason ``superseded``); a process that holds ``feeds_per_process`` refuses the next with a
429 problem (``too_many_feeds``), while the other process still serves; a feed that ends frees its
place. The app's start raises its open-file limit where it can."""

from __future__ import annotations

import resource

import httpx
import pytest

from rollbook.app.app import create_app, descriptor_limit
from rollbook.settings import load
from tests.conftest import wait_until
from tests.server.conftest import BACKENDS, ThreadedServer
from tests.server.feed_helpers import EventReader

pytestmark = pytest.mark.parametrize("database_url", BACKENDS, indirect=True)


def test_live_feeds_are_bounded_per_member_and_per_process(database_url, make_table):
    table = make_table("v5")
    bob = table.join("Bob")
    bounded = load().model_copy(update={"feeds_per_member": 2, "feeds_per_process": 3})
    path = f"{table.base}/events"
    with (
        ThreadedServer(create_app(database_url, settings=bounded)) as one,
        ThreadedServer(create_app(database_url, settings=bounded)) as other,
    ):
        hub = one.app.state.hub
        with EventReader(one.url, path, table.st, cut=True) as first:
            wait_until(lambda: hub.open_feeds == 1, what="the first feed")
            with EventReader(one.url, path, table.st, cut=True) as second:
                wait_until(lambda: hub.open_feeds == 2, what="the second feed")
                with EventReader(one.url, path, table.st, cut=True) as third:
                    wait_until(first.ended.is_set, 15, what="the member's oldest feed ended")
                    assert first.named("end")[-1]["data"] == {"reason": "superseded"}
                    assert third.status == 200 and not second.ended.is_set()
                    wait_until(lambda: hub.open_feeds == 2, what="the oldest feed's place freed")
                    with EventReader(one.url, path, bob, cut=True) as bobs:
                        wait_until(lambda: hub.open_feeds == 3, what="the process full")
                        refused = httpx.get(f"{one.url}{path}", headers=bob, timeout=30)
                        assert refused.status_code == 429, refused.text
                        assert refused.json()["code"] == "too_many_feeds"
                        assert refused.headers["content-type"].startswith("application/problem+json")
                        with EventReader(other.url, path, bob, cut=True) as elsewhere:  # its own bound
                            wait_until(lambda: other.app.state.hub.open_feeds == 1, what="the other process")
                            assert elsewhere.status == 200
                        assert bobs.status == 200


def test_the_start_raises_the_open_file_limit_where_it_can(database_url):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        wanted = 1000
        got = descriptor_limit(wanted)
        if hard == resource.RLIM_INFINITY or hard >= wanted + 256:
            assert got == wanted + 256
        else:
            assert got == hard
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == got
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
