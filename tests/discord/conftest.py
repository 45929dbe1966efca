"""The Discord tests' app: the server's (both stores, ``tests/server/conftest.py``) with an
application public key of the tests' own Ed25519 pair."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from rollbook.server.app import create_app
from rollbook.settings import load
from tests.discord.signing import APPLICATION, Discord, Key
from tests.server.conftest import backend, database_url, make_table, pg_url  # noqa: F401


@pytest.fixture(scope="session")
def discord_key() -> Key:
    return Key()


@pytest.fixture(scope="session")
def app(database_url, discord_key):  # noqa: F811 - the Discord tests' own app
    settings = load().model_copy(update={"discord_public_key": discord_key.public_hex,
                                         "discord_application_id": APPLICATION})
    return create_app(database_url, settings=settings)


@pytest.fixture(scope="session")
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture()
def discord(client, discord_key) -> Discord:
    return Discord(client, discord_key)
