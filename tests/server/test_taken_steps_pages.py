"""A step a card offered, once taken, is no longer offered, on both stores (SPEC V5-10, TR-4): the
Rouse's "Call the hunger frenzy test" goes once the test is called, an extended action's "Next roll"
once it is over; a stale press answers the card's own sentence in place (htmx), in the reader's
language, without a raw code. A removed member reads, on the chronicle's pages, that the Storyteller
removed them (SPEC A-1 removal), not a request for a bearer token."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import close_app, create_app

from .conftest import Table
from .receipts import Dice

HTMX = {"HX-Request": "true"}
ROOK = {
    "name": "Rook",
    "clan": "Gangrel",
    "attributes": {"dexterity": 3, "composure": 2, "resolve": 2},
    "skills": {"firearms": 3},
    "hunger": 5,
}


@pytest.fixture(scope="module")
def dice() -> Dice:
    return Dice("taken steps")


@pytest.fixture(scope="module")
def api(database_url, dice):
    app = create_app(database_url, dice=dice)
    with TestClient(app) as client:
        yield client
    close_app(app)


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def card_of(html: str, seq: int) -> str:
    found = re.search(rf'<li id="entry-{seq}".*?</li>\s*(?=<li id="entry-|</ol>|$)', html, re.S)
    assert found, f"no card #{seq}"
    return found.group(0)


def new_table(api, system: str, language: str = "en") -> Table:
    made = api.post("/api/chronicles", json={"name": "Steps", "system": system, "language": language})
    assert made.status_code == 201, made.text
    return Table(api, made.json())


def test_V5_10_the_hunger_frenzy_call_goes_once_called_and_a_stale_press_says_so(api, dice):
    t = new_table(api, "v5", "fr")
    ann = t.join("Ann")
    rook = t.character(ann, ROOK)
    dice.push(2)  # a failed Rouse at Hunger 5
    rouse = t.roll(ann, rook["id"], {"kind": "rouse"}).json()["entry"]["seq"]
    page = f"/chronicles/{t.id}"
    assert "Demander le test de frénésie de la faim" in text_of(
        card_of(api.get(page, headers=t.st).text, rouse)
    )
    call = f"/chronicles/{t.id}/characters/{rook['id']}/hunger-frenzy?roll={rouse}"
    dice.push(6, 6, 2, 2, 2, 2)
    called = api.post(call, headers={**t.st, **HTMX})
    assert called.status_code == 200, called.text
    # the test's card, and the Rouse's redrawn in place without the call
    assert 'hx-swap-oob="outerHTML"' in card_of(called.text, rouse)
    assert "Demander le test" not in text_of(card_of(called.text, rouse))
    assert "Demander le test" not in text_of(card_of(api.get(page, headers=t.st).text, rouse))

    stale = api.post(call, headers={**t.st, **HTMX})  # a press on a page drawn before the call
    assert stale.status_code == 409
    assert stale.headers["HX-Retarget"] == f"#step-{rouse}-alert"
    said = text_of(stale.text)
    assert f"Le test de frénésie de la faim de l'entrée {rouse} a déjà été demandé" in said, said
    assert "frenzy_already_called" not in said
    plain = api.post(call, headers=t.st, follow_redirects=False)  # without JavaScript: the card says it
    assert plain.status_code == 409
    assert "a déjà été demandé" in text_of(card_of(plain.text, rouse))


def test_TR_4_next_roll_goes_once_the_extended_action_is_over_and_a_stale_press_says_so(api, dice):
    t = new_table(api, "v20", "es")
    ann = t.join("Ann")
    nia = t.character(ann, {"name": "Nia", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}})
    declared = api.post(
        f"/chronicles/{t.id}/extended",
        headers=t.st,
        follow_redirects=False,
        data={"character": nia["id"], "attribute": "dexterity", "ability": "firearms", "difficulty": "6"}
        | {"target": "3", "max_rolls": "3"},
    )
    assert declared.status_code == 303, declared.text
    seq = int(declared.headers["location"].split("entry-")[1])
    page = f"/chronicles/{t.id}"
    assert "Siguiente tirada de Nia" in text_of(card_of(api.get(page, headers=ann).text, seq))
    roll = f"/chronicles/{t.id}/extended/{seq}/roll"
    dice.push(8, 9, 7, 2, 3)  # three successes: the target reached
    rolled = api.post(roll, headers={**ann, **HTMX})
    assert rolled.status_code == 200, rolled.text
    assert "Siguiente tirada" not in text_of(card_of(rolled.text, seq))
    for reader in (ann, t.st):
        assert "Siguiente tirada" not in text_of(card_of(api.get(page, headers=reader).text, seq))
    stale = api.post(roll, headers={**ann, **HTMX})
    assert stale.status_code == 409 and stale.headers["HX-Retarget"] == f"#step-{seq}-alert"
    said = text_of(stale.text)
    assert "objetivo alcanzado" in said and "reached" not in said, said


def test_removed_member_reads_that_the_storyteller_removed_them_in_their_language(api):
    t = new_table(api, "v20", "en")
    bruno = t.join("Bruno")
    me = api.get("/api/me", headers=bruno).json()["member"]["id"]
    assert api.delete(f"{t.base}/members/{me}", headers=t.st).status_code == 200
    for lang, words in (
        ("en", "The Storyteller removed you from this chronicle."),
        ("fr", "Le Conteur vous a retiré de cette chronique."),
        ("es", "El Narrador te ha retirado de esta crónica."),
    ):
        page = api.get(f"/chronicles/{t.id}", headers={**bruno, "Accept-Language": lang})
        assert page.status_code == 403
        said = text_of(page.text)
        assert words in said and "Bearer" not in said, said
    # a stranger's page still asks for a token; a token of another chronicle still says so
    assert api.get(f"/chronicles/{t.id}").status_code == 401


def test_TR_3_a_sides_roll_goes_once_rolled_and_a_stale_press_names_the_side(api, dice):
    t = new_table(api, "v20", "fr")
    ann = t.join("Ann")
    nia = t.character(ann, {"name": "Nia", "attributes": {"dexterity": 3}, "skills": {"firearms": 2}})
    bran = t.character(t.st, {"name": "Bran", "attributes": {"wits": 2}, "talents": {"alertness": 2}})
    side = {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": 6}
    declared = api.post(
        f"{t.base}/contests",
        headers=t.st,
        json={
            "attacker": {"character": nia["id"], "action": side},
            "defender": {
                "character": bran["id"],
                "action": {**side, "attribute": "wits", "ability": "alertness"},
            },
        },
    )
    assert declared.status_code == 201, declared.text
    seq = declared.json()["contest"]["seq"]
    roll = f"/chronicles/{t.id}/contests/{seq}/roll"
    dice.push(8, 9, 7, 2, 3)
    assert api.post(roll, headers={**t.st, **HTMX}, data={"side": "attacker"}).status_code == 200
    drawn = text_of(card_of(api.get(f"/chronicles/{t.id}", headers=t.st).text, seq))
    assert "Lancer pour Nia" not in drawn and "Lancer pour Bran" in drawn
    stale = api.post(roll, headers={**t.st, **HTMX}, data={"side": "attacker"})
    assert stale.status_code == 409 and stale.headers["HX-Retarget"] == f"#step-{seq}-alert"
    said = text_of(stale.text)
    assert "(attaquant) a déjà lancé" in said and "attacker" not in said, said
