"""The faces of import pass the reader's choices to ``rollbook.interop.import_sheet`` (docs/import.md):
``pick``, which character of a file holding several (the V5 Discord bot's guild export, a real file of
tests/interop/fixtures/), and the reader's language for names a file gives as translation keys
(WoD20's clans). The API on both stores, the page (TestClient, and Chromium for the choice), the CLI.
Also the page's hostile uploads (nested too deep, over the server's limit) answered on the page, and
the CLI's ``--json`` refusals as a JSON problem on standard output."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import expect

from rollbook.app.app import create_app
from rollbook.interop import MAX_DEPTH, import_sheet
from rollbook.server import hygiene

FIXTURES = Path(__file__).parent / "fixtures"
GUILD = FIXTURES / "inconnu_guild_export.json"
NAMES = ["Test Vampire", "Renfield", "Test Thinblood"]


def real(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def set_clan() -> dict:
    """A WoD20 7.2 vampire whose clan the select stored as the key of the Followers of Set."""
    data = real("wod20_72_vampire.json")
    data["system"]["clan"] = "wod.bio.vampire.set"
    return data


def cli(*args: str, stdin: str | None = None, lang: str = "en") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rollbook", "sheet", "import", *args],
        check=False,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "ROLLBOOK_LANG": lang},
        timeout=120,
    )


# --- the API, on SQLite and PostgreSQL -----------------------------------------------------------


def test_the_api_imports_the_character_picked_in_the_guild_export(make_table):
    table = make_table("v5")
    url = f"{table.base}/characters/import"
    for pick, name in enumerate(NAMES):
        response = table.client.post(url, headers=table.st, json={"source": real(GUILD.name), "pick": pick})
        assert response.status_code == 201, response.text
        body = response.json()
        expected = import_sheet(real(GUILD.name), system="v5", pick=pick).plain()
        assert body["sheet"]["name"] == name == body["character"]["name"]
        assert body["sheet"] == expected["sheet"] and body["report"] == expected["report"]
        assert all(m["source"].startswith(f"$[{pick}].") for m in body["report"]["mapped"])
        assert table.sheet(table.st, body["character"]["id"])["sheet"] == expected["sheet"]
    for pick, code in ((3, "out_of_range"), (-1, "out_of_range")):
        response = table.client.post(url, headers=table.st, json={"source": real(GUILD.name), "pick": pick})
        assert response.status_code == 422 and response.json()["code"] == code, response.text
    listed = table.client.get(f"{table.base}/characters", headers=table.st).json()["characters"]
    assert sorted(c["name"] for c in listed) == sorted(NAMES)


def test_the_api_reads_a_clan_key_in_the_readers_language(make_table):
    table = make_table("v20")
    url = f"{table.base}/characters/import"
    for accept, clan in (
        ("fr", "Disciples de Seth"),
        ("es", "Seguidores de Set"),
        ("en", "Followers of Set"),
    ):
        response = table.client.post(
            url, headers={**table.st, "Accept-Language": accept}, json={"source": set_clan()}
        )
        assert response.status_code == 201, response.text
        assert response.json()["sheet"]["clan"] == clan
    response = table.client.post(f"{url}?lang=es", headers=table.st, json={"source": set_clan()})
    assert response.json()["sheet"]["clan"] == "Seguidores de Set"


# --- the page (TestClient) -------------------------------------------------------------------------


@pytest.fixture
def pages(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'pages.sqlite3'}")
    opened: list[TestClient] = []

    def open_table(system: str, lang: str = "fr"):
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        created = client.post(
            "/chronicles",
            data={"name": "Lyon", "system": system, "storyteller": "Ana", "language": lang},
            follow_redirects=False,
        )
        return client, created.headers["location"]

    yield open_table
    for client in opened:
        client.__exit__(None, None, None)


def test_the_page_offers_the_characters_of_the_guild_export_and_imports_the_one_chosen(pages):
    client, chronicle = pages("v5")
    with GUILD.open("rb") as handle:
        answer = client.post(
            f"{chronicle}/import", files={"file": ("guild.json", handle, "application/json")}
        )
    assert answer.status_code == 422
    html = answer.text
    assert "Quel personnage du fichier\u202f?" in html
    offered = re.findall(r'<input type="radio" name="pick" value="(\d+)"[^>]*> ([^<\n]+)', html)
    assert offered == [(str(i), name) for i, name in enumerate(NAMES)]
    # the file's text is offered again in the pasted field: choose, import
    pasted = re.search(r'<textarea id="import-pasted"[^>]*>([^<]*)</textarea>', html).group(1)
    assert json.loads(pasted.replace("&#34;", '"').replace("&quot;", '"')) == real(GUILD.name)
    answer = client.post(f"{chronicle}/import", data={"pasted": json.dumps(real(GUILD.name)), "pick": "1"})
    assert answer.status_code == 201, answer.text
    assert re.search(r'id="open-imported" href="[^"]+">[^<]*Renfield</a>', answer.text)
    assert "<code>$[1].name</code>" in answer.text
    answer = client.post(f"{chronicle}/import", data={"pasted": json.dumps(real(GUILD.name)), "pick": "7"})
    assert (
        answer.status_code == 422 and "Le personnage du fichier doit être entre 0 et 2, pas 7." in answer.text
    )


def test_the_page_reads_a_clan_key_in_the_readers_language(pages):
    for lang, clan in (("fr", "Disciples de Seth"), ("es", "Seguidores de Set")):
        client, chronicle = pages("v20", lang)
        answer = client.post(f"{chronicle}/import", data={"pasted": json.dumps(set_clan())})
        assert answer.status_code == 201, answer.text
        sheet = re.search(r'id="open-imported" href="([^"]+)"', answer.text).group(1)
        assert clan in client.get(sheet).text


def test_a_json_nested_too_deep_is_refused_on_the_page(pages):
    client, chronicle = pages("v5")
    for text in ("[" * 10_000 + "]" * 10_000, '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)):
        answer = client.post(f"{chronicle}/import", data={"pasted": text})
        assert answer.status_code == 422 and answer.headers["content-type"].startswith("text/html")
        assert f"Le fichier est imbriqué sur plus de {MAX_DEPTH} niveaux." in answer.text
        with_file = client.post(
            f"{chronicle}/import", files={"file": ("deep.json", text.encode(), "application/json")}
        )
        assert with_file.status_code == 422 and "imbriqué sur plus de" in with_file.text


def test_an_upload_over_the_limit_is_answered_on_the_page_in_words(pages):
    client, chronicle = pages("v5", "es")
    huge = b'{"name": "' + b"x" * (50 * 1024 * 1024) + b'"}'
    answer = client.post(f"{chronicle}/import", files={"file": ("huge.json", huge, "application/json")})
    assert answer.status_code == 413 and answer.headers["content-type"].startswith("text/html")
    limit = hygiene.MAX_BODY // (1024 * 1024)
    assert f"El archivo supera {limit} MiB." in answer.text and 'id="import"' in answer.text
    # another page's form over the limit: the error page in words, not a problem document
    other = client.post(f"{chronicle}/characters", data={"name": "x" * (2 * 1024 * 1024)})
    assert other.status_code == 413 and other.headers["content-type"].startswith("text/html")
    # the API keeps its problem document
    api = client.post(
        f"/api{chronicle}/characters", content=huge, headers={"content-type": "application/json"}
    )
    assert api.status_code == 413 and api.json()["code"] == "body_too_large"
    assert "x" * 100 not in client.get(chronicle).text


# --- the page in Chromium: the choice ----------------------------------------------------------------


def test_the_browser_chooses_a_character_of_the_guild_export(new_context):
    page = new_context(width=390, height=844, locale="fr").new_page()
    page.goto("/?lang=fr")
    page.locator("#create-name").fill("Guilde")
    page.locator("#create-storyteller").fill("Ana")
    page.locator("#create-system").select_option("v5")
    page.locator("#create-language").select_option("fr")
    page.locator("form#create, #create form").locator("button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name="Guilde")).to_be_visible()
    page.goto(page.url + "/import")
    page.locator("#import-file").set_input_files(str(GUILD))
    page.locator("#import button[type=submit]").click()
    expect(page.locator("#import-pick")).to_contain_text("Test Thinblood")
    page.get_by_label("Test Thinblood").check()
    page.locator("#import button[type=submit]").click()
    expect(page.locator("#open-imported")).to_contain_text("Test Thinblood")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


# --- the CLI -----------------------------------------------------------------------------------------


def test_the_cli_picks_a_character_and_answers_the_apis_sheet_and_report():
    done = cli(str(GUILD), "--system", "v5", "--pick", "2", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    expected = import_sheet(real(GUILD.name), system="v5", pick=2).plain()
    assert set(answer) == {"sheet", "report"}  # the API's but "character" and "entry": nothing stored
    assert answer["sheet"] == expected["sheet"] and answer["report"] == expected["report"]
    shown = cli(str(GUILD), "--system", "v5", "--pick", "1", lang="fr")
    assert shown.returncode == 0 and "Renfield" in shown.stdout


def test_the_cli_reads_a_clan_key_in_the_readers_language():
    done = cli("-", "--system", "v20", "--json", "--lang", "fr", stdin=json.dumps(set_clan()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sheet"]["clan"] == "Disciples de Seth"


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        ((str(GUILD), "--system", "v5"), None, "import_pick_character", "Le fichier contient 3 personnages"),
        ((str(GUILD), "--system", "v5", "--pick", "5"), None, "out_of_range", "pick"),
        (("-", "--system", "v5"), "[" * 10_000 + "]" * 10_000, "import_too_deep", "imbriqué sur plus de 32"),
        (("-", "--system", "v5"), "[1", "import_not_json", "Le fichier n’est pas du JSON."),
        (("-", "--system", "v20"), None, "import_wrong_system", ""),
        (("-", "--system", "v4"), "{}", "bad_input", "--system takes v5 or v20"),
    ],
)
def test_a_cli_refusal_with_json_is_a_problem_on_standard_output(args, stdin, code, message):
    if stdin is None and args[0] == "-":
        stdin = json.dumps(real("wod5e53_vampire.json"))
    done = cli(*args, "--json", stdin=stdin, lang="fr")
    assert done.returncode == 2, done.stderr
    problem = json.loads(done.stdout)
    assert problem["code"] == code and message in problem["message"]
    assert done.stderr.strip() == f"rollbook: {problem['message']}" and "Traceback" not in done.stderr


def test_a_refused_file_with_json_lists_each_problem_with_its_sentence():
    hostile = real("wod5e53_vampire.json")
    hostile["system"]["attributes"]["strength"]["value"] = 99
    done = cli("-", "--system", "v5", "--json", stdin=json.dumps(hostile), lang="fr")
    assert done.returncode == 2
    problem = json.loads(done.stdout)
    assert problem["code"] == "import_refused"
    assert {
        "source": "$.system.attributes.strength.value",
        "message": "99 est hors de 1–5.",
    }.items() <= problem["params"]["problems"][0].items()


def test_the_browser_uploading_50_mb_reads_the_import_page_in_words(new_context, tmp_path):
    huge = tmp_path / "huge.json"
    huge.write_bytes(b'{"name": "' + b"x" * (50 * 1024 * 1024) + b'"}')
    page = new_context(width=390, height=844, locale="es").new_page()
    page.goto("/?lang=es")
    page.locator("#create-name").fill("Enorme")
    page.locator("#create-storyteller").fill("Ana")
    page.locator("#create-system").select_option("v5")
    page.locator("#create-language").select_option("es")
    page.locator("form#create, #create form").locator("button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name="Enorme")).to_be_visible()
    page.goto(page.url + "/import")
    page.locator("#import-file").set_input_files(str(huge))
    page.locator("#import button[type=submit]").click()
    limit = hygiene.MAX_BODY // (1024 * 1024)
    expect(page.locator("#import-alert")).to_contain_text(f"El archivo supera {limit} MiB.")
    expect(page.locator("#import-file")).to_be_visible()  # the form again, to choose another file
