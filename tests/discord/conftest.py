"""The Discord tests' app: the server's (both stores, ``tests/server/conftest.py``) with an
application public key of the tests' own Ed25519 pair, and Discord's REST API pointed at the
stand-in (``standin.py``: a real HTTP server on 127.0.0.1, one per test process), so that deferred
answers and the channel poster's posts land there, never on discord.com."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from rollbook.app.app import close_app, create_app
from rollbook.settings import load
from tests.discord.signing import APPLICATION, Discord, Key
from tests.discord.standin import BOT_TOKEN, StandIn
from tests.server.conftest import backend, database_url, make_table, pg_url  # noqa: F401


@pytest.fixture(scope="session")
def discord_key() -> Key:
    return Key()


@pytest.fixture(scope="session")
def standin() -> Iterator[StandIn]:
    with StandIn(application_id=APPLICATION) as server:
        yield server


@pytest.fixture()
def discord_api(standin) -> Iterator[StandIn]:
    """The session's stand-in, behaving again after the test (listening, nothing planned)."""
    yield standin
    standin.accept()
    standin.clear_plans()


def discord_settings(discord_key: Key, standin: StandIn):
    return load().model_copy(
        update={
            "discord_public_key": discord_key.public_hex,
            "discord_application_id": APPLICATION,
            "discord_api_base": standin.base,
            "discord_bot_token": SecretStr(BOT_TOKEN),
        }
    )


@pytest.fixture(scope="session")
def app(database_url, discord_key, standin):  # noqa: F811 - the Discord tests' own app
    made = create_app(database_url, settings=discord_settings(discord_key, standin))
    yield made
    close_app(made)  # before the database is dropped (tests/server/conftest.py's app likewise)


@pytest.fixture(scope="session")
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture()
def discord(client, discord_key) -> Discord:
    return Discord(client, discord_key)
