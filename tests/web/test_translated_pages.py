"""No English and no raw code on a French or Spanish page. Every receipt kind of
every system is played (the receipts test's ``play_everything``: every action kind, chains, rerolls,
changes, asks, hidden and revealed rolls), then every page — home, chronicle, sheet (each kind of
roll and of change), new character, each entry — is rendered in fr and es for the Storyteller and a
player, and its visible text (and the labels a screen reader or a dialog shows) is searched for:

- an English msgid of the catalogues whose translation differs (whole sentences and the longer
  literal parts of sentences with placeholders; one-word msgids are left out: "Bonus", "Concept" and
  names are words in French too);
- a raw code: a snake_case word, or a name the pages made readable from an id that no catalogue
  translates (``labels.readable`` falling through, marked while the test runs; a homebrew trait
  shown as typed is not an id).

The solo pages are played to an ending and searched the same way
(``test_no_english_and_no_raw_code_on_the_solo_pages``).

``test_the_checker_finds_english_and_codes`` proves the search fails on a deliberately English
string and a raw code in a fixture page."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.play import SYSTEM_IDS
from rollbook.present import labels

from .helpers import MARK, english_parts, problems
from .solo_play import ALL, HIT, MISS, RollByRoll, press
from .solo_play import start as solo_start

LANGS = ("fr", "es")
HTMX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def english():
    return {lang: english_parts(lang) for lang in LANGS}


def test_the_checker_finds_english_and_codes(english):
    """A page with one deliberately English sentence and one raw code fails the check."""
    fixture = (
        '<main><h1>Feuille</h1><p class="note">Willpower reroll of #3 — Échec</p>'
        '<span aria-label="Dé 4, échec">4</span><p>Résultat : messy_critical</p></main>'
    )
    found = problems(fixture, "fr", english["fr"])
    assert any("Willpower reroll of" in f for f in found) and "raw code: 'messy_critical'" in found
    clean = '<main><h1>Feuille</h1><p class="note">Relance de Volonté du n° 3</p></main>'
    assert problems(clean, "fr", english["fr"]) == []
    marked = f"<p>{MARK}Ammunition loaded{MARK} : 17 → 14</p>"
    assert problems(marked, "fr", english["fr"]) == ["untranslated id: '⟦Ammunition loaded⟦'"]


class Played(dict):
    """Every receipt kind of a system, played (the receipts test's way) when a test first asks for
    it: a test process given one system's test plays that system alone. Each system rolls its own
    deterministic stream, so what is played does not depend on which system came first."""

    def __init__(self, client, dice_of) -> None:
        super().__init__()
        self.client, self.dice_of = client, dice_of

    def __missing__(self, system: str):
        from tests.server.receipts import play_everything

        played = self[system] = play_everything(self.client, self.dice_of(system), system)
        return played


@pytest.fixture(scope="module")
def everything(tmp_path_factory):
    """One SQLite server for the module, and the systems played on it as the tests ask (``Played``)."""
    from tests.server.receipts import Dice

    streams: dict[str, Dice] = {}
    current = {"dice": None}

    def dice_of(system: str) -> Dice:
        current["dice"] = streams.setdefault(system, Dice(f"every receipt {system}"))
        return current["dice"]

    class Rolling:  # the app's dice: the stream of the system being played
        name = "given"

        def __call__(self):
            return current["dice"]

    url = f"sqlite:///{tmp_path_factory.mktemp('words') / 'words.sqlite3'}"
    with TestClient(create_app(url, dice=Rolling())) as client:
        yield client, Played(client, dice_of)


@pytest.fixture
def marked_ids(monkeypatch):
    """``labels.readable`` (an id made readable when no label names it) marked for the search; trait
    names keep theirs (a homebrew trait is shown as typed)."""
    plain = labels.readable
    monkeypatch.setattr(labels, "readable", lambda identifier: f"{MARK}{plain(identifier)}{MARK}")
    monkeypatch.setattr(
        labels,
        "trait",
        lambda name, lang, names=None: (
            (names or {}).get(name)
            if name not in labels.TRAITS and (names or {}).get(name)
            else labels.translate(labels.TRAITS.get(name) or plain(name), lang)
        ),
    )


def _pages(client, t, player):
    from rollbook.present import forms

    web = f"/chronicles/{t.id}"
    listed = client.get(f"{t.base}/characters", headers=t.st).json()
    listed = listed if isinstance(listed, list) else listed["characters"]
    theirs = [c for c in listed if c["owner"] is not None][:1]
    entries = [e["seq"] for e in t.log(t.st, limit=200)["entries"]]
    for who, headers in (("storyteller", t.st), ("player", player)):
        for lang in LANGS:
            yield who, lang, client.get(f"{web}?lang={lang}", headers=headers)
            yield who, lang, client.get(f"{web}/characters/new?lang={lang}", headers=headers)
            for character in theirs + ([listed[-1]] if who == "storyteller" else []):
                sheet = f"{web}/characters/{character['id']}"
                role = "storyteller" if who == "storyteller" else "player"
                for kind in forms.action_kinds(t.system, role):
                    yield who, lang, client.get(f"{sheet}?kind={kind}&lang={lang}", headers=headers)
                    # the partials htmx swaps in (every page and partial): the tab, its odds
                    yield (
                        who,
                        lang,
                        client.get(f"{sheet}/roll-form?kind={kind}&lang={lang}", headers={**headers, **HTMX}),
                    )
                    yield (
                        who,
                        lang,
                        client.get(f"{sheet}/odds?kind={kind}&lang={lang}", headers={**headers, **HTMX}),
                    )
                for change in forms.change_kinds(t.system, role):
                    yield who, lang, client.get(f"{sheet}?change={change}&lang={lang}", headers=headers)
                    yield (
                        who,
                        lang,
                        client.get(
                            f"{sheet}/change-form?change={change}&lang={lang}", headers={**headers, **HTMX}
                        ),
                    )
            yield who, lang, client.get(f"/join?lang={lang}", headers=headers)
        for seq in entries:
            lang = LANGS[seq % 2]
            yield who, lang, client.get(f"{web}/entries/{seq}?lang={lang}", headers=headers)
            if t.system == "v5":  # a roll's Willpower reroll advice (a partial of its card)
                advice = client.get(
                    f"{web}/entries/{seq}/advice?dice=0&lang={lang}", headers={**headers, **HTMX}
                )
                if advice.status_code == 200:
                    yield who, lang, advice


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_no_english_and_no_raw_code_in_fr_and_es(everything, english, marked_ids, system):
    client, groups = everything
    found: dict[str, list[str]] = {}
    pages = 0
    for t, player in groups[system].tables:
        for who, lang, response in _pages(client, t, player):
            assert response.status_code == 200, (who, lang, str(response.url), response.text[-500:])
            pages += 1
            for problem in problems(response.text, lang, english[lang]):
                found.setdefault(problem, []).append(f"{who} {lang} {response.url.path}?{response.url.query}")
    assert pages > 20
    assert not found, "\n".join(
        f"{p}  (e.g. {where[0]}, {len(where)} pages)" for p, where in sorted(found.items())
    )
    for lang in LANGS:  # the home page too
        home = client.get(f"/?lang={lang}")
        assert problems(home.text, lang, english[lang]) == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_and_no_raw_code_on_the_solo_pages(tmp_path, english, lang):
    """The solo pages under the same check: the home page's "Play alone", the shelf, the
    solo table at a check (its odds, the Willpower box), in a fight (each turn's options and receipts)
    and at an ending, and the solo chronicle's own page (the story's entries as cards)."""
    dice = RollByRoll()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'solo.sqlite3'}", dice=lambda: dice)) as client:
        seen = [client.get(f"/?lang={lang}").text, client.get(f"/solo?lang={lang}").text]
        where = solo_start(client, lang)
        press(client, where, "choice:0")
        seen.append(press(client, where, "choice:0").html)  # a check
        dice.queue(MISS)
        seen.append(press(client, where, "roll").html)  # its receipt
        for option in ("choice:0", "choice:2", "choice:0"):  # the alley, drink, the pier
            seen.append(press(client, where, option).html)
        seen.append(press(client, where, "choice:0").html)  # the fight
        dice.queue(MISS, HIT, (7, 7, 7), (9,))
        seen.append(press(client, where, "attack:0").html)
        dice.queue(MISS)
        seen.append(press(client, where, "heal").html)
        dice.queue(ALL, ALL, MISS)
        seen.append(press(client, where, "attack:0").html)
        seen.append(press(client, where, "choice:1").html)  # an ending
        chronicle = client.get(where.replace("/solo/", "/chronicles/")).text
    found = sorted({problem for html in seen for problem in problems(html, lang, english[lang])})
    # the chronicle's page: a fight's scene is named by its passage's id (solo.fight opens it so), and a
    # scene's name is shown as typed, like any Storyteller's
    found += problems(chronicle, lang, english[lang])
    assert found == [] and "Project-Id-Version" not in chronicle  # every solo entry has its card's words
