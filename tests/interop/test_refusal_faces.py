"""A bad file gets the same refusal on every face (docs/import.md): the API's problem document, the
"Import a sheet" page (the sentence and each problem rendered on the page, never a problem document)
and the CLI's ``--json`` problem on standard output carry the same code, the same sentence in the
reader's language and, for a file with problems, each problem at the same place with the same words.
The API and the page on both stores (nothing written); the CLI stores nothing."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

FIXTURES = Path(__file__).parent / "fixtures"


def real(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def out_of_range() -> dict:
    """A real WoD5e actor with two problems: a rating past the dots and a Hunger that is text."""
    data = real("wod5e53_vampire.json")
    data["system"]["attributes"]["strength"]["value"] = 9
    data["system"]["hunger"]["value"] = "x"
    return data


# (the case, the file, the chronicle's game, the code every face gives)
BAD = [
    ("problems", out_of_range(), "v5", "import_refused"),
    ("unknown", {"actor": {"name": "Nobody"}}, "v5", "import_unknown_format"),
    ("other_game", real("wod20_72_vampire.json"), "v5", "import_wrong_system"),
    ("several", real("inconnu_guild_export.json"), "v5", "import_pick_character"),
]


def cli(data: object, system: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "sheet", "import", "-", "--system", system, "--json"],
        check=False,
        input=json.dumps(data),
        capture_output=True,
        text=True,
        env={**os.environ, "ROLLBOOK_LANG": "fr"},
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def chronicle(app):
    opened: list[TestClient] = []

    def open_chronicle(system: str) -> tuple[TestClient, str]:
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        created = client.post(
            "/chronicles",
            data={"name": "Refus", "system": system, "storyteller": "Ana", "language": "fr"},
            follow_redirects=False,
        )
        return client, created.headers["location"]

    yield open_chronicle
    for client in opened:
        client.__exit__(None, None, None)


def on_the_page(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The page's refusal: its sentence and its problems (place, words)."""
    alert = html.unescape(re.search(r'id="import-alert".*?</div>', text, re.S).group(0))
    sentence = re.findall(r"<p>([^<]*)</p>", alert)[-1]
    problems = re.findall(r"<li><code>([^<]*)</code> — ([^<]*)</li>", alert)
    return sentence, problems


@pytest.mark.parametrize(("case", "data", "system", "code"), BAD, ids=[case for case, *_ in BAD])
def test_a_bad_file_is_refused_alike_on_every_face(chronicle, case, data, system, code):
    client, base = chronicle(system)
    api = client.post(
        f"/api{base}/characters/import", json={"source": data}, headers={"Accept-Language": "fr"}
    )
    assert api.status_code == 422, api.text
    problem = api.json()
    page = client.post(
        f"{base}/import", files={"file": ("bad.json", json.dumps(data).encode(), "application/json")}
    )
    assert page.status_code == 422 and page.headers["content-type"].startswith("text/html")
    sentence, page_problems = on_the_page(page.text)
    line = cli(data, system)
    assert problem["code"] == line["code"] == code
    assert problem["detail"] == line["message"] == sentence
    api_problems = [(p["source"], p["message"]) for p in problem["params"].get("problems", [])]
    cli_problems = [(p["source"], p["message"]) for p in line["params"].get("problems", [])]
    assert api_problems == cli_problems == page_problems
    if code == "import_refused":
        assert [place for place, _ in api_problems] == [
            "$.system.attributes.strength.value",
            "$.system.hunger.value",
        ]
        assert "$.system.attributes.strength.value" in sentence
    assert client.get(f"/api{base}/characters").json()["characters"] == []
