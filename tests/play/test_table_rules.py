"""TR-1 in the play layer: the chronicle's table rules go into the rules request and the receipt;
a receipt stored before the table rules existed still verifies."""

from __future__ import annotations

import copy

import pytest

from rollbook.dice import GivenFaces
from rollbook.play import perform, preview, verify_receipt
from rollbook.rules.base import RuleError

SHEET = {
    "name": "Ana",
    "attributes": {"dexterity": 4},
    "skills": {"firearms": 2},
    "specialties": {"dexterity": ["quick draw"]},
    "willpower": {"permanent": 3, "current": 3},
}
ACTION = {"kind": "test", "attribute": "dexterity", "ability": "firearms", "specialty": "quick draw"}


def test_TR_1_perform_resolves_under_and_records_the_table_rules():
    done = perform(
        "v20",
        SHEET,
        ACTION,
        mode="strict",
        role="storyteller",
        source=GivenFaces([10, 3, 4, 5, 8, 2, 2]),
        table_rules=["v20.specialty_reroll_tens"],
    )
    receipt = done.receipt
    assert receipt["table_rules"] == ["v20.specialty_reroll_tens"] == receipt["request"]["table_rules"]
    assert receipt["faces"] == [10, 3, 4, 5, 8, 2, 2]  # six dice, then the 10's reroll (a 2)
    assert receipt["result"]["successes"] == 2 and receipt["result"]["rerolled"] == 1
    assert verify_receipt(receipt) == []
    plain = perform(
        "v20", SHEET, ACTION, mode="strict", role="storyteller", source=GivenFaces([10, 3, 4, 5, 8, 2])
    )
    assert (
        plain.receipt["table_rules"] == [] and plain.receipt["result"]["successes"] == 3
    )  # V20-7: the 10 twice
    assert preview(
        "v20", SHEET, ACTION, mode="strict", role="storyteller", table_rules=["v20.ones_do_not_cancel"]
    )["request"]["table_rules"] == ["v20.ones_do_not_cancel"]


def test_TR_1_a_table_rule_of_another_system_is_refused():
    with pytest.raises(RuleError) as refused:
        perform(
            "v5",
            {"name": "S", "attributes": {"dexterity": 2}, "skills": {"firearms": 1}},
            {"kind": "test", "attribute": "dexterity", "skill": "firearms"},
            mode="strict",
            role="storyteller",
            source=GivenFaces([5, 5, 5]),
            table_rules=["v20.ones_do_not_cancel"],
        )
    assert refused.value.code == "unknown_table_rule"


def test_TR_1_a_receipt_from_before_the_table_rules_still_verifies_and_a_forged_rule_does_not():
    receipt = perform(
        "v20", SHEET, ACTION, mode="strict", role="storyteller", source=GivenFaces([10, 3, 4, 5, 8, 2])
    ).receipt
    old = copy.deepcopy(receipt)
    for name in ("table_rules", "reroll_limit", "rerolled", "reroll_capped"):
        del old["result"][name]
    del old["request"]["table_rules"]
    del old["table_rules"]
    assert verify_receipt(old) == []
    forged = copy.deepcopy(receipt)
    forged["request"]["table_rules"] = ["v20.ones_do_not_cancel"]
    assert verify_receipt(forged)  # the result says otherwise
