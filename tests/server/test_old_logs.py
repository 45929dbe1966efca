"""Old logs verify after an upgrade: a database made by the first released server
(commit a644e05, built by ``tests/fixtures/make_a644e05_db.py``), upgraded with today's ``rollbook db
upgrade``, exports logs that ``rollbook log verify`` finds clean: each receipt is resolved by its own
version of the rules (``rules_version``; older receipts by the readings of their day)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rollbook.play import verify_receipt
from rollbook.play.common import RULES_VERSION

from .conftest import run_cli
from .helpers import log_verify

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "a644e05.sqlite"


def _upgraded(tmp_path: Path) -> str:
    copy = tmp_path / "old.sqlite"
    shutil.copyfile(FIXTURE, copy)
    url = f"sqlite:///{copy}"
    upgraded = run_cli("db", "upgrade", "--database-url", url)
    assert upgraded.returncode == 0, upgraded.stderr
    return url


def test_a644e05_log_fails_verify_after_upgrade(tmp_path):
    url = _upgraded(tmp_path)
    for chronicle in (1, 2):
        out = tmp_path / f"log{chronicle}.jsonl"
        exported = run_cli("log", "export", str(chronicle), "--database-url", url, "-o", str(out))
        assert exported.returncode == 0, exported.stderr
        verified = log_verify(out)
        assert verified.returncode == 0 and "clean" in verified.stdout + verified.stderr, (
            verified.stdout + verified.stderr
        )
    # the old readings were kept, not rewritten: a 1 on a skill of 0 was a failure at tier −1 then (T-2
    # before its Reading), and the old soaks name no outcome
    entries = [json.loads(line) for line in (tmp_path / "log1.jsonl").read_text().splitlines()]
    climbs = [e["receipt"] for e in entries if e["receipt"].get("request", {}).get("skill") == 0]
    lifted = [r for r in climbs if r["faces"][:2] == [1, 5]][0]
    assert "rules_version" not in lifted and "critical_lift" not in lifted["result"]
    assert lifted["result"]["tier"] == -1 and lifted["result"]["outcome"] == "failure"
    soaks = [
        json.loads(line)["receipt"]
        for line in (tmp_path / "log2.jsonl").read_text().splitlines()
        if json.loads(line)["receipt"].get("kind") == "soak"
    ]
    assert soaks and all("outcome" not in s["result"] for s in soaks)


def test_a_receipt_of_today_carries_its_rules_version_and_an_old_reading_does_not_pass_for_it():
    """A receipt with today's version is resolved by today's readings only: the old shape is refused."""
    from rollbook import play
    from rollbook.dice import GivenFaces

    sheet = play.new_sheet("tiers", {"name": "Kay", "skills": {"climbing": 0}})
    receipt = play.perform(
        "tiers",
        sheet,
        {"kind": "skill", "skill": "climbing"},
        mode="strict",
        role="storyteller",
        source=GivenFaces([1, 5]),
    ).receipt
    assert receipt["rules_version"] == RULES_VERSION
    assert receipt["result"]["tier"] == 0 and receipt["result"]["critical_lift"] == 1  # T-2 Reading
    assert verify_receipt(receipt) == []
    forged = json.loads(json.dumps(receipt))
    del forged["result"]["critical_lift"]
    forged["result"].update(tier=-1, tier_before_bullets=-1, success=False, outcome="failure")
    assert verify_receipt(forged)  # a versioned receipt cannot claim the old reading
