"""On paper, in Chromium: a sheet and a night's log printed to PDF (background graphics off, as a
browser prints by default), each PDF page drawn to an image by Chromium's own viewer, and read there.

- the printable sheet: every text is ink on white (contrast 7:1 or more, the pills too); Strength 4 is
  four filled dots of five, Humanity 7 seven filled boxes of ten, Hunger 2 two filled dice; the sheet's
  own page printed as it is: ink on white too, no control, Humanity 7 still seven;
- the night's log, on SQLite and PostgreSQL: one section per scene (its name), what came outside a
  scene apart, a line per entry with its outcome and dice, no control on paper, a handful of entries
  on one page (not a screen of dark cards each), ink on white.

The docs' images of the printed pages (``docs/print-sheet.png``, ``docs/print-night.png``) are these
tests' drawings, written to ``test-artifacts/run/``.
"""

from __future__ import annotations

import re

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from .flows import api_character, chronicle_id, create_chronicle, join, token_of, wait_for_odds
from .paper import CONTENT_WIDTH, contrast, draw, filled, ink_and_paper, page_count, pdf_of

pytestmark = pytest.mark.browser

RAVEN = {
    "name": "Raven",
    "clan": "Nosferatu",
    "attributes": {"strength": 4, "dexterity": 3, "stamina": 2, "wits": 3},
    "skills": {"firearms": 3, "stealth": 4},
    "hunger": 2,
    "humanity": 7,
}
PAPER_INK = 7.0  # WCAG AAA: the contrast of text on paper, at least


def _print_layout(page: Page) -> None:
    """The page as ``page.pdf`` lays it out: print media, the paper's printable width."""
    page.set_viewport_size({"width": round(CONTENT_WIDTH), "height": 3000})
    page.emulate_media(media="print")


def _rect(page: Page, selector: str) -> dict:
    return page.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }"
    )


def _rects(page: Page, selector: str) -> list[dict]:
    return page.locator(selector).evaluate_all(
        "es => es.map(e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    )


def _readable(paper, page: Page, selector: str) -> float:
    ink, under = ink_and_paper(paper.crop(_rect(page, selector)))
    assert min(under) >= 240, (selector, under)  # white paper, not a dark pill
    return contrast(ink, under)


def _small(paper, path, width: int = 640) -> None:
    page = paper.page()
    small = page.resize((width, round(page.height * width / page.width)), Image.LANCZOS)
    small.quantize(colors=32).save(path, optimize=True)  # small enough for the docs


def test_a_printed_sheet_is_ink_on_white_with_its_dots_filled(new_context, live_server, artifacts):
    storyteller = new_context().new_page()
    player = new_context(locale="en-US").new_page()
    invitation = create_chronicle(storyteller, name="Paper by Night", system="v5", storyteller="Ana")
    join(player, invitation=invitation, name="Bruno")
    raven = api_character(live_server, player, RAVEN)
    player.goto(f"/chronicles/{chronicle_id(player)}/characters/{raven}/print")
    expect(player.locator("#print-sheet h1")).to_have_text("Raven")
    _print_layout(player)
    pdf = artifacts / "print-sheet.pdf"
    data = pdf_of(player, pdf)
    assert page_count(data) == 1
    paper = draw(player.context.new_page(), pdf, 1)
    _small(paper, artifacts / "print-sheet.png")

    for selector in (
        "#print-sheet h1",
        "#print-sheet .tags .tag",
        "#print-sheet .traits h3",
        "#print-sheet .res dt",
    ):
        assert _readable(paper, player, selector) >= PAPER_INK, selector
    strength = _rects(player, "#traits li:has(.trait:text-is('Strength')) .dot")
    assert [filled(paper, r) for r in strength] == [True] * 4 + [False]
    humanity = _rects(player, ".res-row:has(dt:text-is('Humanity')) .box")
    assert [filled(paper, r) for r in humanity] == [True] * 7 + [False] * 3
    hunger = _rects(player, ".hunger .hdie")
    assert [filled(paper, r) for r in hunger] == [True] * 2 + [False] * 3

    # the sheet's own page printed as it is (Ctrl+P on the sheet): ink on white, no form, the same marks
    player.emulate_media(media="screen")
    player.goto(f"/chronicles/{chronicle_id(player)}/characters/{raven}")
    expect(player.locator("#roll")).to_be_attached()
    _print_layout(player)
    assert player.locator("form:visible, button:visible, a.button:visible, #feed:visible").count() == 0
    expect(player.locator("#feed-on-paper")).to_contain_text(f"/chronicles/{chronicle_id(player)}/night")
    pdf = artifacts / "print-sheet-page.pdf"
    pdf_of(player, pdf)
    paper = draw(player.context.new_page(), pdf, 1)
    _small(paper, artifacts / "print-sheet-page.png")
    for selector in ("h1", "#sheet-tags .tag", ".res dt"):
        assert _readable(paper, player, selector) >= PAPER_INK, selector
    humanity = _rects(player, ".res-row:has(dt:text-is('Humanity')) .box")
    assert [filled(paper, r) for r in humanity] == [True] * 7 + [False] * 3


def _api(server: str, page: Page, method: str, path: str, body: dict | None = None) -> dict:
    answer = httpx.request(
        method,
        f"{server}/api{path}",
        headers={"Authorization": f"Bearer {token_of(page)}"},
        json=body,
        timeout=30,
    )
    assert answer.status_code < 300, answer.text
    return answer.json() if answer.content else {}


def test_a_night_prints_by_scene_in_a_few_lines(store_context, store_server, dice, artifacts):
    storyteller = store_context().new_page()
    player = store_context(locale="fr-FR").new_page()
    invitation = create_chronicle(storyteller, name="Chicago by Night", system="v5", storyteller="Ana")
    join(player, invitation=invitation, name="Alice")
    cid = chronicle_id(player)
    raven = api_character(store_server, player, RAVEN)
    sheet = f"/chronicles/{cid}/characters/{raven}"

    def roll(faces: tuple[int, ...]) -> None:
        player.goto(sheet)
        player.locator("#roll [name=attribute]").select_option("dexterity")
        player.locator("#roll [name=skill]").select_option("firearms")
        wait_for_odds(player, "6 dés")
        rolled = player.locator("#feed > li.kind-roll")
        before = rolled.count()
        dice.queue(*faces)
        player.locator("#roll-submit").click()
        expect(rolled).to_have_count(before + 1)  # in the log before the Storyteller's next step

    roll((8, 3, 2, 2, 2, 2))  # before the first scene
    _api(store_server, storyteller, "POST", f"/chronicles/{cid}/scenes", {"name": "The docks"})
    for faces in ((10, 10, 7, 2, 2, 1), (6, 6, 6, 6, 2, 1), (2, 2, 2, 2, 3, 4)):
        roll(faces)
    _api(store_server, storyteller, "POST", f"/chronicles/{cid}/scene/close")
    _api(store_server, storyteller, "POST", f"/chronicles/{cid}/scenes", {"name": "Elysium"})
    roll((9, 9, 9, 2, 2, 2))

    # the log of the night, from the chronicle page's "Export and print"
    player.goto(f"/chronicles/{cid}")
    player.locator("#night-link").click()
    night = player.locator("#night")
    scenes = night.locator(".night-scene h2")
    expect(scenes).to_have_count(3)
    expect(scenes.nth(0)).to_have_text("Hors d’une scène")
    expect(scenes.nth(1)).to_have_text(re.compile(r"^Scène 1\s: The docks$"))
    expect(scenes.nth(2)).to_have_text(re.compile(r"^Scène 2\s: Elysium$"))
    docks = night.locator(".night-scene").nth(1)
    expect(docks.locator(".night-entry.kind-roll")).to_have_count(3)
    expect(docks.locator(".night-entry.kind-roll").first).to_contain_text("Raven")
    dice_of_first = docks.locator(".night-entry.kind-roll").first.locator(".night-dice")
    expect(dice_of_first).to_have_text(
        [re.compile(r"^Dés\s: 10 10 7 2$"), re.compile(r"\s: 2 1$")]
    )  # Hunger 2
    expect(night.locator("form, input, select")).to_have_count(0)  # nothing to press but "Print"

    _print_layout(player)
    expect(player.locator("#print-night")).to_be_hidden()
    assert player.locator("button:visible, form:visible").count() == 0
    height = _rect(player, "#night")["height"]
    entries = player.locator(".night-entry").count()
    assert entries >= 8 and height < 200 * entries, (height, entries)  # lines, not cards
    pdf = artifacts / "print-night.pdf"
    data = pdf_of(player, pdf)
    assert page_count(data) == 1
    paper = draw(player.context.new_page(), pdf, 1)
    _small(paper, artifacts / "print-night.png")
    for selector in ("#night h1", ".night-scene h2", ".night-entry .night-who", ".night-entry .night-detail"):
        assert _readable(paper, player, selector) >= PAPER_INK, selector
