"""V5 compulsions in the play layer (seed 001: "a compulsion is a separate test, not something the
dice resolver writes on the sheet"; SPEC V5-14, V5-12, A-1): which compulsion a clan has, and the
dice it costs the tests it covers, fixed faces."""

from __future__ import annotations

import pytest

from rollbook.dice import GivenFaces
from rollbook.play import perform, preview, verify_receipt
from rollbook.play.authority import edge_fields
from rollbook.rules.base import RuleError
from rollbook.systems.v5 import compulsions

from .helpers import refused, sample_sheet

BRAWL = {"kind": "test", "attribute": "strength", "skill": "brawl", "difficulty": 4}  # Marlow: 4 + 2
SOCIAL = {"kind": "test", "attribute": "manipulation", "skill": "brawl", "difficulty": 1}  # 1 + 2


def sheet(**extra):
    return sample_sheet("v5", **extra)


@pytest.mark.parametrize(
    ("clan", "expected"),
    [
        ("Brujah", "rebellion"),
        ("Gangrel", "feral_impulses"),
        ("Malkavian", "delusion"),
        ("Nosferatu", "cryptophilia"),
        ("Toreador", "obsession"),
        ("Tremere", "perfectionism"),
        ("Ventrue", "arrogance"),
        ("Banu Haqim", "judgment"),
        ("Clan Hecata", "morbidity"),
        ("Lasombra", "ruthlessness"),
        ("The Ministry", "transgression"),
        ("Ravnos", "tempting_fate"),
        ("Salubri", "affective_empathy"),
        ("Tzimisce", "covetousness"),
        ("assamite", "judgment"),
        ("Ministère", "transgression"),
    ],
)
def test_seed_001_the_storyteller_calls_the_clans_compulsion(clan, expected):
    assert compulsions.choose(clan, "vampire", None) == expected


def test_seed_001_caitiff_and_thin_bloods_have_no_clan_compulsion_ghouls_no_beast():
    assert (
        refused("no_clan_compulsion", compulsions.choose, "Caitiff", "vampire", None).params["clan"]
        == "Caitiff"
    )
    refused("no_clan_compulsion", compulsions.choose, "", "thin_blood", None)
    assert compulsions.choose("Caitiff", "vampire", "hunger") == "hunger"  # a general one, named
    refused("no_compulsion_for_creature", compulsions.choose, "Brujah", "ghoul", None)  # V5-12
    refused("bad_choice", compulsions.choose, "Brujah", "vampire", "sloth")


@pytest.mark.parametrize(
    ("compulsion", "attribute", "serves", "dice"),
    [
        ("rebellion", "strength", False, -2),
        ("rebellion", "strength", True, -2),  # every roll
        ("judgment", "wits", False, -3),
        ("feral_impulses", "manipulation", False, -3),
        ("feral_impulses", "intelligence", True, -3),
        ("feral_impulses", "strength", False, 0),  # only Manipulation and Intelligence pools
        ("delusion", "dexterity", False, -2),
        ("delusion", "wits", False, -2),
        ("delusion", "strength", False, 0),
        ("cryptophilia", "strength", False, -2),
        ("cryptophilia", "strength", True, 0),  # unless serving
        ("hunger", "charisma", False, -2),
        ("arrogance", "charisma", True, 0),
    ],
)
def test_seed_001_book_penalty_by_compulsion(compulsion, attribute, serves, dice):
    assert compulsions.penalty(compulsion, "test", (attribute,), serves) == dice


def test_seed_001_reading_the_penalty_is_for_tests_only():
    for kind in ("rouse", "willpower", "remorse", "frenzy"):
        assert compulsions.penalty("rebellion", kind, (), False) == 0


def test_seed_001_a_test_under_a_compulsion_carries_its_penalty_in_the_pool():
    """Marlow (Strength 4 + Brawl 2, Hunger 3) under Rebellion: 6 − 2 = 4 dice, one coded modifier line;
    the faces are the four dice drawn (Hunger 3 of them)."""
    in_force = {"compulsion": "rebellion", "called": 12}
    done = perform(
        "v5",
        sheet(),
        BRAWL,
        mode="strict",
        role="player",
        source=GivenFaces([8, 7, 6, 2]),
        compulsion=in_force,
    )
    pool = done.receipt["pool"]
    assert pool["total"] == 4 and pool["hunger_dice"] == 3
    assert pool["modifiers"] == [
        {"source": "compulsion", "dice": -2, "compulsion": "rebellion", "called": 12}
    ]
    assert done.receipt["request"]["pool"] == 4 and done.receipt["result"]["successes"] == 3
    assert verify_receipt(done.receipt) == []
    assert done.sheet == sheet()  # V5-14: nothing written on the sheet by the dice
    plain = perform("v5", sheet(), BRAWL, mode="strict", role="player", source=GivenFaces([8, 7, 6, 2, 1, 1]))
    assert plain.receipt["pool"]["total"] == 6 and plain.receipt["pool"]["modifiers"] == []


def test_seed_001_a_scoped_compulsion_spares_other_pools_and_never_goes_below_one_die():
    feral = {"compulsion": "feral_impulses", "called": 3}
    assert preview("v5", sheet(), BRAWL, mode="strict", role="player", compulsion=feral)["pool"]["total"] == 6
    built = preview("v5", sheet(), SOCIAL, mode="strict", role="player", compulsion=feral)["pool"]
    assert built["total"] == 1 and built["modifiers"][0]["dice"] == -3  # 1 + 2 − 3: at least one die


def test_seed_001_A_1_serving_the_compulsion_is_the_storytellers_edge():
    assert "serves_compulsion" in edge_fields("v5", "test")
    served = preview(
        "v5",
        sheet(),
        {**BRAWL, "serves_compulsion": True},
        mode="strict",
        role="player",
        compulsion={"compulsion": "cryptophilia", "called": 3},
    )
    assert served["pool"]["total"] == 6 and served["pool"]["modifiers"] == []


def test_seed_001_compulsions_are_v5s():
    with pytest.raises(RuleError) as caught:
        preview(
            "v20",
            sample_sheet("v20"),
            {"kind": "test", "attribute": "dexterity", "ability": "firearms"},
            mode="strict",
            role="player",
            compulsion={"compulsion": "rebellion", "called": 1},
        )
    assert caught.value.code == "compulsion_not_for_system"
