"""The words of a few cards a group tripped over, in French and Spanish (SPEC A-1 hidden rolls, V5-10
powers): a power's roll is titled with the power, a redacted card says "hidden" once, a roll the
Storyteller makes for a player's character reads "(par le Conteur)", French elides "de" before a
vowel ("d'Inès") in the catalogues' texts and the templates' alike."""

from __future__ import annotations

from rollbook.i18n import labelled, translate, translate_n
from rollbook.web.templating import environment

from .helpers import api_table, card, text_of

INES = {
    "name": "Inès",
    "attributes": {"wits": 3, "dexterity": 2},
    "skills": {"firearms": 2},
    "disciplines": {"auspex": 2},
    "powers": [{"discipline": "auspex", "level": 1, "power": "sense_the_unseen"}],
    "hunger": 1,
    "willpower": {"max": 5},
}
SENSE = {"kind": "power", "discipline": "auspex", "power": "sense_the_unseen", "attribute": "wits"}
TEST = {"kind": "test", "attribute": "dexterity", "skill": "firearms", "difficulty": 1}


def _table(client, lang: str):
    cid, st, alice = api_table(client, "v5", lang)
    me = client.get("/api/me", headers=alice).json()["member"]["id"]
    made = client.post(
        f"/api/chronicles/{cid}/characters", headers=st, json={"name": "Inès", "sheet": INES, "owner": me}
    )
    assert made.status_code == 201, made.text
    return cid, st, alice, made.json()["id"]


def _roll(client, cid, headers, character, action, **body) -> int:
    rolled = client.post(
        f"/api/chronicles/{cid}/characters/{character}/rolls",
        headers=headers,
        json={"action": action, **body},
    )
    assert rolled.status_code == 201, rolled.text
    return rolled.json()["entry"]["seq"]


def test_a_powers_card_is_titled_with_the_power(given_client, given_dice):
    cid, _st, alice, ines = _table(given_client, "fr")
    given_dice.faces = [2, 3, 7, 4, 5]
    _roll(given_client, cid, alice, ines, SENSE)
    shown = text_of(card(given_client.get(f"/chronicles/{cid}?lang=fr", headers=alice).text, "roll"))
    assert "Percevoir l’invisible (Auspex)" in shown or "Percevoir l'invisible (Auspex)" in shown, shown
    assert "Utiliser un pouvoir" not in shown


def test_a_redacted_card_says_hidden_once_and_a_storytellers_roll_for_a_player_says_by_whom(
    given_client, given_dice
):
    cid, st, alice, ines = _table(given_client, "fr")
    given_dice.faces = [6, 6, 6, 6]
    _roll(given_client, cid, st, ines, TEST, hidden=True)
    given_dice.faces = [6, 6, 6, 6]
    _roll(given_client, cid, st, ines, TEST)
    page = given_client.get(f"/chronicles/{cid}?lang=fr", headers=alice).text
    cards = [text_of(c.split("</li>")[0]) for c in page.split('<li id="entry-')[1:]]
    hidden = next(c for c in cards if "Un jet secret" in c)
    assert "[secret]" not in hidden and hidden.lower().count("secret") == 1, hidden
    shown = next(c for c in cards if "Inès" in c and "Réussite" in c)
    assert "Inès (par le Conteur)" in shown and "Inès (Conteur)" not in shown, shown
    es = given_client.get(f"/chronicles/{cid}?lang=es", headers=alice).text
    assert "Inès (por el Narrador)" in text_of(es)


def test_french_elides_de_before_a_vowel_in_catalogue_texts_and_templates():
    assert translate("Standing difficulty of {name}", "fr", name="Inès") == "Difficulté permanente d'Inès"
    assert translate("Standing difficulty of {name}", "fr", name="Bruno") == "Difficulté permanente de Bruno"
    assert translate("Standing difficulty of {name}", "es", name="Inès").endswith("de Inès")
    rendered = (
        environment("fr").from_string('{{ _("Powers of %(discipline)s", discipline="Auspex") }}').render()
    )
    assert rendered == "Pouvoirs d'Auspex", rendered
    assert (
        translate_n("{name}: {n} success", "{name}: {n} successes", 1, "fr", name="Nia")
        == "Nia\u202f: 1 réussite"
    )
    assert labelled("Repris", 67, "fr") == "Repris\u202f: 67" and labelled("Mapped", 67, "en") == "Mapped: 67"


def test_V20_4_a_required_success_over_10_agrees_with_its_count():
    from rollbook.render import view
    from rollbook.rules.base import to_plain
    from rollbook.systems.v20.rules import V20Request, resolve

    receipt = to_plain(resolve(V20Request(pool=3, difficulty=10, untrained="skill"), (10, 10, 3)))
    notes = " ".join(line.note for line in view(receipt, "fr").lines)
    assert "au-delà de 10\u202f: +1 réussite requise" in notes and "(s)" not in notes, notes
    assert "+1 éxito requerido" in " ".join(line.note for line in view(receipt, "es").lines)
