"""The bank's invariant, by a hypothesis state machine over the service (the JSON API in process,
on SQLite and PostgreSQL): rolls, Willpower rerolls (V5-8), Rouse checks (V5-10), spends and
restores, retries with the same Idempotency-Key, and pairs of requests sent at once. After every
step: each resource equals its starting value plus the sum of the log's effects on it, each effect
starts where the previous one ended, no resource is negative, and the exported log verifies (hash
chain, receipts recomputed, SPEC A-2)."""

from __future__ import annotations

import json
import secrets
import threading

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from rollbook.play import verify_receipt
from rollbook.server.chain import read_jsonl, verify_entries
from rollbook.server.ledger import AuthorityLedger

from .conftest import V5_SHEET, V5_TEST

SHEET = {**V5_SHEET, "willpower": {"max": 3, "superficial": 0, "aggravated": 0}, "hunger": 1}


def _value(sheet: dict, path: str):
    for part in path.split("."):
        sheet = sheet[part]
    return sheet


def test_every_resource_is_its_start_plus_the_logs_effects(client, make_table):
    table = make_table("v5", mode="casual")
    player = table.join("Banker")

    class Bank(RuleBasedStateMachine):
        @initialize()
        def open_account(self):
            self.character = table.character(player, SHEET)
            self.id = self.character["id"]
            self.start = self.character["sheet"]
            self.first_seq = table.log()["head"]["seq"]
            self.sent: list[tuple[str, dict, dict, object]] = []  # (url, headers, body, first response)
            self.rolls: list[int] = []

        def _post(self, url: str, body: dict, headers: dict, *, key: str | None = None):
            headers = {**headers, **({"Idempotency-Key": key} if key else {})}
            response = client.post(url, headers=headers, json=body)
            assert response.status_code < 500, response.text
            if key:
                self.sent.append((url, headers, body, response))
            if response.status_code == 201 and response.json().get("entry", {}).get("kind") == "roll":
                self.rolls.append(response.json()["entry"]["seq"])
            return response

        @rule(keyed=st.booleans())
        def roll(self, keyed):
            self._post(
                f"{table.base}/characters/{self.id}/rolls",
                {"action": V5_TEST},
                player,
                key=secrets.token_hex(8) if keyed else None,
            )

        @rule()
        def rouse(self):
            self._post(
                f"{table.base}/characters/{self.id}/rolls",
                {"action": {"kind": "rouse"}},
                player,
                key=secrets.token_hex(8),
            )

        @rule(which=st.integers(0, 5))
        def reroll(self, which):
            if not self.rolls:
                return
            seq = self.rolls[-1 - which % len(self.rolls)]
            self._post(
                f"{table.base}/log/{seq}/rerolls",
                {"action": {"kind": "reroll", "dice": [0]}},
                player,
                key=secrets.token_hex(8),
            )

        @rule()
        def spend(self):
            self._post(
                f"{table.base}/characters/{self.id}/adjustments",
                {"change": {"kind": "spend_willpower"}},
                player,
                key=secrets.token_hex(8),
            )

        @rule(amount=st.integers(1, 2))
        def restore(self, amount):
            self._post(
                f"{table.base}/characters/{self.id}/adjustments",
                {"change": {"kind": "restore", "resource": "willpower", "amount": amount}},
                table.st,
                key=secrets.token_hex(8),
            )

        @rule(which=st.integers(0, 50))
        def retry(self, which):
            """The same key and body again: the stored answer, byte for byte, when the first was a success."""
            if not self.sent:
                return
            url, headers, body, first = self.sent[which % len(self.sent)]
            again = client.post(url, headers=headers, json=body)
            assert again.status_code < 500, again.text
            if first.status_code < 300:
                assert again.status_code == first.status_code and again.json() == first.json()
                assert again.headers.get("idempotent-replayed") == "true"

        @rule(same_key=st.booleans(), kinds=st.sampled_from(["spend", "roll", "reroll"]))
        def concurrent_pair(self, same_key, kinds):
            """Two requests at once (one key: one answer to both; two keys: each decided once)."""
            url, body = {
                "spend": (
                    f"{table.base}/characters/{self.id}/adjustments",
                    {"change": {"kind": "spend_willpower"}},
                ),
                "roll": (f"{table.base}/characters/{self.id}/rolls", {"action": V5_TEST}),
                "reroll": (
                    f"{table.base}/log/{self.rolls[-1] if self.rolls else 1}/rerolls",
                    {"action": {"kind": "reroll", "dice": [0]}},
                ),
            }[kinds]
            keys = [secrets.token_hex(8)] * 2 if same_key else [secrets.token_hex(8), secrets.token_hex(8)]
            results: list = [None, None]
            barrier = threading.Barrier(2)

            def send(index: int) -> None:
                barrier.wait()
                results[index] = client.post(
                    url, headers={**player, "Idempotency-Key": keys[index]}, json=body
                )

            threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            for response in results:
                assert response.status_code < 500, response.text
                if response.status_code == 201 and response.json().get("entry", {}).get("kind") == "roll":
                    self.rolls.append(response.json()["entry"]["seq"])
            if same_key and all(r.status_code < 300 for r in results):
                assert results[0].json() == results[1].json()

        @invariant()
        def the_books_balance(self):
            sheet = table.sheet(table.st, self.id)["sheet"]
            lines = table.export().splitlines()
            entries = [json.loads(line) for line in lines]
            problems, _ = verify_entries(read_jsonl(lines), verify_receipt, AuthorityLedger())
            assert problems == []
            last: dict[str, object] = {}
            totals: dict[str, int] = {}
            for entry in entries:
                if entry.get("character") != self.id:
                    continue
                for effect in entry.get("effects") or []:
                    if "resource" not in effect:  # a flag (hunger_frenzy_risk, track_full): nothing moved
                        continue
                    path = effect["resource"]
                    before = last.get(path, _value(self.start, path))
                    assert effect["before"] == before, (entry["seq"], effect)
                    last[path] = effect["after"]
                    totals[path] = totals.get(path, 0) + effect["after"] - effect["before"]
            for path, delta in totals.items():
                assert _value(sheet, path) == _value(self.start, path) + delta, path
            for path in ("hunger", "willpower.superficial", "willpower.aggravated", "health.superficial"):
                assert _value(sheet, path) >= 0
            assert _value(sheet, "willpower.superficial") + _value(sheet, "willpower.aggravated") <= _value(
                sheet, "willpower.max"
            )

    run_state_machine_as_test(
        Bank,
        settings=settings(
            max_examples=8,
            stateful_step_count=12,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
