"""`rollbook solo FILE`: the terminal plays a scenario to an ending with fixed dice, resumes
a story left midway (S-5), and the store's export verifies; bad input is one line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TINY = Path(__file__).parent / "data" / "tiny.yaml"


def run(*args, stdin: str = "", db: Path, dice: str | None = None, lang: str = "en"):
    env = {**os.environ, "ROLLBOOK_LANG": lang, "ROLLBOOK_DATABASE_URL": f"sqlite:///{db}", "COLUMNS": "100"}
    env.pop("ROLLBOOK_SOLO_DICE", None)
    if dice:
        env["ROLLBOOK_SOLO_DICE"] = dice
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_the_terminal_plays_a_check_to_its_ending_with_fixed_dice(tmp_path):
    db = tmp_path / "solo.sqlite3"
    done = run("solo", str(TINY), stdin="1\n1\n", db=db, dice="10")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "A man blocks your way." in out and "Chance of success" in out  # the odds before the roll
    assert "[10] [10] [10] [10] [10]" in out and "You get home." in out and "A good ending" in out
    exported = run("log", "export", "1", db=db)
    export = tmp_path / "export.jsonl"
    export.write_text(exported.stdout, encoding="utf-8")
    verified = run("log", "verify", str(export), db=db)
    assert verified.returncode == 0 and "clean" in verified.stderr, verified.stdout + verified.stderr


def test_the_terminal_resumes_a_fight_and_wins_it_s3_s5(tmp_path):
    db = tmp_path / "solo.sqlite3"
    first = run("solo", str(TINY), stdin="2\n", db=db, dice="10", lang="fr")
    assert first.returncode == 0, first.stderr
    assert "Il frappe." in first.stdout and "Tour 1" in first.stdout  # the fight's scene, turn 1
    again = run("solo", str(TINY), stdin="1\n1\n1\n1\n", db=db, dice="10", lang="fr")
    assert again.returncode == 0, again.stderr
    assert "Reprise au passage atteint." in again.stdout and "Il frappe." in again.stdout
    assert "Vous rentrez." in again.stdout and "Une fin heureuse" in again.stdout
    assert "Dégâts" in again.stdout or "damage" in again.stdout.lower()


def test_a_faulty_scenario_is_refused_before_play_and_bad_dice_are_one_line(tmp_path):
    db = tmp_path / "solo.sqlite3"
    broken = tmp_path / "broken.yaml"
    broken.write_text(TINY.read_text(encoding="utf-8").replace("goto: lie", "goto: lye"), encoding="utf-8")
    done = run("solo", str(broken), db=db)
    assert done.returncode == 2 and "passages.alley.choices.0.goto, line 26" in done.stderr
    done = run("solo", str(TINY), "--dice", "ten", db=db)
    assert (
        done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    )
