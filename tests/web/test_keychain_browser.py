"""In a browser (a 390×844 phone in French, a desktop in
Spanish): a Storyteller with two chronicles in one browser keeps both (listed on the home page);
signing out of one asks first, closes its session and leaves the other open; an invitation link joins
with a name and one tap; the Storyteller removes a member, whose browser is then shut out."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import create_v5

CASES = {
    "fr": ((390, 844), "Vos chroniques dans ce navigateur", "Se déconnecter de cette chronique"),
    "es": ((1280, 900), "Tus crónicas en este navegador", "Cerrar sesión en esta crónica"),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_two_chronicles_one_browser_and_an_invitation_link(new_context, artifacts, lang):
    (width, height), listed, sign_out = CASES[lang]
    page = new_context(width=width, height=height, locale=lang).new_page()
    first = create_v5(page, lang, f"Lyon {lang}")
    key = page.locator("#access-key").inner_text().strip()
    link = page.locator("#invitation-link").inner_text().strip()
    second = create_v5(page, lang, f"Paris {lang}")
    page.goto(first)  # the second chronicle did not lock the Storyteller out of the first
    expect(page.get_by_role("heading", level=1, name=f"Lyon {lang}")).to_be_visible()
    page.goto("/")
    expect(page.locator("#keychain h2")).to_have_text(listed)
    expect(page.locator("#keychain li")).to_have_count(2)
    expect(page.locator("#keychain")).to_contain_text(f"Lyon {lang}")
    expect(page.locator("#keychain")).to_contain_text(f"Paris {lang}")
    if lang == "fr":
        page.locator("#keychain").screenshot(path=str(artifacts / "home-keychain.png"))

    # an invitation link: a name, one tap
    player = new_context(width=width, height=height, locale=lang).new_page()
    player.goto(link)
    expect(player.locator("#join-name")).to_be_focused()
    player.locator("#join-name").fill("Julien")
    player.locator("#join button[type=submit]").click()
    expect(player.locator(".tag.you")).to_contain_text("Julien")
    assert player.url == first

    # the Storyteller removes Julien: asked first, and Julien's browser is shut out
    page.goto(first)
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("form.remove-member button").click()
    expect(page.locator(".people")).not_to_contain_text("Julien")
    assert asked and "Julien" in asked[0]
    assert player.request.get(first, max_redirects=0).status == 403  # "the Storyteller removed you"

    # signing out of one chronicle asks, closes its session, leaves the other open
    page.goto("/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#keychain li", has_text=f"Lyon {lang}").get_by_role("button", name=sign_out).click()
    expect(page.locator("#keychain li")).to_have_count(1)
    assert page.request.get(first, max_redirects=0).status in (401, 403)  # no way in any more
    page.goto(second)
    expect(page.get_by_role("heading", level=1, name=f"Paris {lang}")).to_be_visible()
    # the key brings it back
    page.goto("/")
    page.locator("#signin-token").fill(key)
    page.locator("#signin button[type=submit]").click()
    expect(page.get_by_role("heading", level=1, name=f"Lyon {lang}")).to_be_visible()
