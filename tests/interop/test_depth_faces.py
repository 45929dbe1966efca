"""One bound and one refusal for an imported file nested too deep, whatever the face (docs/import.md):
a file ``interop.MAX_DEPTH`` deep imports through the API, the page and the CLI; one level more is
``import_too_deep`` (the same code, message and bound) on each, the API's body being one level deeper
than the file it carries. The API and the page on both stores (SQLite, PostgreSQL); the CLI writes
nothing."""

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

from rollbook.interop import MAX_DEPTH
from rollbook.server.hygiene import json_depth

FIXTURE = Path(__file__).parent / "fixtures" / "wod5e53_vampire.json"
NAME = json.loads(FIXTURE.read_text(encoding="utf-8"))["name"]


def nested_file(depth: int) -> str:
    """A real WoD5e actor with a module's flag nested so that the whole file is ``depth`` deep."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data["flags"] = {"rollbook-test": "VALUE"}
    levels = depth - 2  # the actor and "flags" are the two levels around it
    text = json.dumps(data).replace('"VALUE"', "[" * levels + "1" + "]" * levels)
    assert json_depth(text.encode()) == depth
    return text


def cli(text: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rollbook", "sheet", "import", "-", "--system", "v5", "--json"],
        check=False,
        input=text,
        capture_output=True,
        text=True,
        env={**os.environ, "ROLLBOOK_LANG": "en"},
        timeout=120,
    )


MESSAGE = f"The file is nested more than {MAX_DEPTH} levels deep."


def test_the_api_imports_a_file_at_the_bound_and_refuses_one_level_more(make_table):
    table = make_table("v5")
    url = f"{table.base}/characters/import"
    headers = {**table.st, "content-type": "application/json", "Accept-Language": "en"}
    at_bound = table.client.post(url, headers=headers, content=f'{{"source": {nested_file(MAX_DEPTH)}}}')
    assert at_bound.status_code == 201, at_bound.text
    assert at_bound.json()["character"]["name"] == NAME
    for depth in (MAX_DEPTH + 1, 10_000):
        deeper = table.client.post(url, headers=headers, content=f'{{"source": {nested_file(depth)}}}')
        assert deeper.status_code == 422, deeper.text
        problem = deeper.json()
        assert (problem["code"], problem["detail"]) == ("import_too_deep", MESSAGE)
        assert problem["params"] == {"most": MAX_DEPTH}
    listed = table.client.get(f"{table.base}/characters", headers=table.st).json()["characters"]
    assert [c["name"] for c in listed] == [NAME]


def test_another_routes_body_keeps_the_request_bound(make_table):
    table = make_table("v5")
    body = '{"name": "Deep", "sheet": {"x": ' + "[" * (MAX_DEPTH) + "]" * (MAX_DEPTH) + "}}"
    answer = table.client.post(
        f"{table.base}/characters", headers={**table.st, "content-type": "application/json"}, content=body
    )
    assert answer.status_code == 422 and answer.json()["code"] == "json_too_deep"


@pytest.fixture
def page(app):
    with TestClient(app) as client:
        created = client.post(
            "/chronicles",
            data={"name": "Lyon", "system": "v5", "storyteller": "Ana", "language": "en"},
            follow_redirects=False,
        )
        yield client, created.headers["location"]


def test_the_page_imports_a_file_at_the_bound_and_refuses_one_level_more(page):
    client, chronicle = page
    for how in ("file", "pasted"):
        text = nested_file(MAX_DEPTH)
        given = {"files": {"file": ("deep.json", text.encode(), "application/json")}}
        answer = client.post(
            f"{chronicle}/import", **(given if how == "file" else {"data": {"pasted": text}})
        )
        assert answer.status_code == 201, answer.text
        assert re.search(r'id="open-imported" href="[^"]+">[^<]*' + NAME + "</a>", html.unescape(answer.text))
        text = nested_file(MAX_DEPTH + 1)
        given = {"files": {"file": ("deep.json", text.encode(), "application/json")}}
        answer = client.post(
            f"{chronicle}/import", **(given if how == "file" else {"data": {"pasted": text}})
        )
        assert answer.status_code == 422 and answer.headers["content-type"].startswith("text/html")
        assert MESSAGE in html.unescape(answer.text)
    shown = html.unescape(client.get(chronicle).text)
    assert shown.count(NAME) >= 2  # both imports stored, nothing of the refused ones


def test_the_cli_imports_a_file_at_the_bound_and_refuses_one_level_more():
    done = cli(nested_file(MAX_DEPTH))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sheet"]["name"] == NAME
    refused = cli(nested_file(MAX_DEPTH + 1))
    assert refused.returncode == 2, refused.stderr
    problem = json.loads(refused.stdout)
    assert (problem["code"], problem["message"]) == ("import_too_deep", MESSAGE)
    assert problem["params"] == {"most": MAX_DEPTH}
