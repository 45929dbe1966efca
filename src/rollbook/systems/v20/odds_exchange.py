"""Exact odds of a whole V20 exchange (SPEC V20-8 … V20-12, V20-16, V20-17): attack → (dodge) →
damage → soak → health track, before anyone rolls.

Nothing is enumerated face by face: the exchange is composed from the single rolls' exact
distributions, each read off the rules' own definitions.

1. *Attack.* ``systems.v20.odds.v20_odds`` gives P(total successes = t) (V20-6 … V20-10, every option and
   table rule of the request). The attack hits when t ≥ its required successes (V20-12); a botch
   has a total of 0 (V20-11). The code checks that the success weight is exactly that.
2. *Dodge* (optional; Book: each success of the defender's dodge subtracts one success from the
   attack, and an attack left with none misses): the dodge is a V20 roll of its own (``v20_odds``);
   ``net = t − d`` and the attack hits when net ≥ 1.
3. *Damage* (V20-17): the pool from ``systems.v20.rules.damage_pool`` (the weapon, plus one die per net
   success beyond the first); a die's levels are read off ``systems.v20.rules.levels_of`` face by face (a
   damage roll cannot botch and its 1s cancel nothing), and the pool's levels are the power of
   that one-die polynomial.
4. *Soak* (V20-16): the damage type marked is ``systems.v20.rules.damage_type_against`` (bullets bash a
   vampire unless aimed at the head); the pool is ``systems.v20.rules.soak_pool`` (Stamina + Fortitude,
   Fortitude alone against aggravated, a mortal only against bashing) plus the armour the caller
   gives against that type; the same one-die polynomial; the levels taken are
   ``levels − min(levels, soaked)`` (``systems.v20.rules.resolve_soak``).
5. *Track.* Each number of levels taken is marked by the sheet's own rule
   (``systems.v20.sheet.take_damage``: a full track upgrades the least severe levels; what cannot be
   marked overflows). The resulting wound level is the track's (``systems.v20.rules.health_level``):
   ``unhurt``, ``bruised`` … ``incapacitated``; past a full track (Book, V20 core's health chapter,
   a Reading of the overflow the sheet flags): a vampire falls into ``torpor`` (bashing or lethal)
   or meets ``final_death`` (aggravated), a mortal is ``dead``.

Weights are integers over one denominator (``odds._exact.Distribution``): 10 ** (attack dice +
dodge dice + the largest damage pool + soak dice).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rollbook.odds._exact import Distribution, fraction_text, poly_mul
from rollbook.play.common import Effects, parse
from rollbook.rules.base import RuleError, check_range, to_plain
from rollbook.systems.v20 import rules
from rollbook.systems.v20.odds import V20Odds, v20_odds
from rollbook.systems.v20.sheet import HEALTH_TRACK, Health, take_damage

OUTCOMES = ("botch", "miss", "dodged", "soaked", "wounded")
WOUND_LEVELS = ("unhurt", *(name for name, _ in rules.HEALTH_LEVELS), "torpor", "final_death", "dead")
DOWN = frozenset({"incapacitated", "torpor", "final_death", "dead"})  # out of the fight
SATURATED = 2 * HEALTH_TRACK + 1  # levels past which marking more changes nothing but the overflow count
MAX_EXCHANGE_POOL = 30  # each pool of an exchange (attack, dodge, weapon, soak): answered in milliseconds


@dataclass(frozen=True)
class Weapon:
    """The attacker's weapon (V20-17 Book): a hand-to-hand weapon's ``damage`` adds to Strength, a
    firearm's is its rating, the whole base pool. No weapon: ``Weapon(0, "bashing")`` (a punch)."""

    damage: int
    damage_type: str = "lethal"
    firearm: bool = False
    strength: int = 0  # the attacker's Strength (hand-to-hand only)
    potence: int = 0  # V20-21: the attacker's Potence on a Brawl or Melee attack, automatic levels
    aimed_at_head: bool = False  # Book: a bullet aimed at the head stays lethal against a vampire

    def __post_init__(self) -> None:
        check_range("damage", self.damage, 1 if self.firearm else 0, MAX_EXCHANGE_POOL)
        check_range("strength", self.strength, 0, MAX_EXCHANGE_POOL)
        check_range("potence", self.potence, 0, 10)
        rules.DamageRequest(
            pool=0, damage_type=rules.check_damage_type(self.damage_type)
        )  # the rules' own check

    def pool(self, net_successes: int) -> int:
        """V20-17: the damage pool after an attack that kept ``net_successes`` (≥ 1)."""
        base, extra = rules.damage_pool(self.strength, self.damage, self.firearm, net_successes)
        return base + extra


@dataclass(frozen=True, eq=False)
class Defender:
    """The defender's numbers: soak (V20-16), armour dice by damage type, the health track already
    marked (bashing, lethal, aggravated), and an optional dodge roll (a ``V20Request``)."""

    stamina: int
    fortitude: int = 0
    vampire: bool = True
    armour: Mapping[str, int] = field(default_factory=dict)
    health: tuple[int, int, int] = (0, 0, 0)
    dodge: rules.V20Request | None = None

    def __post_init__(self) -> None:
        rules.SoakRequest(
            damage=0,
            damage_type="bashing",
            stamina=self.stamina,
            fortitude=self.fortitude,
            vampire=self.vampire,
        )  # the rules' own ranges
        for damage_type, dice in self.armour.items():
            if damage_type not in rules.DAMAGE_TYPES:
                raise RuleError(
                    "bad_choice", field="armour", value=damage_type, choices=list(rules.DAMAGE_TYPES)
                )
            check_range(f"armour.{damage_type}", dice, 0, MAX_EXCHANGE_POOL)
        if len(self.health) != 3:
            raise RuleError("out_of_range", field="health", value=len(self.health), low=3, high=3)
        self.track()  # the sheet's own check (a track of 7 levels at most)
        if self.dodge is not None and not isinstance(self.dodge, rules.V20Request):
            raise TypeError("a dodge is a V20Request")

    def track(self) -> Health:
        bashing, lethal, aggravated = self.health
        track: Health = parse(
            Health, {"bashing": bashing, "lethal": lethal, "aggravated": aggravated}, "health"
        )
        return track

    def soak_pool(self, damage_type: str) -> int:
        """V20-16: the soak dice against a damage type, armour included."""
        request = rules.SoakRequest(
            damage=0,
            damage_type=rules.check_damage_type(damage_type),
            stamina=self.stamina,
            fortitude=self.fortitude,
            vampire=self.vampire,
        )
        return rules.soak_pool(request) + self.armour.get(damage_type, 0)


@dataclass(frozen=True, eq=False)
class V20Exchange:
    """Exact odds of one V20 exchange."""

    attack: rules.V20Request
    weapon: Weapon
    defender: Defender
    damage_type: str  # the type marked on the track (systems.v20.rules.damage_type_against)
    soak_pool: int
    outcomes: Distribution[str]  # botch, miss, dodged, soaked (hit, nothing taken), wounded: sum 1
    rolled: Distribution[int]  # damage levels rolled before soak (0 when there was no damage roll)
    levels: Distribution[int]  # levels taken after soak, marked on the track (V20-17)
    track: Distribution[tuple[int, int, int]]  # (bashing, lethal, aggravated) after the exchange
    by_type: dict[str, Distribution[int]]  # the levels of each type on the track after the exchange
    wounds: Distribution[str]  # the wound level after the exchange (WOUND_LEVELS)
    table_rules: tuple[str, ...] = ()

    @property
    def hit(self) -> Fraction:
        return self.outcomes.probability("soaked") + self.outcomes.probability("wounded")

    @property
    def down(self) -> Fraction:
        """P(the defender is out of the fight: incapacitated, in torpor, destroyed or dead)."""
        return sum((self.wounds.probability(code) for code in DOWN), Fraction(0))

    @property
    def expected_levels(self) -> Fraction:
        return sum((level * p for level, p in self.levels.fractions().items()), Fraction(0))

    def track_json(self) -> list[dict[str, Any]]:
        """The health track after the exchange as JSON: one object per track reached, its levels of each
        damage type with the probability (``p/q``) and its float, most likely first."""
        fractions = self.track.nonzero().fractions()
        rows = [
            {
                **dict(zip(rules.DAMAGE_TYPES, key, strict=True)),
                "probability": fraction_text(p),
                "float": float(p),
            }
            for key, p in fractions.items()
        ]
        return sorted(rows, key=lambda row: -row["float"])

    def to_json(self, *, defender_numbers: bool = True) -> dict[str, Any]:
        """The odds contract's shape (``outcomes`` as ``p/q`` summing to 1, floats beside). Without
        ``defender_numbers`` only probabilities of outcomes: nothing of the defender's ratings (their
        soak pool, armour, dodge pool or health already marked) is in the answer."""
        data: dict[str, Any] = {
            "system": "v20",
            "kind": "exchange",
            "attack": to_plain(self.attack),
            "weapon": to_plain(self.weapon),
            "damage_type": self.damage_type,
            "outcomes": self.outcomes.texts(),
            "floats": self.outcomes.float_texts(),
            "levels": self.levels.nonzero().texts(),
            "levels_floats": self.levels.nonzero().float_texts(),
            "wounds": self.wounds.nonzero().texts(),
            "wounds_floats": self.wounds.nonzero().float_texts(),
            "down": fraction_text(self.down),
            "down_float": float(self.down),
            "expected_levels": fraction_text(self.expected_levels),
            "expected_levels_float": float(self.expected_levels),
            "table_rules": list(self.table_rules),
        }
        if defender_numbers:
            data["defender"] = {
                "stamina": self.defender.stamina,
                "fortitude": self.defender.fortitude,
                "vampire": self.defender.vampire,
                "armour": dict(self.defender.armour),
                "health": list(self.defender.health),
                "soak_pool": self.soak_pool,
                "dodge": to_plain(self.defender.dodge),
            }
            data["rolled"] = self.rolled.nonzero().texts()
            data["track"] = self.track_json()
            data["by_type"] = {name: dist.nonzero().texts() for name, dist in self.by_type.items()}
        return data


# --- the one-die polynomial of a damage or soak roll, read off the rules -------------------------


def _level_die() -> tuple[int, ...]:
    """How many faces of a d10 give 0, 1, … levels on a damage or soak roll (``systems.v20.rules.levels_of``)."""
    counts: dict[int, int] = {}
    for face in range(1, rules.SIDES + 1):
        levels = rules.levels_of((face,))
        counts[levels] = counts.get(levels, 0) + 1
    return tuple(counts.get(n, 0) for n in range(max(counts) + 1))


LEVEL_DIE = _level_die()  # a module constant computed once (V20-16/V20-17: faces 6–10 are one level)


def _power(base: tuple[int, ...], exponent: int) -> tuple[int, ...]:
    out: tuple[int, ...] = (1,)
    for _ in range(exponent):
        out = poly_mul(out, base)
    return out


def _roll_odds(request: rules.V20Request) -> V20Odds:
    check_range("pool", request.pool, 0, MAX_EXCHANGE_POOL)
    return v20_odds(request)  # the request's own table rules (TR-1)


def _hits(request: rules.V20Request) -> tuple[dict[int, int], int, int, int]:
    """``({total: weight} of the hits, botch weight, miss weight, denominator)`` of an attack (step 1)."""
    odds = _roll_odds(request)
    hits = {t: w for t, w in odds.successes.weights.items() if t >= odds.required and w}
    if sum(hits.values()) != odds.outcomes.weights["success"]:  # V20-12: success is total ≥ required
        raise AssertionError("the attack's successes and its outcome disagree")
    return hits, odds.outcomes.weights["botch"], odds.outcomes.weights["failure"], odds.outcomes.denominator


def exchange_odds(
    attack: rules.V20Request, weapon: Weapon, defender: Defender, *, table_rules: Iterable[str] | None = None
) -> V20Exchange:
    """The exact odds of one V20 exchange (see the module docstring for each step). ``table_rules``
    (TR-1, TR-2): the chronicle's table rules in force, for the attack and the dodge; None keeps
    each request's own (``V20Request.table_rules``). They change the attack and the dodge only: a
    damage or soak roll has no specialty and its 1s cancel nothing anyway (V20-16, V20-17)."""
    if table_rules is not None:
        attack = replace(attack, table_rules=tuple(table_rules))
        if defender.dodge is not None:
            defender = replace(defender, dodge=replace(defender.dodge, table_rules=tuple(table_rules)))
    hits, botch, miss, denominator = _hits(attack)
    dodged = 0
    if defender.dodge is None:  # step 2: no dodge, every success counts
        net = hits
    else:
        dodge = _roll_odds(defender.dodge)
        dodge_weights = {d: w for d, w in dodge.successes.weights.items() if w}
        scale = dodge.outcomes.denominator
        botch, miss, denominator = botch * scale, miss * scale, denominator * scale
        net = {}
        for total, w in hits.items():
            for saved, v in dodge_weights.items():
                left = total - saved  # Book: each dodge success subtracts one attack success
                if left >= 1:
                    net[left] = net.get(left, 0) + w * v
                else:
                    dodged += w * v

    # Step 3: the damage levels rolled, over denominator · 10 ** largest pool.
    pools = {k: weapon.pool(k) for k in net}
    largest = max(pools.values(), default=0)
    rolled_hit: dict[int, int] = {}
    if net:
        smallest = min(pools.values())
        power = _power(LEVEL_DIE, smallest)
        for pool in range(smallest, largest + 1):
            if pool > smallest:
                power = poly_mul(power, LEVEL_DIE)
            scale = rules.SIDES ** (largest - pool)
            for k in (k for k, p in pools.items() if p == pool):
                for levels, c in enumerate(power):
                    if c:
                        # V20-21: Potence's automatic successes are levels beside the faces'
                        total = levels + weapon.potence
                        rolled_hit[total] = rolled_hit.get(total, 0) + net[k] * c * scale
    denominator *= rules.SIDES**largest
    no_roll = (botch + miss + dodged) * rules.SIDES**largest

    # Step 4: the soak, over denominator · 10 ** soak pool.
    marked = rules.damage_type_against(
        rules.check_damage_type(weapon.damage_type),
        firearm=weapon.firearm,
        vampire=defender.vampire,
        aimed_at_head=weapon.aimed_at_head,
    )
    soak_dice = defender.soak_pool(marked)
    check_range("soak_pool", soak_dice, 0, 2 * MAX_EXCHANGE_POOL)
    soaked = _power(LEVEL_DIE, soak_dice)
    everything = rules.SIDES**soak_dice
    taken_hit: dict[int, int] = {}
    for levels, w in rolled_hit.items():
        below = 0  # soak results short of the levels rolled
        for saved, c in enumerate(soaked[:levels]):
            if c:
                left = levels - min(levels, saved)  # V20-16: each soak success removes one level
                taken_hit[left] = taken_hit.get(left, 0) + w * c
                below += c
        taken_hit[0] = taken_hit.get(0, 0) + w * (everything - below)
    denominator *= everything
    no_roll *= everything
    scale_rolled = everything

    outcomes = {
        "botch": botch * scale_rolled * rules.SIDES**largest,
        "miss": miss * scale_rolled * rules.SIDES**largest,
        "dodged": dodged * scale_rolled * rules.SIDES**largest,
        "soaked": taken_hit.get(0, 0),
        "wounded": sum(w for t, w in taken_hit.items() if t),
    }
    rolled = {0: no_roll}
    for levels, w in rolled_hit.items():
        rolled[levels] = rolled.get(levels, 0) + w * scale_rolled
    taken = dict(taken_hit)
    taken[0] = taken.get(0, 0) + no_roll

    # Step 5: the health track, by the sheet's own rule.
    before = defender.track()
    track: dict[tuple[int, int, int], int] = {}
    wounds = dict.fromkeys(WOUND_LEVELS, 0)
    for levels in sorted(taken):
        w = taken[levels]
        if not w:
            continue
        effects = Effects()
        # At most 7 levels fill the track and 7 more upgrade it (take_damage): any further level only
        # overflows, so the track and the wound level are those of SATURATED levels.
        after = take_damage(before, min(levels, SATURATED), marked, effects)
        key = (after.bashing, after.lethal, after.aggravated)
        track[key] = track.get(key, 0) + w
        wounds[_wound_level(after.damage, effects, marked, defender.vampire)] += w
    by_type: dict[str, Distribution[int]] = {}
    for index, name in enumerate(rules.DAMAGE_TYPES):
        counts: dict[int, int] = {}
        for key, w in track.items():
            counts[key[index]] = counts.get(key[index], 0) + w
        by_type[name] = Distribution(dict(sorted(counts.items())), denominator)
    return V20Exchange(
        attack=attack,
        weapon=weapon,
        defender=defender,
        damage_type=marked,
        soak_pool=soak_dice,
        outcomes=Distribution(outcomes, denominator),
        rolled=Distribution(dict(sorted(rolled.items())), denominator),
        levels=Distribution(dict(sorted(taken.items())), denominator),
        track=Distribution(dict(sorted(track.items())), denominator),
        by_type=by_type,
        wounds=Distribution(wounds, denominator),
        table_rules=attack.table_rules,
    )


def _wound_level(damage: int, effects: Effects, damage_type: str, vampire: bool) -> str:
    """The wound level after the levels are marked (see the module docstring, step 5)."""
    overflow = any(item.get("flag") == "health_overflow" for item in effects.items)
    if overflow:
        if not vampire:
            return "dead"
        return "final_death" if damage_type == "aggravated" else "torpor"
    level = rules.health_level(min(damage, HEALTH_TRACK))
    return "unhurt" if level is None else level


__all__ = [
    "DOWN",
    "LEVEL_DIE",
    "MAX_EXCHANGE_POOL",
    "OUTCOMES",
    "SATURATED",
    "WOUND_LEVELS",
    "Defender",
    "V20Exchange",
    "Weapon",
    "exchange_odds",
]
