"""`rollbook fair`: faces and commitment by hand, verify an export (real subprocesses)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.fair.logs import a_whole_evening

KNOWN_SEED = bytes(range(32)).hex()
KNOWN_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def run(*args, stdin=None, lang="en"):
    env = {**os.environ, "ROLLBOOK_LANG": lang}
    return subprocess.run(
        [sys.executable, "-m", "rollbook", "fair", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_faces_by_hand_give_the_f4_known_answer():
    """F-4: seed bytes 0…31, chronicle 1, client "alice", nonce 1, five d10 → 3 7 2 10 8."""
    done = run(
        "faces",
        "--seed",
        KNOWN_SEED,
        "--chronicle",
        "1",
        "--client",
        "alice",
        "--nonce",
        "1",
        "--dice",
        "5d10",
        "--commitment",
        KNOWN_COMMITMENT,
        "--expect",
        "3,7,2,10,8",
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "3 7 2 10 8\n", "")


def test_faces_json_and_a_mismatch_exit_1():
    done = run(
        "faces",
        "--seed",
        KNOWN_SEED,
        "--chronicle",
        "1",
        "--client",
        "alice",
        "--nonce",
        "1",
        "--dice",
        "2d10+d6",
        "--json",
        "--commitment",
        "0" * 64,
        "--expect",
        "3 7 1",
    )
    assert done.returncode == 1
    answer = json.loads(done.stdout)
    assert (
        answer["sizes"] == [10, 10, 6]
        and answer["faces"][:2] == [3, 7]
        and answer["commitment"] == KNOWN_COMMITMENT
    )
    assert answer["seed_matches"] is False and answer["faces_match"] is False
    assert "commitment is 630dcd" in done.stderr and "faces differ" in done.stderr


def test_commitment_of_a_seed():
    done = run("commitment", "--seed", KNOWN_SEED.upper())
    assert (done.returncode, done.stdout) == (0, KNOWN_COMMITMENT + "\n")


@pytest.mark.parametrize(
    "args,words",
    [
        (
            ["faces", "--seed", "abc", "--chronicle", "1", "--nonce", "1", "--dice", "5d10"],
            "64 hexadecimal digits",
        ),
        (["faces", "--seed", KNOWN_SEED, "--chronicle", "1", "--nonce", "1", "--dice", "5x10"], "5d10"),
        (["faces", "--seed", KNOWN_SEED, "--chronicle", "1", "--nonce", "0", "--dice", "d6"], "nonce"),
        (
            [
                "faces",
                "--seed",
                KNOWN_SEED,
                "--chronicle",
                "1",
                "--nonce",
                "1",
                "--dice",
                "d6",
                "--client",
                "x" * 65,
            ],
            "at most 64 characters",
        ),
        (
            [
                "faces",
                "--seed",
                KNOWN_SEED,
                "--chronicle",
                "1",
                "--nonce",
                "1",
                "--dice",
                "d6",
                "--expect",
                "a,b",
            ],
            "--expect",
        ),
        (["verify", "/nonexistent/export.jsonl"], "cannot read"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, words):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert (
        len(done.stderr.strip().splitlines()) == 1 and words in done.stderr and "Traceback" not in done.stderr
    )


def export_text(entries) -> str:
    return "".join(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n" for entry in entries)


def test_verify_an_export_clean_then_tampered():
    log = a_whole_evening()
    done = run("verify", "-", "--every", stdin=export_text(log.entries))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "9 verified, 2 pending" in done.stderr and done.stderr.rstrip().endswith("clean")
    assert done.stdout.count(": verified (") == 9 and done.stdout.count(": pending (") == 2
    roll = next(e for e in log.entries if "fair" in e.get("receipt", {}))
    roll["receipt"]["faces"][0] = roll["receipt"]["faces"][0] % 10 + 1
    tampered = run("verify", "-", stdin=export_text(log.entries), lang="fr")
    assert tampered.returncode == 1
    assert tampered.stdout.startswith(f"entry {roll['seq']}: Les faces ")
    assert tampered.stderr.rstrip().endswith(": 1 problem")


def test_faces_of_a_hidden_stream_receipt_and_verify_every_names_the_stream():
    """F-7: a receipt's stream is named (the faces come from the seed revealed for that stream's
    commitment); an unknown stream is bad input (exit 2, one line)."""
    from tests.fair.logs import StreamLog, seed_of

    done = run(
        "faces",
        "--seed",
        KNOWN_SEED,
        "--chronicle",
        "1",
        "--client",
        "alice",
        "--nonce",
        "1",
        "--dice",
        "5d10",
        "--stream",
        "hidden",
        "--json",
        "--expect",
        "3,7,2,10,8",
    )
    assert done.returncode == 0 and json.loads(done.stdout)["stream"] == "hidden"
    refused = run(
        "faces",
        "--seed",
        KNOWN_SEED,
        "--chronicle",
        "1",
        "--nonce",
        "1",
        "--dice",
        "5d10",
        "--stream",
        "secret",
    )
    assert (
        refused.returncode == 2 and refused.stderr.count("\n") == 1 and "public or hidden" in refused.stderr
    )
    log = StreamLog()
    log.commit_stream("public", seed_of("p"))
    log.commit_stream("hidden", seed_of("h"))
    log.stream_roll(1, "v20", visibility="hidden")
    log.stream_roll(2, "v20")
    log.reveal_stream("hidden")
    log.reveal_stream("public")
    export = "".join(json.dumps(e) + "\n" for e in log.entries)
    checked = run("verify", "-", "--every", stdin=export)
    assert checked.returncode == 0, checked.stdout
    lines = checked.stdout.splitlines()
    assert "verified (hidden stream, seed" in lines[0] and "verified (seed" in lines[1]
