"""The command line as a user meets it: real subprocesses, one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args, stdin=None, env_lang="en"):
    import os

    env = {**os.environ, "ROLLBOOK_LANG": env_lang}
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_roll_v20_json_receipt_from_secure_dice():
    done = run(
        "roll", "v20", "--pool", "5", "--difficulty", "7", "--specialty-rating", "4", "--willpower", "--json"
    )
    assert done.returncode == 0, done.stderr
    receipt = json.loads(done.stdout)
    assert receipt["system"] == "v20" and len(receipt["faces"]) == 5 and receipt["willpower_success"] == 1
    assert receipt["outcome"] in ("success", "failure")  # Willpower blocks a botch (V20-11)


def test_roll_v5_panel_shows_hunger_dice_apart():
    done = run("roll", "v5", "--pool", "7", "--hunger", "2", "--difficulty", "3")
    assert done.returncode == 0, done.stderr
    assert "Hunger dice" in done.stdout and "Margin" in done.stdout


def test_roll_v5_rouse_json():
    receipt = json.loads(run("roll", "v5", "rouse", "--hunger", "5", "--json").stdout)
    assert receipt["kind"] == "rouse" and receipt["hunger_gain"] == 0


@pytest.mark.parametrize(
    "lang,words", [("fr", ["Dés de Soif", "Réserve"]), ("es", ["Dados de Hambre", "Reserva"])]
)
def test_roll_speaks_the_players_language(lang, words):
    done = run("roll", "v5", "--pool", "4", "--hunger", "2", "--lang", lang)
    assert done.returncode == 0 and all(word in done.stdout for word in words)


@pytest.mark.parametrize(
    "args,stdin",
    [
        (("roll", "v20", "--pool", "5", "--difficulty", "11"), None),
        (("roll", "v20", "--pool", "5", "--specialty-rating", "3"), None),
        (("roll", "v5", "--pool", "3", "--hunger", "6"), None),
        (("roll", "v20", "--pool", "five"), None),
        (("roll", "nosuchgame"), None),
        (("resolve", "/nonexistent/file.jsonl"), None),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(args, stdin):
    done = run(*args, stdin=stdin)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rollbook:") or "Usage" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


BAD_LINES = {
    "difficulty of 11": ('{"system":"v20","faces":[5,6],"difficulty":11}', "out_of_range"),
    "face of 0": ('{"system":"v20","faces":[0,6]}', "face_out_of_range"),
    "hunger reroll": (
        '{"system":"v5","normal":[3,4],"hunger":[1],"rerolls":[{"dice":[2],"faces":[6]}]}',
        "reroll_hunger_die",
    ),
    "specialty on a trait rated 3": (
        '{"system":"v20","faces":[10],"specialty":true,"specialty_rating":3}',
        "specialty_rating_too_low",
    ),
    "unknown field": ('{"system":"v20","faces":[10],"colour":"red"}', "unknown_field"),
    "non-JSON": ("roll me a 10", "invalid_json"),
    "not an object": ("[1,2,3]", "not_an_object"),
    "string for an int": ('{"system":"v20","faces":[5],"difficulty":"6"}', "wrong_type"),
    "no system": ('{"faces":[5]}', "missing_system"),
}


def test_resolve_answers_every_line_and_fails_only_the_bad_ones():
    good = '{"system":"v5","normal":[8,2,10],"hunger":[1,6,4],"difficulty":4}'
    lines = [good] + [line for line, _ in BAD_LINES.values()] + [good]
    done = run("resolve", stdin="\n".join(lines) + "\n")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["outcome"] == "bestial_failure" and out[-1] == out[0]
    for (name, (_, code)), got in zip(BAD_LINES.items(), out[1:-1]):
        assert got["error"]["code"] == code, name
        assert got["error"]["message"] and "\n" not in got["error"]["message"]


def test_resolve_exit_zero_when_all_lines_resolve_and_errors_translate():
    done = run("resolve", stdin='{"system":"v20","faces":[1,2,4]}\n')
    assert done.returncode == 0 and json.loads(done.stdout)["outcome"] == "botch"
    french = run(
        "resolve",
        "--lang",
        "fr",
        stdin='{"system":"v20","faces":[10],"specialty":true,"specialty_rating":3}\n',
    )
    assert "noté 3" in json.loads(french.stdout)["error"]["message"]


def test_db_status_reports_a_missing_sqlite_file_without_creating_it(tmp_path):
    import os

    env = {**os.environ, "ROLLBOOK_LANG": "en"}
    env.pop("ROLLBOOK_DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "db", "status"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1 and "current: none" in done.stdout
    assert not (tmp_path / "rollbook.sqlite3").exists()
    upgraded = subprocess.run(
        [sys.executable, "-m", "rollbook", "db", "upgrade"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert upgraded.returncode == 0 and (tmp_path / "rollbook.sqlite3").exists()
    again = subprocess.run(
        [sys.executable, "-m", "rollbook", "db", "status"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert again.returncode == 0
