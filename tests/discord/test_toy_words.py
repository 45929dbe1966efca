"""A system registered from outside brings its own words in each language: a catalogue domain of its own
(``tests/toy_system/locale/<lang>/LC_MESSAGES/toy.po``), compiled as ``pip install`` compiles the
shipped ones and registered with it (``rollbook.i18n.compile_domain``, ``register_domain``), looked up
after the shipped domains. The toy's push (its ``WORDS.KINDS``' "Push", a msgid of no shipped
catalogue) is "Jet forcé" and "Tirada forzada" on the card's title, the web page's tab and Discord's
``kind`` choice, on both stores; unregistered, its words are gone."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook import i18n
from rollbook.discord.commands import command_definitions
from tests.discord.helpers import ANNA, seated
from tests.discord.signing import command, option
from tests.toy_system import registered

HTMX = {"HX-Request": "true"}
PUSH = {"kind": "push", "trait": "might"}
WORDS = {"fr": "Jet forcé", "es": "Tirada forzada"}


@pytest.fixture()
def toy():
    with registered() as system:
        yield system


def test_the_toys_words_are_its_catalogues_while_it_is_registered():
    assert i18n.translate("Push", "fr") == "Push"
    with registered():
        assert {lang: i18n.translate("Push", lang) for lang in WORDS} == WORDS
        assert i18n.translate("Push", "en") == "Push"
    assert i18n.translate("Push", "fr") == "Push" and "toy" not in i18n.OUTSIDE_DOMAINS


def test_a_registered_domain_is_looked_up_after_the_shipped_ones(tmp_path):
    """A msgid of a shipped catalogue keeps its words ("Pool" is "Réserve"); one of the registered
    domain alone is the domain's; a catalogue not compiled is refused when registered."""
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "extra.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "Pool"\nmsgstr "Mare"\n\nmsgid "A word of its own"\nmsgstr "Un mot à lui"\n',
        encoding="utf-8",
    )
    with pytest.raises(i18n.CatalogueNotCompiled):
        i18n.register_domain("extra", tmp_path)
    i18n.compile_domain("extra", tmp_path)
    i18n.register_domain("extra", tmp_path)
    try:
        assert i18n.translate("Pool", "fr") == "Réserve"
        assert i18n.translate("A word of its own", "fr") == "Un mot à lui"
    finally:
        i18n.unregister_domain("extra")
    assert i18n.translate("A word of its own", "fr") == "A word of its own"
    with pytest.raises(ValueError):
        i18n.register_domain("core", tmp_path)  # a shipped domain is never replaced


def test_discords_kind_choice_names_the_push_in_each_language(toy):
    roll = {definition["name"]: definition for definition in command_definitions()}["roll"]
    kind = {option["name"]: option for option in roll["options"]}["kind"]
    push = next(choice for choice in kind["choices"] if choice["value"] == "push")
    assert push["name"] == "Push"
    assert push["name_localizations"] == {"fr": WORDS["fr"], "es-ES": WORDS["es"]}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_push_card_and_tab_in_the_readers_language(app, toy, lang):
    """The web page's tab and the push's card (its title), in French and in Spanish."""
    storyteller, player = TestClient(app), TestClient(app)
    created = storyteller.post(
        "/chronicles",
        data={"name": "Pushes", "system": toy, "storyteller": "Ana", "language": lang},
        follow_redirects=False,
    )
    assert created.status_code == 303, created.text
    invitation = storyteller.cookies.get("rollbook_invitation")
    joined = player.post("/join", data={"invitation": invitation, "name": "Bruno"}, follow_redirects=False)
    assert joined.status_code == 303, joined.text
    added = player.post(
        f"{created.headers['location']}/characters",
        data={"s.name": "Ann", "s.traits.might": "3"},
        follow_redirects=False,
    )
    assert added.status_code == 303, added.text
    sheet = added.headers["location"]
    page = player.get(sheet, params={"lang": lang})
    assert page.status_code == 200 and f'<html lang="{lang}">' in page.text
    assert f">{WORDS[lang]}</a>" in page.text, page.text
    rolled = player.post(f"{sheet}/rolls", data=PUSH, headers=HTMX)
    assert rolled.status_code == 200 and 'class="card kind-roll' in rolled.text, rolled.text
    assert WORDS[lang] in rolled.text


@pytest.mark.parametrize(("locale", "lang"), [("fr", "fr"), ("es-ES", "es")])
def test_the_push_embed_on_discord_in_the_readers_language(make_table, discord, toy, locale, lang):
    table, channel, (anna,) = seated(make_table, discord, toy, ANNA)
    table.character(anna, {"system": toy, "name": "Ann", "traits": {"might": 3}})
    push = [option("trait", "might"), option("kind", "push")]
    answer = discord.ok(command("roll", push, user_id=ANNA, channel=channel, locale=locale))
    assert answer["data"]["embeds"][0]["title"] == WORDS[lang], answer
