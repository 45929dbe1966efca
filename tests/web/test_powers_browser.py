"""In a browser, a 390×844 phone in French and a desktop in Spanish: Discipline powers from the
game's list, offered per Discipline up to its rating in the table's language, a homebrew power kept as
typed; the sheet page lists each Discipline with its powers, and the phone's page stays 390 px wide."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .flows import create_v5

pytestmark = pytest.mark.browser

CASES = {
    # lang: viewport, Discipline typed, its id, a power of level 1 as listed, one of level 3 (not offered at 2),
    #       a homebrew Discipline and its power, the "Powers" section's title
    "fr": (
        (390, 844),
        "Occultation",
        "obfuscate",
        "Manteau d'ombres",
        "Masque aux mille visages",
        "Nécromancie des Égouts",
        "Murmure des Égouts",
        "Pouvoirs",
    ),
    "es": (
        (1280, 900),
        "Presencia",
        "presence",
        "Fascinación",
        "Mirada aterradora",
        "Nigromancia de las Cloacas",
        "Susurro de las Cloacas",
        "Poderes",
    ),
}


def open_section(page: Page, selector: str) -> None:
    page.locator(selector).first.evaluate(
        "e => { for (let d = e.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
    )


def add_rows(page, group: str, rows: list[tuple[str, str]]) -> None:
    """Fill the new-character form's empty rows of a group of traits: (name as typed, rating)."""
    open_section(page, f"[name='new.{group}.name.0']")
    for n, (name, value) in enumerate(rows):
        page.locator(f"[name='new.{group}.name.{n}']").fill(name)
        page.locator(f"[name='new.{group}.value.{n}']").fill(value)


@pytest.mark.parametrize("lang", sorted(CASES))
def test_powers_from_the_list_and_homebrew_in_the_tables_language(new_context, lang, artifacts):
    (width, height), discipline, discipline_id, power, too_high, homebrew, homebrew_power, title = CASES[lang]
    page = new_context(width=width, height=height, locale=lang).new_page()
    chronicle = create_v5(page, lang, f"Pouvoirs {lang}")
    page.goto(f"{chronicle}/characters/new")
    page.locator("#sheet-s-name").fill("Nadia")
    add_rows(page, "disciplines", [(discipline, "2"), (homebrew, "1")])
    open_section(page, "[name='s.skills.stealth']")
    page.locator("[name='s.skills.stealth']").fill("2")
    open_section(page, "[name='s.specialties']")
    stealth = "Furtivité" if lang == "fr" else "Sigilo"
    page.locator("[name='s.specialties']").fill(f"{stealth}: Égouts")  # a homebrew specialty, as typed
    # the new-character form: a power of a Discipline typed in the same form
    open_section(page, "[name='s.powers.0.name']")
    expect(page.get_by_text(title, exact=True).first).to_be_visible()
    page.locator("#sheet-powers-0-discipline").fill(discipline)
    # the Discipline typed in the row: its powers are offered, in the table's language
    # up to the rating typed in the same form (2): a power above it would be refused
    listed = f"powers-any-{discipline_id}-upto"
    expect(page.locator("#sheet-powers-0-name")).to_have_attribute("list", listed)
    offered = page.locator(f"#{listed} option").evaluate_all("os => os.map(o => o.value)")
    assert power in offered and too_high not in offered  # the rating typed bounds the list
    page.locator("#sheet-powers-0-name").fill(power.upper())  # case and accents do not matter
    page.locator("form#character button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name="Nadia")).to_be_visible()

    # the editor: the Discipline's group offers its powers up to its rating, in the table's language
    group = page.locator(f"fieldset.powers[data-discipline='{discipline_id}']")
    offered = group.locator("datalist option").evaluate_all("os => os.map(o => o.value)")
    assert power in offered and too_high not in offered
    expect(group.locator("input[name$='.name']").first).to_have_value(power)  # shown as the list names it
    # a homebrew power on the homebrew Discipline: free text, kept as typed
    homebrew_group = page.locator("fieldset.powers").filter(has_text=homebrew)
    open_section(page, "form#sheet fieldset.powers")
    name_box = homebrew_group.locator("input[name$='.name']").last
    name_box.fill(homebrew_power)
    page.locator("form#sheet button[type=submit]").click()
    expect(page.locator(".traits ul.powers").filter(has_text=homebrew_power)).to_be_visible()

    # the sheet page: each Discipline with its powers, the homebrew ones exactly as typed
    traits = page.locator(".traits").inner_text()
    assert f"{power} (1)" in traits and f"{homebrew_power} (1)" in traits
    assert homebrew in traits  # the homebrew Discipline's name as typed (accents and case kept)
    assert f"{stealth}\tÉgouts" in traits or f"{stealth}\nÉgouts" in traits or f"{stealth} Égouts" in traits
    width_now = page.evaluate("document.documentElement.scrollWidth")
    assert width_now <= width, f"the page is {width_now} px wide"
    if lang == "fr":
        page.locator(".trait-group:has(ul.powers)").screenshot(path=str(artifacts / "powers-phone.png"))

    # a power above the Discipline's rating is refused next to its row, which keeps what was typed
    open_section(page, "form#sheet fieldset.powers")
    group.locator("input[name$='.name']").last.fill(too_high)
    page.locator("form#sheet button[type=submit]").click()
    refused = page.locator(f"form#sheet input[name$='.name'][value=\"{too_high}\"]")
    expect(refused).to_have_attribute("aria-invalid", "true")
    expect(refused).to_be_focused()
    expect(page.locator("#sheet-alert")).to_contain_text(discipline)  # the Discipline in words, not its id


ROLL_UNDER = {
    # the chronicle's language: viewport, a free skill typed, its id, a homebrew skill typed, its id, the
    # other reader's language and viewport
    "fr": (
        (390, 844),
        "Escalade",
        "escalade",
        "Crochetage d'Égouts",
        "crochetage_d_egouts",
        "es",
        (1280, 900),
    ),
    "es": (
        (1280, 900),
        "Escalada",
        "escalada",
        "Ganzúa de las Cloacas",
        "ganzua_de_las_cloacas",
        "fr",
        (390, 844),
    ),
}


@pytest.mark.parametrize("lang", sorted(ROLL_UNDER))
def test_roll_under_free_skills_are_shown_as_typed_to_everyone(new_context, dice, lang):
    """Roll-under's free skills keep their folded ids (the roll form sends them) and are shown as typed:
    the sheet, the roll form's options, the odds line, the receipt, and another member's feed in
    another language."""
    (width, height), climb, climb_id, homebrew, homebrew_id, other_lang, (other_w, other_h) = ROLL_UNDER[lang]
    page = new_context(width=width, height=height, locale=lang).new_page()
    page.goto(f"/?lang={lang}")
    page.locator("#create-name").fill(f"Sous le niveau {lang}")
    page.locator("#create-storyteller").fill("Ana")
    page.locator("#create-system").select_option("rollunder")
    page.locator("#create-language").select_option(lang)
    page.locator("form#create button[type=submit]").click()
    invitation = page.locator("#invitation-code").inner_text().strip()
    chronicle = page.url
    page.goto(f"{chronicle}/characters/new")
    page.locator("#sheet-s-name").fill("Lou")
    add_rows(page, "skills", [(climb, "12"), (homebrew, "9")])
    page.locator("form#character button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name="Lou")).to_be_visible()
    traits = page.locator(".traits").inner_text()
    assert homebrew in traits and climb in traits

    skill = page.locator("#roll-skill")
    assert skill.locator(f"option[value='{homebrew_id}']").inner_text() == f"{homebrew} (9)"
    assert skill.locator(f"option[value='{climb_id}']").inner_text() == f"{climb} (12)"
    page.locator("#roll-action").fill("crochetar")
    skill.select_option(homebrew_id)
    expect(page.locator("#odds")).to_contain_text(f"{homebrew} 9")
    dice.clear()
    dice.queue(4)
    page.locator("form#roll button[type=submit]").click()
    mine = page.locator("#feed > li").first
    expect(mine.locator(".card-title")).to_contain_text(homebrew)

    other = new_context(width=other_w, height=other_h, locale=other_lang).new_page()
    other.goto(f"/?lang={other_lang}")
    other.locator("#join-invitation").fill(invitation)
    other.locator("#join-name").fill("Bruno")
    other.locator("form#join button[type=submit]").click()
    expect(other.locator("#feed > li").filter(has_text=homebrew).first).to_be_visible()
