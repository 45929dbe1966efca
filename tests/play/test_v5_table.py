"""V5 at the table without dice: feeding slakes Hunger (Book), V5 damage on the Health and
Willpower tracks (halved superficial Health damage for vampires, overflow, impairment: Book), Remorse
with stains (V5-15) applied once. Fixed values; sources in docs/book-sources.md."""

from __future__ import annotations

from rollbook.play import adjust, perform, preview

from .helpers import checked_roll, refused, sample_sheet


def sheet(**extra):
    return sample_sheet("v5", **extra)


def test_V5_feeding_slakes_hunger_never_below_one_without_a_kill():
    fed = adjust("v5", sheet(hunger=4), {"kind": "feed", "slake": 2}, role="storyteller")
    assert fed.sheet["hunger"] == 2 and fed.effects == ({"resource": "hunger", "before": 4, "after": 2},)
    assert (
        adjust("v5", sheet(hunger=3), {"kind": "feed", "slake": 5}, role="storyteller").sheet["hunger"] == 1
    )
    assert (
        adjust("v5", sheet(hunger=3), {"kind": "feed", "slake": 5, "kill": True}, role="storyteller").sheet[
            "hunger"
        ]
        == 0
    )  # only a kill slakes the last level
    assert refused(
        "hunger_slaked", adjust, "v5", sheet(hunger=1), {"kind": "feed", "slake": 1}, role="storyteller"
    ).params == {"hunger": 1, "floor": 1}
    refused("storyteller_only", adjust, "v5", sheet(hunger=4), {"kind": "feed", "slake": 1}, role="player")
    refused(
        "no_hunger_for_creature",
        adjust,
        "v5",
        sheet(creature="ghoul", hunger=0, blood_potency=0),
        {"kind": "feed", "slake": 1},
        role="storyteller",
    )


def test_V5_damage_a_vampire_halves_superficial_health_damage_rounding_up():
    s = sheet()  # Stamina 3: Health 6
    hit = adjust(
        "v5", s, {"kind": "damage", "track": "health", "superficial": 5, "halve": True}, role="player"
    )
    assert hit.sheet["health"]["superficial"] == 3
    assert {"flag": "halved", "track": "health", "superficial": 5, "marked": 3} in hit.effects
    plain = adjust("v5", s, {"kind": "damage", "track": "health", "superficial": 5}, role="player")
    assert plain.sheet["health"]["superficial"] == 5  # marked as given
    mortal = adjust(
        "v5",
        sheet(creature="mortal", hunger=0, blood_potency=0),
        {"kind": "damage", "track": "health", "superficial": 5, "halve": True},
        role="player",
    )
    assert mortal.sheet["health"]["superficial"] == 5  # a mortal halves nothing
    will = adjust(
        "v5", s, {"kind": "damage", "track": "willpower", "superficial": 3, "halve": True}, role="player"
    )
    assert will.sheet["willpower"]["superficial"] == 3  # Willpower damage is never halved


def test_V5_damage_overflow_turns_superficial_aggravated_and_a_full_track_impairs_the_pools():
    s = sheet(health={"superficial": 4})  # 4 of 6
    hit = adjust("v5", s, {"kind": "damage", "track": "health", "superficial": 4}, role="player")
    assert hit.sheet["health"] == {
        "max": 6,
        "superficial": 4,
        "aggravated": 2,
    }  # two found no box: aggravated
    assert {"flag": "impaired", "track": "health"} in hit.effects
    brawl = {"kind": "test", "attribute": "strength", "skill": "brawl", "difficulty": 1}
    pool = preview("v5", hit.sheet, brawl, mode="strict", role="player")["pool"]
    assert pool["wound_penalty"] == -2 and pool["total"] == 4  # Strength 4 + Brawl 2 − 2 (Impaired)


def test_V5_15_remorse_clears_the_stains_or_costs_humanity_once():
    stained = sheet(humanity=7, stains=2)  # one die per empty unstained box: 10 − 7 − 2 = 1
    kept = checked_roll("v5", stained, {"kind": "remorse"}, [6])
    assert (kept.sheet["humanity"], kept.sheet["stains"]) == (7, 0)
    lost = checked_roll("v5", stained, {"kind": "remorse"}, [5])
    assert (lost.sheet["humanity"], lost.sheet["stains"]) == (6, 0)
    assert lost.effects == (
        {"resource": "humanity", "before": 7, "after": 6},
        {"resource": "stains", "before": 2, "after": 0},
    )
    from rollbook.dice import GivenFaces

    refused(
        "no_stains",
        perform,
        "v5",
        lost.sheet,
        {"kind": "remorse"},
        mode="strict",
        role="player",
        source=GivenFaces([6]),
    )  # applied once: the stains are gone
