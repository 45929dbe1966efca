"""Discipline powers from the games' lists: the data is complete and translated, and a sheet
keeps known powers by id and homebrew ones as typed, refusing what the lists or the ratings rule out."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from rollbook.i18n import translate
from rollbook.i18n.messages import ERROR_MESSAGES
from rollbook.play import powers
from rollbook.play.powers_data import POWERS
from rollbook.present import labels, typednames
from rollbook.systems.v5.sheet import Sheet as V5Sheet
from rollbook.systems.v20.sheet import Sheet as V20Sheet
from tests.catalogues import translated_msgids

EVERY_POWER = [
    (system, discipline, level, power_id, name)
    for system, table in POWERS.items()
    for discipline, listed in table.items()
    for level, power_id, name in listed
]


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_power_has_a_name_in_every_language(lang):
    catalogued = translated_msgids(lang)
    missing = sorted({name for *_, name in EVERY_POWER if name not in catalogued})
    assert len(EVERY_POWER) > 100 and not missing, f"{len(missing)} powers lack a {lang} name: {missing[:5]}"
    assert translate("Heightened Senses", lang) != "Heightened Senses"  # the catalogue is compiled and loaded


@pytest.mark.parametrize("system", ["v20", "v5"])
def test_every_known_discipline_has_its_powers(system):
    listed = set(POWERS[system])
    rated_only = set(powers.rated_only(system))
    assert listed | rated_only == set(labels.DISCIPLINES[system]), "a Discipline offered without its powers"
    assert not listed & rated_only
    for discipline in listed:
        levels = {level for level, _, _ in POWERS[system][discipline]}
        assert levels == {1, 2, 3, 4, 5}, f"{system} {discipline}: levels {sorted(levels)}"
        ids = [power_id for _, power_id, _ in POWERS[system][discipline]]
        assert len(ids) == len(set(ids)), f"{system} {discipline}: an id twice"
    if system == "v20":  # one power per dot (the primary path)
        assert all(len(POWERS["v20"][d]) == 5 for d in listed)


def test_powers_typed_in_any_language_fold_to_their_id_per_discipline():
    for system, discipline, _level, power_id, name in EVERY_POWER:
        for lang in ("en", "fr", "es"):
            assert typednames.power_from_text(system, discipline, translate(name, lang)) == power_id, (
                lang,
                name,
            )


@pytest.mark.parametrize(
    "code", ["power_choice", "power_discipline_missing", "power_above_rating", "unknown_power"]
)
def test_each_refusal_has_a_message(code):
    assert code in ERROR_MESSAGES


def _v5(disciplines, listed):
    return V5Sheet.model_validate({"name": "Nadia", "disciplines": disciplines, "powers": listed})


def test_a_sheet_keeps_known_powers_by_id_and_homebrew_as_typed():
    sheet = _v5(
        {"auspex": 2, "necromancie_des_egouts": 1},
        [
            {"discipline": "auspex", "level": 1, "power": "sense_the_unseen"},
            {"discipline": "auspex", "level": 2, "power": "premonition"},
            {"discipline": "necromancie_des_egouts", "level": 1, "name": "Murmure des Égouts"},
        ],
    )
    assert [p.power or p.name for p in sheet.powers] == [
        "sense_the_unseen",
        "premonition",
        "Murmure des Égouts",
    ]
    v20 = V20Sheet.model_validate(
        {
            "name": "Jean",
            "disciplines": {"auspex": 1, "celerity": 3},
            "powers": [
                {"discipline": "auspex", "level": 1, "power": "heightened_senses"},
                {"discipline": "celerity", "level": 1, "name": "Pas de velours"},
            ],
        }
    )
    assert v20.powers[0].power == "heightened_senses"


@pytest.mark.parametrize(
    ("disciplines", "power", "code"),
    [
        ({"auspex": 2}, {"discipline": "auspex", "level": 3, "power": "scry_the_soul"}, "power_above_rating"),
        ({"auspex": 3}, {"discipline": "auspex", "level": 2, "power": "scry_the_soul"}, "unknown_power"),
        (
            {"auspex": 1},
            {"discipline": "auspex", "level": 3, "power": "heightened_senses"},
            "unknown_power",
        ),  # listed at 1
        ({"auspex": 3}, {"discipline": "auspex", "level": 1, "power": "feral_whispers"}, "unknown_power"),
        (
            {"homebrew": 3},
            {"discipline": "homebrew", "level": 1, "power": "heightened_senses"},
            "unknown_power",
        ),
        (
            {"auspex": 3},
            {"discipline": "dominate", "level": 1, "power": "compel"},
            "power_discipline_missing",
        ),
        ({"auspex": 3}, {"discipline": "auspex", "level": 1}, "power_choice"),
        (
            {"auspex": 3},
            {"discipline": "auspex", "level": 1, "power": "sense_the_unseen", "name": "x"},
            "power_choice",
        ),
    ],
)
def test_what_a_power_cannot_be(disciplines, power, code):
    with pytest.raises(ValidationError, match=code):
        _v5(disciplines, [power])


def test_the_same_power_twice_is_refused():
    with pytest.raises(ValidationError, match="duplicate_name"):
        _v5(
            {"auspex": 1},
            [
                {"discipline": "auspex", "level": 1, "power": "sense_the_unseen"},
                {"discipline": "auspex", "level": 1, "power": "sense_the_unseen"},
            ],
        )
    with pytest.raises(ValidationError, match="duplicate_name"):
        _v5(
            {"auspex": 1},
            [
                {"discipline": "auspex", "level": 1, "name": "Œil"},
                {"discipline": "auspex", "level": 1, "name": "œil"},
            ],
        )
