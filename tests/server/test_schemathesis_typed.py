"""Schemathesis over the typed API, on SQLite and PostgreSQL: the roll, reroll, adjustment
and sheet paths fed with bodies generated from the document's own schemas of actions, follow-ups,
changes and sheets, and the stateful chain create chronicle -> add character -> roll (OpenAPI links).

- Every answer: no 5xx; a refusal is ``application/problem+json``; an answer fits the schema the
  document gives for its status (``response_schema_conformance``).
- A body is sent to a chronicle of the system whose schema it fits (as a client does: the same
  ``kind`` exists in several systems, the chronicle's system decides), with a fresh character of that
  system (the examples' sheet) so that one case does not spend what the next one needs.
- Printed: per operation, the generated cases the server accepted and refused (recorded in
  docs/server.md). Every operation accepts some of its positive cases: no "schema validation
  mismatch" (schemathesis' warning when every positive case of an operation is refused).
"""

from __future__ import annotations

import copy
import os
import time
import warnings
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import response_schema_conformance

from rollbook import play
from rollbook.app.app import create_app
from rollbook.play import examples
from rollbook.play.common import parse_kind
from rollbook.rules.base import RuleError
from rollbook.server.problems import PROBLEM_MEDIA_TYPE

warnings.filterwarnings("ignore", category=DeprecationWarning)

# The suite's run: 15 positive and 10 negative bodies per operation, 15 stateful runs (most of the
# time is hypothesis drawing the bodies); ROLLBOOK_FUZZ_TYPED_EXAMPLES=N draws N positive bodies and
# N stateful runs for a longer one (docs/server.md, "The typed API").
POSITIVE_EXAMPLES = int(os.environ.get("ROLLBOOK_FUZZ_TYPED_EXAMPLES", "15"))
NEGATIVE_EXAMPLES = 10
STATEFUL_EXAMPLES = POSITIVE_EXAMPLES
BODY = {
    "roll": "action",
    "reroll": "action",
    "adjust": "change",
    "add_character": "sheet",
    "edit_character": "patch",
}
CHECKS = [not_a_server_error, response_schema_conformance]


@dataclass
class Chronicle:
    system: str
    id: int
    headers: dict[str, str]


@dataclass
class Target:
    app: object
    client: TestClient
    chronicles: dict[str, Chronicle]
    tally: dict[tuple[str, str], Counter] = field(default_factory=lambda: defaultdict(Counter))
    codes: dict[tuple[str, str], Counter] = field(default_factory=lambda: defaultdict(Counter))
    fresh: dict[str, int] = field(default_factory=dict)  # system -> a character nothing has changed yet
    loaded: object = None  # the app's /openapi.json as schemathesis reads it, once (``bodies_schema``)

    def character(self, system: str) -> int:
        """A character of the system with the examples' sheet as it was created (made anew once a case
        changed the last one)."""
        if system not in self.fresh:
            self.fresh[system] = self._new_character(system)
        return self.fresh[system]

    def record(self, operation: str, mode: str, system: str, response) -> None:
        self.tally[(operation, mode)][response.status_code] += 1
        if response.status_code >= 400:
            self.codes[(operation, mode)][response.json().get("code", "?")] += 1
        elif operation != "add_character":
            self.fresh.pop(system, None)

    def _new_character(self, system: str) -> int:
        chronicle = self.chronicles[system]
        sheet = examples.EXAMPLES[system].sheet.value
        response = self.client.post(
            f"/api/chronicles/{chronicle.id}/characters",
            headers=chronicle.headers,
            json={"name": sheet["name"], "sheet": sheet},
        )
        assert response.status_code == 201, response.text
        return response.json()["id"]

    def v5_roll(self, character: int) -> int:
        chronicle = self.chronicles["v5"]
        response = self.client.post(
            f"/api/chronicles/{chronicle.id}/characters/{character}/rolls",
            headers=chronicle.headers,
            json={"action": {"kind": "test", "attribute": "dexterity", "skill": "firearms"}},
        )
        assert response.status_code == 201, response.text
        return response.json()["entry"]["seq"]


@pytest.fixture(scope="module")
def target(database_url):
    app = create_app(database_url)
    with TestClient(app) as client:
        chronicles = {}
        for system in play.SYSTEM_IDS:
            created = client.post(
                "/api/chronicles", json={"name": f"Typed fuzz {system}", "system": system}
            ).json()
            chronicles[system] = Chronicle(
                system, created["chronicle"]["id"], {"Authorization": f"Bearer {created['token']}"}
            )
        found = Target(app, client, chronicles)
        yield found
        _print_tally(database_url, found.tally, found.codes)


def _print_tally(database_url: str, tally: dict, codes: dict) -> None:
    store = "sqlite" if database_url.startswith("sqlite") else "postgresql"
    print(f"\nschemathesis, typed bodies ({store}): accepted / refused generated cases per operation")
    for (label, mode), counts in sorted(tally.items()):
        accepted = sum(n for status, n in counts.items() if status < 400)
        refused = sum(n for status, n in counts.items() if status >= 400)
        statuses = ", ".join(f"{status}×{n}" for status, n in sorted(counts.items()))
        print(f"  {label:<16} {mode:<9} accepted {accepted:>3}  refused {refused:>3}   ({statuses})")
        common = ", ".join(f"{code}×{n}" for code, n in codes[(label, mode)].most_common(6))
        if common:
            print(f"  {'':<16} {'':<9} refusals: {common}")


# --- which system a generated body belongs to --------------------------------------------------


def _fits(system: str, what: str, value) -> bool:
    module = play.system_module(system)
    try:
        if what == "action":
            parse_kind(module.ACTIONS, copy.deepcopy(value), "action")
        elif what == "followup":
            parse_kind(module.FOLLOWUPS, copy.deepcopy(value), "action")
        elif what == "change":
            parse_kind(module.CHANGES, copy.deepcopy(value), "change")
        elif what == "sheet":
            play.new_sheet(system, {"name": "Fuzz", **value})
        else:
            base = play.new_sheet(system, examples.EXAMPLES[system].sheet.value)
            play.edit_sheet(system, base, copy.deepcopy(value), role="storyteller")
    except (RuleError, TypeError, ValueError, KeyError, AttributeError):
        return False
    return True


def system_for(what: str, value) -> str:
    """The system whose schema the body fits (the first of several, picked by the body's hash); a body
    no system's play layer accepts goes to one of them all the same (and is refused there)."""
    fitting = [system for system in play.SYSTEM_IDS if isinstance(value, dict) and _fits(system, what, value)]
    choices = fitting or list(play.SYSTEM_IDS)
    return choices[zlib.crc32(repr(value).encode()) % len(choices)]


def aim(case, target: Target) -> str:
    """Point the case at a chronicle of its body's system, a fresh character there and, for a reroll, a
    fresh V5 test; the Storyteller's token. Returns the system."""
    operation = case.operation.definition.raw["operationId"]
    body = case.body if isinstance(case.body, dict) else {}
    what = {
        "roll": "action",
        "reroll": "followup",
        "adjust": "change",
        "add_character": "sheet",
        "edit_character": "patch",
    }[operation]
    system = system_for(what, body.get(BODY[operation], {}))
    if operation == "reroll" and system not in ("v5", "rollunder"):
        system = "v5"
    chronicle = target.chronicles[system]
    params = case.path_parameters
    params["chronicle_id"] = chronicle.id
    if "character_id" in params:
        params["character_id"] = target.character(system)
    if "seq" in params:
        params["seq"] = target.v5_roll(target.character("v5")) if system == "v5" else _rollunder_roll(target)
    case.headers = {
        k: v for k, v in (case.headers or {}).items() if k.lower() not in ("authorization", "idempotency-key")
    }
    return system


def _rollunder_roll(target: Target) -> int:
    chronicle = target.chronicles["rollunder"]
    character = target.character("rollunder")
    action = examples.EXAMPLES["rollunder"].actions["rollunder_check"].value
    response = target.client.post(
        f"/api/chronicles/{chronicle.id}/characters/{character}/rolls",
        headers=chronicle.headers,
        json={"action": action},
    )
    assert response.status_code == 201, response.text
    return response.json()["entry"]["seq"]


def _schema(target: Target):
    return schemathesis.openapi.from_asgi("/openapi.json", target.app)


def bodies_schema(target: Target):
    """``_schema``, read once per target for the generated bodies' tests (reading and resolving the
    document costs each test seconds; they only look operations up in it). The stateful test changes
    its schema's configuration: it reads its own."""
    if target.loaded is None:
        target.loaded = _schema(target)
    return target.loaded


def _mutated(case) -> str:
    """Where schemathesis made a negative case invalid (``body``, ``path``, ``header``, …)."""
    location = getattr(getattr(getattr(case.meta, "phase", None), "data", None), "parameter_location", None)
    return str(getattr(location, "value", location))


def _check_refusal(response) -> None:
    if response.status_code >= 400:
        content_type = response.headers.get("content-type") or [""]
        content_type = content_type if isinstance(content_type, str) else content_type[0]
        assert content_type.startswith(PROBLEM_MEDIA_TYPE), (
            response.status_code,
            content_type,
            response.text[:300],
        )
        assert response.json()["code"]


@pytest.mark.parametrize("operation_id", list(BODY))
def test_generated_bodies_reach_the_rules(target, operation_id):
    """Positive cases (bodies of the document's schemas) and negative ones, for one operation."""
    started = time.monotonic()
    operation = bodies_schema(target).find_operation_by_id(operation_id)
    failures: list[str] = []
    for mode, count in (
        (GenerationMode.POSITIVE, POSITIVE_EXAMPLES),
        (GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES),
    ):

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=count,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        def check(case) -> None:
            # a negative case made negative by its path or headers is made valid by aim(): not one of the body's
            assume(
                mode is GenerationMode.POSITIVE  # noqa: B023 - check runs within its mode's iteration
                or _mutated(case) == "body"
            )
            system = aim(case, target)
            headers = {**(case.headers or {}), **target.chronicles[system].headers}
            response = case.call(headers=headers)
            _check_refusal(response)
            target.record(operation_id, mode.value, system, response)  # noqa: B023 - as above
            case.validate_response(response, checks=CHECKS, headers=headers)

        try:
            check()
        except Exception as failure:
            failures.append(f"{operation_id} ({mode.value}): {str(failure)[:3000]}")
    assert not failures, "\n\n".join(failures)
    positive = target.tally[(operation_id, "positive")]
    accepted = sum(n for status, n in positive.items() if status < 400)
    assert accepted, (
        f"{operation_id}: no generated body accepted ({dict(positive)}): a schema validation mismatch"
    )
    print(f"\n{operation_id}: {time.monotonic() - started:.1f} s")


def test_stateful_create_chronicle_add_character_roll(target):
    """The links of the document, followed by schemathesis' state machine: a chronicle created, a
    character added to it with its token, rolled for, adjusted, edited, followed up."""
    schema = _schema(target)
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])
    schema.config.phases.stateful.inference.algorithms = []  # the document's links, none inferred
    schema = schema.include(operation_id=["create_chronicle", "add_character", "roll", "reroll"])
    tokens: dict[int, str] = {}
    tally = target.tally

    class Machine(schema.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case) -> None:
            case.headers = {
                k: v
                for k, v in (case.headers or {}).items()
                if k.lower() not in ("authorization", "idempotency-key")
            }
            chronicle = (case.path_parameters or {}).get("chronicle_id")
            if chronicle in tokens:
                case.headers["Authorization"] = f"Bearer {tokens[chronicle]}"

        def after_call(self, response, case) -> None:
            operation = case.operation.definition.raw["operationId"]
            tally[(operation, "stateful")][response.status_code] += 1
            if response.status_code >= 400:
                target.codes[(operation, "stateful")][response.json().get("code", "?")] += 1
            if operation == "create_chronicle" and response.status_code == 201:
                created = response.json()
                tokens[created["chronicle"]["id"]] = created["token"]
            _check_refusal(response)

        def validate_response(self, response, case, additional_checks=None, **kwargs) -> None:
            case.validate_response(response, checks=CHECKS)

    Machine.run(
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=6,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
    )
    assert tally[("create_chronicle", "stateful")][201], dict(tally[("create_chronicle", "stateful")])
    assert tally[("add_character", "stateful")][201], dict(tally[("add_character", "stateful")])
    rolled = tally[("roll", "stateful")]
    assert sum(rolled.values()), "the chain never reached a roll"
