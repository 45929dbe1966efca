"""The page routes without a browser (Starlette's TestClient): languages, errors in place,
membership, what a player may see and edit, the odds fragment."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true"}


@pytest.fixture
def table(app):
    """A V5 chronicle: (Storyteller client, player client, chronicle URL, the player's sheet URL)."""
    with TestClient(app) as storyteller:
        created = storyteller.post(
            "/chronicles", data={"name": "Lyon", "system": "v5", "storyteller": "Ana"}, follow_redirects=False
        )
        assert created.status_code == 303
        chronicle = created.headers["location"]
        invitation = storyteller.cookies.get("rollbook_invitation")
        player = TestClient(app)
        joined = player.post(
            "/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False
        )
        assert joined.status_code == 303 and joined.headers["location"] == chronicle
        added = player.post(
            f"{chronicle}/characters",
            data={
                "s.name": "Nadia",
                "s.attributes.dexterity": "3",
                "s.skills.firearms": "2",
                "s.hunger": "2",
                "s.specialties": "firearms: Pistols",
            },
            follow_redirects=False,
        )
        assert added.status_code == 303, added.text
        yield storyteller, player, chronicle, added.headers["location"]


def alert_text(html: str, alert_id: str | None = None) -> str:
    pattern = (
        rf'id="{alert_id}"[^>]*role="alert"[^>]*>(.*?)</div>'
        if alert_id
        else r'role="alert"[^>]*>(.*?)</div>'
    )
    found = re.search(pattern, html, re.S)
    assert found, f"no alert {alert_id or ''} in the page"
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip())


def test_language_switch_by_query_then_cookie(app):
    with TestClient(app) as client:
        english = client.get("/")
        assert "Create a chronicle" in english.text and 'lang="en"' in english.text
        french = client.get("/?lang=fr")
        assert french.cookies.get("rollbook_lang") == "fr"
        assert "Créer une chronique" in french.text and 'lang="fr"' in french.text
        assert "Créer une chronique" in client.get("/").text  # the cookie keeps it
        spanish = client.get("/?lang=es")
        assert "Crear una crónica" in spanish.text and "Unirse a una crónica" in spanish.text
        assert client.get("/", headers={"Accept-Language": "fr"}).text.count("Crear una crónica") == 1


def test_accept_language_without_a_cookie(app):
    with TestClient(app) as client:
        assert "Crear una crónica" in client.get("/", headers={"Accept-Language": "es-ES,es;q=0.9"}).text


def test_a_wrong_invitation_shows_the_servers_problem_detail_in_place(app):
    with TestClient(app) as client:
        api = client.post("/api/join?lang=fr", json={"invitation": "nope", "name": "Eve"})
        assert api.status_code == 404 and api.headers["content-type"].startswith("application/problem+json")
        page = client.post("/join?lang=fr", data={"invitation": "nope", "name": "Eve"})
        assert page.status_code == 404
        assert alert_text(page.text, "join-alert") == api.json()["detail"]
        assert 'value="nope"' in page.text  # the form as it was posted
        fragment = client.post("/join?lang=fr", data={"invitation": "nope", "name": "Eve"}, headers=HTMX)
        assert fragment.headers["HX-Retarget"] == "#join-alert"
        assert api.json()["detail"] in unescape(fragment.text)


def test_chronicle_pages_need_a_member_of_that_chronicle(app, table):
    _storyteller, player, chronicle, _sheet = table
    stranger = TestClient(app)
    refused = stranger.get(chronicle)
    assert refused.status_code == 401 and "A bearer token is needed" in alert_text(refused.text)
    with TestClient(app) as other:
        other.post("/chronicles", data={"name": "Elsewhere", "system": "v20"})
        assert other.get(chronicle).status_code == 403
    page = player.get(chronicle)
    assert page.status_code == 200 and "Nadia" in page.text and "Bruno" in page.text and "Ana" in page.text
    assert f'sse-connect="{chronicle}/live?after=0"' in page.text


def test_odds_fragment_gives_exact_odds_or_the_rules_refusal(table):
    _storyteller, player, _chronicle, sheet = table
    odds = player.get(
        f"{sheet}/odds",
        params={"kind": "test", "attribute": "dexterity", "skill": "firearms", "difficulty": "3"},
        headers=HTMX,
    )
    assert odds.status_code == 200
    assert "Dexterity 3 + Firearms 2 = 5 dice" in odds.text and "2 of them Hunger dice" in odds.text
    assert 'data-outcome="messy_critical"' in odds.text and "Chance to win" in odds.text
    bad = player.get(
        f"{sheet}/odds",
        params={"kind": "test", "attribute": "dexterity", "difficulty": "0", "lang": "es"},
        headers=HTMX,
    )
    assert alert_text(bad.text) == "Dificultad debe ser al menos 1, no 0."  # the label, not the id
    not_a_number = player.get(
        f"{sheet}/odds",
        params={"kind": "test", "attribute": "dexterity", "difficulty": "three"},
        headers=HTMX,
    )
    assert alert_text(not_a_number.text) == "Difficulty must be a whole number, not three."


def test_a_refused_roll_keeps_the_form_and_shows_the_detail(table):
    _storyteller, player, _chronicle, sheet = table
    page = player.post(
        f"{sheet}/rolls",
        data={
            "kind": "test",
            "attribute": "dexterity",
            "skill": "firearms",
            "specialty": "Knives",
            "difficulty": "2",
        },
    )
    assert page.status_code == 422
    assert "The sheet has no specialty Knives" in alert_text(page.text, "roll-alert")
    assert re.search(r'<option value="firearms"[^>]*selected', page.text)


def test_a_roll_answers_the_card_and_the_resources_out_of_band(table):
    _storyteller, player, chronicle, sheet = table
    rolled = player.post(
        f"{sheet}/rolls",
        data={"kind": "test", "attribute": "dexterity", "skill": "firearms", "difficulty": "1"},
        headers=HTMX,
    )  # the default: nothing asked (A-1)
    assert rolled.status_code == 200
    assert rolled.text.lstrip().startswith('<li id="entry-2"')  # F-1: the seed's commitment is entry 1
    assert 'id="resources-' in rolled.text and 'hx-swap-oob="true"' in rolled.text
    assert rolled.text.count('class="die die-hunger') == 2  # Hunger dice apart, never pickable
    assert rolled.text.count('class="pick-box"') == 3
    # Nothing lives in the browser: the sheet page re-renders the roll and the form from the server.
    again = player.get(sheet)
    assert 'id="entry-2"' in again.text
    assert re.search(r'<option value="dexterity"[^>]*selected', again.text)
    assert re.search(r'id="roll-difficulty"[^>]*value="1"', again.text)
    assert player.get(f"{chronicle}/entries/2").status_code == 200


def test_hidden_rolls_are_redacted_for_players_until_revealed(table):
    storyteller, player, chronicle, sheet = table
    rolled = storyteller.post(
        f"{sheet}/rolls",
        data={"kind": "test", "attribute": "dexterity", "difficulty": "1", "hidden": "on"},
        follow_redirects=False,
    )
    assert rolled.status_code == 303
    seen = player.get(chronicle).text  # entry 1: the seed's commitment (F-1); entry 2: the hidden roll
    assert "Only the Storyteller sees this roll until it is revealed." in seen
    assert 'class="outcome' not in seen.split('id="entry-2"')[1].split("</li>")[0]
    assert "Reveal to the table" in storyteller.get(chronicle).text
    assert "Reveal to the table" not in seen
    refused = player.post(f"{chronicle}/entries/2/reveal", headers=HTMX)
    assert refused.status_code == 403 and refused.headers["HX-Retarget"] == "#reveal-2-alert"
    assert storyteller.post(f"{chronicle}/entries/2/reveal", follow_redirects=False).status_code == 303
    assert 'class="outcome' in player.get(chronicle).text


def test_players_edit_descriptive_fields_the_storyteller_edits_ratings(table):
    storyteller, player, _chronicle, sheet = table
    mine = player.get(sheet).text
    assert 'name="s.concept"' in mine and 'name="s.attributes.strength"' not in mine
    assert 'name="s.attributes.strength"' in storyteller.get(sheet).text
    saved = player.post(
        f"{sheet}/sheet", data={"s.concept": "Courier", "version": "1"}, follow_redirects=False
    )
    assert saved.status_code == 303
    assert "Courier" in player.get(sheet).text
    stale = player.post(f"{sheet}/sheet", data={"s.concept": "Thief", "version": "1"})
    assert stale.status_code == 409 and "The sheet changed meanwhile" in alert_text(stale.text, "sheet-alert")


def test_the_storyteller_restores_and_awards_experience(table):
    storyteller, player, _chronicle, sheet = table
    assert "Award experience" in storyteller.get(sheet).text
    assert "Award experience" not in player.get(sheet).text
    awarded = storyteller.post(
        f"{sheet}/adjustments", data={"change": "award_experience", "amount": "5"}, headers=HTMX
    )
    assert awarded.status_code == 200 and "Experience available: 0 → 5" in awarded.text
    refused = storyteller.post(
        f"{sheet}/adjustments",
        data={"change": "restore", "resource": "willpower", "amount": "1"},
        headers=HTMX,
    )
    assert refused.status_code in (409, 422) and refused.headers["HX-Retarget"] == "#change-alert"
    assert "There is no superficial damage to heal." in refused.text


def test_the_live_feed_refuses_strangers(app, table):
    _storyteller, _player, chronicle, _sheet = table
    assert TestClient(app).get(f"{chronicle}/live").status_code == 401


def test_static_assets_are_served(app):
    with TestClient(app) as client:
        assert client.get("/static/vendor/htmx-2.0.11.min.js").status_code == 200
        assert client.get("/static/vendor/htmx-ext-sse-2.2.4.min.js").status_code == 200
        assert "--hunger-bg" in client.get("/static/table.css").text
