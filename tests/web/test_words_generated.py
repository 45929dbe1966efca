"""Words and numbers as French and Spanish readers write them, generated over what the pages show: every
receipt kind of every system is played (the receipts test's ``play_everything``), then every card (each
entry's page), the chronicle page, each sheet with each roll and change form, the new-character form,
and each entry as the Discord poster's embeds and the ``/sheet`` fields are read in fr and es and checked
by ``tests/web/words.py``: plural agreement by the CLDR's rule, decimal signs, French colon spacing
and elision. ``test_the_words_check_finds_each_fault`` proves the check fails on each fault."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from rollbook.app.app import create_app
from rollbook.discord.embeds import entry_embeds, resource_fields
from rollbook.play import SYSTEM_IDS

from .helpers import visible_text
from .words import plural_words, word_problems

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
    """Every receipt kind of a system, played when a test first asks for it (one system per test)."""

    def __init__(self, client, dice_of) -> None:
        super().__init__()
        self.client, self.dice_of = client, dice_of

    def __missing__(self, system: str):
        from tests.server.receipts import play_everything

        played = self[system] = play_everything(self.client, self.dice_of(system), system)
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

    url = f"sqlite:///{tmp_path_factory.mktemp('words') / 'words.sqlite3'}"
    with TestClient(create_app(url, dice=Rolling())) as client:
        yield client, Played(client, dice_of)


def _pages(client, t, player):
    from rollbook.present import forms

    web = f"/chronicles/{t.id}"
    listed = client.get(f"{t.base}/characters", headers=t.st).json()
    listed = listed if isinstance(listed, list) else listed["characters"]
    theirs = [c for c in listed if c["owner"] is not None][:1]
    entries = [e["seq"] for e in t.log(t.st, limit=200)["entries"]]
    for who, headers in (("storyteller", t.st), ("player", player)):
        role = "storyteller" if who == "storyteller" else "player"
        for lang in LANGS:
            yield who, lang, client.get(f"{web}?lang={lang}", headers=headers)
            yield who, lang, client.get(f"{web}/characters/new?lang={lang}", headers=headers)
            for character in theirs + ([listed[-1]] if who == "storyteller" else []):
                sheet = f"{web}/characters/{character['id']}"
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
    client, groups = everything
    found: dict[str, list[str]] = {}
    pages = embeds = 0
    for t, player in groups[system].tables:
        for who, lang, response in _pages(client, t, player):
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
