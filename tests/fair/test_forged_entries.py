"""Forged and malformed entries in an export (SPEC F-1, F-2, F-5, F-7): each built from a real log (the
helpers of ``tests/fair/logs.py``, entries as the server writes them, the hash chain recomputed by the
forger) with one field changed. ``check_log`` names the problem by its code and never fails;
``rollbook fair verify`` and ``rollbook log verify`` print one line per problem (exit 1), never a
traceback; ``rollbook fair stats`` counts only what is a log entry."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from rollbook.dice import FAIR_ALGORITHM, commitment_of
from rollbook.entries import SeedAbandonReceipt
from rollbook.fair import MISMATCH, PENDING, VERIFIED, check_log, describe
from rollbook.fair.report import FairProblem
from rollbook.fair.stats import tally
from rollbook.server.chain import GENESIS_HASH, entry_hash
from tests.fair.logs import StreamLog, a_whole_evening, seed_of

Forgery = Callable[[dict[str, Any]], Any]


HASHED = ("chronicle", "seq", "prev_hash", "created_at", "kind", "actor", "visibility", "receipt")


def rechained(entries: list[dict]) -> list[dict]:
    """The export as a forger writes it: the hash chain recomputed over every entry as
    ``tests/fair/logs.py`` hashes them, so that only the forged field is wrong."""
    previous = GENESIS_HASH
    for entry in entries:
        entry["prev_hash"] = previous
        entry["entry_hash"] = previous = entry_hash(**{field: entry.get(field) for field in HASHED})
    return entries


def forged(entries: list[dict], seq: int, forgery: Forgery) -> list[dict]:
    """A copy of the export with one change to entry ``seq``, the hash chain recomputed."""
    out = copy.deepcopy(entries)
    forgery(out[seq - 1])
    return rechained(out)


def in_receipt(change: Callable[[dict], Any]) -> Forgery:
    return lambda entry: change(entry["receipt"])


def codes_at(report: Any, seq: int) -> list[str]:
    return sorted(p.code for p in report.problems if p.seq == seq)


def seq_of(entries: list[dict], kind: str, nth: int = 0) -> int:
    return [e for e in entries if e["kind"] == kind][nth]["seq"]


def export_text(entries: list[dict]) -> str:
    return "".join(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n" for entry in entries)


def rollbook(*args: str, stdin: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "ROLLBOOK_LANG": lang},
        timeout=120,
    )


def log_verify_lines(entries: list[dict], forged_entries: list[dict]) -> list[str]:
    """The lines ``rollbook log verify`` prints of the forged export and not of the real one (the
    synthetic logs hold no chronicle row: its ledger's findings about modes are the same in both),
    after checking both runs end as they should: one summary line, no traceback."""
    real = rollbook("log", "verify", "-", stdin=export_text(entries))
    done = rollbook("log", "verify", "-", stdin=export_text(forged_entries))
    assert done.returncode == 1 and "Traceback" not in done.stderr + real.stderr
    assert done.stderr.count("\n") == 1 and real.stderr.count("\n") == 1
    return [line for line in done.stdout.splitlines() if line not in real.stdout.splitlines()]


def abandoned_evening() -> StreamLog:
    """F-1, F-7, F-8: a public seed the server's secret no longer opens, abandoned with the receipt the
    server writes (``SeedAbandonReceipt``: its roll stays pending for good), a new seed committed, a
    roll under it, and that seed revealed."""
    log = StreamLog()
    log.commit_stream("public", seed_of("lost seed"))
    log.stream_roll(2, "v20")
    seed, nonce = log.streams.pop("public")
    abandon = SeedAbandonReceipt(
        algorithm=FAIR_ALGORITHM,
        commitment=commitment_of(seed),
        stream="public",
        rolls=nonce,
        last_nonce=nonce,
        cause="unreadable",
    )
    log.append("seed_abandon", abandon.dump())
    log.commit_stream("public", seed_of("new seed"))
    log.stream_roll(3, "v5")
    log.reveal_stream("public")
    return log


def test_the_real_logs_are_clean_and_survive_the_forger_s_rechaining():
    """The baseline every forgery below changes one field of."""
    for entries in (a_whole_evening().entries, abandoned_evening().entries):
        again = rechained(copy.deepcopy(entries))
        assert [e["entry_hash"] for e in again] == [e["entry_hash"] for e in entries]
        assert check_log(again).clean
    assert check_log(abandoned_evening().entries).counts() == {
        VERIFIED: 1,
        PENDING: 1,
        MISMATCH: 0,
        "unproven": 0,
    }


# --- an entry with no kind ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "forgery",
    [lambda e: e.pop("kind"), lambda e: e.update(kind=5), lambda e: e.update(kind=None)],
    ids=["missing", "a number", "null"],
)
def test_an_entry_with_no_kind_is_skipped(forgery):
    """An entry whose ``kind`` is missing or not a string is no log entry: the fair check skips it (the
    hash chain's verifier reports it), even when its receipt is a roll's with fair dice."""
    entries = a_whole_evening().entries
    last = entries[-1]["seq"]  # the second seed's last roll: pending, and nothing follows it
    assert "fair" in entries[-1]["receipt"]
    report = check_log(forged(entries, last, forgery))
    assert report.problems == ()
    assert last not in {draw.seq for draw in report.draws}
    assert report.counts() == {VERIFIED: 9, PENDING: 1, MISMATCH: 0, "unproven": 0}


def test_a_seed_commit_with_no_kind_is_skipped_so_its_rolls_are_uncommitted():
    entries = a_whole_evening().entries
    commit = seq_of(entries, "seed_commit")
    report = check_log(forged(entries, commit, lambda e: e.update(kind=["seed_commit"])))
    assert codes_at(report, commit) == []
    first_roll = seq_of(entries, "roll")
    assert codes_at(report, first_roll) == ["fair_uncommitted"]


def test_the_cli_skips_an_entry_with_no_kind_and_log_verify_names_it():
    entries = a_whole_evening().entries
    last = entries[-1]["seq"]
    export = export_text(forged(entries, last, lambda e: e.pop("kind")))
    fair = rollbook("fair", "verify", "-", stdin=export)
    assert (fair.returncode, fair.stdout) == (0, ""), fair.stderr
    assert "9 verified, 1 pending" in fair.stderr and fair.stderr.count("\n") == 1
    assert log_verify_lines(entries, forged(entries, last, lambda e: e.pop("kind"))) == [
        f"entry {last}: missing field kind"
    ]


# --- client seeds (F-2) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "member",
    [[2], "2", True, 2.0, None, {"id": 2}],
    ids=["a list", "text", "a bool", "a float", "null", "an object"],
)
def test_a_client_seed_whose_member_is_no_integer_is_malformed(member):
    """F-2: a client seed is a member's; one that names no member (a list there once crashed the check)
    is ``client_seed_entry_malformed``, and the member's later rolls are held to the default seed."""
    entries = a_whole_evening().entries
    at = seq_of(entries, "client_seed")
    assert entries[at - 1]["receipt"]["member"] == 2
    report = check_log(forged(entries, at, in_receipt(lambda r: r.update(member=member))))
    assert codes_at(report, at) == ["client_seed_entry_malformed"]
    assert codes_at(report, seq_of(entries, "roll")) == ["fair_client_seed_not_default"]


def test_a_client_seed_without_its_member_is_malformed():
    entries = a_whole_evening().entries
    at = seq_of(entries, "client_seed")
    report = check_log(forged(entries, at, in_receipt(lambda r: r.pop("member"))))
    assert codes_at(report, at) == ["client_seed_entry_malformed"]


# --- seed reveals (F-5, F-7) ----------------------------------------------------------------------


REVEAL_FORGERIES = {  # the change, and the field the problem names
    "no algorithm": (lambda r: r.pop("algorithm"), "algorithm"),
    "a numeric algorithm": (lambda r: r.update(algorithm=1), "algorithm"),
    "a list for algorithm": (lambda r: r.update(algorithm=[FAIR_ALGORITHM]), "algorithm"),
    "a null algorithm": (lambda r: r.update(algorithm=None), "algorithm"),
    "another algorithm": (lambda r: r.update(algorithm="hmac-sha512-v9"), "algorithm"),
    "the algorithm in capitals": (lambda r: r.update(algorithm=FAIR_ALGORITHM.upper()), "algorithm"),
    "a numeric stream": (lambda r: r.update(stream=5), "stream"),
    "a list for stream": (lambda r: r.update(stream=["public"]), "stream"),
    "a null stream": (lambda r: r.update(stream=None), "stream"),
    "no seed": (lambda r: r.pop("seed"), "seed"),
    "a short seed": (lambda r: r.update(seed=r["seed"][:10]), "seed"),
    "an uppercase commitment": (lambda r: r.update(commitment=r["commitment"].upper()), "commitment"),
    "text rolls": (lambda r: r.update(rolls="1"), "rolls"),
    "a negative last nonce": (lambda r: r.update(last_nonce=-1), "last_nonce"),
    "no algorithm and a null stream": (
        lambda r: (r.pop("algorithm"), r.update(stream=None)),
        "algorithm, stream",
    ),
}


@pytest.mark.parametrize("change,field", REVEAL_FORGERIES.values(), ids=REVEAL_FORGERIES.keys())
def test_a_seed_reveal_without_a_text_algorithm_or_stream_is_malformed(change, field):
    """F-5 to F-8: a reveal names its seed's algorithm (F-6: the one commitments name) and (since F-7) its stream as text, its seed and
    commitment as 64 lowercase hex digits, its counts as counts; otherwise it reveals nothing:
    ``seed_reveal_malformed`` naming the wrong fields, and the seed stays in use."""
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_reveal")
    report = check_log(forged(entries, at, in_receipt(change)))
    assert codes_at(report, at) == ["seed_reveal_malformed"]
    assert next(p for p in report.problems if p.seq == at).params == {"field": field}
    assert all(state.revealed_at is None for state in report.seeds)
    assert report.counts()[VERIFIED] == 0


def test_a_seed_reveal_that_is_no_object_is_malformed():
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_reveal")
    report = check_log(forged(entries, at, lambda e: e.update(receipt=["seed"])))
    assert [(p.code, p.params) for p in report.problems if p.seq == at] == [
        ("seed_reveal_malformed", {"field": "receipt"})
    ]


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "The seed reveal entry is incomplete or malformed: algorithm."),
        ("fr", "L’entrée de révélation de graine est incomplète ou mal formée\u202f: algorithm."),
        ("es", "La entrada de revelación de semilla está incompleta o mal formada: algorithm."),
    ],
)
def test_a_reveal_without_its_algorithm_says_so_in_each_language(lang, words):
    """The message names the field that is wrong (the algorithm here), not the seed's hex digits."""
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_reveal")
    report = check_log(forged(entries, at, in_receipt(lambda r: r.pop("algorithm"))))
    lines = [describe(p, lang) for p in report.problems if p.seq == at]
    assert lines == [f"entry {at}: {words}"]


@pytest.mark.parametrize("stream", ["hidden", "secret"])
def test_a_seed_reveal_naming_another_stream_as_text_is_no_malformed_one(stream):
    """What ``seed_reveal_malformed`` is not: a reveal that names, as text, a stream other than its
    seed's (F-7) reveals it, and says so."""
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_reveal")
    report = check_log(forged(entries, at, in_receipt(lambda r: r.update(stream=stream))))
    problem = next(p for p in report.problems if p.seq == at)
    assert problem.code == "seed_reveal_stream_differs"
    assert (problem.params["stream"], problem.params["committed"]) == (stream, "public")
    assert report.counts()[VERIFIED] == 1


def test_a_seed_reveal_of_a_single_stream_export_without_algorithm_is_malformed():
    """The same in an export written before F-7 (its reveals name no stream)."""
    entries = a_whole_evening().entries
    at = seq_of(entries, "seed_reveal")
    report = check_log(forged(entries, at, in_receipt(lambda r: r.pop("algorithm"))))
    assert codes_at(report, at) == ["seed_reveal_malformed"]
    assert codes_at(report, at + 1) == ["seed_commit_while_active"]


# --- a roll's fairness record (F-6, F-7) -----------------------------------------------------------


RECORD_FORGERIES = {
    "a null stream": lambda fair: fair.update(stream=None),
    "a numeric stream": lambda fair: fair.update(stream=5),
    "a list for stream": lambda fair: fair.update(stream=["public"]),
    "no algorithm": lambda fair: fair.pop("algorithm"),
    "a null algorithm": lambda fair: fair.update(algorithm=None),
}


@pytest.mark.parametrize("change", RECORD_FORGERIES.values(), ids=RECORD_FORGERIES.keys())
def test_a_roll_s_record_without_a_text_stream_or_algorithm_is_malformed(change):
    """F-6, F-7: a roll's record names its algorithm and (since F-7) its stream as text; a null one is
    no stream "None" the roll drew from: ``fair_record_malformed``, and no line says "None"."""
    entries = abandoned_evening().entries
    at = seq_of(entries, "roll", 1)  # under the revealed seed: verified in the real log
    assert entries[at - 1]["receipt"]["fair"]["stream"] == "public"
    report = check_log(forged(entries, at, in_receipt(lambda r: change(r["fair"]))))
    assert codes_at(report, at) == ["fair_record_malformed"]
    assert report.status_of(at) == MISMATCH
    for lang in ("en", "fr", "es"):
        lines = [describe(p, lang) for p in report.problems]
        assert lines and not any("None" in line or "{" in line for line in lines), lines


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "The fairness record is incomplete or malformed."),
        ("fr", "La preuve d’équité est incomplète ou mal formée."),
        ("es", "El registro de equidad está incompleto o mal formado."),
    ],
)
def test_a_roll_s_null_stream_reads_as_a_malformed_record_in_each_language(lang, words):
    entries = abandoned_evening().entries
    at = seq_of(entries, "roll", 1)
    report = check_log(forged(entries, at, in_receipt(lambda r: r["fair"].update(stream=None))))
    assert [describe(p, lang) for p in report.problems if p.seq == at] == [f"entry {at}: {words}"]


def test_fair_verify_prints_a_roll_s_null_stream_as_a_malformed_record():
    entries = abandoned_evening().entries
    at = seq_of(entries, "roll", 1)
    export = export_text(forged(entries, at, in_receipt(lambda r: r["fair"].update(stream=None))))
    done = rollbook("fair", "verify", "-", stdin=export, lang="fr")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"entry {at}: La preuve d’équité est incomplète ou mal formée." in done.stdout.splitlines()
    assert "None" not in done.stdout


# --- seed abandons (F-1) --------------------------------------------------------------------------


ABANDON_FIELDS = ("algorithm", "commitment", "stream", "rolls", "last_nonce", "cause")


@pytest.mark.parametrize("field", ABANDON_FIELDS)
def test_a_seed_abandon_missing_a_field_is_malformed(field):
    """F-1: an abandon entry names the seed it gives up, its stream, its counts and its cause; one
    missing a field abandons nothing: ``seed_abandon_malformed`` (no "seed None is not in use"), and
    the seed stays in use (the next commit says so)."""
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_abandon")
    report = check_log(forged(entries, at, in_receipt(lambda r: r.pop(field))))
    assert codes_at(report, at) == ["seed_abandon_malformed"]
    assert codes_at(report, at + 1) == ["seed_commit_while_active"]
    assert not any("None" in str(p.params) for p in report.problems)


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(commitment=None),
        lambda r: r.update(commitment=7),
        lambda r: r.update(commitment="ZZ"),
        lambda r: r.update(commitment=r["commitment"].upper()),
        lambda r: r.update(stream=None),
        lambda r: r.update(stream="secret"),
        lambda r: r.update(rolls="1"),
        lambda r: r.update(cause="lost"),
    ],
    ids=[
        "null commitment",
        "numeric commitment",
        "short",
        "uppercase",
        "null stream",
        "no stream of F-7",
        "text rolls",
        "cause",
    ],
)
def test_a_seed_abandon_with_a_field_of_another_shape_is_malformed(change):
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_abandon")
    report = check_log(forged(entries, at, in_receipt(change)))
    assert codes_at(report, at) == ["seed_abandon_malformed"]


def test_a_well_formed_abandon_of_a_seed_not_in_use_names_that_seed():
    """What ``seed_abandon_malformed`` is not: a well-formed abandon of a seed never committed."""
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_abandon")
    other = commitment_of(seed_of("never committed"))
    report = check_log(forged(entries, at, in_receipt(lambda r: r.update(commitment=other))))
    problem = next(p for p in report.problems if p.seq == at)
    assert (problem.code, problem.params) == ("seed_abandon_not_in_use", {"commitment": other})


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "The seed abandon entry is incomplete or malformed"),
        ("fr", "L’entrée d’abandon de graine est incomplète ou mal formée"),
        ("es", "La entrada de abandono de semilla está incompleta o mal formada"),
    ],
)
def test_a_malformed_abandon_reads_in_each_language(lang, words):
    line = describe(FairProblem(3, "seed_abandon_malformed"), lang)
    assert line.startswith("entry 3: " + words) and "{" not in line and "None" not in line


# --- the commands over the forgeries --------------------------------------------------------------


CLI_FORGERIES = [
    (a_whole_evening, "client_seed", lambda r: r.update(member=[2]), "The client seed entry names no member"),
    (
        a_whole_evening,
        "seed_reveal",
        lambda r: r.pop("algorithm"),
        "The seed reveal entry is incomplete or malformed: algorithm.",
    ),
    (abandoned_evening, "seed_abandon", lambda r: r.pop("cause"), "The seed abandon entry is incomplete"),
]


@pytest.mark.parametrize("make,kind,change,words", CLI_FORGERIES, ids=["client seed", "reveal", "abandon"])
def test_fair_verify_prints_the_forged_entry_s_problem_and_exits_1(make, kind, change, words):
    entries = make().entries
    at = seq_of(entries, kind)
    done = rollbook("fair", "verify", "-", stdin=export_text(forged(entries, at, in_receipt(change))))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert any(line.startswith(f"entry {at}: {words}") for line in done.stdout.splitlines()), done.stdout
    assert done.stderr.count("\n") == 1 and "problem" in done.stderr


@pytest.mark.parametrize("make,kind,change,words", CLI_FORGERIES, ids=["client seed", "reveal", "abandon"])
def test_log_verify_prints_the_forged_entry_s_problem_and_exits_1(make, kind, change, words):
    entries = make().entries
    at = seq_of(entries, kind)
    found = log_verify_lines(entries, forged(entries, at, in_receipt(change)))
    assert any(line.startswith(f"entry {at}: {words}") for line in found), found


def test_fair_verify_says_a_malformed_abandon_in_french():
    entries = abandoned_evening().entries
    at = seq_of(entries, "seed_abandon")
    export = export_text(forged(entries, at, in_receipt(lambda r: r.pop("rolls"))))
    done = rollbook("fair", "verify", "-", stdin=export, lang="fr")
    assert done.returncode == 1
    assert f"entry {at}: L’entrée d’abandon de graine est incomplète ou mal formée" in done.stdout


# --- dice statistics ------------------------------------------------------------------------------


def test_stats_skip_an_entry_with_no_seq():
    """An entry with no ``seq`` is no log entry: its dice are not counted (the chain's verifier says
    so), the other rolls are."""
    entries = a_whole_evening().entries
    at = seq_of(entries, "roll")
    whole, alone = tally(entries), tally([entries[at - 1]])
    without = tally(forged(entries, at, lambda e: e.pop("seq")))
    assert alone.rolls == 1 and without.rolls == whole.rolls - 1
    assert without.unreadable == whole.unreadable == 0
    for sides, counts in whole.table.items():
        mine = alone.table.get(sides, {})
        assert without.table.get(sides, {}) == {
            face: n - mine.get(face, 0) for face, n in counts.items() if n - mine.get(face, 0)
        }


def test_fair_stats_cli_skips_an_entry_with_no_seq():
    entries = a_whole_evening().entries
    at = seq_of(entries, "roll")
    dice = sum(sum(counts.values()) for counts in tally([entries[at - 1]]).table.values())
    assert dice > 0

    def table_total(export: str) -> int:
        done = rollbook("fair", "stats", "-", "--json", stdin=export)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        rows = [json.loads(line) for line in done.stdout.splitlines()]
        return sum(row["total"] for row in rows if row["who"] == rows[0]["who"])

    whole = table_total(export_text(entries))
    assert table_total(export_text(forged(entries, at, lambda e: e.pop("seq")))) == whole - dice
