"""A system registered from outside (the toy, ``tests/toy_system``) gets its part of each registry by
declaring it in its own modules, with no id listed in the package: its contest rules (``CONTESTS`` on
its rules module: ``rules.contests``), its roll's shape in a contest (``CONTEST_SHAPE``: ``odds.contests``),
its words (``WORDS``: ``present.words``, the roll form's ``present.forms``); a system that declares
none has none."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rollbook.odds.contests import contest_odds, extended_odds
from rollbook.present import exchange, forms, words
from rollbook.rules import contests
from rollbook.rules.base import RuleError
from tests.toy_system import house_registered, registered, toy


@pytest.fixture()
def system():
    with registered() as system:
        yield system


def test_its_contest_rules_are_the_ones_it_declares(system):
    assert system in contests.PARTS and contests.PARTS[system] is toy.RULES.CONTESTS
    outcome = contests.contest(system, {"successes": 2}, {"successes": 1})
    assert (outcome["winner"], outcome["margin"]) == ("attacker", 1)
    state = contests.extended(system, 3, None, [{"successes": 1}, {"successes": 2}])
    assert (state.status, state.total, state.rolls) == ("reached", 3, 2)


def test_its_contest_odds_are_its_dice_counted_one_by_one(system):
    def successes(pool: int) -> dict[int, Fraction]:
        counted: dict[int, Fraction] = {}
        for faces in product(range(1, toy.SIDES + 1), repeat=pool):
            n = toy.resolve(toy.ToyRequest(pool), faces).successes
            counted[n] = counted.get(n, Fraction(0)) + Fraction(1, toy.SIDES**pool)
        return counted

    a, d = successes(3), successes(2)
    win = sum((pa * pd for sa, pa in a.items() for sd, pd in d.items() if sa > sd), Fraction(0))
    answer = contest_odds(system, toy.ToyRequest(3), toy.ToyRequest(2))
    assert Fraction(answer["outcomes"]["attacker"]) == win
    once = extended_odds(system, toy.ToyRequest(3), 1, 1)
    assert Fraction(once["outcomes"]["reached"]) == 1 - a[0]


def test_a_system_that_declares_no_part_has_none():
    with house_registered():
        with pytest.raises(RuleError) as refused:
            contests.check_system("toy_house")
        assert refused.value.code == "contest_not_for_system"
        assert words.own_words("toy_house") is None  # it speaks roll-under's, the words of no system
        assert forms.exclusive("toy_house", "pool") == ()
        assert exchange.face_of("toy_house") is None


def test_its_words_are_the_ones_it_declares(system):
    assert words.own_words(system) is toy.WORDS and words.words(system) is toy.WORDS
    assert forms.exclusive(system, "pool") == () and forms.one_off() >= toy.WORDS.ONE_OFF
    assert exchange.face_of(system) is None  # no combat chain declared: its steps' labels alone
