"""What people do at the table, through the pages (shared by the browser tests)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from playwright.sync_api import Error, Locator, Page, expect


def create_chronicle(
    page: Page,
    *,
    name: str,
    system: str,
    storyteller: str = "Ana",
    language: str = "en",
    difficulty: str = "",
) -> str:
    """The Storyteller creates a chronicle from the home page; returns its invitation code."""
    page.goto("/")
    # by id, not by label: the home page speaks the browser's language
    page.locator("#create-name").fill(name)
    page.locator("#create-storyteller").fill(storyteller)
    page.locator("#create-system").select_option(system)
    page.locator("#create-language").select_option(language)
    if difficulty:
        page.locator("#create-difficulty").fill(difficulty)
    page.locator("#create-name").evaluate("e => e.form.requestSubmit()")
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    return page.locator("#invitation-code").inner_text().strip()


def token_of(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "rollbook_token")


def chronicle_id(page: Page) -> int:
    return int(page.url.rstrip("/").split("/chronicles/")[1].split("/")[0].split("?")[0].split("#")[0])


def api_character(live_server: str, page: Page, sheet: dict) -> int:
    """A character added through the API with the person's own token (the sheet form has its own tests)."""
    response = httpx.post(
        f"{live_server}/api/chronicles/{chronicle_id(page)}/characters",
        headers={"Authorization": f"Bearer {token_of(page)}"},
        json={"name": sheet["name"], "sheet": sheet},
        timeout=30,
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def join(page: Page, *, invitation: str, name: str) -> None:
    page.goto("/")
    page.locator("#join-invitation").fill(invitation)
    page.locator("#join-name").fill(name)
    page.locator("#join-name").evaluate("e => e.form.requestSubmit()")
    expect(page.locator(".tag.you")).to_contain_text(name)


def add_character(
    page: Page, *, name: str, ratings: dict[str, str], extra: dict[str, str] | None = None
) -> str:
    """From the chronicle page: the sheet form with a few ratings; returns the sheet's URL."""
    page.get_by_role("link", name="Add a character").click()
    page.locator("[name='s.name']").fill(name)
    for field, value in {**ratings, **(extra or {})}.items():
        locator = page.locator(f"[name='{field}']")
        locator.evaluate("e => { const d = e.closest('details'); if (d) d.open = true; }")  # a folded section
        if locator.evaluate("e => e.tagName") == "SELECT":
            locator.select_option(value)
        elif locator.evaluate("e => e.tagName") == "TEXTAREA":
            locator.fill(value)
        else:
            locator.fill(value)
    page.get_by_role("button", name="Create the character").click()
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    return page.url


def wait_for_odds(page: Page, text: str | re.Pattern) -> None:
    expect(page.locator("#odds")).to_contain_text(text)


def screenshot_card(card: Locator, path: Path, attempts: int = 5) -> None:
    """Screenshot a feed card that the live feed may redraw meanwhile.

    The page's own answer and the live feed's copy of the same step both swap the card in place
    (``hx-swap-oob="outerHTML"``), in whichever order they arrive; a redraw during the capture
    detaches the element Playwright was measuring. The locator re-resolves to the new card, so the
    capture is simply taken again."""
    for attempt in range(attempts):
        try:
            card.screenshot(path=str(path))
            return
        except Error as error:
            if "not attached" not in str(error) or attempt == attempts - 1:
                raise


def create_v5(page: Page, lang: str, name: str) -> str:
    page.goto(f"/?lang={lang}")
    page.locator("#create-name").fill(name)
    page.locator("#create-storyteller").fill("Ana")
    page.locator("#create-system").select_option("v5")
    page.locator("#create-language").select_option(lang)
    page.locator("#create form, form#create").locator("button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    return page.url


def create(page: Page, lang: str, system: str, name: str) -> str:
    """A chronicle of ``system`` created from the home page in ``lang``; its URL."""
    page.goto(f"/?lang={lang}")
    page.locator("#create-name").fill(name)
    page.locator("#create-storyteller").fill("Ana")
    page.locator("#create-system").select_option(system)
    page.locator("#create-language").select_option(lang)
    page.locator("form#create button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name=name)).to_be_visible()
    return page.url


LONG = "Z" * 200


def new_character(page: Page, chronicle: str, fields: dict[str, str]) -> str:
    """A character posted with its sheet form's fields; its sheet's URL."""
    made = page.request.post(f"{chronicle}/characters", form=fields, max_redirects=0)
    assert made.status == 303, made.text()
    return made.headers["location"]


def v5_character(page: Page, chronicle: str, name: str) -> str:
    return new_character(
        page,
        chronicle,
        {
            "s.name": name,
            "s.concept": LONG,
            "s.notes": LONG,
            "s.attributes.dexterity": "3",
            "s.attributes.wits": "2",
            "s.skills.firearms": "2",
            "s.skills.stealth": "3",
            "s.disciplines.obfuscate": "1",
            "s.hunger": "1",
            "s.specialties": "firearms: Pistols\nstealth: Sewers",
        },
    )


def feed_open(page: Page) -> None:
    """Wait until the page's live feed is connected (``table.js`` marks it ``data-live="open"``)."""
    expect(page.locator("[sse-connect][data-live='open']")).to_have_count(1)


def settled(page: Page) -> None:
    """Wait until the page's fonts are loaded (a screenshot taken before would show the fallbacks)."""
    page.evaluate("() => document.fonts.ready.then(() => true)")


def choose_traits(page: Page, attribute: str, skill: str) -> Locator:
    """The sheet page's roll form (``#roll``) with an attribute and a skill chosen; the form."""
    form = page.locator("#roll")
    form.locator("[name=attribute]").select_option(attribute)
    form.locator("[name=skill]").select_option(skill)
    return form


def by_its_poll(
    page: Page, path: str, shown: Callable[[int], None], *, every_s: float, timeout: float = 12
) -> None:
    """What a page's poll (htmx ``every {every_s}s`` on ``path``) brings, without waiting out its interval.

    The page's clock is Playwright's (``page.clock.install()`` before the page loaded), so the poll's
    timer is fired now, as often as it takes: each time its answer is awaited, then ``shown(ms)`` (an
    ``expect`` with that timeout) checks what the poll drew. What the server says may lag (presence is
    written a moment after a feed opens or closes), hence the next poll; nothing here is a fixed wait.
    """
    deadline = time.monotonic() + timeout
    while True:
        with page.expect_response(lambda response: path in response.url):
            page.clock.fast_forward(int(every_s * 1000))
        try:
            shown(1_000)  # the answer is in: its swap is a moment away, not a poll away
            return
        except AssertionError:
            if time.monotonic() >= deadline:
                raise
