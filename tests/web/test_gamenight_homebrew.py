"""Issue 13 point 3: a homebrew trait is shown as typed (accents, case) on the sheet page and in a
roll's receipt, in every language; a name the catalogues know still maps to its canonical id."""

from __future__ import annotations

import html

import pytest
from fastapi.testclient import TestClient

from rollbook.web import labels

CASES = {
    # homebrew discipline, homebrew skill, its homebrew specialty, a known discipline and its id, a known skill
    "fr": ("Nécromancie des Ombres", "Savoir Égoutier", "Égouts", "Occultation", "obfuscate", "Furtivité"),
    "es": ("Nigromancia de Sombras", "Saber Cloaquero", "Cloacas Viejas", "Presencia", "presence", "Sigilo"),
}


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_homebrew_discipline_and_specialty_come_back_as_typed(app, lang):
    discipline, skill, specialty, known, known_id, other = CASES[lang]
    with TestClient(app) as storyteller:
        created = storyteller.post("/chronicles", data={"name": "Lyon", "system": "v5", "storyteller": "Ana",
                                                        "language": lang}, follow_redirects=False)
        chronicle = created.headers["location"]
        added = storyteller.post(f"{chronicle}/characters", data={
            "s.name": "Nadia", "s.attributes.dexterity": "3", "s.attributes.wits": "2", "s.skills.stealth": "2",
            "s.hunger": "1", "new.disciplines.name.0": discipline, "new.disciplines.value.0": "2",
            "new.disciplines.name.1": known, "new.disciplines.value.1": "1",
            "new.skills.name.0": skill, "new.skills.value.0": "1",
            "s.specialties": f"{other}: Toits\n{skill.lower()}: {specialty}"}, follow_redirects=False)
        assert added.status_code == 303, added.text
        sheet_url = added.headers["location"]
        page = html.unescape(storyteller.get(sheet_url).text)
        assert discipline in page and skill in page and specialty in page
        assert f'name="s.disciplines.{known_id}"' in page and f'name="s.disciplines.{discipline}"' in page
        assert f"{other}: Toits" in page  # the known skill's specialty, stored under its id, translated
        assert f"{skill}: {specialty}" in page  # the homebrew skill's, as the sheet holds it
        rolled = storyteller.post(f"{sheet_url}/rolls", data={
            "kind": "test", "attribute": "wits", "discipline": discipline, "difficulty": "2"},
            headers={"HX-Request": "true"})
        assert rolled.status_code == 200, rolled.text
        receipt = html.unescape(rolled.text)
        assert discipline in receipt
        log = html.unescape(storyteller.get(chronicle).text)
        assert discipline in log
        rolled = storyteller.post(f"{sheet_url}/rolls", data={
            "kind": "test", "attribute": "wits", "skill": skill, "specialty": specialty,
            "difficulty": "2"}, headers={"HX-Request": "true"})
        assert rolled.status_code == 200, rolled.text
        receipt = html.unescape(rolled.text)
        assert skill in receipt and specialty in receipt
    assert labels.trait_from_text(known) == known_id
    assert labels.trait_from_text(other) == "stealth"


def test_known_names_map_to_ids_and_homebrew_is_kept():
    assert labels.trait_from_text("Furtivité") == "stealth"
    assert labels.trait_from_text("Presencia") == "presence"
    assert labels.trait_from_text("  Nécromancie   des Ombres ") == "Nécromancie des Ombres"
    assert labels.trait_from_text("nécromancie des ombres", ["Nécromancie des Ombres"]) == "Nécromancie des Ombres"
    assert labels.trait_from_text("3e œil") == "t_3e_il"
    for lang in ("en", "fr", "es"):
        assert labels.trait("Nécromancie des Ombres", lang) == "Nécromancie des Ombres"
    assert labels.trait("egouts", "fr") == "Egouts"  # an id from before: made readable as it was
    assert labels.trait("stealth", "fr") == "Furtivité"

