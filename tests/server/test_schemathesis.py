"""Schemathesis over every JSON operation of /openapi.json, on SQLite and PostgreSQL:
its three generation phases (the document's examples, the coverage phase's boundary and
out-of-schema values, and fuzzing, positive and negative), sent as a player and as the Storyteller
with their real tokens, aimed at the real chronicle, characters, log entries and asks.

Checks: no 5xx (``not_a_server_error``), no status code the document does not give for the
operation (``status_code_conformance``), no answer outside the schema the document gives for its
status (``response_schema_conformance``).

Derandomized, few cases per operation (the suite's run). The long run is the same test with more:
``ROLLBOOK_FUZZ_EXAMPLES=200 pytest -s tests/server/test_schemathesis.py`` (every coverage case, 200
fuzzed cases per operation and role; ``ROLLBOOK_FUZZ_COVERAGE_STRIDE=N`` sends every N-th coverage
case instead). docs/server.md ("The typed API") records what the runs found.
"""

from __future__ import annotations

import os
import warnings
from collections import Counter
from dataclasses import dataclass, field

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation.hypothesis.builder import HypothesisTestConfig, HypothesisTestMode, create_test
from schemathesis.generation.meta import TestPhase
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from rollbook.app.app import create_app

from .conftest import V20_SHEET, V20_TEST

warnings.filterwarnings("ignore", category=DeprecationWarning)

# The suite's run: 3 fuzzed cases per operation and role, every 75th case of the coverage phase (it
# gives about 15,000 per role, most of them for the sheet, action and scenario bodies). The long run
# (ROLLBOOK_FUZZ_EXAMPLES set) sends every coverage case.
FUZZED_EXAMPLES = int(os.environ.get("ROLLBOOK_FUZZ_EXAMPLES", "3"))
COVERAGE_STRIDE = int(
    os.environ.get("ROLLBOOK_FUZZ_COVERAGE_STRIDE", "1" if "ROLLBOOK_FUZZ_EXAMPLES" in os.environ else "75")
)
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
PHASES = [HypothesisTestMode.EXAMPLES, HypothesisTestMode.COVERAGE, HypothesisTestMode.FUZZING]
ROLES = ("player", "storyteller")  # the player first: the Storyteller's run may remove them
# Operations that end a token (sign-out) or a member: each role's run makes them last.
LAST = ("DELETE /api/session", "DELETE /api/chronicles/{chronicle_id}/members/{member_id}")


@dataclass
class Target:
    app: object
    chronicle: int
    tokens: dict[str, str]
    characters: dict[str, int]
    seqs: list[int]
    asks: list[int] = field(default_factory=list)


@pytest.fixture(scope="module")
def fuzz_target(database_url) -> Target:
    return table_at_play(database_url)


def table_at_play(database_url: str) -> Target:
    """A V20 chronicle at play: the Storyteller's NPC and a player's character, public and hidden
    rolls, a Willpower spend, pending asks."""
    app = create_app(database_url)
    with TestClient(app) as client:
        created = client.post("/api/chronicles", json={"name": "Fuzz", "system": "v20"}).json()
        chronicle = created["chronicle"]["id"]
        base = f"/api/chronicles/{chronicle}"
        joined = client.post("/api/join", json={"invitation": created["invitation"], "name": "Ana"}).json()
        tokens = {"storyteller": created["token"], "player": joined["token"]}
        headers = {role: {"Authorization": f"Bearer {token}"} for role, token in tokens.items()}
        characters = {
            role: client.post(
                f"{base}/characters", headers=headers[role], json={"name": role, "sheet": V20_SHEET}
            ).json()["id"]
            for role in ROLES
        }
        seqs, asks = [], []
        for role, body in (
            ("player", {"action": {**V20_TEST, "willpower": True}}),
            ("storyteller", {"action": V20_TEST, "hidden": True}),
            ("player", {"action": V20_TEST}),
        ):
            answer = client.post(
                f"{base}/characters/{characters[role]}/rolls", headers=headers[role], json=body
            )
            assert answer.status_code == 201, answer.text
            seqs.append(answer.json()["entry"]["seq"])
        for _ in range(2):
            answer = client.post(
                f"{base}/characters/{characters['player']}/rolls",
                headers=headers["player"],
                json={"action": {**V20_TEST, "difficulty": 5}, "ask": True},
            )
            assert answer.status_code == 202, answer.text
            asks.append(answer.json()["ask"]["id"])
    return Target(app, chronicle, tokens, characters, seqs, asks)


def _aim(case, target: Target, role: str) -> None:
    """Aim about half of the generated ids at the real chronicle, characters, entries and asks, so that
    cases get past the 404s and reach the rules (an id that is not an integer is left: it is the
    negative case's point)."""
    params = case.path_parameters or {}
    if isinstance(params.get("chronicle_id"), int):
        params["chronicle_id"] = target.chronicle
    for name, real in (
        ("character_id", list(target.characters.values())),
        ("seq", target.seqs),
        ("ask_id", target.asks),
        ("contest_seq", target.seqs),
        ("extended_seq", target.seqs),
    ):
        value = params.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and value % 2:
            params[name] = real[value % len(real)]
    if role == "player" and isinstance(params.get("character_id"), int) and params["character_id"] % 4 == 1:
        params["character_id"] = target.characters["player"]
    body = case.body
    if isinstance(body, dict) and len(repr(body)) % 2:  # keep the fuzzed extras, make the core valid
        if isinstance(body.get("action"), dict) and case.path.endswith("/rolls"):
            case.body = {
                "action": {**V20_TEST, "willpower": bool(len(body["action"]) % 2)},
                "hidden": body.get("hidden") is True,
            }
        elif isinstance(body.get("change"), dict):
            case.body = {
                "change": {"kind": "restore", "resource": "willpower", "amount": 1 + len(body["change"]) % 3}
            }


@dataclass
class Turn:
    """Whose run it is, and what it sent."""

    role: str = "player"
    sent: Counter = field(default_factory=Counter)  # (role, phase, status) -> cases, printed at the end


def _operation_test(operation, target: Target, turn: Turn):
    """Every phase of one operation, built once (the coverage phase's cases are computed here: the
    costly part), run once per role."""

    @settings(
        max_examples=FUZZED_EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.generate],
    )
    def check(case) -> None:
        _aim(case, target, turn.role)
        headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        headers["Authorization"] = f"Bearer {target.tokens[turn.role]}"
        if case.headers is not None:
            case.headers = headers
        response = case.call(headers=headers)
        turn.sent[(turn.role, str(case.meta.phase.name) if case.meta else "?", response.status_code)] += 1
        if case.path.endswith("/members/me/key") and response.status_code == 201:
            target.tokens[turn.role] = response.json()["token"]  # the key rotated: the old one opens nothing
        case.validate_response(response, checks=CHECKS, headers=headers)

    return create_test(
        operation=operation,
        test_func=check,
        config=HypothesisTestConfig(project=operation.schema.config, modes=PHASES),
    )


def every_nth_coverage_case(stride: int):
    """A ``filter_case`` hook keeping each operation's 1st, (stride+1)-th, … coverage case (every case of
    the other phases). Dropped while the coverage cases are built, not when run: each case handed to
    hypothesis costs an explicit example's run, and the skipped ones were most of the test's time."""
    seen: Counter = Counter()

    def filter_case(context, case) -> bool:
        phase = getattr(case.meta, "phase", None)
        if phase is None or phase.name != TestPhase.COVERAGE:
            return True
        seen[context.operation.label] += 1
        return (seen[context.operation.label] - 1) % stride == 0

    return filter_case


def _run(test, label: str, turn: Turn) -> str | None:
    """One role's run of an operation's test: None, or what failed."""
    try:
        test()
    except Unsatisfiable:  # nothing to make invalid (an operation without parameters)
        return None
    except Exception as failure:
        return f"{label} as the {turn.role}: {str(failure)[:3000]}"
    return None


def test_no_5xx_no_undocumented_status_no_answer_outside_its_schema(fuzz_target):
    # The live feed streams until the client leaves: it is tested on its own (test_api, test_feed_*).
    # Only the JSON API (the web pages mounted beside it have their own tests).
    schema = (
        schemathesis.openapi.from_asgi("/openapi.json", fuzz_target.app)
        .include(path_regex=r"^/(api|problems)/")
        .exclude(path_regex=r"/events$")
    )
    if COVERAGE_STRIDE > 1:
        schema.hook(every_nth_coverage_case(COVERAGE_STRIDE))
    operations = sorted(
        (result.ok() for result in schema.get_all_operations()), key=lambda op: op.label in LAST
    )
    assert len(operations) >= 60
    turn = Turn()
    tests = [(operation.label, _operation_test(operation, fuzz_target, turn)) for operation in operations]
    failures = []
    for turn.role in ROLES:
        for label, test in tests:
            found = _run(test, label, turn)
            print(f"{turn.role} {label}: {'FAILED ' + found if found else 'ok'}", flush=True)  # seen with -s
            failures += [found] if found else []
    for role in ROLES:  # shown with -s: what the run sent, by phase and status (docs/server.md records it)
        sent = {key[1:]: count for key, count in sorted(turn.sent.items()) if key[0] == role}
        print(
            f"\n{role}: {sum(sent.values())} cases;",
            ", ".join(f"{phase} {status}: {n}" for (phase, status), n in sent.items()),
        )
    assert not failures, f"{len(failures)} operation(s) failed:\n\n" + "\n\n".join(failures)
    for role in ROLES:  # each role ran every phase and got past the refusals to the rules
        assert {phase for (who, phase, _) in turn.sent if who == role} == {str(p) for p in PHASES}
        assert sum(n for (who, _, status), n in turn.sent.items() if who == role and status < 300) > 50
