"""A system that declares no words of its own speaks the neutral words of the presentation room
(``present.neutral_words``), never another system's: roll-under keeps its own."""

from __future__ import annotations

from rollbook.play.systems import own_module
from rollbook.present import neutral_words
from rollbook.present.words import own_words, words
from tests.toy_system import house_registered


def test_a_system_without_words_speaks_the_neutral_ones_and_roll_under_its_own():
    with house_registered():
        assert own_words("toy_house") is None
        spoken = words("toy_house")
        assert spoken is neutral_words
        assert spoken.pool_total("Might 3", 3, {}, "en") == "Might 3 = target 3"
        assert spoken.quick({"action": "climb", "level": 12}, "en") == "“climb” against 12"
        assert set(spoken.OUTCOMES) == {"success", "failure"}  # the odds contract's common outcomes
    assert words("rollunder") is own_module("rollunder", "words") is not neutral_words
    assert "critical_success" in words("rollunder").OUTCOMES  # roll-under's words stay its own
