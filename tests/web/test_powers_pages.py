"""Discipline powers from the games' lists through the pages (no browser): the forms offer the
powers of the Disciplines the character has, up to their rating, in the table's language; a name typed
in French, Spanish or English is the power it names (stored by id, shown translated); a homebrew power
is kept and shown as typed; the sheet page lists each Discipline with its powers; an edit of the powers
is merged and logged like any sheet edit."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from rollbook import play
from rollbook.web import powerform

CASES = {
    # lang: (discipline typed, its id, a power typed, its id, its name shown, a power of level 3 not offered)
    "fr": (
        "Auspex",
        "auspex",
        "percevoir l'invisible",
        "sense_the_unseen",
        "Percevoir l'invisible",
        "Sonder l'âme",
    ),
    "es": ("Presencia", "presence", "FASCINACIÓN", "awe", "Fascinación", "Mirada aterradora"),
}


def _table(app, lang: str, system: str = "v5"):
    storyteller = TestClient(app)
    created = storyteller.post(
        "/chronicles",
        data={"name": "Lyon", "system": system, "storyteller": "Ana", "language": lang},
        follow_redirects=False,
    )
    return storyteller, created.headers["location"]


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_new_character_takes_powers_typed_in_the_tables_language(app, lang):
    discipline, discipline_id, typed, power_id, shown, too_high = CASES[lang]
    storyteller, chronicle = _table(app, lang)
    with storyteller:
        form = storyteller.get(f"{chronicle}/characters/new").text
        assert 'name="s.powers.0.name"' in form  # a new Discipline's power can be typed in the same form
        added = storyteller.post(
            f"{chronicle}/characters",
            data={
                "s.name": "Nadia",
                "s.hunger": "1",
                "new.disciplines.name.0": discipline,
                "new.disciplines.value.0": "2",
                "new.disciplines.name.1": "Nécromancie des Égouts",
                "new.disciplines.value.1": "1",
                "s.powers.0.discipline": discipline,
                "s.powers.0.name": typed,
                "s.powers.1.discipline": "Nécromancie des Égouts",
                "s.powers.1.name": "Murmure des Égouts",
            },
            follow_redirects=False,
        )
        assert added.status_code == 303, added.text
        sheet_url = added.headers["location"]
        page = html.unescape(storyteller.get(sheet_url).text)
        # the sheet page: each Discipline with its powers, a known one translated, a homebrew one as typed
        assert f"{shown} (1)" in page and "Murmure des Égouts (1)" in page
        # the editor: the Discipline's group offers its powers up to its rating (2), not level 3's
        group = page.split(f'data-discipline="{discipline_id}"', 1)[1].split("</fieldset>", 1)[0]
        assert f'value="{shown}"' in group and too_high not in group
        assert f'list="powers-{discipline_id}"' in group


def test_the_editor_keeps_merges_and_logs_powers(app):
    storyteller, chronicle = _table(app, "fr")
    with storyteller:
        added = storyteller.post(
            f"{chronicle}/characters",
            data={"s.name": "Jean", "new.disciplines.name.0": "Occultation", "new.disciplines.value.0": "3"},
            follow_redirects=False,
        )
        sheet_url = added.headers["location"]
        page = storyteller.get(sheet_url).text
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        base = html.unescape(re.search(r"name=\"base\" value='([^']*)'", page).group(1))
        edited = storyteller.post(
            f"{sheet_url}/sheet",
            data={
                "version": version,
                "base": base,
                "s.powers.0.discipline": "obfuscate",
                "s.powers.0.name": "Manteau d'ombres",
                "s.powers.1.discipline": "obfuscate",
                "s.powers.1.name": "Cloak of Shadows",
            },
            follow_redirects=False,
        )
        # the same power twice (French and English names of it): refused, nothing applied
        assert edited.status_code == 422, edited.text
        refused = html.unescape(edited.text)
        assert "Pouvoirs nomme deux fois la même chose" in refused
        assert "Manteau d'ombres" in refused  # what was typed is kept
        edited = storyteller.post(
            f"{sheet_url}/sheet",
            data={
                "version": version,
                "base": base,
                "s.powers.0.discipline": "obfuscate",
                "s.powers.0.name": "Manteau d'ombres",
                "s.powers.1.discipline": "obfuscate",
                "s.powers.1.name": "Passe-muraille des Égouts",
                "s.powers.1.level": "2",
            },
            follow_redirects=False,
        )
        assert edited.status_code == 303, edited.text
        log = html.unescape(storyteller.get(chronicle).text)
        assert "Pouvoirs" in log and "Occultation 1\u202f: Manteau d'ombres" in log
        assert "Occultation 2\u202f: Passe-muraille des Égouts" in log


def test_a_power_refused_by_the_rules_says_why_in_the_tables_language(app):
    storyteller, chronicle = _table(app, "es")
    with storyteller:
        refused = storyteller.post(
            f"{chronicle}/characters",
            data={
                "s.name": "Inés",
                "new.disciplines.name.0": "Auspex",
                "new.disciplines.value.0": "1",
                "s.powers.0.discipline": "Auspex",
                "s.powers.0.name": "Telepatía",
            },
        )  # level 5, Auspex 1
        assert refused.status_code == 422
        text = html.unescape(refused.text)
        assert "requiere" in text and 'value="Telepatía"' in text


def test_the_form_reads_names_in_any_language_and_homebrew_as_typed():
    form = {
        "s.powers.0.discipline": "auspex",
        "s.powers.0.name": "  sentidos   AGUZADOS ",
        "s.powers.1.discipline": "Dominación",
        "s.powers.1.name": "Compel",
        "s.powers.2.discipline": "",
        "s.powers.2.name": "Percevoir l'invisible",
        "s.powers.3.discipline": "auspex",
        "s.powers.3.name": "Égouts",
        "s.powers.3.level": "2",
        "s.powers.4.discipline": "auspex",
        "s.powers.4.name": "",
    }
    assert powerform.powers_from_form("v5", form, lenient=False) == [
        {"discipline": "auspex", "level": 1, "power": "heightened_senses"},
        {"discipline": "dominate", "level": 1, "power": "compel"},
        {"discipline": "auspex", "level": 1, "power": "sense_the_unseen"},
        {"discipline": "auspex", "level": 2, "name": "Égouts"},
    ]
    sheet = play.new_sheet("v5", {"name": "N", "disciplines": {"auspex": 2}})
    assert powerform.powers_from_form(
        "v20", {"s.powers.0.discipline": "auspex", "s.powers.0.name": "Sens accrus"}, lenient=False
    ) == [{"discipline": "auspex", "level": 1, "power": "heightened_senses"}]
    assert sheet["powers"] == []


@pytest.mark.parametrize("system", ["v20", "v5"])
def test_every_listed_power_on_a_sheet_page_reads_in_french_and_spanish(app, system):
    """The untranslated-text check (test_translated_pages) on sheet pages holding every power of the list:
    no English name and no raw id, in fr and es, on the sheet and in the editor."""
    from rollbook.play import powers

    from .helpers import english_parts, problems

    storyteller, chronicle = _table(app, "fr", system)
    listed = [
        (d, level, power_id)
        for d in powers.disciplines_with_powers(system)
        for level, power_id, _ in powers.powers_of(system, d)
    ]
    disciplines = {d: 5 for d, _, _ in listed}
    with storyteller:
        made = storyteller.post(
            f"/api{chronicle}/characters",
            json={
                "name": "Sophie",
                "sheet": {
                    "name": "Sophie",
                    "disciplines": disciplines,
                    "powers": [{"discipline": d, "level": level, "power": p} for d, level, p in listed],
                },
            },
        )
        assert made.status_code in (200, 201), made.text
        character = made.json()["id"]
        for lang in ("fr", "es"):
            page = storyteller.get(f"{chronicle}/characters/{character}?lang={lang}")
            assert page.status_code == 200
            assert problems(page.text, lang, english_parts(lang)) == []
            text = html.unescape(page.text)
            from rollbook.i18n import translate

            for d, level, p in listed:
                name = translate(powers.known(system)[d][p][1], lang)
                assert f"{name} ({level})" in text, (lang, name)
