"""SPEC F-1: the operator's secret is checked where a host meets it. A store holding sealed seeds in
use refuses to start when the secret opens none of them (a key file moved away or replaced), never
makes a new key file over them, and ``/api/health`` and ``rollbook db verify`` say so."""

from __future__ import annotations

import os
import shutil

import pytest
from fastapi.testclient import TestClient

from rollbook import settings as settings_module
from rollbook.app.app import close_app, create_app
from rollbook.server.seal import SecretKeyError
from rollbook.settings import Settings

from .conftest import V20_SHEET, V20_TEST, run_cli
from .conftest import Table as ChronicleTable


@pytest.fixture()
def keep_settings(monkeypatch):
    monkeypatch.setattr(settings_module, "_installed", settings_module._installed)


def _with_key_file(path) -> Settings:
    return Settings(secret_key=None, secret_key_file=str(path))


def _a_sealed_seed(url: str, key) -> None:
    """A chronicle whose first roll committed (and sealed) a server seed, under the key file ``key``."""
    app = create_app(url, settings=_with_key_file(key))
    try:
        with TestClient(app) as client:
            created = client.post("/api/chronicles", json={"name": "Sealed", "system": "v20"})
            table = ChronicleTable(client, created.json())
            player = table.join()
            character = table.character(player, V20_SHEET)
            rolled = table.roll(player, character["id"], V20_TEST)
            assert rolled.status_code in (200, 201), rolled.text
            health = client.get("/api/health")
            assert health.status_code == 200, health.text
            assert health.json()["checks"]["secret"] == {"ok": True, "tried": 1, "opened": 1}
    finally:
        close_app(app)


def test_F_1_a_missing_key_file_over_sealed_seeds_refuses_the_start_and_makes_no_key(
    fresh_url, tmp_path, keep_settings
):
    key = tmp_path / "rollbook-secret.key"
    _a_sealed_seed(fresh_url, key)
    assert key.exists() and key.stat().st_mode & 0o777 == 0o600
    shutil.move(key, tmp_path / "moved-away.key")
    with pytest.raises(SecretKeyError, match="is missing and the database holds 1 sealed seed"):
        create_app(fresh_url, settings=_with_key_file(key))
    assert not key.exists()  # no new key minted over the sealed seeds
    shutil.move(tmp_path / "moved-away.key", key)  # put back: the server starts again
    close_app(create_app(fresh_url, settings=_with_key_file(key)))


def test_F_1_a_replaced_secret_refuses_the_start_and_db_verify_says_so(fresh_url, tmp_path, keep_settings):
    key = tmp_path / "rollbook-secret.key"
    _a_sealed_seed(fresh_url, key)
    other = tmp_path / "other.key"
    other.write_text("f" * 64 + "\n")
    with pytest.raises(SecretKeyError, match="does not open the 1 sealed seed in use"):
        create_app(fresh_url, settings=_with_key_file(other))
    env = {k: v for k, v in os.environ.items() if k != "ROLLBOOK_SECRET_KEY"}
    wrong = run_cli(
        "db", "verify", "--database-url", fresh_url, env={**env, "ROLLBOOK_SECRET_KEY_FILE": str(other)}
    )
    assert wrong.returncode == 1, wrong.stderr
    assert (
        "opens 0 of 1 seed in use (not that of chronicle " in wrong.stdout
        and "restore the key" in wrong.stdout
    )
    right = run_cli(
        "db", "verify", "--database-url", fresh_url, env={**env, "ROLLBOOK_SECRET_KEY_FILE": str(key)}
    )
    assert right.returncode == 0, right.stdout + right.stderr
    assert "opens the 1 seed in use" in right.stdout
    served = run_cli(
        "serve",
        "--database-url",
        fresh_url,
        "--port",
        "1",
        env={**env, "ROLLBOOK_SECRET_KEY_FILE": str(other)},
    )
    assert served.returncode != 0
    lines = served.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not open the 1 sealed seed in use" in lines[0], served.stderr


def test_F_1_health_reports_a_key_file_replaced_while_serving(fresh_url, tmp_path, keep_settings):
    key = tmp_path / "rollbook-secret.key"
    _a_sealed_seed(fresh_url, key)
    app = create_app(fresh_url, settings=_with_key_file(key))
    try:
        with TestClient(app) as client:
            key.write_text("e" * 64 + "\n")  # replaced under the running server
            health = client.get("/api/health")
            assert health.status_code == 503, health.text
            assert health.json()["failed"] == ["secret"]
            assert health.json()["checks"]["secret"]["code"] == "secret_does_not_open"
            key.unlink()  # moved away: still reported, and no key file is made for it
            assert client.get("/api/health").json()["failed"] == ["secret"]
            assert not key.exists()
    finally:
        close_app(app)


def test_F_1_a_first_start_on_an_empty_store_makes_the_key_file(fresh_url, tmp_path, keep_settings):
    key = tmp_path / "keys" / "rollbook-secret.key"
    app = create_app(fresh_url, settings=_with_key_file(key))
    close_app(app)
    assert key.exists() and key.stat().st_mode & 0o777 == 0o600
