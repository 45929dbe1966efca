"""A player adds a power to their own sheet, within the dots the Storyteller gave (``play.edit_sheet``,
``PLAYER_ADDS``; Book: one power per dot): never changes or removes one, never raises a rating."""

from __future__ import annotations

import pytest

from rollbook.play import edit_sheet
from rollbook.rules.base import RuleError

SHEET = {
    "name": "Inès",
    "attributes": {"wits": 3},
    "disciplines": {"auspex": 2, "potence": 1},
    "powers": [{"discipline": "auspex", "level": 1, "power": "sense_the_unseen"}],
}
PREMONITION = {"discipline": "auspex", "level": 2, "power": "premonition"}


def plain(powers: list[dict]) -> list[dict]:
    return [{k: v for k, v in p.items() if v is not None} for p in powers]


@pytest.mark.parametrize("system", ["v5"])
def test_a_player_adds_a_power_within_the_dots(system):
    edited = edit_sheet(system, SHEET, {"powers": [*SHEET["powers"], PREMONITION]}, role="player")
    assert PREMONITION in plain(edited["powers"]) and len(edited["powers"]) == 2
    homebrew = {"discipline": "potence", "level": 1, "name": "Poing des Égouts"}
    again = edit_sheet(system, edited, {"powers": [homebrew, *edited["powers"]]}, role="player")
    assert homebrew in plain(again["powers"])


def test_a_player_adds_no_power_beyond_the_dots_nor_above_the_rating():
    two = edit_sheet("v5", SHEET, {"powers": [*SHEET["powers"], PREMONITION]}, role="player")
    third = {"discipline": "auspex", "level": 1, "name": "Écoute des murs"}
    with pytest.raises(RuleError) as beyond:
        edit_sheet("v5", two, {"powers": [*two["powers"], third]}, role="player")
    assert beyond.value.code == "powers_beyond_dots"
    assert edit_sheet(
        "v5", two, {"powers": [*two["powers"], third]}, role="storyteller"
    )  # the Storyteller's call
    high = {"discipline": "potence", "level": 2, "name": "Coup"}
    with pytest.raises(RuleError) as above:
        edit_sheet("v5", SHEET, {"powers": [*SHEET["powers"], high]}, role="player")
    assert above.value.code == "power_above_rating"


def test_a_player_changes_or_removes_no_power_and_raises_no_rating():
    for patch in (
        {"powers": []},
        {"powers": [{"discipline": "auspex", "level": 1, "name": "Renamed"}]},
        {"disciplines": {"auspex": 3}},
    ):
        with pytest.raises(RuleError) as refused:
            edit_sheet("v5", SHEET, patch, role="player")
        assert refused.value.code == "forbidden_edit", patch
