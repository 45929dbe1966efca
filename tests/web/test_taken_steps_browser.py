"""In Chromium, a step a card offered goes from every screen once it is taken (SPEC V5-10, TR-4): the
Storyteller calls the hunger frenzy test on one screen and the Rouse's call goes, live, from the
other; a player's roll reaches an extended action's target and "Next roll" goes from the
Storyteller's screen, live; a press on a card drawn before that answers the card's own sentence in
place, in the reader's language, and the page stays where it was."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser import WAIT_MS

from .flows import api_character, chronicle_id, create_chronicle, create_v5, join, token_of

pytestmark = pytest.mark.browser

LIVE = WAIT_MS  # ms: the longest wait for a live entry to reach an open page


def test_V5_10_the_hunger_frenzy_call_goes_live_from_every_screen(new_context, live_server, dice):
    context = new_context(locale="fr-FR")
    first = context.new_page()
    chronicle = create_v5(first, "fr", "Appel")
    rook = api_character(
        live_server,
        first,
        {"name": "Rook", "clan": "Gangrel", "attributes": {"composure": 2, "resolve": 2}, "hunger": 5},
    )
    dice.queue(2)  # a failed Rouse at Hunger 5
    rolled = httpx.post(
        f"{live_server}/api/chronicles/{chronicle_id(first)}/characters/{rook}/rolls",
        headers={"Authorization": f"Bearer {token_of(first)}"},
        json={"action": {"kind": "rouse"}},
        timeout=30,
    )
    assert rolled.status_code == 201, rolled.text
    rouse = rolled.json()["entry"]["seq"]
    second = context.new_page()  # the Storyteller's other screen
    for page in (first, second):
        page.goto(chronicle)
    name = "Demander le test de frénésie de la faim"
    on_second = second.locator(f"#entry-{rouse}").get_by_role("button", name=name)
    expect(on_second).to_be_visible()
    dice.queue(6, 6, 2, 2, 2, 2)
    first.locator(f"#entry-{rouse}").get_by_role("button", name=name).click()
    expect(first.locator("#feed > li.kind-roll").first).to_contain_text("Test de frénésie de la faim après")
    expect(first.locator(f"#entry-{rouse}").get_by_role("button", name=name)).to_have_count(0)
    expect(on_second).to_have_count(0, timeout=LIVE)  # redrawn by the feed that brought the test


def test_TR_4_next_roll_goes_live_and_a_stale_press_says_why_in_place(new_context, live_server, dice):
    storyteller = new_context(locale="en-US").new_page()
    nia_player = new_context(width=390, height=844, locale="es-ES").new_page()
    invitation = create_chronicle(storyteller, name="Toledo", system="v20", language="en")
    chronicle = storyteller.url
    join(nia_player, invitation=invitation, name="Inès")
    nia = api_character(
        live_server, nia_player, {"name": "Nia", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}}
    )
    declared = httpx.post(
        f"{live_server}/api/chronicles/{chronicle_id(storyteller)}/extended",
        headers={"Authorization": f"Bearer {token_of(storyteller)}"},
        json={
            "character": nia,
            "action": {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": 6},
            "target": 3,
        },
        timeout=30,
    )
    assert declared.status_code == 201, declared.text
    seq = declared.json()["extended"]["seq"]
    stale = new_context(locale="fr-FR")  # the player's second screen, drawn before the roll
    stale_page = stale.new_page()
    stale.add_cookies(nia_player.context.cookies())
    for page in (storyteller, nia_player, stale_page):
        page.goto(chronicle)
    st_next = storyteller.locator(f"#entry-{seq}").get_by_role("button", name="Next roll for Nia")
    expect(st_next).to_be_visible()
    stale_page.route("**/live*", lambda route: route.abort())  # this screen hears nothing more
    stale_page.reload()
    stale_next = stale_page.locator(f"#entry-{seq}").get_by_role("button", name="Jet suivant pour Nia")
    expect(stale_next).to_be_visible()

    dice.queue(8, 9, 7, 2, 3)  # three successes: the target reached
    nia_player.locator(f"#entry-{seq}").get_by_role("button", name="Siguiente tirada de Nia").click()
    expect(nia_player.locator("#feed > li.kind-roll").first).to_contain_text("objetivo alcanzado")
    expect(nia_player.locator(f"#entry-{seq}").get_by_role("button")).to_have_count(0)
    expect(st_next).to_have_count(0, timeout=LIVE)  # the Storyteller's screen, live

    url = stale_page.url
    stale_next.click()
    alert = stale_page.locator(f"#step-{seq}-alert")
    expect(alert).to_have_text("Cette action prolongée est terminée (objectif atteint).")
    assert stale_page.url == url  # no navigation to the form's address
    expect(stale_page.locator("body")).not_to_contain_text("reached")


def test_a_removed_player_who_reloads_reads_that_the_storyteller_removed_him(new_context, live_server):
    storyteller = new_context(locale="en-US").new_page()
    bruno = new_context(width=390, height=844, locale="fr-FR").new_page()
    invitation = create_chronicle(storyteller, name="Lille", system="v20", language="en")
    join(bruno, invitation=invitation, name="Bruno")
    bruno.goto(storyteller.url)
    me = httpx.get(
        f"{live_server}/api/me", headers={"Authorization": f"Bearer {token_of(bruno)}"}, timeout=30
    ).json()["member"]["id"]
    removed = httpx.delete(
        f"{live_server}/api/chronicles/{chronicle_id(storyteller)}/members/{me}",
        headers={"Authorization": f"Bearer {token_of(storyteller)}"},
        timeout=30,
    )
    assert removed.status_code == 200, removed.text
    bruno.reload()
    expect(bruno.locator("main")).to_contain_text("Le Conteur vous a retiré de cette chronique.")
    expect(bruno.locator("body")).not_to_contain_text("Bearer")
