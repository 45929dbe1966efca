"""Tiers and roll-under say the seeds' "MJ" (maître de jeu; es "DJ"), never "Conteur" or
"Narrador" — in the feed's headings, the pages' sentences, refusals on the page and the API's errors —
while V20 and V5 keep "Conteur". A 390×844 phone in French, the API in Spanish."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from .flows import chronicle_id, create, feed_open, join, token_of

pytestmark = pytest.mark.browser

PHONE_FR = {"width": 390, "height": 844, "locale": "fr-FR"}


@pytest.mark.parametrize(
    ("system", "word", "other"),
    [("tiers", "MJ", "Conteur"), ("rollunder", "MJ", "Conteur"), ("v20", "Conteur", "MJ")],
)
def test_the_game_master_is_the_mj_in_tiers_and_roll_under(new_context, live_server, system, word, other):
    storyteller = new_context(**PHONE_FR).new_page()
    chronicle = create(storyteller, "fr", system, f"Table {system}")
    invitation = storyteller.locator("#invitation-code").inner_text().strip()
    form = (
        {"s.name": "Foe"}
        if system != "rollunder"
        else {"s.name": "Foe", "new.attributes.name.0": "Force", "new.attributes.value.0": "12"}
    )
    made = storyteller.request.post(f"{chronicle}/characters", form=form, max_redirects=0)
    sheet = made.headers["location"]
    kind = {
        "tiers": {"kind": "skill", "skill": "dodge"},
        "rollunder": {"kind": "check", "action": "lever", "attribute": "strength"},
        "v20": {"kind": "test", "attribute": "strength", "difficulty": "6"},
    }[system]
    rolled = storyteller.request.post(
        f"{sheet}/rolls", form={**kind, "hidden": "on"}, headers={"HX-Request": "true"}
    )
    assert rolled.status == 200, rolled.text()
    storyteller.goto(chronicle)
    card = storyteller.locator("#feed > li.kind-roll").first
    expect(card.locator(".who")).to_contain_text(f"({word})")
    # a whole word: the page also shows random codes (the invitation, the seed's commitment) that may hold "MJ"
    expect(storyteller.locator("main")).not_to_contain_text(re.compile(rf"\b{other}\b"))
    # a player's refused reveal, on the page and from the API
    player = new_context(**PHONE_FR).new_page()
    join(player, invitation=invitation, name="Bruno")
    player.goto(chronicle)
    feed_open(player)
    expect(player.locator("main")).not_to_contain_text(re.compile(rf"\b{other}\b"))
    seq = int(card.get_attribute("data-seq"))
    refused = httpx.post(
        f"{live_server}/api/chronicles/{chronicle_id(player)}/log/{seq}/reveal",
        headers={"Authorization": f"Bearer {token_of(player)}", "Accept-Language": "es"},
        timeout=30,
    )
    assert refused.status_code == 403, refused.text
    spanish = {"MJ": "DJ", "Conteur": "Narrador"}
    assert spanish[word] in refused.json()["detail"] and spanish[other] not in refused.json()["detail"]
