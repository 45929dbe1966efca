"""Exact odds of a V20 exchange (SPEC V20-16, V20-17): brute force through the resolvers and through
the exchange chain (``play.perform(..., follows=...)``), exactly; laws for every pool (EXAMPLES 8)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.play import new_sheet
from rollbook.play.common import Effects
from rollbook.rules.base import RuleError
from rollbook.systems.v20 import rules as v20
from rollbook.systems.v20.odds_exchange import DOWN, SATURATED, Defender, Weapon, exchange_odds
from rollbook.systems.v20.rules import V20Request
from rollbook.systems.v20.sheet import Health, take_damage

from . import exchange_brute as brute


def engine(result) -> dict:
    return {
        "outcomes": result.outcomes.nonzero().fractions(),
        "levels": result.levels.nonzero().fractions(),
        "wounds": result.wounds.nonzero().fractions(),
        "track": result.track.nonzero().fractions(),
    }


def composed(attack, weapon: Weapon, defender: Defender) -> dict:
    marked = v20.damage_type_against(
        weapon.damage_type,
        firearm=weapon.firearm,
        vampire=defender.vampire,
        aimed_at_head=weapon.aimed_at_head,
    )
    return brute.v20_exchange(
        attack,
        strength=weapon.strength,
        weapon_damage=weapon.damage,
        firearm=weapon.firearm,
        damage_type=weapon.damage_type,
        soak_pool=defender.soak_pool(marked),
        marked=marked,
        health=defender.health,
        vampire=defender.vampire,
        dodge=defender.dodge,
    )


# Every attack pool, base damage pool and soak pool 0–6; the rest of the exchange cycles through
# the options that change it (V20-7 specialty, V20-9 Willpower, V20-4 required, bullets against a
# vampire, aggravated against Fortitude, a mortal, a track already marked, a dodge).
OPTIONS = [
    dict(attack={}, damage_type="lethal", firearm=False, vampire=True, health=(0, 0, 0), dodge=None),
    dict(
        attack={"specialty": True, "specialty_rating": 4},
        damage_type="bashing",
        firearm=False,
        vampire=False,
        health=(3, 1, 0),
        dodge=None,
    ),
    dict(
        attack={"willpower": True, "difficulty": 7},
        damage_type="lethal",
        firearm=True,
        vampire=True,
        health=(0, 4, 1),
        dodge=V20Request(pool=2),
    ),
    dict(
        attack={"difficulty": 5, "required": 2, "table_rules": ("v20.ones_do_not_cancel",)},
        damage_type="aggravated",
        firearm=False,
        vampire=True,
        health=(2, 2, 2),
        dodge=None,
    ),
    dict(
        attack={"difficulty": 8},
        damage_type="lethal",
        firearm=True,
        vampire=False,
        health=(6, 0, 0),
        dodge=V20Request(pool=1, difficulty=4),
    ),
]


def case(attack_pool: int, damage: int, soak: int, index: int):
    option = OPTIONS[index % len(OPTIONS)]
    options = dict(option["attack"])
    if attack_pool > 3:  # keep the brute force's damage pools ≤ 11 dice (a specialty doubles the 10s)
        options.pop("specialty", None), options.pop("specialty_rating", None)
    if attack_pool > 5:
        options.pop("willpower", None)
    attack = V20Request(pool=attack_pool, **options)
    firearm = option["firearm"] and damage >= 1
    weapon = Weapon(
        damage if firearm else max(0, damage - 1),
        option["damage_type"],
        firearm=firearm,
        strength=0 if firearm else min(1, damage),
    )
    vampire = option["vampire"]
    marked = v20.damage_type_against(weapon.damage_type, firearm=firearm, vampire=vampire)
    common = dict(vampire=vampire, health=option["health"], dodge=option["dodge"])
    # the soak pool is ``soak`` dice whatever the type: Fortitude against aggravated, Stamina where the
    # rules soak with it, armour where they do not (a mortal against lethal)
    if vampire and marked == "aggravated":
        defender = Defender(stamina=2, fortitude=soak, **common)
    elif v20.soak_pool(v20.SoakRequest(damage=0, damage_type=marked, stamina=1, vampire=vampire)):
        defender = Defender(stamina=soak, **common)
    else:
        defender = Defender(stamina=2, armour={marked: soak}, **common)
    return attack, weapon, defender


@pytest.mark.parametrize("attack_pool", range(7))
def test_V20_17_every_pool_up_to_six_equals_brute_force_through_the_resolvers(attack_pool):
    """For every attack pool, base damage pool and soak pool 0–6: outcomes, levels marked, wound level
    and the whole track equal the enumeration of every face through systems.v20.rules's resolvers, exactly."""
    for index, (damage, soak) in enumerate(itertools.product(range(7), range(7))):
        attack, weapon, defender = case(attack_pool, damage, soak, attack_pool + index)
        assert (
            defender.soak_pool(
                v20.damage_type_against(weapon.damage_type, firearm=weapon.firearm, vampire=defender.vampire)
            )
            == soak
        )
        assert weapon.pool(1) == damage
        assert engine(exchange_odds(attack, weapon, defender)) == composed(attack, weapon, defender), (
            attack,
            weapon,
            defender,
        )


# --- through the exchange chain: play.perform(..., follows=...) ---------------------------------------


def sheet(**extra) -> dict:
    data = {
        "name": "Nia",
        "attributes": {"strength": 2, "dexterity": 2, "stamina": 2},
        "skills": {"melee": 1, "firearms": 1},
        "disciplines": {"fortitude": 1},
        "weapons": [
            {"name": "knife", "damage": 1, "damage_type": "lethal"},
            {"name": "pistol", "kind": "firearm", "damage": 2, "damage_type": "lethal"},
            {"name": "claws", "damage": 0, "damage_type": "aggravated"},
        ],
    }
    data.update(extra)
    return new_sheet("v20", data)


CHAIN_CASES = [
    # (attacker, attack, damage action, defender, Weapon, Defender): small pools, every face through play
    (
        sheet(attributes={"strength": 1, "dexterity": 2}, skills={"melee": 0}),
        {"kind": "test", "attribute": "dexterity", "ability": "melee"},
        {"kind": "damage", "weapon": "knife"},
        sheet(name="Ghoul", disciplines={}, attributes={"stamina": 2}),
        Weapon(1, "lethal", strength=1),
        Defender(stamina=2),
    ),
    (
        sheet(attributes={"dexterity": 1}),
        {"kind": "test", "attribute": "dexterity", "ability": "firearms", "difficulty": 7},
        {"kind": "damage", "weapon": "pistol"},
        sheet(
            name="Cop",
            creature="mortal",
            disciplines={},
            attributes={"stamina": 2},
            health={"bashing": 3, "lethal": 2},
        ),
        Weapon(2, "lethal", firearm=True),
        Defender(stamina=2, vampire=False, health=(3, 2, 0)),
    ),
    (
        sheet(attributes={"strength": 2, "dexterity": 1}, skills={"melee": 1}),
        {"kind": "test", "attribute": "dexterity", "ability": "melee", "willpower": True},
        {"kind": "damage", "weapon": "claws"},
        sheet(
            name="Elder", attributes={"stamina": 4}, disciplines={"fortitude": 1}, health={"aggravated": 6}
        ),
        Weapon(0, "aggravated", strength=2),
        Defender(stamina=4, fortitude=1, health=(0, 0, 6)),
    ),
]


@pytest.mark.parametrize(
    "attacker, attack, damage, defender, weapon, numbers",
    CHAIN_CASES,
    ids=["knife-vs-ghoul", "pistol-vs-mortal", "claws-vs-elder-near-final-death"],
)
def test_V20_17_odds_equal_every_face_through_the_exchange_chain(
    attacker, attack, damage, defender, weapon, numbers
):
    """Every attack, damage and soak face through play.perform(..., follows=receipt): the soak's own
    sheet gives the track; the odds engine, from the same numbers, gives exactly the same."""
    from rollbook.play import preview

    request = V20Request(**preview("v20", attacker, attack, mode="strict", role="storyteller")["request"])
    assert engine(exchange_odds(request, weapon, numbers)) == brute.v20_chain(
        attacker, attack, damage, defender
    )


@pytest.mark.parametrize("dodge_ability", ["athletics", "dodge"])
def test_V20_20_the_dodges_odds_equal_every_face_through_the_chain(dodge_ability):
    """Attack → dodge → damage → soak, every face through play.perform(..., follows=receipt), equals
    the odds engine given the dodge the chain rolls (the same request, from the defender's sheet)."""
    from rollbook.play import preview

    attacker = sheet(attributes={"strength": 1, "dexterity": 2}, skills={"melee": 1})
    attack = {"kind": "test", "attribute": "dexterity", "ability": "melee"}
    defender = sheet(
        name="Ghoul", disciplines={}, attributes={"stamina": 1, "dexterity": 1}, talents={dodge_ability: 1}
    )
    dodge = {"kind": "dodge", "difficulty": 7}
    request = V20Request(**preview("v20", attacker, attack, mode="strict", role="storyteller")["request"])
    first = _given_attack(attacker, attack)
    dodging = V20Request(
        **preview("v20", defender, dodge, mode="strict", role="storyteller", follows=first)["request"]
    )
    assert dodging.pool == 2 and dodging.difficulty == 7
    odds = exchange_odds(request, Weapon(1, "lethal", strength=1), Defender(stamina=1, dodge=dodging))
    assert odds.outcomes.probability("dodged") > 0
    assert engine(odds) == brute.v20_chain(
        attacker, attack, {"kind": "damage", "weapon": "knife"}, defender, dodge
    )


def test_V20_21_potence_on_brawl_damage_equals_every_face_through_the_chain():
    """Potence's automatic levels on a Brawl attack's damage (V20-21), through the chain and the odds."""
    from rollbook.play import preview

    attacker = sheet(attributes={"strength": 1, "dexterity": 2}, disciplines={"potence": 1})
    attack = {"kind": "test", "attribute": "dexterity", "ability": "brawl"}
    defender = sheet(name="Ghoul", disciplines={"fortitude": 1}, attributes={"stamina": 1})
    request = V20Request(**preview("v20", attacker, attack, mode="strict", role="storyteller")["request"])
    odds = exchange_odds(
        request, Weapon(0, "bashing", strength=1, potence=1), Defender(stamina=1, fortitude=1)
    )
    assert engine(odds) == brute.v20_chain(attacker, attack, {"kind": "damage"}, defender)


def _given_attack(attacker: dict, attack: dict) -> dict:
    """A hit of the attack (its faces all 10s), for the dodge's preview to follow."""
    from rollbook.dice import GivenFaces
    from rollbook.play import perform, preview

    pool = preview("v20", attacker, attack, mode="strict", role="storyteller")["pool"]["total"]
    return perform(
        "v20", attacker, attack, mode="strict", role="storyteller", source=GivenFaces([10] * pool)
    ).receipt


# --- pinned numbers -------------------------------------------------------------------------------


def test_V20_17_one_die_one_damage_die_no_soak():
    """1 attack die at 6 (hit 1/2), a one-die lethal pool, a mortal (no soak against lethal)."""
    result = exchange_odds(
        V20Request(pool=1), Weapon(1, "lethal", strength=0), Defender(stamina=3, vampire=False)
    )
    assert result.outcomes.fractions() == {
        "botch": Fraction(1, 10),
        "miss": Fraction(4, 10),
        "dodged": 0,
        "soaked": Fraction(1, 4),
        "wounded": Fraction(1, 4),
    }
    assert result.soak_pool == 0 and result.wounds.probability("bruised") == Fraction(1, 4)


def test_V20_dodge_subtracts_successes_book():
    """A dodge of more dice than the attack can take every success away (Book: a miss)."""
    plain = exchange_odds(V20Request(pool=3), Weapon(2, strength=2), Defender(stamina=2))
    dodging = exchange_odds(
        V20Request(pool=3), Weapon(2, strength=2), Defender(stamina=2, dodge=V20Request(pool=6))
    )
    assert plain.outcomes.probability("dodged") == 0 < dodging.outcomes.probability("dodged")
    assert dodging.hit < plain.hit
    assert dodging.outcomes.probability("botch") == plain.outcomes.probability("botch")


def test_V20_firearm_bashes_a_vampire_unless_aimed_at_the_head():
    body = exchange_odds(V20Request(pool=4), Weapon(4, "lethal", firearm=True), Defender(stamina=2))
    head = exchange_odds(
        V20Request(pool=4), Weapon(4, "lethal", firearm=True, aimed_at_head=True), Defender(stamina=2)
    )
    assert body.damage_type == "bashing" and head.damage_type == "lethal"


def test_V20_16_wound_levels_past_the_track():
    """Book reading of the overflow: torpor (a vampire, bashing or lethal), Final Death (aggravated), dead (a mortal)."""
    full = (0, 7, 0)
    big = V20Request(pool=10, difficulty=2, willpower=True)
    assert (
        exchange_odds(
            big, Weapon(10, "lethal", strength=5), Defender(stamina=0, health=full)
        ).wounds.probability("torpor")
        > 0
    )
    assert (
        exchange_odds(
            big, Weapon(10, "aggravated", strength=5), Defender(stamina=0, health=(0, 0, 7))
        ).wounds.probability("final_death")
        > 0
    )
    mortal = exchange_odds(
        big, Weapon(10, "lethal", strength=5), Defender(stamina=0, vampire=False, health=full)
    )
    assert mortal.wounds.probability("dead") > 0 and mortal.wounds.probability("torpor") == 0


def test_V20_track_saturates_after_fourteen_levels():
    """The shortcut of the engine: past 2 × 7 levels, marking more changes only the overflow count."""
    for health in [(0, 0, 0), (3, 2, 1), (0, 7, 0), (7, 0, 0)]:
        for damage_type in v20.DAMAGE_TYPES:
            start = Health(bashing=health[0], lethal=health[1], aggravated=health[2])
            at = take_damage(start, SATURATED, damage_type, Effects())
            assert take_damage(start, SATURATED + 9, damage_type, Effects()) == at


def test_TR_1_the_table_rules_in_force_reach_the_attack_and_the_dodge():
    rules_in_force = ("v20.ones_do_not_cancel", "v20.specialty_reroll_tens")
    attack = V20Request(pool=4, specialty=True, specialty_rating=4)
    defender = Defender(stamina=2, dodge=V20Request(pool=3))
    given = exchange_odds(attack, Weapon(2, strength=2), defender, table_rules=rules_in_force)
    carried = exchange_odds(
        V20Request(pool=4, specialty=True, specialty_rating=4, table_rules=rules_in_force),
        Weapon(2, strength=2),
        Defender(stamina=2, dodge=V20Request(pool=3, table_rules=rules_in_force)),
    )
    plain = exchange_odds(attack, Weapon(2, strength=2), defender)
    assert given.table_rules == tuple(sorted(rules_in_force)) == carried.table_rules
    assert engine(given) == engine(carried) != engine(plain)
    assert given.outcomes.probability("botch") < plain.outcomes.probability("botch") or given.hit > plain.hit


def test_V20_exchange_refuses_bad_numbers():
    with pytest.raises(RuleError):
        Weapon(2, "fire")
    with pytest.raises(RuleError):
        Weapon(0, "lethal", firearm=True)
    with pytest.raises(RuleError):
        Defender(stamina=11)
    with pytest.raises(RuleError):
        Defender(stamina=2, health=(4, 4, 0))
    with pytest.raises(RuleError):
        Defender(stamina=2, armour={"fire": 2})
    with pytest.raises(RuleError):
        exchange_odds(V20Request(pool=31), Weapon(1), Defender(stamina=1))


# --- laws for every pool (EXAMPLES 8) -------------------------------------------------------------

attacks = st.builds(
    lambda pool, difficulty, willpower, spec: V20Request(
        pool=pool,
        difficulty=difficulty,
        willpower=willpower,
        specialty=spec,
        specialty_rating=4 if spec else None,
    ),
    st.integers(0, 20),
    st.integers(3, 9),
    st.booleans(),
    st.booleans(),
)
weapons = st.builds(
    lambda damage, kind, firearm, strength: Weapon(
        max(damage, 1) if firearm else damage, kind, firearm=firearm, strength=strength
    ),
    st.integers(0, 20),
    st.sampled_from(v20.DAMAGE_TYPES),
    st.booleans(),
    st.integers(0, 10),
)
healths = st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7)).filter(lambda h: sum(h) <= 7)


@settings(max_examples=40, deadline=None)
@given(
    attacks,
    weapons,
    st.integers(0, 9),
    st.integers(0, 9),
    st.booleans(),
    healths,
    st.one_of(st.none(), st.integers(0, 10).map(lambda n: V20Request(pool=n))),
)
def test_V20_exchange_laws(attack, weapon, stamina, fortitude, vampire, health, dodge):
    defender = Defender(stamina=stamina, fortitude=fortitude, vampire=vampire, health=health, dodge=dodge)
    result = exchange_odds(attack, weapon, defender)
    # probabilities sum to exactly 1
    for dist in (
        result.outcomes,
        result.levels,
        result.rolled,
        result.track,
        result.wounds,
        *result.by_type.values(),
    ):
        assert dist.total() == 1
    assert result.down == sum((result.wounds.probability(c) for c in DOWN), Fraction(0))
    # more soak never raises the damage taken (stochastically: every tail P(levels ≥ k))
    more = exchange_odds(
        attack,
        weapon,
        Defender(
            stamina=min(stamina + 1, 10),
            fortitude=min(fortitude + 1, 10),
            vampire=vampire,
            health=health,
            dodge=dodge,
            armour={result.damage_type: 1},
        ),
    )
    assert at_least(more.levels) <= at_least(result.levels)
    # aggravated is never soaked without Fortitude (nor armour against it)
    if result.damage_type == "aggravated" and (fortitude == 0 or not vampire):
        assert result.soak_pool == 0 and result.levels.fractions() == result.rolled.fractions()


def at_least(dist) -> Tails:
    return Tails(dist.fractions())


class Tails:
    """Stochastic order: A <= B when P(A ≥ k) ≤ P(B ≥ k) for every k."""

    def __init__(self, fractions: dict) -> None:
        self.fractions = fractions

    def tail(self, k: int) -> Fraction:
        return sum((p for v, p in self.fractions.items() if v >= k), Fraction(0))

    def __le__(self, other: Tails) -> bool:
        top = max([*self.fractions, *other.fractions, 0])
        return all(self.tail(k) <= other.tail(k) for k in range(top + 1))


@settings(max_examples=25, deadline=None)
@given(attacks, weapons, st.integers(0, 9), healths)
def test_V20_a_larger_dodge_never_raises_the_damage_taken(attack, weapon, stamina, health):
    small = exchange_odds(attack, weapon, Defender(stamina=stamina, health=health, dodge=V20Request(pool=2)))
    large = exchange_odds(attack, weapon, Defender(stamina=stamina, health=health, dodge=V20Request(pool=5)))
    assert at_least(large.levels) <= at_least(small.levels)
