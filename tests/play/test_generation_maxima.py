"""Seed details in the V20 sheet: V20-19 trait maxima by Generation (refused in Strict,
taken with a warning in Casual) and V20-7's reading (a specialty accepted at 4 or more, and said so)."""

from __future__ import annotations

import pytest

from rollbook.i18n.messages import error_message
from rollbook.play import edit_sheet, new_sheet, turns
from rollbook.rules.base import RuleError


def test_V20_19_a_dexterity_6_at_generation_13_is_refused_in_strict():
    with pytest.raises(RuleError) as refused:
        new_sheet("v20", {"name": "Nia", "attributes": {"dexterity": 6}}, mode="strict")
    assert refused.value.code == "trait_above_generation"
    assert refused.value.params == {
        "field": "attributes.dexterity",
        "trait": "dexterity",
        "rating": 6,
        "maximum": 5,
        "generation": 13,
    }
    assert "Generation 13 (5)" in error_message("trait_above_generation", "en", refused.value.params)


@pytest.mark.parametrize("generation,top", [(8, 5), (7, 6), (6, 7), (5, 8), (4, 9)])
def test_V20_19_the_maximum_follows_generation(generation, top):
    ok = new_sheet(
        "v20",
        {
            "name": "Nia",
            "generation": generation,
            "attributes": {"dexterity": top},
            "skills": {"firearms": top},
            "disciplines": {"celerity": top},
        },
        mode="strict",
    )
    assert ok["attributes"]["dexterity"] == top and ok["skills"]["firearms"] == top
    for patch in (
        {"attributes": {"dexterity": top + 1}},
        {"skills": {"firearms": top + 1}},
        {"disciplines": {"celerity": top + 1}},
    ):
        with pytest.raises(RuleError) as refused:
            edit_sheet("v20", ok, patch, role="storyteller", mode="strict")
        assert refused.value.code == "trait_above_generation"


def test_V20_19_mortals_stop_at_5():
    with pytest.raises(RuleError):
        new_sheet(
            "v20", {"name": "Hunter", "creature": "mortal", "attributes": {"strength": 6}}, mode="strict"
        )


def test_V20_19_casual_takes_the_sheet_and_the_sheet_says_so():
    sheet = new_sheet("v20", {"name": "Nia", "attributes": {"dexterity": 6}}, mode="casual")
    limits = turns.sheet_limits("v20", sheet)
    assert limits["above_generation"] == [
        {"field": "attributes.dexterity", "trait": "dexterity", "rating": 6, "maximum": 5, "generation": 13}
    ]
    assert "above_generation" not in turns.sheet_limits("v20", new_sheet("v20", {"name": "Ann"}))


def test_V20_7_a_specialty_is_accepted_at_4_or_more_and_the_refusal_says_so():
    sheet = new_sheet(
        "v20",
        {
            "name": "Nia",
            "generation": 7,
            "attributes": {"dexterity": 6},
            "specialties": {"dexterity": ["quick draw"]},
        },
        mode="strict",
    )
    assert sheet["specialties"] == {"dexterity": ["quick draw"]}
    with pytest.raises(RuleError) as refused:
        new_sheet("v20", {"name": "Nia", "skills": {"firearms": 3}, "specialties": {"firearms": ["pistols"]}})
    assert refused.value.code == "specialty_rating_too_low"
    message = error_message("specialty_rating_too_low", "en", refused.value.params)
    assert "4 or more" in message and "4 or 5" not in message
    assert "4 ou plus" in error_message("specialty_rating_too_low", "fr", refused.value.params)
