"""In a browser (a 390×844 phone in French, a desktop in Spanish): a refused
new-character form keeps everything typed (rows added under "New" included), its error sits next to
the field, focused and in view; trait names typed in the table's language are the traits they name
(stored by id, shown translated); the game's disciplines are offered."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .flows import create_v5

CASES = {
    # lang: viewport, discipline typed, its id, specialty line typed, the skill's name, the error's words
    "fr": (
        (390, 844),
        "Occultation",
        "obfuscate",
        "Furtivité: Égouts",
        "Furtivité",
        "Il manque le champ « Nom »",
    ),  # the seeds' own words
    "es": ((1280, 900), "Presencia", "presence", "Sigilo: Cloacas", "Sigilo", "Falta el campo"),
}


def as_written(line: str) -> re.Pattern:
    """A specialty line as the page writes it back: the French colon spaced (CLDR), the words kept."""
    skill, _, name = line.partition(": ")
    return re.compile(rf"^{re.escape(skill)}\s?: {re.escape(name)}$")


def in_view(page: Page, selector: str) -> bool:
    return page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )


@pytest.mark.parametrize("lang", sorted(CASES))
def test_refused_form_keeps_rows_and_points_at_the_field(new_context, lang, artifacts):
    (width, height), discipline, discipline_id, specialty, skill, missing = CASES[lang]
    page = new_context(width=width, height=height, locale=lang).new_page()
    chronicle = create_v5(page, lang, f"Nuit {lang}")
    page.goto(f"{chronicle}/characters/new")
    # the disciplines this game knows are offered, in the table's language
    options = page.locator("#sheet-disciplines-names option")
    assert discipline in options.evaluate_all("os => os.map(o => o.value)")
    page.locator("details:has([name='new.disciplines.name.0'])").evaluate("d => d.open = true")
    page.locator("[name='new.disciplines.name.0']").fill(discipline)
    page.locator("[name='new.disciplines.value.0']").fill("2")
    page.locator("details:has([name='s.specialties'])").evaluate("d => d.open = true")
    page.locator("[name='s.specialties']").fill(specialty)
    page.locator("details:has([name='s.skills.stealth'])").evaluate("d => d.open = true")
    page.locator("[name='s.skills.stealth']").fill("3")
    page.locator("form#character button[type=submit]").click()  # no name: refused

    alert = page.locator("#character-alert")
    expect(alert).to_contain_text(missing)
    # next to the field, which is focused, marked invalid and in view
    assert page.locator("#character-alert").evaluate(
        "a => a.previousElementSibling && a.previousElementSibling.contains(document.getElementById('sheet-s-name'))"
    )
    expect(page.locator("#sheet-s-name")).to_be_focused()
    expect(page.locator("#sheet-s-name")).to_have_attribute("aria-invalid", "true")
    assert in_view(page, "#sheet-s-name") and in_view(page, "#character-alert")
    if lang == "fr":
        page.screenshot(path=str(artifacts / "form-error-phone.png"))
    # everything typed is still there: the new discipline as the trait it names, the specialty in words
    expect(page.locator(f"[name='s.disciplines.{discipline_id}']")).to_have_value("2")
    expect(page.locator("[name='s.specialties']")).to_have_value(as_written(specialty))
    expect(page.locator("[name='s.skills.stealth']")).to_have_value("3")

    page.locator("#sheet-s-name").fill("Julien")
    page.locator("form#character button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name="Julien")).to_be_visible()
    body = page.locator("main").inner_text()
    assert discipline in body and specialty.split(": ")[1] in body and skill in body
    # stored by id: the sheet editor names the discipline's id
    assert page.locator(f"[name='s.disciplines.{discipline_id}']").count() == 1
    expect(page.locator("[name='s.specialties']")).to_have_value(as_written(specialty))
