"""Words and numbers as French and Spanish readers write them, generated over what the pages show: every
receipt kind of every system is played (the receipts test's ``play_everything``), then the log's other
kinds (``words.play_the_other_kinds``: settings, scenes and turns, standing grants, a withdrawn ask, a
compulsion, contests and extended actions, the fair seeds, quick rolls, an import and an export, a
removal) and a solo story; every card (each entry's page), the chronicle page, the night's printable log,
the people, the dice statistics, each sheet with each roll and change form and its printed sheet, the
new-character form, and each entry as the Discord poster's embeds and the ``/sheet`` fields are read in
fr and es and checked by ``tests/web/words.py``: plural agreement by the CLDR's rule, decimal signs,
French colon spacing and elision. The kinds played are checked against the log's tagged union
(``entries.KINDS``), so a new kind fails until it has a sample. ``test_the_words_check_finds_each_fault``
proves the check fails on each fault."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.discord.embeds import entry_embeds, resource_fields
from rollbook.play import SYSTEM_IDS

from .helpers import visible_text
from .words import play_the_other_kinds, plural_words, word_problems

LANGS = ("fr", "es")
HTMX = {"HX-Request": "true"}


def test_the_words_check_finds_each_fault():
    assert {"dés", "dados"} <= plural_words("fr") | plural_words("es")
    assert word_problems("Réussites 1 dés à 9 ou plus", "fr")
    assert word_problems("Éxitos 1 dados de 6 o más", "es")
    assert word_problems("0 dés", "fr") and word_problems("0 dados", "es") == []
    assert word_problems("67 champ(s)", "fr")
    assert word_problems("Media 1.40 · 87,6 %", "es")
    assert word_problems("Repris: 67", "fr") and word_problems("Critique propre : 4,2%", "fr")
    assert word_problems("Le jet de Inès", "fr")
    clean = (
        "Repris\u202f: 67 · 1 dé à 9 ou plus · 2 dés · le jet d’Inès · 4,2\u202f% · 21:40 · https://x.fr/a"
    )
    assert word_problems(clean, "fr") == []
    assert word_problems("1 dado de 6 o más · 1,40 · 87,6\u00a0%", "es") == []


class Played(dict):
    """Every receipt kind of a system, played when a test first asks for it (one system per test): each
    action kind and change (``play_everything``), then the log's other kinds on a chronicle of their own
    (``words.play_the_other_kinds``, with the server's fair dice: its seeds are entries too)."""

    def __init__(self, client, fair_client, fair_app, dice_of) -> None:
        super().__init__()
        self.client, self.fair_client, self.fair_app, self.dice_of = client, fair_client, fair_app, dice_of

    def __missing__(self, system: str):
        from rollbook.play import system_module
        from tests.play.render_samples import SAMPLES
        from tests.server.receipts import Chronicles, play_everything

        played: Chronicles = play_everything(self.client, self.dice_of(system), system)
        t, player = Chronicles(self.fair_client, system).tables[0]
        first = SAMPLES[(system, next(iter(system_module(system).ACTIONS)))][0][0]
        play_the_other_kinds(self.fair_client, self.fair_app, t, player, first)
        played.tables.append((t, player))
        self[system] = played
        return played


@pytest.fixture(scope="module")
def everything(tmp_path_factory):
    from tests.server.receipts import Dice

    streams: dict[str, Dice] = {}
    current = {"dice": None}

    def dice_of(system: str) -> Dice:
        current["dice"] = streams.setdefault(system, Dice(f"words {system}"))
        return current["dice"]

    class Rolling:
        name = "given"

        def __call__(self):
            return current["dice"]

    folder = tmp_path_factory.mktemp("words")
    fair_app = create_app(f"sqlite:///{folder / 'fair.sqlite3'}")
    with TestClient(create_app(f"sqlite:///{folder / 'words.sqlite3'}", dice=Rolling())) as client:
        with TestClient(fair_app) as fair_client:
            yield client, Played(client, fair_client, fair_app, dice_of)


def _pages(t, player):
    """Every page of the chronicle ``t`` in fr and es, as the Storyteller and as the player read them:
    the table, the new-character form, each sheet with each roll and change form and its odds, its
    printed sheet, the night's printable log, the people, the fair dice's statistics, each entry."""
    from rollbook.present import forms

    client, web = t.client, f"/chronicles/{t.id}"
    listed = client.get(f"{t.base}/characters", headers=t.st).json()
    listed = listed if isinstance(listed, list) else listed["characters"]
    theirs = [c for c in listed if c["owner"] is not None][:1]
    entries = [e["seq"] for e in t.log(t.st, limit=200)["entries"]]
    for who, headers in (("storyteller", t.st), ("player", player)):
        role = "storyteller" if who == "storyteller" else "player"
        for lang in LANGS:
            for page in ("", "/characters/new", "/night", "/people", "/fair/stats"):
                yield who, lang, client.get(f"{web}{page}?lang={lang}", headers=headers)
            for character in theirs + ([listed[-1]] if who == "storyteller" else []):
                sheet = f"{web}/characters/{character['id']}"
                yield who, lang, client.get(f"{sheet}/print?lang={lang}", headers=headers)
                for kind in forms.action_kinds(t.system, role):
                    yield who, lang, client.get(f"{sheet}?kind={kind}&lang={lang}", headers=headers)
                    odds = f"{sheet}/odds?kind={kind}&lang={lang}"
                    yield who, lang, client.get(odds, headers={**headers, **HTMX})
                for change in forms.change_kinds(t.system, role):
                    yield who, lang, client.get(f"{sheet}?change={change}&lang={lang}", headers=headers)
        for seq in entries:
            for lang in LANGS:
                yield who, lang, client.get(f"{web}/entries/{seq}?lang={lang}", headers=headers)


def _embed_text(embed: dict) -> str:
    read = [embed.get("title", ""), embed.get("description", "")]
    read += [(embed.get(k) or {}).get("text" if k == "footer" else "name", "") for k in ("footer", "author")]
    read += [f"{f['name']} : {f['value']}" for f in embed.get("fields") or []]
    return "\n".join(read)


@pytest.mark.parametrize("system", SYSTEM_IDS)
def test_the_words_of_every_card_page_and_embed_in_fr_and_es(everything, system):
    _client, groups = everything
    found: dict[str, list[str]] = {}
    pages = embeds = 0
    for t, player in groups[system].tables:
        client = t.client
        for who, lang, response in _pages(t, player):
            assert response.status_code == 200, (who, lang, str(response.url), response.text[-500:])
            pages += 1
            for problem in word_problems(visible_text(response.text), lang):
                found.setdefault(problem, []).append(f"{who} {lang} {response.url.path}?{response.url.query}")
        listed = client.get(f"{t.base}/characters", headers=t.st).json()
        listed = listed if isinstance(listed, list) else listed["characters"]
        names = {c["id"]: c["name"] for c in listed}
        for entry in t.log(t.st, limit=200)["entries"]:
            for lang in LANGS:
                for embed in entry_embeds(entry, lang, characters=names, system=system):
                    embeds += 1
                    for problem in word_problems(_embed_text(embed), lang):
                        found.setdefault(problem, []).append(f"embed {lang} entry {entry['seq']}")
        for character in names:
            sheet = t.sheet(t.st, character)["sheet"]
            for lang in LANGS:
                text = "\n".join(f"{f['name']} : {f['value']}" for f in resource_fields(system, sheet, lang))
                for problem in word_problems(text, lang):
                    found.setdefault(problem, []).append(f"/sheet {lang} character {character}")
    assert pages > 20 and embeds > 20
    assert not found, "\n".join(
        f"{p}  (e.g. {where[0]}, {len(where)} places)" for p, where in sorted(found.items())
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("system", "file"), [("v5", "wod5e_vampire.json"), ("v20", "wod20_vampire.json")])
def test_the_words_of_an_import_report(tmp_path, system, file, lang):
    """The import page's report (its counts by the CLDR's plural rule: "1 champ", "67 champs")."""
    import re
    from pathlib import Path

    files = Path(__file__).resolve().parents[1] / "interop" / "files"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'import.sqlite3'}")) as client:
        created = client.post(
            "/chronicles",
            data={"name": "Lyon", "system": system, "storyteller": "Ana", "language": lang},
            follow_redirects=False,
        )
        chronicle = created.headers["location"]
        form = client.get(f"{chronicle}/import?lang={lang}").text
        key = re.search(r'id="import-key" name="idempotency_key" value="([^"]+)"', form).group(1)
        with (files / file).open("rb") as handle:
            answer = client.post(
                f"{chronicle}/import?lang={lang}",
                data={"idempotency_key": key},
                files={"file": (file, handle, "application/json")},
            )
        assert answer.status_code == 201, answer.text
        text = visible_text(answer.text)
        assert "(s)" not in text and re.search(r"\d+ (champs?|campos?)\b", text), text[:2000]
        assert word_problems(text, lang) == []
        chronicle_page = visible_text(client.get(f"{chronicle}?lang={lang}").text)
        assert word_problems(chronicle_page, lang) == []  # the import's card: "Repris : 67"


@pytest.fixture(scope="module")
def solo_story(everything):
    """A solo story begun and one choice made (its start, passages and choice are entries)."""
    client = everything[1].fair_client
    solo = client.post("/api/solo", json={"scenario": "drowned-lantern"}).json()
    headers = {"Authorization": f"Bearer {solo['token']}"}
    chronicle = solo["chronicle"]["id"]
    acted = client.post(f"/api/chronicles/{chronicle}/solo/act", headers=headers, json={"option": "choice:0"})
    assert acted.status_code == 200, acted.text
    logged = client.get(f"/api/chronicles/{chronicle}/log", headers=headers).json()["entries"]
    return client, chronicle, headers, logged


def test_the_words_of_a_solo_story_in_fr_and_es(solo_story):
    client, chronicle, headers, logged = solo_story
    found: list[str] = []
    pages = [f"/solo/{chronicle}", f"/chronicles/{chronicle}", f"/chronicles/{chronicle}/night"]
    pages += [f"/chronicles/{chronicle}/entries/{entry['seq']}" for entry in logged]
    for page in pages:
        for lang in LANGS:
            response = client.get(f"{page}?lang={lang}", headers=headers)
            assert response.status_code == 200, (page, lang)
            found += [f"{lang} {page}: {p}" for p in word_problems(visible_text(response.text), lang)]
    assert not found, "\n".join(found)


def test_every_kind_of_the_log_is_rendered_by_the_words_test(everything, solo_story):
    """The kinds come from the log's tagged union (``entries.KINDS``): a new kind fails here until the
    words test plays it (``play_everything``, ``words.play_the_other_kinds`` or the solo story)."""
    from rollbook.entries import KINDS

    _client, groups = everything
    seen = {entry["kind"] for entry in solo_story[3]}
    for system in SYSTEM_IDS:
        for t, _player in groups[system].tables:
            seen |= {entry["kind"] for entry in t.log(t.st, limit=200)["entries"]}
    assert sorted(set(KINDS) - seen) == [], "play the missing kinds in tests/web/words.py"
