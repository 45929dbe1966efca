"""Dice statistics, in Chromium: the fair-dice panel shows, per die size, how often each face
came up in this chronicle and per member, the count fair dice give, a chi-square p-value and a plain
reading; only the faces a member may see count (the Storyteller's hidden roll is left out of the
player's counts, not of the Storyteller's). A French phone reads it in French."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .flows import add_character, api_character, chronicle_id, create_chronicle, join

pytestmark = pytest.mark.browser

ROLL = {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": "6"}


def _d10_total(page) -> int:
    chart = page.locator("#fair-stats [data-who=table] .face-chart[data-sides='10']")
    expect(chart).to_be_visible()
    return sum(
        int(n) for n in chart.locator(".bar-cell").evaluate_all("cells => cells.map(c => c.dataset.count)")
    )


def test_dice_statistics_per_die_size_and_member_without_the_hidden_rolls(
    new_context, live_server, dice, artifacts
):
    storyteller = new_context().new_page()
    invitation = create_chronicle(storyteller, name="Counting by Night", system="v20", storyteller="Ana")
    player = new_context(width=390, height=844, locale="fr-FR").new_page()
    join(player, invitation=invitation, name="Bruno")
    lucita = api_character(
        live_server, player, {"name": "Lucita", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}}
    )
    sheet = f"/chronicles/{chronicle_id(player)}/characters/{lucita}"
    npc = add_character(
        storyteller, name="Sheriff", ratings={"s.attributes.dexterity": "2", "s.skills.firearms": "2"}
    )

    dice.queue(10, 10, 10, 10)  # the Storyteller's hidden roll: four tens the player may not count
    hidden = storyteller.request.post(f"{npc}/rolls", form={**ROLL, "hidden": "on"}, max_redirects=0)
    assert hidden.status == 303
    dice.queue(1, 2, 3, 4)
    assert storyteller.request.post(f"{npc}/rolls", form=ROLL, max_redirects=0).status == 303
    dice.queue(5, 6, 7, 8, 9)
    assert player.request.post(f"{sheet}/rolls", form=ROLL, max_redirects=0).status == 303

    for page, total, tens in ((storyteller, 13, 4), (player, 9, 0)):
        page.goto(f"/chronicles/{chronicle_id(page)}")
        page.locator("#fair-stats summary").click()
        assert _d10_total(page) == total
        ten = page.locator(
            "#fair-stats [data-who=table] .face-chart[data-sides='10'] .bar-cell[data-face='10']"
        )
        expect(ten).to_have_attribute("data-count", str(tens))
        chart = page.locator("#fair-stats [data-who=table] .face-chart[data-sides='10']")
        expect(chart.locator("figcaption")).to_contain_text("χ²")
        expect(chart.locator(".reading")).not_to_be_empty()
    # per member: Bruno's own five dice; in French, with its plain reading
    bruno = player.locator("#fair-stats details[data-who='Bruno']")
    bruno.locator("summary").click()
    counts = bruno.locator(".face-chart[data-sides='10'] .bar-cell").evaluate_all(
        "c => c.map(x => +x.dataset.count)"
    )
    assert counts == [0, 0, 0, 0, 1, 1, 1, 1, 1, 0]
    expect(player.locator("#fair-stats [data-who=table] .reading").first).to_contain_text("Trop peu de dés")
    expect(player.locator("#fair-stats")).to_contain_text("attendu 0,9 par face")
    assert player.evaluate("document.documentElement.scrollWidth") <= 390
    player.locator("#fair-stats").screenshot(path=str(artifacts / "dice-statistics.png"))
