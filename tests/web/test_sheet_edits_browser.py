"""In a browser (a 390×844 phone in French, a desktop in Spanish): the sheet
editor saved after a stain was added on the same page merges (no "changed meanwhile"), the edit is a
card of the feed (which field, from what to what); the Storyteller removes a character twice made
(asked first; a card says so; no longer listed); a second "Julien" joins as "Julien (2)"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .flows import create_v5

CASES = {
    "fr": ((390, 844), "Feuille modifiée", "Personnage retiré : Nadia", "Concept"),
    "es": ((1280, 900), "Hoja editada", "Personaje retirado: Nadia", "Concepto"),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_edits_merge_are_logged_and_a_character_can_be_removed(new_context, lang):
    (width, height), edited, removed, concept = CASES[lang]
    page = new_context(width=width, height=height, locale=lang).new_page()
    chronicle = create_v5(page, lang, f"Édition {lang}")
    invitation = page.locator("#invitation-code").inner_text().strip()
    sheets = []
    for _ in range(2):  # the back button made the same character twice
        made = page.request.post(
            f"{chronicle}/characters", form={"s.name": "Nadia", "s.attributes.wits": "2"}, max_redirects=0
        )
        sheets.append(made.headers["location"])
    page.goto(sheets[0])
    page.locator("details:has(#sheet) > summary").click()
    page.locator("#sheet-s-concept").fill("Tireuse")
    # meanwhile a stain is added (any roll or change that moves the sheet's version)
    stained = page.request.post(
        f"{sheets[0]}/adjustments", form={"change": "stains", "amount": "1"}, max_redirects=0
    )
    assert stained.status == 303
    page.locator("#sheet button[type=submit]").click()
    expect(page.locator("#sheet-alert")).to_be_empty()
    page.locator("details:has(#sheet) > summary").click()
    expect(page.locator("#sheet-s-concept")).to_have_value("Tireuse")
    expect(page.locator("#sheet-s-stains")).to_have_value("1")  # the stain is kept
    card = page.locator("#feed > li.card", has_text=edited).first
    expect(card).to_contain_text(re.compile(rf"{concept}\s?: — → Tireuse"))  # French spaces its colon
    # the Storyteller removes the double, after saying yes
    page.goto(sheets[1])
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("#remove button[type=submit]").click()
    expect(page).to_have_url(chronicle)
    assert asked and "Nadia" in asked[0]
    expect(page.locator("#feed")).to_contain_text(removed)
    links = page.locator(f"a[href='{sheets[1].replace(page.url.split('/chronicles')[0], '')}']")
    expect(links).to_have_count(0)
    # two players named Julien
    names = []
    for _ in range(2):
        other = new_context(width=width, height=height, locale=lang).new_page()
        other.goto(f"/?lang={lang}")
        other.locator("#join-invitation").fill(invitation)
        other.locator("#join-name").fill("Julien")
        other.locator("#join button[type=submit]").click()
        names.append(other.locator(".tag.you").inner_text())
    assert "Julien" in names[0] and "(2)" not in names[0] and "Julien (2)" in names[1]
