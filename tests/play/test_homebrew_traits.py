"""Issue 13 point 3: a homebrew trait is a key kept as typed (accents, case, spaces); what paths and
the specialties' lines use (".", ":", ","), blanks at the ends and a digit first are refused."""

from __future__ import annotations

import pytest

from rollbook.play.v5_sheet import Sheet


def test_the_sheet_keeps_a_homebrew_trait_as_typed():
    sheet = Sheet.model_validate({"name": "Nadia", "disciplines": {"Nécromancie des Ombres": 2, "oblivion": 1},
                                  "skills": {"Savoir Égoutier": 1, "l'Œil-du-Rat": 1},
                                  "specialties": {"Savoir Égoutier": ["Égouts"]}})
    assert sheet.disciplines["Nécromancie des Ombres"] == 2
    assert sheet.specialties == {"Savoir Égoutier": ["Égouts"]}


@pytest.mark.parametrize("bad", ["a.b", "a: b", "a,b", " leading", "trailing ", "1st", "", "x" * 41])
def test_what_a_trait_cannot_be(bad):
    with pytest.raises(ValueError):
        Sheet.model_validate({"name": "Nadia", "disciplines": {bad: 1}})
