"""On the sheet page's editor and on the roll form, on a French phone and a Spanish
desktop: a refusal about one row of a list (a specialty, a weapon) or one field of a roll (the bullets
of a Tiers shot) sits at that row or field, its folded section opens, the message names the trait and
names the field in the page's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .flows import create

pytestmark = pytest.mark.browser

PLACES = {
    "fr": {"width": 390, "height": 844, "locale": "fr-FR"},  # a French phone
    "es": {"width": 1280, "height": 900, "locale": "es-ES"},
}  # a Spanish desktop


def _sheet(page: Page, chronicle: str, form: dict[str, str]) -> str:
    made = page.request.post(f"{chronicle}/characters", form=form, max_redirects=0)
    assert made.status == 303, made.text()
    return made.headers["location"]


def _fill(page: Page, selector: str, value: str) -> None:
    """A field of a folded section, as a person opens it and types."""
    field = page.locator(selector)
    field.evaluate(
        "e => { for (let p = e.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true; }"
    )
    if field.evaluate("e => e.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)


def _at_its_row(control, alert_id: str) -> None:
    """The refusal follows the control's field, the control is marked and described by it, and no
    section around it is folded."""
    expect(control).to_have_attribute("aria-invalid", "true")
    assert control.evaluate("c => (c.closest('.field') || c).nextElementSibling.id") == alert_id
    assert alert_id in (control.get_attribute("aria-describedby") or "")
    assert control.evaluate(
        "c => { for (let p = c.parentElement; p; p = p.parentElement) "
        "if (p.tagName === 'DETAILS' && !p.open) return false; return true; }"
    )


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_sheet_editors_specialty_error_names_its_trait_at_its_row(new_context, lang):
    page = new_context(**PLACES[lang]).new_page()
    chronicle = create(page, lang, "v20", f"Editor {lang}")
    sheet = _sheet(page, chronicle, {"s.name": "Zed", "s.attributes.dexterity": "2", "s.talents.brawl": "2"})
    page.goto(sheet)
    page.locator("#sheet").evaluate("f => f.closest('details').open = true")  # "Open the editor"
    brawl = {"fr": "Bagarre", "es": "Pelea"}[lang]
    _fill(page, "#sheet [name='s.specialties']", f"{brawl}: Griffes")
    page.locator("#sheet button[type=submit]").click()
    alert = page.locator("#sheet-alert")
    # which trait, and its rating: not only "this trait is rated 2"
    expect(alert).to_contain_text(brawl)
    expect(alert).to_contain_text("2")
    expect(alert).not_to_contain_text("brawl")
    _at_its_row(page.locator("#sheet [name='s.specialties']"), "sheet-alert")


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_the_sheet_editors_weapon_error_sits_at_its_row_in_the_pages_words(new_context, lang):
    page = new_context(**PLACES[lang]).new_page()
    chronicle = create(page, lang, "v20", f"Armes {lang}")
    sheet = _sheet(page, chronicle, {"s.name": "Zed", "s.attributes.dexterity": "2"})
    page.goto(sheet)
    page.locator("#sheet").evaluate("f => f.closest('details').open = true")
    _fill(page, "#sheet [name='s.weapons.0.name']", "Glock")
    _fill(page, "#sheet [name='s.weapons.0.kind']", "firearm")
    _fill(page, "#sheet [name='s.weapons.0.damage']", "0")  # a firearm's rating is 1 to 20 (V20-17)
    page.locator("#sheet button[type=submit]").click()
    alert = page.locator("#sheet-alert")
    expect(alert).to_contain_text({"fr": "Dégâts", "es": "Daño"}[lang])
    expect(alert).not_to_contain_text("damage")
    expect(alert).not_to_contain_text("Damage")
    _at_its_row(page.locator("#sheet [name='s.weapons.0.damage']"), "sheet-alert")
    # at its row's whole width, not squeezed into one cell of the row's grid
    row = page.locator("#sheet [name='s.weapons.0.damage']").evaluate(
        "c => c.closest('.fields').getBoundingClientRect().width"
    )
    assert alert.bounding_box()["width"] >= row - 2
    # the row's other fields are kept as typed
    expect(page.locator("#sheet [name='s.weapons.0.name']")).to_have_value("Glock")


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_tiers_shots_bullets_error_sits_at_the_bullets(new_context, lang):
    """The roll form of a Tiers chronicle (whose refusals say MJ) still marks the field
    a refusal is about: more bullets than the magazine holds (T-3) marks the bullets."""
    page = new_context(**PLACES[lang]).new_page()
    chronicle = create(page, lang, "tiers", f"Balles {lang}")
    sheet = _sheet(
        page,
        chronicle,
        {
            "s.name": "Mara",
            "s.skills.firearms": "50",
            "s.weapons.0.name": "Glock",
            "s.weapons.0.capacity": "15",
            "s.weapons.0.loaded": "2",
        },
    )
    page.goto(sheet)
    _fill(page, "#roll [name='skill']", "firearms")
    _fill(page, "#roll [name='weapon']", "Glock")
    _fill(page, "#roll [name='bullets']", "5")
    page.locator("#roll-submit").click()
    said = {"fr": "Impossible de tirer 5 balles", "es": "No se pueden disparar 5 balas"}[lang]
    # said once (the odds box says it already), in sight, and the bullets are marked by it
    message = page.get_by_text(said)
    expect(message).to_have_count(1)
    expect(message).to_be_in_viewport()
    bullets = page.locator("#roll [name='bullets']")
    expect(bullets).to_have_attribute("aria-invalid", "true")
    # read in one evaluation: the odds box's redraw may move the words from the roll's alert to itself
    # (said once) between two reads, and either way the bullets stay described by the box that says them
    page.wait_for_function(
        """said => {
            const bullets = document.querySelector("#roll [name='bullets']");
            return (bullets.getAttribute("aria-describedby") || "").split(" ").filter(Boolean)
                .some(id => (document.getElementById(id) || {textContent: ""}).textContent.includes(said));
        }""",
        arg=said,
    )


def test_a_shot_without_bullets_names_the_kind_of_roll_in_words(new_context):
    """Not "Un jet de type skill demande Balles tirées." (a raw code): the kind as the tab says it, and the
    refusal marks the bullets."""
    page = new_context(**PLACES["fr"]).new_page()
    chronicle = create(page, "fr", "tiers", "Sans balles")
    sheet = _sheet(
        page,
        chronicle,
        {
            "s.name": "Mara",
            "s.skills.firearms": "50",
            "s.weapons.0.name": "Glock",
            "s.weapons.0.capacity": "15",
        },
    )
    page.goto(sheet)
    _fill(page, "#roll [name='skill']", "firearms")
    _fill(page, "#roll [name='weapon']", "Glock")
    page.locator("#roll-submit").click()
    said = page.get_by_text("« Jet de compétence » demande Balles tirées.")
    expect(said).to_have_count(1)
    expect(page.locator("main")).not_to_contain_text("type skill")
    expect(page.locator("#roll [name='bullets']")).to_have_attribute("aria-invalid", "true")
