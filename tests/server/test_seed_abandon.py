"""SPEC F-1: when the operator's secret no longer opens a chronicle's seed in use (the key file was
replaced), the Storyteller gives it up from the page or the API: a ``seed_abandon`` entry whose rolls
stay pending for good, a new seed committed, rolls again, health clean, the export verified; on
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook import settings as settings_module
from rollbook.app.app import close_app, create_app
from rollbook.server.auth import COOKIE_NAME
from rollbook.settings import Settings

from .conftest import V20_SHEET, V20_TEST
from .conftest import Table as ChronicleTable
from .forging import entries_of, verify
from .helpers import problem

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture()
def keep_settings(monkeypatch):
    monkeypatch.setattr(settings_module, "_installed", settings_module._installed)


def test_F_1_an_unreadable_seed_is_given_up_and_a_new_one_committed(fresh_url, tmp_path, keep_settings):
    key = tmp_path / "rollbook-secret.key"
    app = create_app(fresh_url, settings=Settings(secret_key=None, secret_key_file=str(key)))
    try:
        with TestClient(app) as client:
            created = client.post("/api/chronicles", json={"name": "Lost key", "system": "v20"})
            table = ChronicleTable(client, created.json())
            player = table.join("Ana")
            lucita = table.character(player, V20_SHEET)
            assert table.roll(player, lucita["id"], V20_TEST).status_code == 201
            problem(client.post(f"{table.base}/fair/abandon", headers=table.st), 409, "seed_readable")

            key.write_text("e" * 64 + "\n")  # the key file replaced under the running server
            problem(table.roll(player, lucita["id"], V20_TEST), 503, "secret_does_not_open")
            state = client.get(f"{table.base}/fair", headers=table.st).json()
            assert state["unreadable"] == ["public"]
            assert "unreadable" not in client.get(f"{table.base}/fair", headers=player).json()
            problem(client.post(f"{table.base}/fair/abandon", headers=player), 403, "storyteller_only")

            # the page says so and offers the button; the form gives the seed up
            client.cookies.set(COOKIE_NAME, created.json()["token"])
            page = client.get(f"/chronicles/{table.id}")
            assert "Give up the unreadable seed and start a new one" in page.text
            gave_up = client.post(
                f"/chronicles/{table.id}/fair/abandon", headers=ORIGIN, follow_redirects=False
            )
            assert gave_up.status_code == 303, gave_up.text
            assert "Give up the unreadable seed" not in client.get(f"/chronicles/{table.id}").text
            client.cookies.clear()

            problem(client.post(f"{table.base}/fair/abandon", headers=table.st), 409, "seed_readable")
            assert table.roll(player, lucita["id"], V20_TEST).status_code == 201  # under the new seed
            assert client.get("/api/health").status_code == 200
            assert client.post(f"{table.base}/fair/rotate", headers=table.st).status_code == 201

            entries = entries_of(table.export(player))
            abandoned = [e for e in entries if e["kind"] == "seed_abandon"]
            assert [e["receipt"]["rolls"] for e in abandoned] == [1]
            assert abandoned[0]["receipt"]["cause"] == "unreadable"
            assert abandoned[0]["visibility"] == "public"
            answer = verify(tmp_path, entries)
            assert answer.returncode == 0, answer.stdout
            # the roll under the abandoned seed stays pending, the one under the new seed is checked
            assert "fair dice: 1 verified, 1 pending" in answer.stderr, answer.stderr

            # a roll claimed under the abandoned seed after its abandon is caught
            forged = [dict(e) for e in entries]
            late = next(e for e in forged if e["kind"] == "roll" and e["seq"] > abandoned[0]["seq"])
            late["receipt"] = {
                **late["receipt"],
                "fair": {
                    **late["receipt"]["fair"],
                    "commitment": abandoned[0]["receipt"]["commitment"],
                    "nonce": 2,
                },
            }
            answer = verify(tmp_path, forged, "forged.jsonl")
            assert answer.returncode == 1
            assert "after it was abandoned in entry" in answer.stdout, answer.stdout
    finally:
        close_app(app)
