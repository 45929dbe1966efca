"""Dice sources: secure, seeded/HMAC (unbiased, reproducible) and given faces."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from rollbook.dice import GivenFaces, HmacDice, SecureDice, SeededDice, roll
from rollbook.rules import get_system
from rollbook.rules.base import RuleError
from rollbook.systems.v20.rules import V20Request
from tests.fair.reference import reference_hmac_faces


def test_secure_dice_stay_on_the_die():
    faces = SecureDice().draw(2000, 10)
    assert len(faces) == 2000 and set(faces) <= set(range(1, 11))
    assert len(set(faces)) == 10  # all ten faces appear in 2000 draws (p of failure ~ 1e-90)


def test_secure_dice_use_the_operating_system_source(monkeypatch):
    calls = []

    def fake_randbelow(n):
        calls.append(n)
        return n - 1

    monkeypatch.setattr("rollbook.dice.secrets.randbelow", fake_randbelow)
    assert SecureDice().draw(3, 20) == (20, 20, 20) and calls == [20, 20, 20]


def test_seeded_dice_reproduce_and_differ_by_seed():
    assert SeededDice(7).draw(20, 10) == SeededDice(7).draw(20, 10)
    assert SeededDice(7).draw(20, 10) != SeededDice(8).draw(20, 10)


def test_hmac_dice_are_uniform_enough_and_commit_to_their_seed():
    source = HmacDice(b"table seed")
    counts = Counter(source.draw(60000, 6))
    assert all(abs(counts[face] - 10000) < 500 for face in range(1, 7))
    # The commitment is the published SHA-256 of the seed (checked independently), and binds to it.
    assert HmacDice(b"table seed").commitment() == hashlib.sha256(b"table seed").hexdigest()
    assert HmacDice("table seed").commitment() == hashlib.sha256(b"table seed").hexdigest()
    assert HmacDice(b"table seed").commitment() != HmacDice(b"table seed!").commitment()


@pytest.mark.parametrize("sides", [2, 6, 10, 20, 100])
def test_hmac_faces_can_be_regenerated_from_the_seed_alone(sides):
    assert HmacDice(b"table seed").draw(200, sides) == reference_hmac_faces(b"table seed", 200, sides)


def test_hmac_rejection_sampling_has_no_modulo_bias_on_a_die_that_does_not_divide_2_64():
    # 2**64 % 10 == 6: values >= limit must be redrawn, never folded onto faces 1..6.
    limit = (1 << 64) - ((1 << 64) % 10)
    fed = iter([limit, (1 << 64) - 1, limit - 1, 3])  # two values in the biased tail, then two good ones

    class Stubbed(HmacDice):
        def _next_u64(self) -> int:
            return next(fed)

    # limit and 2**64 − 1 would fold onto faces 1 and 6: both must be skipped.
    assert Stubbed(b"x").draw(2, 10) == ((limit - 1) % 10 + 1, 4)
    assert next(fed, None) is None  # exactly the four values were consumed


def test_given_faces_feed_a_roll_and_refuse_bad_faces():
    system = get_system("v20")
    faces, receipt = roll(system, V20Request(pool=3), GivenFaces([7, 1, 9]))
    assert faces == (7, 1, 9) and receipt.successes == 1
    with pytest.raises(RuleError) as short:
        roll(system, V20Request(pool=3), GivenFaces([7]))
    assert short.value.code == "not_enough_faces"
    with pytest.raises(RuleError) as bad:
        GivenFaces([0]).draw(1, 10)
    assert bad.value.code == "face_out_of_range"
