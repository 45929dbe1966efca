"""V5-8: the advice on a Willpower reroll is the part of the system the result names (its odds module's
``advise``, found by name), and a system that takes no reroll advises none."""

from __future__ import annotations

from rollbook.present.preview import reroll_advice
from rollbook.rules.base import to_plain
from rollbook.systems.v5 import rules as v5
from rollbook.systems.v5.odds import advise
from rollbook.systems.v20 import rules as v20


def test_V5_8_a_v5_tests_advice_is_v5s_best_choice():
    request = v5.V5Request(pool=5, hunger=1, difficulty=3)
    result = to_plain(v5.resolve(request, (2, 3, 7, 1, 9)))  # normal 2 3 7 1, Hunger 9: 2 of 3 needed
    view = reroll_advice(result, "win", [0], "en")
    best = advise([2, 3, 7, 1], [9], 3, "win")[0]
    assert view is not None and view.best_dice == list(best.dice) and view.best_faces == list(best.faces)
    assert view.chosen_dice == [0] and view.chosen is not None  # the die ticked, its own chance


def test_V5_8_a_system_without_a_reroll_advises_none():
    result = to_plain(v20.resolve(v20.V20Request(pool=3, difficulty=6), (2, 3, 7)))
    assert reroll_advice({**result, "normal": [2, 3], "hunger": [], "difficulty": 6}, "win", [], "en") is None
