"""`rollbook sheet import` and `rollbook sheet export` as a user meets them (real subprocesses):
the sheet and the report printed, every problem of a refused file on standard error, exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.interop.conftest import FILES, load


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "ROLLBOOK_LANG": "fr", "COLUMNS": "200"}  # no wrapped lines in the Rich tables
    return subprocess.run(
        [sys.executable, "-m", "rollbook", *args],
        check=False,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_import_prints_the_sheet_and_the_report():
    done = run("sheet", "import", str(FILES / "wod5e_vampire.json"), "--system", "v5")
    assert done.returncode == 0, done.stderr
    assert "Importé depuis WoD5e (Foundry)" in done.stdout
    assert "skills.egouts_de_paris “Égouts de Paris”" in done.stdout
    assert "$.system.skills.animalken.value" in done.stdout and "skills.animal_ken" in done.stdout


def test_import_json_is_the_api_answer_shape():
    done = run("sheet", "import", str(FILES / "wod20_vampire.json"), "--system", "v20", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert set(answer) == {"sheet", "report"}  # the API's, but the CLI stores nothing: no character, entry
    assert answer["report"]["format"] == "wod20" and answer["sheet"]["generation"] == 10
    assert {"source": "$.system.advantages.path.permanent", "target": "humanity"} in answer["report"][
        "mapped"
    ]


def test_a_refused_file_names_every_problem_and_exits_2():
    hostile = load("progeny_vampire.json")
    hostile["attributes"]["strength"] = 99
    hostile["skills"]["brawl"] = "deux"
    done = run("sheet", "import", "-", "--system", "v5", stdin=json.dumps(hostile))
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert "$.attributes.strength: 99 est hors de 1–5." in lines
    assert "$.skills.brawl: Attendu ici\u202f: un nombre entier\u202f; trouvé\u202f: du texte." in lines
    assert lines[-1].startswith(
        "rollbook: Le fichier progeny ne peut pas être importé tel quel (problèmes\u202f: 2\u202f; le premier"
    )
    for args, stdin, expected in (
        (("--system", "v5"), "[1", "rollbook: Le fichier n’est pas du JSON."),
        (("--system", "v5"), "[]", "rollbook: Ce fichier n’est dans aucun des formats"),
        (("--system", "v4"), "{}", "rollbook: --system takes v5 or v20"),
    ):
        done = run("sheet", "import", "-", *args, stdin=stdin)
        assert done.returncode == 2 and done.stderr.startswith(expected), done.stderr
        assert "Traceback" not in done.stderr


def test_export_then_import_back():
    imported = json.loads(
        run("sheet", "import", str(FILES / "v5bot_vampire.json"), "--system", "v5", "--json").stdout
    )
    done = run("sheet", "export", "-", "--format", "wod5e", stdin=json.dumps(imported["sheet"]))
    assert done.returncode == 0, done.stderr
    back = run("sheet", "import", "-", "--system", "v5", "--json", stdin=done.stdout)
    assert json.loads(back.stdout)["sheet"] == imported["sheet"]
    wrong = run("sheet", "export", "-", "--format", "wod20", stdin=json.dumps(imported["sheet"]))
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
