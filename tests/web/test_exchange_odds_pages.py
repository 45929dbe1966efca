"""The exchange odds on the web table: the attack form shows the odds of the whole exchange when
a target is chosen (htmx, before the roll), the Storyteller with the defender's numbers; a player who
may not open the defender's sheet gets none (odds built from its ratings would give them back); the exchange's card shows what was expected beside what happened. en/fr/es."""

from __future__ import annotations

import re

from rollbook.present.preview import percent
from rollbook.systems.v20.odds_exchange import Defender, Weapon, exchange_odds
from rollbook.systems.v20.rules import V20Request

from .helpers import bearer
from .helpers import text_of as text

HTMX = {"HX-Request": "true"}


ALICE = {
    "name": "Nia",
    "attributes": {"strength": 3, "dexterity": 3},
    "skills": {"melee": 2},
    "weapons": [{"name": "knife", "damage": 1, "damage_type": "lethal"}],
}
GHOUL = {"name": "Ghoul", "attributes": {"stamina": 3}, "disciplines": {"fortitude": 1}}


def table(given_client):
    created = given_client.post("/api/chronicles", json={"name": "Odds", "system": "v20"}).json()
    st = bearer(created["token"])
    alice = bearer(
        given_client.post("/api/join", json={"invitation": created["invitation"], "name": "Alice"}).json()[
            "token"
        ]
    )
    base = f"/api/chronicles/{created['chronicle']['id']}/characters"
    nia = given_client.post(base, headers=alice, json={"name": "Nia", "sheet": ALICE}).json()["id"]
    ghoul = given_client.post(base, headers=st, json={"name": "Ghoul", "sheet": GHOUL}).json()["id"]
    return f"/chronicles/{created['chronicle']['id']}", st, alice, nia, ghoul


def test_the_attack_form_shows_the_exchange_odds_when_a_target_is_chosen(given_client):
    page, st, alice, nia, ghoul = table(given_client)
    form = given_client.get(f"{page}/characters/{nia}?kind=test", headers=alice).text
    assert 'id="exchange-odds"' in form and f'hx-get="{page}/characters/{nia}/exchange-odds"' in form
    assert 'name="exchange_weapon"' in form and 'name="exchange_dodge"' in form
    query = {
        "kind": "test",
        "attribute": "dexterity",
        "ability": "melee",
        "target": ghoul,
        "exchange_weapon": "knife",
    }
    expected = exchange_odds(
        V20Request(pool=5), Weapon(1, "lethal", strength=3), Defender(stamina=3, fortitude=1)
    )
    hidden = given_client.get(
        f"{page}/characters/{nia}/exchange-odds", headers={**alice, **HTMX}, params=query
    )
    assert hidden.status_code == 200, hidden.text
    words = text(hidden.text)  # a player: no odds built from the NPC's ratings (they would give them back)
    assert "Ghoul's ratings, which are hidden from you" in words
    assert "Against Ghoul" not in words and expected.outcomes.texts()["wounded"] not in words
    shown = given_client.get(f"{page}/characters/{nia}/exchange-odds", headers={**st, **HTMX}, params=query)
    assert shown.status_code == 200, shown.text
    storyteller = text(shown.text)
    assert f"Against Ghoul: hits {percent(expected.hit, 'en')}" in storyteller
    assert expected.outcomes.texts()["wounded"] in storyteller  # the exact fraction, beside its bar
    assert "Hit, wounded" in storyteller and "Bruised" in storyteller
    assert "Ghoul soaks 4 dice against lethal." in storyteller
    french = text(
        given_client.get(
            f"{page}/characters/{nia}/exchange-odds",
            headers={**st, **HTMX},
            params={**query, "lang": "fr"},
        ).text
    )
    assert "Contre Ghoul : touche" in french and "Touché, blessé" in french
    assert "qui vous sont cachées" in text(
        given_client.get(
            f"{page}/characters/{nia}/exchange-odds",
            headers={**alice, **HTMX},
            params={**query, "lang": "fr"},
        ).text
    )
    spanish = text(
        given_client.get(
            f"{page}/characters/{nia}/exchange-odds",
            headers={**st, **HTMX},
            params={**query, "lang": "es"},
        ).text
    )
    assert "Contra Ghoul: acierta" in spanish
    # no target: nothing; a refusal: said in place
    assert (
        text(
            given_client.get(
                f"{page}/characters/{nia}/exchange-odds",
                headers={**alice, **HTMX},
                params={**query, "target": ""},
            ).text
        ).strip()
        == ""
    )
    refused = given_client.get(
        f"{page}/characters/{nia}/exchange-odds",
        headers={**alice, **HTMX},
        params={**query, "exchange_weapon": "axe"},
    )
    assert refused.status_code == 200 and "axe" in text(refused.text)


def test_the_exchange_card_shows_what_was_expected_beside_what_happened(given_client, given_dice):
    page, st, alice, nia, ghoul = table(given_client)
    given_dice.faces += [6, 8, 9, 2, 3]  # 3 successes
    attack = given_client.post(
        f"{page}/characters/{nia}/rolls",
        headers={**alice, **HTMX},
        data={"kind": "test", "attribute": "dexterity", "ability": "melee", "target": ghoul},
    )
    assert attack.status_code == 200, attack.text
    hit = percent(exchange_odds(V20Request(pool=5), Weapon(1, strength=3), Defender(stamina=3)).hit, "en")
    assert f"Expected before the attack: hit {hit}." in text(attack.text)
    assert "What happened: a hit, the exchange goes on." in text(attack.text)
    seq = int(
        re.search(
            r'action="/chronicles/\d+/entries/(\d+)/follow"', given_client.get(page, headers=alice).text
        )[1]
    )
    given_dice.faces += [6, 7, 8, 9, 2, 1]  # 4 levels
    given_client.post(
        f"{page}/entries/{seq}/follow",
        headers={**alice, **HTMX},
        data={"kind": "damage", "character": nia, "weapon": "knife"},
    )
    given_dice.faces += [6, 2, 3, 4]  # soaks 1
    given_client.post(
        f"{page}/entries/{seq + 1}/follow", headers={**st, **HTMX}, data={"kind": "soak", "character": ghoul}
    )
    expected = exchange_odds(V20Request(pool=5), Weapon(1, strength=3), Defender(stamina=3, fortitude=1))
    words = text(given_client.get(page, headers=alice).text)
    assert (
        f"Expected before the attack: hit {percent(expected.hit, 'en')}, wounded "
        f"{percent(expected.outcomes.probability('wounded'), 'en')}, {float(expected.expected_levels):.2f} levels "
        "on average. What happened: wounded, 3 levels marked."
    ) in words
    assert "Ce qui s’est passé : blessé, 3 niveaux cochés." in text(
        given_client.get(f"{page}?lang=fr", headers=alice).text
    )
