"""The files the players' tools write (tests/interop/fixtures/), through each face that imports:
the API on both stores, the CLI (``--json``: the API's sheet and report) and the chronicle's page in
Chromium give the same sheet and the same report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rollbook.interop import import_sheet

FIXTURES = Path(__file__).parent / "fixtures"

# (file, the chronicle's game): each a single character (the bot's guild export is a list: below)
ONE = [
    ("progeny_test_vampire.json", "v5"),
    ("progeny_test_thinblood.json", "v5"),
    ("progeny_test_vampire.wod5e.json", "v5"),
    ("progeny_test_thinblood.wod5e.json", "v5"),
    ("progeny_test_vampire.inconnu.json", "v5"),
    ("progeny_test_thinblood.inconnu.json", "v5"),
    ("wod5e53_vampire.json", "v5"),
    ("wod5e53_ghoul.json", "v5"),
    ("wod5e53_mortal.json", "v5"),
    ("wod5e53_thinblood.json", "v5"),
    ("wod20_72_vampire.json", "v20"),
    ("wod20_72_mortal.json", "v20"),
    ("wod20_72_pc_vampire.json", "v20"),
    ("wod20_72_pc_mortal.json", "v20"),
]


def real(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def cli_json(name: str, system: str) -> dict:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rollbook",
            "sheet",
            "import",
            str(FIXTURES / name),
            "--system",
            system,
            "--json",
        ],
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "ROLLBOOK_LANG": "en"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(("name", "system"), ONE)
def test_api_and_cli_give_the_same_sheet_and_report(make_table, name, system):
    expected = import_sheet(real(name), system=system).plain()
    table = make_table(system)
    response = table.client.post(
        f"{table.base}/characters/import", headers=table.st, json={"source": real(name)}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["sheet"] == expected["sheet"] and body["report"] == expected["report"]
    assert table.sheet(table.st, body["character"]["id"])["sheet"] == expected["sheet"]
    answer = cli_json(name, system)
    assert answer["sheet"] == expected["sheet"] and answer["report"] == expected["report"]


def test_the_bots_guild_export_is_refused_naming_its_characters_on_each_face(make_table):
    table = make_table("v5")
    response = table.client.post(
        f"{table.base}/characters/import",
        headers=table.st,
        json={"source": real("inconnu_guild_export.json")},
    )
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "import_pick_character"
    assert "Test Vampire" in problem["detail"] and "Renfield" in problem["detail"]
    done = subprocess.run(
        [sys.executable, "-m", "rollbook", "sheet", "import", str(FIXTURES / "inconnu_guild_export.json")]
        + ["--system", "v5"],
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "ROLLBOOK_LANG": "en"},
        timeout=120,
    )
    assert done.returncode == 2 and "Renfield" in done.stderr and "Traceback" not in done.stderr


PHONE = {"width": 390, "height": 844, "locale": "fr"}


def create(page: Page, system: str, name: str) -> str:
    page.goto("/?lang=fr")
    page.locator("#create-name").fill(name)
    page.locator("#create-storyteller").fill("Ana")
    page.locator("#create-system").select_option(system)
    page.locator("#create-language").select_option("fr")
    page.locator("form#create, #create form").locator("button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    return page.url


def test_the_page_imports_each_real_file(new_context):
    page = new_context(**PHONE).new_page()
    chronicles = {system: create(page, system, f"Réels {system}") for system in ("v5", "v20")}
    for name, system in ONE:
        expected = import_sheet(real(name), system=system)
        page.goto(chronicles[system] + "/import")
        page.locator("#import-file").set_input_files(str(FIXTURES / name))
        page.locator("#import button[type=submit]").click()
        expect(page.locator("#import-result")).to_contain_text("Importé depuis")
        expect(page.locator("#open-imported")).to_contain_text(expected.sheet["name"])
        plain = expected.report.plain()
        for key in ("mapped", "homebrew", "dropped"):  # the same report, entry by entry
            shown = page.locator(f"#report-{key} li code").all_text_contents()
            assert sorted(shown) == sorted(e["source"] for e in plain[key]), (name, key)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
    page.goto(chronicles["v5"] + "/import")
    page.locator("#import-file").set_input_files(str(FIXTURES / "inconnu_guild_export.json"))
    page.locator("#import button[type=submit]").click()
    expect(page.locator("#import-alert")).to_contain_text("Renfield")
