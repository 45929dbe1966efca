"""Names typed as players say them — singular or plural, accents or not, any case, in
fr/es/en — name the same trait ("Sciences: Chimie" is a specialty of Science); "Alchimie du Sang-Clair" is
Thin-Blood Alchemy, whose one French name is the seeds' "sang clair"; the Clan Disciplines field asks
for names, not "trait ids". On a 390×844 phone in French and a desktop in Spanish."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from .flows import chronicle_id, create, create_v5, token_of

pytestmark = pytest.mark.browser

CASES = {
    "fr": (
        {"width": 390, "height": 844, "locale": "fr-FR"},
        "Sciences: Chimie",
        "Alchimie du Sang-Clair",
        "Science",
        "Alchimie du sang clair",
    ),
    "es": (
        {"width": 1280, "height": 900, "locale": "es-ES"},
        "ciencia: Química",
        "alquimia de sangre débil",
        "Ciencias",
        None,
    ),
}


@pytest.mark.parametrize("lang", CASES)
def test_names_typed_as_players_say_them(new_context, live_server, lang):
    viewport, specialty, discipline, shown, shown_discipline = CASES[lang]
    page = new_context(**viewport).new_page()
    chronicle = create_v5(page, lang, f"Noms {lang}")
    page.goto(f"{chronicle}/characters/new")
    page.locator("[name='s.name']").fill("Mara")
    for name, value in (
        ("s.skills.science", "2"),
        ("s.specialties", specialty),
        ("new.disciplines.name.0", discipline),
        ("new.disciplines.value.0", "1"),
    ):
        field = page.locator(f"[name='{name}']")
        field.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")
        field.fill(value)
    page.locator("main form button[type=submit]").last.click()
    expect(page.get_by_role("heading", level=1, name="Mara")).to_be_visible()
    expect(page.locator(".traits")).to_contain_text(shown)
    character = page.url.split("?")[0].split("#")[0].rstrip("/").rsplit("/", 1)[1]
    sheet = httpx.get(
        f"{live_server}/api/chronicles/{chronicle_id(page)}/characters/{character}",
        headers={"Authorization": f"Bearer {token_of(page)}"},
        timeout=30,
    ).json()["sheet"]
    assert list(sheet["specialties"]) == ["science"], sheet["specialties"]
    assert "thin_blood_alchemy" in sheet["disciplines"] and not sheet.get("names"), sheet
    if shown_discipline:
        expect(page.locator(".traits")).to_contain_text(shown_discipline)
        expect(page.locator("main")).not_to_contain_text("clairsemé")


def test_clan_disciplines_asks_for_names_not_ids(new_context):
    page = new_context(width=390, height=844, locale="fr-FR").new_page()
    chronicle = create(page, "fr", "v20", "Clans")
    page.goto(f"{chronicle}/characters/new")
    hint = page.locator("#sheet-s-clan_disciplines-hint")
    expect(hint).to_have_text("Noms séparés par des virgules, dans l’une des langues de la table")
    expect(page.locator("main")).not_to_contain_text("Identifiants")
