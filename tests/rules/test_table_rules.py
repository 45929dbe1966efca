"""Table rules (SPEC TR-1, TR-2) in the V20 resolver, pinned with fixed faces, each with and without
its rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.dice import GivenFaces, roll
from rollbook.rules import get_system
from rollbook.rules.base import RuleError
from rollbook.rules.table import TABLE_RULES, check_table_rules, rules_for
from rollbook.systems.v20.rules import REROLL_LIMIT, V20Request, needed, resolve

REROLL = "v20.specialty_reroll_tens"
ONES = "v20.ones_do_not_cancel"
WILLPOWER = "v20.willpower_once_per_turn"


def specialty(pool: int, *rules: str, **more) -> V20Request:
    return V20Request(pool=pool, specialty=True, specialty_rating=4, table_rules=rules, **more)


def test_TR_2_the_three_rules_each_cite_the_rule_they_replace():
    assert {rule.id: rule.replaces for rule in TABLE_RULES.values()} == {
        REROLL: "V20-7",
        ONES: "V20-8",
        WILLPOWER: "V20-9",
    }
    assert rules_for("v20") == sorted([REROLL, ONES, WILLPOWER]) and rules_for("v5") == []


def test_TR_1_the_set_is_canonical_and_unknown_ids_are_refused():
    assert check_table_rules("v20", [REROLL, ONES, REROLL]) == (ONES, REROLL)  # sorted, once each
    assert V20Request(pool=1, table_rules=[ONES, ONES]).table_rules == (ONES,)
    for bad in (["v20.exploding_everything"], ["v5.anything"], [3]):
        with pytest.raises(RuleError) as refused:
            V20Request(pool=1, table_rules=bad)
        assert refused.value.code == "unknown_table_rule"
    with pytest.raises(RuleError):
        check_table_rules("v5", [ONES])  # a V20 rule is not a V5 chronicle's


def test_TR_2_specialty_reroll_tens_each_ten_is_one_success_and_adds_a_die():
    """Faces 10, 7, 3 at difficulty 6 with a specialty: V20-7 counts the 10 twice (3 successes);
    the table rule counts it once and rolls one more die (here a 6: 3 successes, one die more)."""
    without = resolve(specialty(3), (10, 7, 3))
    assert (without.rolled_successes, without.specialty_tens, without.rerolled) == (3, 1, 0)
    assert without.reroll_limit is None
    request = specialty(3, REROLL)
    assert needed(request, (10, 7, 3)) == (10,)  # the 10 asks for one more die, at once
    receipt = resolve(request, (10, 7, 3, 6))
    assert (receipt.rolled_successes, receipt.specialty_tens, receipt.rerolled) == (3, 0, 1)
    assert receipt.faces == (10, 7, 3, 6) and receipt.table_rules == (REROLL,)
    assert receipt.reroll_limit == REROLL_LIMIT  # EXAMPLES item 10: the bound is said in the receipt
    with pytest.raises(RuleError) as refused:
        resolve(request, (10, 7, 3))  # the reroll is part of the roll
    assert refused.value.code == "wrong_face_count"


def test_TR_2_specialty_reroll_tens_a_reroll_may_be_a_ten_again_and_its_one_does_not_cancel():
    request = specialty(2, REROLL)
    assert needed(request, (10, 10)) == (10, 10)
    assert needed(request, (10, 10, 10, 1)) == (10,)  # the second generation's 10 rerolls again
    receipt = resolve(request, (10, 10, 10, 1, 4))
    # 10, 10, 10 succeed; the reroll's 1 neither succeeds nor cancels (Reading); 4 fails
    assert (receipt.ones, receipt.rolled_successes, receipt.cancelled, receipt.successes) == (0, 3, 0, 3)
    assert receipt.rerolled == 3
    # a 1 of the pool still cancels (V20-8 unchanged by this rule)
    cancelled = resolve(request, (10, 1, 5))  # pool 10, 1; the 10's reroll shows 5
    assert (cancelled.cancelled, cancelled.successes, cancelled.outcome) == (1, 0, "failure")


def test_TR_2_specialty_reroll_tens_the_chain_is_bounded():
    request = specialty(1, REROLL)
    faces = (10,) * (REROLL_LIMIT + 1)  # the pool's die and REROLL_LIMIT rerolls, all tens
    assert needed(request, faces) == ()
    receipt = resolve(request, faces)
    assert (receipt.rerolled, receipt.reroll_capped, receipt.successes) == (REROLL_LIMIT, 1, REROLL_LIMIT + 1)


def test_TR_2_specialty_reroll_tens_applies_only_with_a_specialty():
    request = V20Request(pool=2, table_rules=[REROLL])
    assert needed(request, (10, 10)) == ()
    assert resolve(request, (10, 10)).rolled_successes == 2


def test_TR_2_ones_do_not_cancel():
    """Faces 6, 1, 1: V20-8 cancels the success (a failure, not a botch); under the rule 1s cancel
    nothing (a success). A botch still needs no rolled success and a 1 (V20-11 unchanged)."""
    assert resolve(V20Request(pool=3), (6, 1, 1)).outcome == "failure"
    kept = resolve(V20Request(pool=3, table_rules=[ONES]), (6, 1, 1))
    assert (kept.cancelled, kept.successes, kept.outcome) == (0, 1, "success")
    assert resolve(V20Request(pool=3, table_rules=[ONES]), (2, 1, 4)).outcome == "botch"
    assert resolve(V20Request(pool=3), (2, 1, 4)).outcome == "botch"


def test_TR_2_willpower_once_per_turn_changes_nothing_in_one_roll():
    """The limit is per turn (enforced by the turn's checks, A-3); one roll resolves as V20-9."""
    plain = resolve(V20Request(pool=2, willpower=True), (1, 3))
    ruled = resolve(V20Request(pool=2, willpower=True, table_rules=[WILLPOWER]), (1, 3))
    assert plain.outcome == ruled.outcome == "success" and ruled.table_rules == (WILLPOWER,)


@given(
    st.lists(st.integers(1, 10), min_size=0, max_size=6),
    st.integers(2, 10),
    st.sampled_from([(), (REROLL,), (ONES,), (REROLL, ONES)]),
)
def test_TR_1_a_roll_drawn_through_needed_always_resolves(pool_faces, difficulty, rules):
    """Whatever the dice, the faces ``needed`` asks for make a complete roll (the loop ends)."""
    request = V20Request(
        pool=len(pool_faces), difficulty=difficulty, specialty=True, specialty_rating=5, table_rules=rules
    )
    source = GivenFaces(list(pool_faces) + [10] * 200)
    faces, receipt = roll(get_system("v20"), request, source)
    assert len(faces) <= len(pool_faces) * (REROLL_LIMIT + 1)
    assert receipt.faces == faces and receipt.successes >= 0


def test_TR_2_a_shipped_systems_table_rules_are_declared_in_its_package():
    """Each shipped rule is its system's declaration (``systems/<id>/table_rules.py``, its
    ``TABLE_RULES``), read by the registry by that module's name: the rules core names no rule and no
    system."""
    import importlib
    from pathlib import Path

    from rollbook.rules import table
    from rollbook.systems import SHIPPED

    declared_by_packages = {}
    for system in SHIPPED:
        path = Path(table.__file__).parents[1] / "systems" / system / "table_rules.py"
        if path.exists():
            module = importlib.import_module(f"rollbook.systems.{system}.table_rules")
            assert all(rule.system == system for rule in module.TABLE_RULES)
            declared_by_packages.update({rule.id: rule for rule in module.TABLE_RULES})
    assert declared_by_packages and dict(TABLE_RULES) == declared_by_packages
    source = Path(table.__file__).read_text(encoding="utf-8")
    assert not any(f'"{system}' in source for system in SHIPPED)
