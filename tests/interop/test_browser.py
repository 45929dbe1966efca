"""In a browser: on a 390×844 phone in French, each fixture file uploaded through the
chronicle's "Import a sheet", its report shown field by field; a hostile file refused with its
problems named, nothing written; the sheet page's export link gives a file that imports back."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.interop.conftest import FILES

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


def upload(page: Page, chronicle: str, name: str) -> None:
    page.goto(chronicle)
    page.locator("#import-link").click()
    expect(page.get_by_role("heading", level=1, name="Importer une feuille")).to_be_visible()
    page.locator("#import-file").set_input_files(str(FILES / name))
    page.locator("#import button[type=submit]").click()


V5_FILES = {
    "wod5e_vampire.json": ("Élise Marchand", "$.system.skills.animalken.value", "skills.animal_ken"),
    "wod5e_ghoul.json": ("Bruno", "$.system.disciplines.potence.value", "disciplines.potence"),
    "wod5e_thinblood.json": ("Kiki", "$.system.disciplines.alchemy.value", "disciplines.thin_blood_alchemy"),
    "progeny_vampire.json": ("Guya", '$.skills["animal ken"]', "skills.animal_ken"),
    "progeny_thinblood.json": ("Nox", "$.skillSpecialties[0].name", "specialties.science.0"),
    "v5bot_vampire.json": ("Nadia", "$.traits[13].rating", "disciplines.blood_sorcery"),
    "v5bot_ghoul.json": ("Rex", "$.traits[9].rating", "skills.drive"),
    "v5bot_thinblood.json": ("Tibo", "$.traits[9].subtraits[0]", "specialties.science.0"),
}


def test_v5_files_uploaded_on_a_phone_in_french(new_context, artifacts):
    page = new_context(**PHONE).new_page()
    chronicle = create(page, "v5", "Import V5")
    for name, (character, source, target) in V5_FILES.items():
        upload(page, chronicle, name)
        result = page.locator("#import-result")
        expect(result).to_contain_text("Importé depuis")
        expect(page.locator("#open-imported")).to_contain_text(character)
        mapped = page.locator("#report-mapped")
        mapped.locator("summary").click()
        expect(mapped).to_contain_text(f"{source} → {target}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        if name == "wod5e_vampire.json":
            expect(page.locator("#report-homebrew")).to_contain_text("Gardé tel quel")
            expect(page.locator("#report-homebrew")).to_contain_text("“Égouts de Paris”")
            expect(page.locator("#report-dropped")).to_contain_text(
                "$.items[6] → les avantages, handicaps et historiques ne sont pas sur une feuille rollbook"
            )
            page.screenshot(path=str(artifacts / "import-report-phone-fr.png"), full_page=True)
    page.goto(chronicle)
    for character, _, _ in V5_FILES.values():
        expect(page.locator(".characters")).to_contain_text(character)


def test_v20_file_and_export_back(new_context, tmp_path):
    page = new_context(**PHONE).new_page()
    chronicle = create(page, "v20", "Import V20")
    upload(page, chronicle, "wod20_vampire.json")
    expect(page.locator("#report-homebrew")).to_contain_text("“Lure of Flames”")
    page.locator("#report-mapped summary").click()
    expect(page.locator("#report-mapped")).to_contain_text("$.system.advantages.path.permanent → humanity")
    page.locator("#open-imported").click()
    with page.expect_download() as download:
        page.locator("#export-link").click()
    path = tmp_path / "anatole.json"
    download.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported["type"] == "Vampire" and exported["name"] == "Anatole"
    page.goto(chronicle + "/import")
    page.locator("#import-pasted").fill(json.dumps(exported))
    page.locator("#import button[type=submit]").click()
    expect(page.locator("#open-imported")).to_contain_text("Anatole")


def test_hostile_file_refused_with_its_problems(new_context, tmp_path):
    page = new_context(**PHONE).new_page()
    chronicle = create(page, "v5", "Import hostile")
    hostile = json.loads((FILES / "wod5e_vampire.json").read_text(encoding="utf-8"))
    hostile["system"]["attributes"]["strength"]["value"] = 99
    hostile["system"]["skills"]["brawl"]["value"] = "trois"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(hostile), encoding="utf-8")
    page.goto(chronicle + "/import")
    page.locator("#import-file").set_input_files(str(path))
    page.locator("#import button[type=submit]").click()
    problems = page.locator("#import-problems")
    expect(problems).to_contain_text("$.system.attributes.strength.value — 99 est hors de 1–5.")
    expect(problems).to_contain_text(
        "$.system.skills.brawl.value — Attendu ici : un nombre entier ; trouvé : du texte."
    )
    page.locator("#import-pasted").fill("[1, 2, 3]")
    page.locator("#import button[type=submit]").click()
    expect(page.locator("#import-alert")).to_contain_text("Ce fichier n’est dans aucun des formats")
    page.goto(chronicle)
    expect(page.locator(".characters")).to_have_count(0)
