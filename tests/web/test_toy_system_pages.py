"""A fifth, toy system (``tests/toy_system``) registered from outside the package, on the web pages
(no browser): a chronicle of it is made from the home page's form, a character from the sheet form,
the player's roll form rolls the toy's pool, a roll that asks for more becomes an ask (A-1) and the
Storyteller's queue grants it (A-2)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.toy_system import registered

HTMX = {"HX-Request": "true"}


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def test_a_toy_table_on_the_web_pages(app, toy):
    with TestClient(app) as storyteller, TestClient(app) as player:
        created = storyteller.post(
            "/chronicles", data={"name": "Toys", "system": toy, "storyteller": "Ana"}, follow_redirects=False
        )
        assert created.status_code == 303, created.text
        chronicle = created.headers["location"]
        invitation = storyteller.cookies.get("rollbook_invitation")
        joined = player.post(
            "/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False
        )
        assert joined.status_code == 303
        added = player.post(
            f"{chronicle}/characters", data={"s.name": "Ann", "s.traits.might": "3"}, follow_redirects=False
        )
        assert added.status_code == 303, added.text
        sheet = added.headers["location"]
        page = player.get(sheet)
        assert page.status_code == 200 and "might" in page.text

        odds = player.get(f"{sheet}/odds", params={"kind": "pool", "trait": "might"}, headers=HTMX)
        assert "Chance of success: 70.4" in odds.text  # 1 - (2/3)^3 = 19/27, as POST …/odds answers
        rolled = player.post(f"{sheet}/rolls", data={"kind": "pool", "trait": "might"}, headers=HTMX)
        assert rolled.status_code == 200 and 'class="card kind-roll' in rolled.text
        assert "Successes" in rolled.text and "Fair dice: mismatch" not in rolled.text  # its own view
        asked = player.post(
            f"{sheet}/rolls", data={"kind": "pool", "trait": "might", "extra": "2"}, headers=HTMX
        )
        assert asked.status_code == 200 and 'class="card kind-ask"' in asked.text

        queue = storyteller.get(chronicle)
        assert queue.status_code == 200 and 'class="card kind-ask"' in queue.text  # the Storyteller's queue
        granted = storyteller.post(f"{chronicle}/asks/1/grant", headers=HTMX)  # as asked: 3 + 2 dice
        assert granted.status_code == 200, granted.text
        kinds = re.findall(r'<li id="entry-\d+" class="card kind-(\w+)', granted.text)
        assert kinds[:2] == ["roll", "grant"]
        assert "Granted by the Storyteller" in granted.text


def test_the_toy_card_on_the_page_speaks_the_toys_words(app, toy):
    """The words the toy declares (``toy.WORDS``) on its sheet and its roll's card: its section of
    traits, a pool counted in dice."""
    with TestClient(app) as storyteller:
        created = storyteller.post(
            "/chronicles", data={"name": "Toys", "system": toy, "storyteller": "Ana"}, follow_redirects=False
        )
        chronicle = created.headers["location"]
        added = storyteller.post(
            f"{chronicle}/characters", data={"s.name": "Ann", "s.traits.might": "3"}, follow_redirects=False
        )
        assert added.status_code == 303, added.text
        page = storyteller.get(added.headers["location"])
        assert "<h3>Traits</h3>" in page.text  # the sheet's section its words declare (``RATING_GROUPS``)
        rolled = storyteller.post(
            f"{added.headers['location']}/rolls", data={"kind": "pool", "trait": "might"}, headers=HTMX
        )
        assert rolled.status_code == 200 and 'class="card kind-roll' in rolled.text
        assert "Might 3 = 3 dice" in rolled.text and "= target" not in rolled.text
