"""Through the pages without a browser (TestClient): "Import a sheet" with a file or pasted
JSON, the report shown in the reader's language, refusals with every problem named and nothing
written, the sheet page's export link."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from tests.interop.conftest import FILES, load


@pytest.fixture
def pages(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'pages.sqlite3'}")

    def open_table(system: str, lang: str = "fr"):
        client = TestClient(app)
        client.__enter__()
        created = client.post(
            "/chronicles",
            data={"name": "Lyon", "system": system, "storyteller": "Ana", "language": lang},
            follow_redirects=False,
        )
        opened.append(client)
        return client, created.headers["location"]

    opened: list[TestClient] = []
    yield open_table
    for client in opened:
        client.__exit__(None, None, None)


def key(html: str) -> str:
    return re.search(r'id="import-key" name="idempotency_key" value="([^"]+)"', html).group(1)


def test_the_chronicle_page_links_to_the_import(pages):
    client, chronicle = pages("v5")
    page = client.get(chronicle).text
    assert 'id="import-link"' in page and "Importer une feuille" in page
    form = client.get(f"{chronicle}/import").text
    assert 'enctype="multipart/form-data"' in form and 'type="file"' in form


def test_a_file_upload_shows_the_report_in_french(pages):
    client, chronicle = pages("v5")
    form = client.get(f"{chronicle}/import").text
    with (FILES / "wod5e_vampire.json").open("rb") as handle:
        answer = client.post(
            f"{chronicle}/import",
            data={"idempotency_key": key(form)},
            files={"file": ("elise.json", handle, "application/json")},
        )
    assert answer.status_code == 201, answer.text
    html = answer.text
    assert "Importé depuis WoD5e (Foundry)" in html
    assert "<code>$.system.skills.animalken.value</code> → skills.animal_ken" in html
    assert "“Égouts de Paris”" in html and "Gardé tel quel (maison)" in html
    assert (
        "$.items[6]</code> → les avantages, handicaps et historiques ne sont pas sur une feuille rollbook"
        in html
    )
    sheet = re.search(r'id="open-imported" href="([^"]+)"', html).group(1)
    page = client.get(sheet).text
    assert "Élise Marchand" in page and 'id="export-link"' in page
    exported = client.get(f"{sheet}/export", params={"format": "wod5e"})
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    assert exported.json()["type"] == "vampire"
    # the same form sent again (a retry) makes no second character
    with (FILES / "wod5e_vampire.json").open("rb") as handle:
        again = client.post(
            f"{chronicle}/import",
            data={"idempotency_key": key(form)},
            files={"file": ("elise.json", handle, "application/json")},
        )
    assert re.search(r'id="open-imported" href="([^"]+)"', again.text).group(1) == sheet
    assert len(re.findall(r'/characters/\d+">Élise Marchand</a></li>', client.get(chronicle).text)) == 1


def test_pasted_json_and_spanish(pages):
    client, chronicle = pages("v20", "es")
    form = client.get(f"{chronicle}/import").text
    answer = client.post(
        f"{chronicle}/import",
        data={"idempotency_key": key(form), "pasted": json.dumps(load("wod20_vampire.json"))},
    )
    assert answer.status_code == 201, answer.text
    assert "Importado desde WoD20 (Foundry)" in answer.text and "“Lure of Flames”" in answer.text


def test_refusals_name_every_problem_and_write_nothing(pages):
    client, chronicle = pages("v5")
    hostile = load("wod5e_vampire.json")
    hostile["system"]["attributes"]["strength"]["value"] = 99
    hostile["system"]["skills"]["brawl"]["value"] = "trois"
    answer = client.post(f"{chronicle}/import", data={"pasted": json.dumps(hostile)})
    assert answer.status_code == 422
    assert "<code>$.system.attributes.strength.value</code> — 99 est hors de 1–5." in answer.text
    assert (
        "<code>$.system.skills.brawl.value</code> — Attendu ici\u202f: un nombre entier\u202f; trouvé\u202f: du texte."
        in answer.text
    )
    answer = client.post(f"{chronicle}/import", data={"pasted": "[1, 2"})
    assert answer.status_code == 422 and "Le fichier n’est pas du JSON." in answer.text
    answer = client.post(f"{chronicle}/import", data={"pasted": "[1, 2]"})
    assert answer.status_code == 422 and "Ce fichier n’est dans aucun des formats" in answer.text
    answer = client.post(f"{chronicle}/import", data={"pasted": json.dumps(load("wod20_vampire.json"))})
    assert answer.status_code == 422
    assert "Élise" not in client.get(chronicle).text and "Anatole" not in client.get(chronicle).text


def test_the_feed_shows_imports_and_exports_as_cards(pages):
    client, chronicle = pages("v5")
    answer = client.post(f"{chronicle}/import", data={"pasted": json.dumps(load("progeny_vampire.json"))})
    sheet = re.search(r'id="open-imported" href="([^"]+)"', answer.text).group(1)
    client.get(f"{sheet}/export", params={"format": "wod5e"})
    feed = client.get(chronicle).text
    assert "Feuille importée depuis Progeny" in feed and "Repris: " not in feed  # a French colon's space
    assert re.search(r"Repris\u202f: \d+ · Gardé tel quel \(maison\)\u202f: 1 · Non gardé\u202f: \d+", feed)
    assert "Feuille exportée pour WoD5e (Foundry)" in feed
    assert "Project-Id-Version" not in feed  # no entry without its words


def test_no_import_link_for_games_without_a_format(pages):
    client, chronicle = pages("tiers")
    assert 'id="import-link"' not in client.get(chronicle).text
