"""In Chromium, three people at one English chronicle: the Storyteller on an English
desktop, a player on a French phone (390×844) and one on a Spanish desktop. Each sees the table in
their browser's language from the moment they join — not the chronicle's English until they tap FR —
and a language a member chooses wins on their own screen, kept over a reload, without changing the
others'."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .flows import create_chronicle, join

pytestmark = pytest.mark.browser


def _lang(page: Page) -> str:
    return page.evaluate("document.documentElement.lang")


def test_each_member_sees_the_table_in_their_own_language(new_context):
    storyteller = new_context(locale="en-US").new_page()
    phone = new_context(width=390, height=844, locale="fr-FR").new_page()
    desktop = new_context(width=1280, height=900, locale="es-ES").new_page()
    invitation = create_chronicle(
        storyteller, name="Lyon by Night", system="v20", storyteller="Ana", language="en"
    )
    join(phone, invitation=invitation, name="Julien")
    join(desktop, invitation=invitation, name="Lucía")
    chronicle = storyteller.url

    # on the page the join lands on, and again when the chronicle is opened afresh
    for page, lang, you in ((phone, "fr", "Vous : Julien"), (desktop, "es", "Tú: Lucía")):
        assert _lang(page) == lang
        page.goto(chronicle)
        assert _lang(page) == lang
        expect(page.locator(".tag.you")).to_contain_text(you)
    storyteller.reload()
    assert _lang(storyteller) == "en"
    expect(storyteller.locator(".tag.you")).to_contain_text("You: Ana")

    # the French phone chooses Spanish: it wins on that screen (kept over a reload), nowhere else
    phone.locator("a[hreflang=es], a[href$='lang=es']").first.click()
    expect(phone.locator("html")).to_have_attribute("lang", "es")
    phone.reload()
    assert _lang(phone) == "es"
    desktop.reload()
    storyteller.reload()
    assert (_lang(desktop), _lang(storyteller)) == ("es", "en")
