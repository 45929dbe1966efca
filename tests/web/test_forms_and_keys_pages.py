"""Through the pages, without a browser: each form's own idempotency
key (a retried roll rolls once, a second submit of a new character makes one character)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

HTMX = {"HX-Request": "true"}


@pytest.fixture
def table(app):
    """A V5 chronicle in French: (Storyteller client, player client, chronicle URL, the player's sheet URL)."""
    with TestClient(app) as storyteller:
        created = storyteller.post(
            "/chronicles",
            data={"name": "Lyon", "system": "v5", "storyteller": "Ana", "language": "fr"},
            follow_redirects=False,
        )
        chronicle = created.headers["location"]
        invitation = storyteller.cookies.get("rollbook_invitation")
        player = TestClient(app)
        player.post("/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False)
        added = player.post(
            f"{chronicle}/characters",
            data={
                "s.name": "Nadia",
                "s.attributes.dexterity": "3",
                "s.skills.firearms": "2",
                "s.hunger": "1",
                "s.specialties": "Armes à feu: Pistolets",
            },
            follow_redirects=False,
        )
        assert added.status_code == 303, added.text
        yield storyteller, player, chronicle, added.headers["location"]


def form_key(html: str, form_id: str) -> str:
    found = re.search(rf'id="{form_id}-key" name="idempotency_key" value="([^"]+)"', html)
    assert found, f"no key in form {form_id}"
    return found.group(1)


def entries(client: TestClient, chronicle: str) -> set[str]:
    return set(re.findall(r'id="entry-(\d+)"', client.get(chronicle).text))


def test_a_retried_roll_rolls_once_and_the_next_form_has_a_new_key(table):
    _storyteller, player, chronicle, sheet = table
    key = form_key(player.get(sheet).text, "roll")
    before = entries(player, chronicle)
    form = {
        "kind": "test",
        "attribute": "dexterity",
        "skill": "firearms",
        "difficulty": "2",
        "idempotency_key": key,
    }
    first = player.post(f"{sheet}/rolls", data=form, headers=HTMX)
    again = player.post(f"{sheet}/rolls", data=form, headers=HTMX)  # the network retried it
    assert first.status_code == again.status_code == 200
    made = entries(player, chronicle) - before
    assert len(made) == 1
    seq = made.pop()
    assert f'id="entry-{seq}"' in first.text and f'id="entry-{seq}"' in again.text
    assert form_key(first.text, "roll") != key  # the form's next roll is a new one
    other = dict(form, difficulty="3")  # the same key for another roll is refused, nothing rolled
    assert player.post(f"{sheet}/rolls", data=other, headers=HTMX).status_code == 422
    assert len(entries(player, chronicle) - before) == 1


def test_a_second_submit_of_a_new_character_makes_one(table):
    _storyteller, player, chronicle, _sheet = table
    key = form_key(player.get(f"{chronicle}/characters/new").text, "character")
    form = {"s.name": "Julien", "s.attributes.strength": "2", "idempotency_key": key}
    first = player.post(f"{chronicle}/characters", data=form, follow_redirects=False)
    again = player.post(f"{chronicle}/characters", data=form, follow_redirects=False)  # back, submit again
    assert first.status_code == again.status_code == 303
    assert first.headers["location"] == again.headers["location"]
    assert player.get(chronicle).text.count(">Julien<") == 1


def test_the_keychain_holds_every_chronicle_and_signing_out_revokes(app):
    with TestClient(app) as browser:
        made = []
        for name in ("Lyon", "Paris"):
            created = browser.post(
                "/chronicles",
                data={"name": name, "system": "v5", "storyteller": "Ana"},
                follow_redirects=False,
            )
            made.append(created.headers["location"])
        for url in made:  # the second chronicle did not sign the Storyteller out of the first
            assert browser.get(url).status_code == 200
        home = browser.get("/").text
        assert "Lyon" in home and "Paris" in home and 'id="keychain"' in home
        key = re.search(r'id="access-key">([^<]+)<', browser.get(made[0]).text).group(1)
        session = next(
            v.split(".", 1)[1]
            for v in browser.cookies.get("rollbook_keys").split("~")
            if v.startswith(made[0].rsplit("/", 1)[1] + ".")
        )
        assert browser.post(f"{made[0]}/signout", follow_redirects=False).status_code == 303
        assert browser.get(made[0], follow_redirects=False).status_code in (401, 403)  # no way in
        assert browser.get(made[1]).status_code == 200  # the other stays open
        # the session is revoked on the server, not only forgotten by this browser
        api = TestClient(app)
        assert api.get("/api/me", headers={"Authorization": f"Bearer {session}"}).status_code == 401
        assert api.get("/api/me", headers={"Authorization": f"Bearer {key}"}).status_code == 200
        # the key brings this browser back
        back = browser.post("/signin", data={"token": key}, follow_redirects=False)
        assert back.headers["location"] == made[0] and browser.get(made[0]).status_code == 200


def test_an_invitation_link_joins_with_a_name(app):
    with TestClient(app) as storyteller:
        created = storyteller.post(
            "/chronicles",
            data={"name": "Lyon", "system": "v20", "storyteller": "Ana"},
            follow_redirects=False,
        )
        chronicle = created.headers["location"]
        link = re.search(r'id="invitation-link">[^<]*?(/join#[^<]+)<', storyteller.get(chronicle).text).group(
            1
        )
    with TestClient(app) as player:
        page = player.get(link.split("#")[0]).text  # the code rides in the fragment
        code = link.split("#", 1)[1]
        assert 'id="join-invitation"' in page and "autofocus" in page
        joined = player.post("/join", data={"invitation": code, "name": "Julien"}, follow_redirects=False)
        assert joined.headers["location"] == chronicle


def test_v5_at_no_willpower_is_impaired_and_offers_no_reroll(table):
    _storyteller, player, chronicle, _sheet = table
    made = player.post(
        f"{chronicle}/characters",
        data={
            "s.name": "Vide",
            "s.attributes.wits": "3",
            "s.skills.investigation": "2",
            "s.hunger": "1",
            "s.willpower.max": "2",
            "s.willpower.superficial": "2",
            "s.health.max": "4",
        },
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    sheet = made.headers["location"]
    odds = player.get(
        f"{sheet}/odds",
        params={"kind": "test", "attribute": "wits", "skill": "investigation", "lang": "fr"},
        headers=HTMX,
    ).text
    assert "affaibli -2" in odds and "blessures" not in odds  # Willpower impairment, not wounds
    assert "meilleure relance de Volonté" not in odds and "Plus de Volonté à dépenser" in odds
    full = player.get(
        f"{sheet}/odds",
        params={"kind": "test", "attribute": "dexterity", "skill": "firearms", "lang": "fr"},
        headers=HTMX,
    ).text
    assert "affaibli" not in full  # a physical pool at full Health: no penalty


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("fr", ["(révéler un jet caché)", "Compétence, Attribut", "avantage", "Sang par tour"]),
        ("es", ["(revelar una tirada oculta)", "Habilidad, Atributo", "ventaja", "Sangre por turno"]),
    ],
)
def test_refusals_name_things_in_words(lang, expected):
    """No "(reveal)", "skill, attribute", "effect advantage" or "1 puntos" in a refusal."""
    from rollbook.rules.base import RuleError
    from rollbook.server.problems import ProblemError
    from rollbook.web.errors import error_detail

    texts = [
        error_detail(ProblemError(403, "storyteller_only", action="reveal", role="player"), lang)[1],
        error_detail(RuleError("one_trait_required", fields=["skill", "attribute"], given=2), lang)[1],
        error_detail(RuleError("field_not_for_card", field="bonus", effect="advantage"), lang)[1],
        error_detail(RuleError("blood_per_turn_exceeded", per_turn=1, amount=2), lang)[1],
    ]
    for text, words in zip(texts, expected):
        assert words in text, text
    assert not any(
        code in " ".join(texts) for code in ("reveal)", "skill,", "advantage.", "puntos", "points de")
    )


@pytest.mark.parametrize("scheme", ["https", "http"])
def test_the_keychain_cookies_are_secure_over_https(app, scheme):
    with TestClient(app, base_url=f"{scheme}://testserver") as browser:
        created = browser.post(
            "/chronicles", data={"name": "Lyon", "system": "v5", "storyteller": "Ana"}, follow_redirects=False
        )
        cookies = created.headers.get_list("set-cookie")
        named = {c.split("=", 1)[0]: c for c in cookies}
        assert {"rollbook_keys", "rollbook_token", "rollbook_new_key", "rollbook_invitation"} <= set(named)
        for name in ("rollbook_keys", "rollbook_token", "rollbook_new_key", "rollbook_invitation"):
            assert ("; secure" in named[name].lower()) == (scheme == "https"), named[name]
            assert "httponly" in named[name].lower() and "samesite=lax" in named[name].lower()
