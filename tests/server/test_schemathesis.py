"""Property-based fuzzing of every operation in /openapi.json, on SQLite and PostgreSQL: no request
makes a 5xx."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode

from rollbook.server.app import create_app

from .conftest import V20_SHEET, V20_TEST

warnings.filterwarnings("ignore", category=DeprecationWarning)

MAX_EXAMPLES = 20


@dataclass
class Target:
    app: object
    token: str
    chronicle: int
    character: int


@pytest.fixture(scope="module")
def fuzz_target(database_url) -> Target:
    app = create_app(database_url)
    with TestClient(app) as client:
        created = client.post("/api/chronicles", json={"name": "Fuzz", "system": "v20"}).json()
        headers = {"Authorization": f"Bearer {created['token']}"}
        base = f"/api/chronicles/{created['chronicle']['id']}"
        character = client.post(f"{base}/characters", headers=headers, json={"name": "L", "sheet": V20_SHEET}).json()
        client.post(f"{base}/characters/{character['id']}/rolls", headers=headers, json={"action": V20_TEST})
        client.post(f"{base}/characters/{character['id']}/rolls", headers=headers, json={"action": V20_TEST,
                                                                                      "hidden": True})
    return Target(app, created["token"], created["chronicle"]["id"], character["id"])


def _aim(case, target: Target) -> None:
    """Aim half of the cases at the real chronicle, character and log entries, so they get past the
    403/404s and reach the rules."""
    params = case.path_parameters
    if params is None:
        return
    if "chronicle_id" in params:
        params["chronicle_id"] = target.chronicle
    if isinstance(params.get("character_id"), int) and params["character_id"] % 2:
        params["character_id"] = target.character
    if isinstance(params.get("seq"), int) and params["seq"] % 2:
        params["seq"] = 1 + params["seq"] % 4
    body = case.body
    if isinstance(body, dict) and len(repr(body)) % 2:  # keep the fuzzed extras, make the core valid
        if isinstance(body.get("action"), dict) and case.path.endswith("/rolls"):
            case.body = {"action": {**V20_TEST, "willpower": bool(len(body["action"]) % 2)},
                         "hidden": body.get("hidden") is True}
        elif isinstance(body.get("change"), dict):
            case.body = {"change": {"kind": "restore", "resource": "willpower", "amount": 1 + len(body["change"]) % 3}}


def test_no_request_makes_a_server_error(fuzz_target):
    # The live feed streams until the client leaves: it is tested on its own (test_api, test_concurrency).
    # Only the JSON API (the web pages mounted beside it have their own tests).
    schema = (schemathesis.openapi.from_asgi("/openapi.json", fuzz_target.app)
              .include(path_regex=r"^/(api|problems)/").exclude(path_regex=r"/events$"))
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    failures: list[str] = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            def check(case) -> None:
                _aim(case, fuzz_target)
                headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
                headers["Authorization"] = f"Bearer {fuzz_target.token}"
                if case.headers is not None:
                    case.headers = headers
                response = case.call(headers=headers)
                if case.path.endswith("/members/me/key") and response.status_code == 201:
                    fuzz_target.token = response.json()["token"]  # the key rotated: the old one opens nothing
                case.validate_response(response, checks=[not_a_server_error], headers=headers)

            try:
                check()
            except Unsatisfiable:  # nothing to make invalid (an operation without parameters)
                continue
            except Exception as failure:  # noqa: BLE001 - collected, reported together below
                failures.append(f"{operation.label} ({mode.value}): {str(failure)[:2000]}")
    assert not failures, "\n\n".join(failures)
