"""The operator's English lines (``rollbook log verify``, ``rollbook fair verify``, ``rollbook db``,
the server's secret check) say each noun in the form its count takes: "1 problem", "2 problems",
never a hand-made "problem(s)"."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rollbook.cli.db import report_lines, swept_line
from rollbook.i18n import counted
from rollbook.server.backup import ChainCheck
from rollbook.server.secret_check import SecretVerdict, missing_key_text, opens_none_text


@pytest.mark.parametrize(("n", "said"), [(0, "0 problems"), (1, "1 problem"), (2, "2 problems")])
def test_counted_says_the_noun_in_the_form_its_count_takes(n, said):
    assert counted(n, "problem", "problems") == said


def test_db_verify_counts_one_chronicle_entry_problem_and_chain_in_the_singular():
    lines = report_lines([ChainCheck(7, 1, ("entry 1: hash mismatch",))], "verified")
    assert lines == [
        "chronicle 7: 1 entry, 1 problem",
        "  entry 1: hash mismatch",
        "rollbook: verified; 1 chronicle, 1 chain does not verify",
    ]


def test_db_verify_counts_several_in_the_plural():
    checks = [ChainCheck(7, 3, ("a", "b")), ChainCheck(8, 5, ("c", "d")), ChainCheck(9, 2, ())]
    lines = report_lines(checks, "verified")
    assert lines[0] == "chronicle 7: 3 entries, 2 problems" and "chronicle 9: 2 entries, clean" in lines
    assert lines[-1] == "rollbook: verified; 3 chronicles, 2 chains do not verify"
    assert report_lines(checks[2:], "verified")[-1] == "rollbook: verified; 1 chronicle, every chain verifies"


@pytest.mark.parametrize(
    ("removed", "said"),
    [
        (1, "rollbook: 1 expired idempotency record deleted"),
        (3, "rollbook: 3 expired idempotency records deleted"),
    ],
)
def test_db_sweep_counts_its_records(removed, said):
    assert swept_line(removed) == said


@pytest.mark.parametrize(
    ("verdict", "said"),
    [
        (SecretVerdict(tried=1, opened=1), "opens the 1 seed in use"),
        (SecretVerdict(tried=3, opened=3), "opens the 3 seeds in use"),
        (
            SecretVerdict(tried=1, opened=0, unopened_chronicles=[4]),
            "opens 0 of 1 seed in use (not that of chronicle 4)",
        ),
        (
            SecretVerdict(tried=3, opened=1, unopened_chronicles=[5, 4]),
            "opens 1 of 3 seeds in use (not those of chronicles 4, 5)",
        ),
        (
            SecretVerdict(tried=3, opened=1, unopened_chronicles=[4, 4]),
            "opens 1 of 3 seeds in use (not those of chronicle 4)",
        ),
        (SecretVerdict(tried=1, opened=0, missing="no key file"), "no key file (1 seed in use)"),
        (SecretVerdict(tried=2, opened=0, missing="no key file"), "no key file (2 seeds in use)"),
    ],
)
def test_the_secret_s_summary_counts_its_seeds_and_chronicles(verdict, said):
    """F-1: the line ``rollbook db verify`` and the server's start-up warning print."""
    assert verdict.summary() == said


def test_a_missing_key_file_over_one_or_several_sealed_seeds():
    one = missing_key_text("/k", 1)
    assert "holds 1 sealed seed in use: put back the key file it was sealed under" in one
    assert one.endswith("a new key would not open it")
    several = missing_key_text("/k", 2)
    assert "holds 2 sealed seeds in use: put back the key file they were sealed under" in several
    assert several.endswith("a new key would open none of them")


def test_a_secret_that_opens_none_of_one_or_several_sealed_seeds():
    one = opens_none_text("ROLLBOOK_SECRET_KEY", 1)
    assert one.startswith(
        "the operator's secret (ROLLBOOK_SECRET_KEY) does not open the 1 sealed seed in use: "
        "start with the secret it was sealed under"
    )
    several = opens_none_text("ROLLBOOK_SECRET_KEY", 3)
    assert several.startswith(
        "the operator's secret (ROLLBOOK_SECRET_KEY) opens none of the 3 sealed seeds in use: "
        "start with the secret they were sealed under"
    )


def run(*args, stdin):
    import os

    env = {**os.environ, "ROLLBOOK_LANG": "en"}
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize(("lines", "said"), [(1, ": 1 problem"), (2, ": 2 problems")])
def test_log_verify_counts_its_problems(lines, said):
    done = run("log", "verify", "-", stdin="[]\n" * lines)  # each line: "not a JSON object"
    assert done.returncode == 1 and done.stdout.count("not a JSON object") == lines, done.stdout
    assert done.stderr.rstrip().endswith(said), done.stderr


@pytest.mark.parametrize(("tampered", "said"), [(1, ": 1 problem"), (2, ": 2 problems")])
def test_fair_verify_counts_its_problems(tampered, said):
    """F-6: each roll whose faces were changed is one problem."""
    import json

    from tests.fair.logs import a_whole_evening

    entries = a_whole_evening().entries
    for roll in [e for e in entries if "fair" in e.get("receipt", {})][:tampered]:
        roll["receipt"]["faces"][0] = roll["receipt"]["faces"][0] % 10 + 1
    done = run("fair", "verify", "-", stdin="".join(json.dumps(e, sort_keys=True) + "\n" for e in entries))
    assert done.returncode == 1 and len(done.stdout.splitlines()) == tampered, done.stdout
    assert done.stderr.rstrip().endswith(said), done.stderr
