"""A language is its catalogues plus its line in ``i18n`` (``Language``): a fourth one, German, with
catalogues made here (each shipped domain, every text "‹de› " and its English), registered in a process
of its own, is taken by every face that takes a language: the API's choices, the pages' language menu,
Discord's locales, the CLI's ``--lang``, the scenario format. Beside it, no file under ``src/`` outside
``i18n/`` lists the languages again."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from rollbook import i18n

HELPER = Path(__file__).with_name("fourth_language.py")
SRC = Path(i18n.__file__).resolve().parents[1]
MARK = "‹de› "


@pytest.fixture(scope="module")
def german_catalogues(tmp_path_factory) -> Path:
    """A German catalogue per shipped domain, each text its English marked "‹de› " (a pseudo-translation:
    a page, a card or a line of the CLI in German shows the mark)."""
    root = tmp_path_factory.mktemp("locale")
    folder = root / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for shipped in sorted((i18n.LOCALE_DIR / "fr" / "LC_MESSAGES").glob("*.po")):
        with shipped.open("rb") as handle:
            french = read_po(handle)
        german = Catalog(locale="de", domain=shipped.stem)
        for message in french:
            if not message.id:
                continue
            marked = (
                tuple(MARK + form for form in message.id)
                if isinstance(message.id, tuple)
                else MARK + message.id
            )
            german.add(message.id, marked, flags=message.flags, context=message.context)
        with (folder / f"{shipped.stem}.po").open("wb") as handle:
            write_po(handle, german)
        with (folder / f"{shipped.stem}.mo").open("wb") as handle:
            write_mo(handle, german)
    return root


def test_a_fourth_language_registered_is_taken_by_every_face(german_catalogues, database_url):
    ran = subprocess.run(
        [sys.executable, str(HELPER), str(german_catalogues), database_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    said = json.loads(ran.stdout.splitlines()[-1])
    # the API: a chronicle in German; a refusal in its words; the schema's choices read from the one list
    assert said["api_created"] == [201, "de"]
    assert said["api_refusal"][0] == 422 and said["api_refusal"][1].startswith(MARK)
    assert said["api_choices"] == said["solo_start_choices"] == ["en", "fr", "es", "de"]
    assert said["solo_scenarios"] == 200
    # the pages: in German, the language menu naming it in its own words (CLDR's)
    status, page = said["page"]
    assert status == 200 and '<html lang="de">' in page
    assert 'hreflang="de"' in page and "Deutsch" in page and MARK in page
    # Discord: its locale (Discord's "de"), the commands described in German
    assert said["discord_locales"] == {"fr": "fr", "es-ES": "es", "de": "de"}
    assert said["discord_roll_description"].startswith(MARK)
    assert said["discord_language"] == "de"
    # the CLI's --lang, the scenario format's texts, CLDR's percent sign
    status, printed = said["cli"]
    assert status == 0 and f"{MARK}Pool" in printed
    assert said["scenario_languages"] == ["en", "fr", "es", "de"]
    assert said["percent"] == "50,0\u202f%" and said["name"] == "Deutsch"


def test_the_shipped_languages_take_no_fourth(client):
    """Without the registration the same asks are refused (German is no language of the table)."""
    assert i18n.LANGUAGES == ("en", "fr", "es")
    assert client.get("/api/solo/scenarios?lang=de").status_code == 422
    made = client.post("/api/chronicles", json={"name": "Tisch", "system": "v20", "language": "de"})
    assert made.status_code == 422


CODES = {"en", "fr", "es"}
QUOTED = re.compile(r"""["'](en|fr|es)["']""")
# Discord's command names in French and Spanish: translations kept beside the commands, in the order of
# their tuples (a language not there reads the English names); WoD20's clan names, by WoD20's own
# language files, and its sect's (a reader's language it has no file for reads the English)
KNOWN = {"discord/commands.py": 1, "systems/v20/interop.py": 20}


def _listings(source: str) -> int:
    """The tuples, lists, sets and dicts of a module holding two or more of the codes (items or keys)."""
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            items: list = list(node.keys)
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = list(node.elts)
        else:
            continue
        named = {item.value for item in items if isinstance(item, ast.Constant) and item.value in CODES}
        count += len(named) >= 2
    return count


def test_no_file_outside_i18n_lists_the_languages():
    """Every list of the languages is read from ``i18n.LANGUAGES``: a module's literal naming two of
    the codes together is another list to keep in step (in a template or a script: two on one line)."""
    found = {}
    for path in SRC.rglob("*"):
        if path.suffix not in (".py", ".html", ".js") or "i18n" in path.relative_to(SRC).parts:
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            hits = _listings(text)
        else:
            hits = sum(len(set(QUOTED.findall(line))) >= 2 for line in text.splitlines())
        if hits:
            found[path.relative_to(SRC).as_posix()] = hits
    assert found == KNOWN
