"""Playing alone in Chromium (SPEC S-2, S-3, S-5, S-6): a phone (390 × 844) in Spanish and a
desktop in French each play the sample scenario through a fight to an ending, with the dice chosen
roll by roll (``solo_play.RollByRoll`` in place of the live server's scripted faces).

- The phone takes the quickest way to the fight in the sail loft: a miss, Kessler's knife soaked in
  part, a blood point spent to heal, Kessler down; then "stay with Abel", a bitter ending. The
  character's bar stays in view while the page scrolls; nothing is wider than the screen. The fight
  turn is ``test-artifacts/run/solo-fight.png`` (``docs/solo-fight.png``, ``scripts/docs-screenshots``).
- The desktop botches at the Lantern (the odds shown before the roll), so the warehouse is an ambush;
  spends Willpower in the alley; fights Kessler and his ghoul; catches Mirela in the chase (the
  extended action); throws the ledger into the river: a good ending. It leaves mid-story and comes
  back to the passage it had reached (S-5)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .solo_play import ALL, HIT, MISS, RollByRoll

pytestmark = pytest.mark.browser


@pytest.fixture
def rolls(dice, monkeypatch):
    """The live server's dice, chosen roll by roll for this test (the fixture's ScriptedDice draws
    through ``RollByRoll``; a face stays queued so the server keeps taking it, conftest's factory)."""
    by_roll = RollByRoll()
    monkeypatch.setattr(dice, "draw", by_roll.draw)
    dice.queue(2)
    return by_roll


def option(page, value: str):
    """A button of the solo table by the option it sends (its words are the story's, in each language)."""
    return page.locator(f'#act button[name="option"][value^="{value}"]')


def passage(page) -> str:
    return page.locator("#solo").get_attribute("data-passage")


def test_a_phone_in_spanish_plays_a_fight_to_an_ending(new_context, rolls, artifacts):
    phone = new_context(width=390, height=844, locale="es-ES").new_page()
    phone.goto("/")
    phone.get_by_role("link", name="Elegir una historia").click()
    phone.get_by_role("button", name="Jugar con Nadia Ferrer").click()
    expect(phone.locator(".passage")).to_contain_text("El río huele a gasóleo")
    status = phone.locator(".solo-status")
    expect(status).to_contain_text("5/11")  # the blood pool, before any spend
    for words in ("Tomar el callejón derecho a los almacenes", "Beber. Solo un poco."):
        phone.get_by_role("button", name=words).click()
    expect(status).to_contain_text("8/11")  # she fed: the scenario, as Storyteller, gave 3 blood back
    for words in ("Seguir hasta el espigón 9", "Echar abajo la puerta de carga"):
        phone.get_by_role("button", name=words).click()
    expect(phone.locator(".solo-fight")).to_contain_text("Elias Kessler")

    # Turn 1: Nadia misses; Kessler's knife hits: 3 lethal, she soaks 1 (S-3: the engine's arithmetic)
    rolls.queue(MISS, HIT, (7, 7, 7), (9,))
    option(phone, "attack:0").click()
    expect(status).to_contain_text("Lastimado −1")
    expect(phone.locator(".solo-receipts .card").first).to_contain_text("Elias Kessler")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(status).to_be_in_viewport()  # health, blood and Willpower stay in view
    phone.evaluate("""() => {  // the fight's turn just under the character's bar
        const bar = document.querySelector('.solo-status').getBoundingClientRect().height;
        const fight = document.querySelector('.solo-fight').getBoundingClientRect().top + window.scrollY;
        window.scrollTo(0, fight - bar - 8);
    }""")
    phone.screenshot(path=str(artifacts / "solo-fight.png"))

    # Turn 2: a blood point heals a lethal level (V20-16); Kessler misses
    rolls.queue(MISS)
    option(phone, "heal").click()
    expect(status).to_contain_text("7/11")
    # Turn 3: every die a 10 — Kessler goes down
    rolls.queue(ALL, ALL, MISS)
    option(phone, "attack:0").click()
    expect(phone.locator(".passage")).to_contain_text("Kessler cae")
    phone.get_by_role("button", name="Quedarte con Abel").click()
    expect(phone.locator(".solo-ending")).to_contain_text("Un final amargo")
    expect(phone.locator("#act")).to_have_count(0)


def test_a_desktop_in_french_botches_fights_the_ambush_and_comes_back(new_context, rolls):
    context = new_context(locale="fr-FR")
    desk = context.new_page()
    desk.goto("/solo")
    desk.get_by_role("button", name="Jouer Nadia Ferrer").click()
    desk.get_by_role("button", name="Aller à la Lanterne et interroger Marguerite").click()
    desk.get_by_role("button", name="S'appuyer au comptoir et lui rappeler qui sont les amis d'Abel").click()
    expect(desk.locator(".solo-odds")).to_contain_text(re.compile(r"Chance de réussite\s: \d+,\d\u202f%"))
    rolls.queue((1,))  # no success and a 1: a botch (V20-3) — Marguerite sells her out
    option(desk, "roll").click()
    expect(desk.locator(".passage")).to_contain_text("Le sourire de Marguerite arrive un instant trop tard")
    desk.get_by_role("button", name="Y aller quand même, par la ruelle").click()
    desk.get_by_role("button", name=re.compile(r"^Dépenser un point de Volonté\s: panser sa plaie")).click()
    expect(desk.locator(".solo-status")).to_contain_text("4/5")  # the Willpower the choice cost

    # Leave, come back: the table reopens at the passage reached (S-5)
    where = desk.url.split("#")[0]
    desk.goto("/")
    desk.goto("/solo")
    desk.get_by_role("link", name=re.compile(r"^Reprendre\s: La Lanterne des Noyés")).click()
    assert desk.url == where and passage(desk) == "alley_mercy"

    desk.get_by_role("button", name="Continuer jusqu'à la jetée 9").click()
    desk.get_by_role(
        "button", name="La porte de chargement est entrouverte. Ils vous attendent. Entrer."
    ).click()
    expect(desk.locator(".foe")).to_have_count(2)  # Kessler and Mirela: the ambush
    rolls.queue(ALL, ALL, MISS, MISS)  # Kessler down in one blow; Mirela misses
    option(desk, "attack:0:kessler").click()
    expect(desk.locator(".foe.is-down")).to_have_count(1)
    rolls.queue(ALL, ALL, MISS)
    option(desk, "attack:0:mirela").click()
    expect(desk.locator(".passage")).to_contain_text("Kessler s'effondre")
    desk.get_by_role("button", name="Lui courir après").click()
    expect(desk.locator(".solo-odds")).to_be_visible()
    rolls.queue(ALL)  # the chase: six successes in one roll
    option(desk, "roll").click()
    expect(desk.locator(".passage")).to_contain_text("À trois foulées du canot")
    desk.get_by_role("button", name="Marcher avec Abel jusqu'au pont").click()
    desk.get_by_role("button", name="Jeter le registre dans le fleuve").click()
    expect(desk.locator(".solo-ending")).to_contain_text("Une fin heureuse")
