"""V5 rules pinned with fixed faces (SPEC V5-1 … V5-15) and property tests of their invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.rules.base import RuleError
from rollbook.systems.v5 import rules as v5
from rollbook.systems.v5.rules import V5Request, reroll, resolve


def test_V5_1_six_or_more_succeeds_and_difficulty_counts_successes():
    receipt = resolve(V5Request(pool=4, difficulty=2), (6, 5, 9, 1))
    assert receipt.successes == 2 and receipt.win and receipt.margin == 0


def test_V5_1_difficulty_below_one_refused():
    with pytest.raises(RuleError):
        V5Request(pool=3, difficulty=0)


def test_V5_2_hunger_replaces_dice_never_adds():
    request = V5Request(pool=7, hunger=3)
    assert (request.normal_dice, request.hunger_dice) == (4, 3)
    receipt = resolve(request, (1, 2, 3, 4, 5, 6, 7))
    assert receipt.normal == (1, 2, 3, 4) and receipt.hunger == (5, 6, 7)


def test_V5_2_pool_smaller_than_hunger_rolls_only_hunger_dice():
    request = V5Request(pool=2, hunger=5)
    assert (request.normal_dice, request.hunger_dice) == (0, 2)


def test_V5_2_hunger_zero_rolls_none_and_above_five_refused():
    assert V5Request(pool=3, hunger=0).hunger_dice == 0
    with pytest.raises(RuleError):
        V5Request(pool=3, hunger=6)


def test_V5_3_each_pair_of_tens_adds_two_normal_and_hunger_together():
    receipt = resolve(V5Request(pool=3, hunger=1, difficulty=1), (10, 3, 10))
    assert receipt.successes == 4 and receipt.critical_pairs == 1
    assert resolve(V5Request(pool=1), (10,)).successes == 1  # a lone 10
    three_tens = resolve(V5Request(pool=3), (10, 10, 10))
    assert three_tens.successes == 5  # one pair (+2) and a lone ten


def test_V5_4_margin():
    assert resolve(V5Request(pool=3, difficulty=5), (6, 7, 2)).margin == -3


def test_V5_5_critical_needs_a_winning_pair():
    receipt = resolve(V5Request(pool=2, difficulty=3), (10, 10))
    assert receipt.outcome == "critical" and receipt.critical and not receipt.messy
    losing = resolve(V5Request(pool=2, difficulty=5), (10, 10))
    assert not losing.critical and losing.outcome == "failure"


def test_V5_5_messy_critical_needs_a_hunger_ten_in_a_winning_pair():
    receipt = resolve(V5Request(pool=3, hunger=1, difficulty=2), (10, 4, 10))
    assert receipt.outcome == "messy_critical" and receipt.messy
    lone_hunger_ten = resolve(V5Request(pool=2, hunger=1, difficulty=1), (4, 10))
    assert lone_hunger_ten.outcome == "success" and not lone_hunger_ten.messy


def test_V5_5_hunger_ten_on_a_losing_roll_is_not_messy():
    receipt = resolve(V5Request(pool=2, hunger=1, difficulty=6), (10, 10))
    assert not receipt.messy and receipt.outcome == "failure"


def test_V5_6_bestial_failure_is_a_losing_roll_with_a_hunger_one():
    # Marlow misses the door (seed 001): 8, 2, 10 and Hunger 1, 6, 4 at difficulty 4
    receipt = resolve(V5Request(pool=6, hunger=3, difficulty=4), (8, 2, 10, 1, 6, 4))
    assert receipt.successes == 3 and receipt.outcome == "bestial_failure" and receipt.bestial


def test_V5_6_a_normal_one_does_nothing_and_a_hunger_one_on_a_win_does_nothing():
    normal_one = resolve(V5Request(pool=2, hunger=1, difficulty=2), (1, 3))  # the 1 is the normal die
    assert normal_one.hunger == (3,) and normal_one.outcome == "total_failure" and not normal_one.bestial
    winning = resolve(V5Request(pool=2, hunger=1, difficulty=1), (7, 1))
    assert winning.hunger == (1,) and winning.outcome == "success" and not winning.bestial


def test_V5_7_outcome_precedence():
    assert (
        resolve(V5Request(pool=2, hunger=1, difficulty=1), (2, 1)).outcome == "bestial_failure"
    )  # over total failure
    assert resolve(V5Request(pool=2, difficulty=1), (2, 3)).outcome == "total_failure"
    assert resolve(V5Request(pool=2, difficulty=3), (7, 3)).outcome == "failure"
    assert resolve(V5Request(pool=2, difficulty=1), (7, 3)).outcome == "success"


def test_V5_8_willpower_reroll_up_to_three_normal_dice_keeps_history():
    request = V5Request(pool=6, hunger=3, difficulty=4)
    first = resolve(request, (8, 2, 10, 1, 6, 4))
    after = reroll(request, first, (1,), (9,))
    assert after.original_normal == (8, 2, 10) and after.normal == (8, 9, 10) and after.hunger == (1, 6, 4)
    assert after.rerolls[0].dice == (1,) and after.rerolls[0].old == (2,) and after.rerolls[0].new == (9,)
    assert after.outcome == "success"  # the bestial failure disappears with the failure


def test_V5_8_a_hunger_die_can_never_be_rerolled():
    request = V5Request(pool=4, hunger=2)
    first = resolve(request, (3, 4, 1, 1))
    with pytest.raises(RuleError) as refused:
        reroll(request, first, (2,), (9,))
    assert refused.value.code == "reroll_hunger_die"


def test_V5_8_more_than_three_dice_or_duplicates_refused():
    request = V5Request(pool=5)
    first = resolve(request, (1, 2, 3, 4, 5))
    with pytest.raises(RuleError) as too_many:
        reroll(request, first, (0, 1, 2, 3), (6, 6, 6, 6))
    assert too_many.value.code == "reroll_dice_count"
    with pytest.raises(RuleError) as twice:
        reroll(request, first, (0, 0), (6, 6))
    assert twice.value.code == "reroll_duplicate_die"


def test_V5_8_strict_allows_one_reroll_casual_repeats():
    strict = V5Request(pool=3)
    once = reroll(strict, resolve(strict, (1, 2, 3)), (0,), (4,))
    with pytest.raises(RuleError) as refused:
        reroll(strict, once, (1,), (4,))
    assert refused.value.code == "reroll_limit_strict"
    casual = V5Request(pool=3, mode="casual")
    twice = reroll(casual, reroll(casual, resolve(casual, (1, 2, 3)), (0,), (4,)), (1,), (7,))
    assert len(twice.rerolls) == 2 and twice.normal == (4, 7, 3)
    with pytest.raises(RuleError) as exhausted:
        reroll(casual, twice, (2,), (7,), willpower_current=0)
    assert exhausted.value.code == "willpower_exhausted"


def test_V5_8_a_reroll_can_break_a_pair_but_never_remove_a_hunger_ten():
    request = V5Request(pool=3, hunger=1, difficulty=2)
    messy = resolve(request, (10, 5, 10))
    assert messy.outcome == "messy_critical"
    cleaned = reroll(request, messy, (0,), (7,))
    assert cleaned.outcome == "success" and cleaned.hunger == (10,)
    two_hunger_tens = V5Request(pool=3, hunger=2, difficulty=2)
    stuck = resolve(two_hunger_tens, (5, 10, 10))
    assert reroll(two_hunger_tens, stuck, (0,), (2,)).outcome == "messy_critical"


@pytest.mark.parametrize("kind", ["rouse", "willpower", "remorse", "frenzy"])
def test_V5_9_rolls_that_never_carry_hunger(kind):
    request = v5.rouse_request(4) if kind == "rouse" else V5Request(pool=4, hunger=4, kind=kind)
    assert request.hunger_dice == 0
    faces = (1,) if kind == "rouse" else (1, 1, 1, 1)
    receipt = resolve(request, faces)
    assert receipt.hunger == () and not receipt.bestial


def test_V5_10_rouse_check_success_keeps_hunger_failure_raises_it():
    assert resolve(v5.rouse_request(2), (6,)).hunger_gain == 0
    failed = resolve(v5.rouse_request(2), (5,))
    assert failed.hunger_gain == 1 and failed.outcome == "failure" and not failed.bestial


@pytest.mark.parametrize("creature", ["ghoul", "mortal"])
def test_V5_12_one_rule_refuses_a_ghouls_rouse_wherever_it_is_asked(creature):
    """V5-12: a ghoul or a mortal has no vampiric blood to rouse. The refusal lives in the rules request,
    so the CLI (``rouse_request``), the resolve contract and the play layer give the same answer."""
    from rollbook.contract import resolve_request
    from rollbook.dice import GivenFaces
    from rollbook.play import new_sheet, perform

    answers = []
    for ask in (
        lambda: v5.rouse_request(0, creature=creature),
        lambda: V5Request(pool=1, kind="rouse", creature=creature),
        lambda: resolve_request({"system": "v5", "kind": "rouse", "normal": [7], "creature": creature}),
        lambda: perform(
            "v5",
            new_sheet("v5", {"name": "Renfield", "creature": creature}),
            {"kind": "rouse"},
            mode="strict",
            role="player",
            source=GivenFaces([]),
        ),
    ):
        with pytest.raises(RuleError) as refused:
            ask()
        answers.append((refused.value.code, refused.value.params))
    assert answers == [("no_rouse_for_creature", {"creature": creature})] * 4
    assert resolve(v5.rouse_request(0, creature="thin_blood"), (7,)).outcome == "success"


def test_V5_10_rouse_at_hunger_five_is_flagged_and_cannot_raise():
    receipt = resolve(v5.rouse_request(5), (1,))
    assert receipt.hunger_gain == 0 and receipt.hunger_frenzy_risk


def test_V5_10_blood_potency_reroll_keeps_the_better():
    request = v5.rouse_request(1, blood_potency_reroll=True)
    assert v5.needed(request, ()) == (10, 10)
    assert resolve(request, (2, 7)).outcome == "success"
    assert resolve(request, (2, 3)).hunger_gain == 1


def test_V5_11_blood_surge_dice_are_normal_dice_in_the_pool():
    surged = V5Request(pool=5 + 2, hunger=2)  # the surge adds to the pool; Hunger still replaces
    assert surged.normal_dice == 5 and surged.hunger_dice == 2


@pytest.mark.parametrize(
    "creature,hunger_dice", [("vampire", 2), ("thin_blood", 2), ("ghoul", 0), ("mortal", 0)]
)
def test_V5_12_who_has_hunger_dice(creature, hunger_dice):
    request = V5Request(pool=4, hunger=2, creature=creature)
    assert request.hunger_dice == hunger_dice
    # The last two faces are the Hunger dice of a vampire: a Hunger 10 in the winning pair is messy.
    win = resolve(request, (10, 3, 1, 10))
    assert len(win.hunger) == hunger_dice and win.successes == 4
    assert win.outcome == ("messy_critical" if hunger_dice else "critical") and win.messy == bool(hunger_dice)
    # ... and a Hunger 1 on a losing roll is a bestial failure; a ghoul's or a mortal's 1 is not.
    loss = resolve(request, (2, 3, 4, 1))
    assert loss.outcome == ("bestial_failure" if hunger_dice else "total_failure") and loss.bestial == bool(
        hunger_dice
    )


def test_V5_13_hunger_dice_are_taken_from_the_request_not_chosen_by_the_client():
    # Faces are flat; the request (built from the sheet by the server) decides which are Hunger dice.
    receipt = resolve(V5Request(pool=3, hunger=1), (10, 10, 1))
    assert receipt.hunger == (1,)


def test_V5_14_resolver_reports_but_writes_no_frenzy():
    receipt = resolve(V5Request(pool=2, hunger=2, difficulty=3), (1, 1))
    assert receipt.outcome == "bestial_failure"
    assert not hasattr(receipt, "frenzy") and not hasattr(receipt, "compulsion")


def test_V5_15_remorse_dice_and_humanity_loss():
    assert v5.remorse_dice(7, 1) == 2
    assert v5.remorse_dice(8, 2) == 1  # minimum one
    request = V5Request(pool=2, kind="remorse")
    assert v5.remorse_humanity_loss(resolve(request, (3, 5))) == 1
    assert v5.remorse_humanity_loss(resolve(request, (3, 6))) == 0


def test_named_reroll_choices_pick_only_normal_dice():
    normal, hunger = (10, 2, 7, 1, 6), (10, 1)
    assert v5.pick_failures(normal, hunger) == (3, 1)
    assert v5.pick_criticals(normal, hunger) == (3, 1, 4)
    assert v5.pick_avoid_messy(normal, hunger) == (0, 3, 1)
    assert v5.pick_risky(normal, hunger) == (3, 1, 4)


@st.composite
def v5_rolls(draw):
    pool = draw(st.integers(1, 12))
    hunger = draw(st.integers(0, 5))
    difficulty = draw(st.integers(1, 8))
    request = V5Request(pool=pool, hunger=hunger, difficulty=difficulty, mode="casual")
    faces = tuple(draw(st.lists(st.integers(1, 10), min_size=pool, max_size=pool)))
    return request, faces


@given(v5_rolls())
def test_V5_2_property_hunger_dice_never_exceed_the_pool(roll):
    request, faces = roll
    receipt = resolve(request, faces)
    assert len(receipt.hunger) == min(request.hunger, request.pool) <= request.pool
    assert len(receipt.normal) + len(receipt.hunger) == request.pool


@given(v5_rolls())
def test_V5_7_property_outcome_flags_agree(roll):
    request, faces = roll
    receipt = resolve(request, faces)
    # The outcome recomputed from SPEC alone (V5-2 … V5-7).
    split = len(faces) - min(request.hunger, request.pool)
    normal, hunger = faces[:split], faces[split:]
    tens = faces.count(10)
    successes = sum(1 for f in faces if f >= 6) + 2 * (tens // 2)
    win = successes >= request.difficulty
    if win and tens >= 2:
        expected = "messy_critical" if 10 in hunger else "critical"
    elif win:
        expected = "success"
    elif 1 in hunger:
        expected = "bestial_failure"
    else:
        expected = "failure" if successes else "total_failure"
    assert (receipt.normal, receipt.hunger) == (normal, hunger)
    assert receipt.successes == successes and receipt.margin == successes - request.difficulty
    assert receipt.outcome == expected
    assert receipt.bestial == (not win and 1 in hunger) and receipt.messy == (expected == "messy_critical")
    assert receipt.outcome in v5.OUTCOMES
    assert receipt.messy <= receipt.critical <= receipt.win
    assert not (receipt.win and receipt.bestial)
    if receipt.bestial:
        assert 1 in receipt.hunger and receipt.outcome == "bestial_failure"
    if receipt.messy:
        assert 10 in receipt.hunger


@given(v5_rolls(), st.sampled_from(sorted(v5.REROLL_CHOICES)), st.data())
def test_V5_8_property_rerolls_never_touch_hunger_dice(roll, choice, data):
    request, faces = roll
    first = resolve(request, faces)
    picked = v5.REROLL_CHOICES[choice](first.normal, first.hunger)
    assert len(picked) <= 3 and all(0 <= i < len(first.normal) for i in picked)
    if not picked:
        return
    new = tuple(data.draw(st.lists(st.integers(1, 10), min_size=len(picked), max_size=len(picked))))
    after = reroll(request, first, picked, new)
    assert after.hunger == first.hunger
    expected = list(first.normal)
    for index, face in zip(picked, new):
        expected[index] = face
    assert after.normal == tuple(expected) and after.original_normal == first.normal
    assert (after.rerolls[-1].dice, after.rerolls[-1].new) == (tuple(picked), new)
