"""The objects an app builds at start-up are frozen out of the garbage collector's generations
while it serves (a full collection no longer walks them: bench/README.md, "Fourth pass"), and
handed back when it stops; the young generation is collected less often meanwhile."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from rollbook.server.app import create_app


def test_start_up_objects_are_frozen_while_the_app_serves(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'frozen.sqlite3'}")
    with TestClient(app) as client:
        assert gc.get_freeze_count() > 10_000
        assert client.get("/api/systems").status_code == 200
    assert gc.get_freeze_count() == 0


def test_the_young_generation_is_collected_less_often_while_the_app_serves(tmp_path):
    """Every GC_YOUNG_THRESHOLD allocations instead of CPython's 700 (several collections per roll:
    bench/README.md, "Sixth pass"); the older generations' thresholds and, once it stops, the
    process's own are kept."""
    from rollbook.server.app import GC_YOUNG_THRESHOLD

    before = gc.get_threshold()
    app = create_app(f"sqlite:///{tmp_path / 'young.sqlite3'}")
    with TestClient(app) as client:
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, *before[1:])
        assert GC_YOUNG_THRESHOLD > 700  # CPython's own (another app of this test session may serve too)
        assert client.get("/api/systems").status_code == 200
    assert gc.get_threshold() == before
