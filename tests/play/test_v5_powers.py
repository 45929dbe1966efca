"""V5 Discipline powers rolled and paid in one step (``systems.v5.powers``, the book's pools and
Rouse costs in docs/book-sources.md): fixed faces, the test's dice first, then each Rouse check on the
Hunger the previous one left (V5-2, V5-10), Blood Potency's reroll by the power's level."""

from __future__ import annotations

import copy

from rollbook.play import authority, verify_receipt

from .helpers import checked_roll, refused, sample_sheet


def sheet(**extra):
    base = {
        "disciplines": {"dominate": 2, "animalism": 1, "potence": 2},
        "powers": [
            {"discipline": "dominate", "level": 1, "power": "compel"},
            {"discipline": "dominate", "level": 2, "power": "mesmerize"},
            {"discipline": "animalism", "level": 1, "power": "bond_famulus"},
            {"discipline": "potence", "level": 2, "power": "prowess"},
            {"discipline": "potence", "level": 1, "power": "lethal_body"},
        ],
        "attributes": {
            "strength": 4,
            "dexterity": 2,
            "stamina": 3,
            "charisma": 3,
            "manipulation": 2,
            "composure": 2,
            "resolve": 3,
            "wits": 3,
        },
        "skills": {"brawl": 2, "animal_ken": 1},
        "hunger": 1,
        "blood_potency": 1,
    }
    return sample_sheet("v5", **{**base, **extra})


def test_a_power_rolls_its_pool_and_pays_its_rouse_check_in_one_step():
    """Mesmerize (Dominate 2): Manipulation + Dominate, one Rouse check. Manipulation 2 + Dominate 2 = 4
    dice, Hunger 1: three normal dice and a Hunger die; then the Rouse die, a 3: Hunger 1 → 2."""
    done = checked_roll(
        "v5",
        sheet(),
        {"kind": "power", "discipline": "dominate", "power": "mesmerize", "difficulty": 2},
        [7, 8, 2, 5, 3],
    )
    receipt = done.receipt
    assert [(p["trait"], p["rating"]) for p in receipt["pool"]["parts"]] == [
        ("manipulation", 2),
        ("dominate", 2),
    ]
    assert receipt["request"]["hunger"] == 1 and receipt["pool"]["hunger_dice"] == 1
    assert receipt["result"]["successes"] == 2 and receipt["result"]["outcome"] == "success"
    assert receipt["power"] == {
        "discipline": "dominate",
        "power": "mesmerize",
        "level": 2,
        "rouse_checks": 1,
        "blood_potency_reroll": False,
    }  # BP 1 rerolls level 1 powers only
    assert [r["faces"] for r in receipt["rouses"]] == [[3]]
    assert done.sheet["hunger"] == 2 and verify_receipt(receipt) == []


def test_a_free_power_rolls_without_a_rouse_and_a_costly_one_pays_each_check_in_turn():
    compel = checked_roll(
        "v5", sheet(), {"kind": "power", "discipline": "dominate", "power": "compel"}, [6, 6, 6, 6, 6]
    )  # Charisma 3 + Dominate 2, no Rouse
    assert "rouses" not in compel.receipt and compel.sheet["hunger"] == 1
    famulus = checked_roll(
        "v5",
        sheet(),
        {"kind": "power", "discipline": "animalism", "power": "bond_famulus"},
        [6, 6, 6, 6, 2, 3, 4, 8, 1, 1],
    )  # Charisma 3 + Animal Ken 1; three Rouse checks
    rouses = famulus.receipt["rouses"]
    assert [r["request"]["hunger"] for r in rouses] == [1, 2, 2]  # each on the Hunger the last one left
    assert [r["faces"] for r in rouses] == [[2, 3], [4, 8], [1, 1]]  # BP 1 rerolls a level 1 power's checks
    assert famulus.sheet["hunger"] == 3 and verify_receipt(famulus.receipt) == []
    forged = copy.deepcopy(famulus.receipt)
    forged["rouses"].pop()
    assert "power_mismatch:rouse_checks" in verify_receipt(forged)


def test_a_power_that_rolls_nothing_pays_its_rouse_as_the_roll():
    prowess = checked_roll("v5", sheet(), {"kind": "power", "discipline": "potence", "power": "prowess"}, [4])
    assert prowess.receipt["request"]["kind"] == "rouse" and prowess.sheet["hunger"] == 2
    assert "rouses" not in prowess.receipt and verify_receipt(prowess.receipt) == []


def test_a_power_refused_before_any_die():
    s = sheet()
    refused(
        "power_not_on_sheet",
        checked_roll,
        "v5",
        s,
        {"kind": "power", "discipline": "dominate", "power": "the_forgetful_mind"},
        [],
    )
    refused(
        "power_without_roll",
        checked_roll,
        "v5",
        s,
        {"kind": "power", "discipline": "potence", "power": "lethal_body"},
        [],
    )
    refused(
        "bad_choice",
        checked_roll,
        "v5",
        s,
        {"kind": "power", "discipline": "dominate", "power": "compel", "attribute": "strength"},
        [],
    )
    assert {"difficulty", "modifier", "serves_compulsion"} <= set(authority.edge_fields("v5", "power"))
