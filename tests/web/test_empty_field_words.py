"""A refusal read "Dés ne peut pas être vide.": the empty-field message agrees with any field name
(a plural one too) in fr and es."""

from __future__ import annotations

from rollbook.i18n import translate
from rollbook.i18n.messages_play import PLAY_ERROR_MESSAGES as MESSAGES


def test_the_empty_field_message_agrees_with_a_plural_field():
    assert translate(MESSAGES["blank_text"], "fr", field="Dés") == "Le champ « Dés » ne peut pas être vide."
    assert translate(MESSAGES["blank_text"], "es", field="Dados") == "El campo «Dados» no puede estar vacío."


def test_one_more_digit_below_one_percent_on_the_web():
    from fractions import Fraction

    from rollbook.present.preview import percent

    assert percent(Fraction(1, 400), "fr") == "0,25\u202f%"
    assert percent(Fraction(1, 400), "es") == "0,25\u202f%"
    assert percent(Fraction(1, 400), "en") == "0.25%"
    assert percent(Fraction(1, 250), "fr") == "0,4\u202f%"
    assert percent(Fraction(0), "fr") == "0,0\u202f%"
    assert percent(Fraction(901, 1000), "en") == "90.1%"


def test_seed_terms_casual_on_the_home_page(app):
    from fastapi.testclient import TestClient

    with TestClient(app) as client:
        assert "Décontracté" in client.get("/", params={"lang": "fr"}).text
        assert "modo Casual" in client.get("/", params={"lang": "es"}).text
        assert "Détendu" not in client.get("/", params={"lang": "fr"}).text


def test_seed_term_blood_surge_in_french():
    from rollbook.i18n import translate

    assert translate("Blood Surge", "fr") == "Sursaut de Sang"
    assert translate("Rouse check for the Blood Surge", "fr") == "Test de Rouse pour le Sursaut de Sang"


def test_seed_term_untrained_skill_in_spanish():
    from rollbook.i18n import translate

    assert translate("untrained Skill", "es") == "Habilidad sin entrenamiento"


def test_spanish_speaks_one_register_tu():
    """Every Spanish text says tú, never usted: no formal imperative, no "usted" (a removed member's "Su clave"
    is theirs: third person is not a register)."""
    import re
    from pathlib import Path

    from babel.messages.pofile import read_po

    formal = re.compile(
        r"\b(?:[Uu]sted(?:es)?|Déjelo|Deje|Describa|Indique|Rellene|Marque|Escriba|Haga|Envíe|Envíelo|"
        r"[Ii]nténtelo|[Rr]ecárguela|[Cc]ámbielo|[Ee]scríbala|Recargue|Cree|Pulse|Elija|Guarde|Copie|[Vv]uelva a tirar)\b"
    )
    found = []
    for po in (Path(translate.__code__.co_filename).parent / "locale" / "es" / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as handle:
            for message in read_po(handle):
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                found += [f"{po.name}: {text}" for text in texts if text and formal.search(text)]
    assert not found, "\n".join(found)
