"""Brute force of whole exchanges (SPEC V20-17, T-4, T-5): the yardstick of ``systems.v20.odds_exchange`` and
``systems.tiers.odds_exchange``.

Nothing here knows the odds engine's polynomials or tails: every roll's faces are enumerated (sorted
multisets weighted by their orderings, as ``brute.py``) and go through the resolvers — or through the
exchange chain itself, ``play.perform(..., follows=receipt)`` with the faces given — and the steps
are composed by the law of total probability. Shortcuts, each a pure function memoised:

- a stage's enumeration depends only on its request (a damage pool, a soak pool);
- in the chain, a damage roll reads only the successes of the attack it follows, a soak only the
  levels and damage type of the damage roll it follows (``systems.v20.play._prepare_damage``,
  ``_damage_from``), a Tiers dodge or soak only the attack's tier (``systems.tiers.play.attack_tier_of``):
  the step is enumerated once per such value.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache

from rollbook.dice import GivenFaces
from rollbook.play import perform
from rollbook.play.common import Effects
from rollbook.systems.tiers import rules as t
from rollbook.systems.v20 import rules as v20
from rollbook.systems.v20.sheet import Health, take_damage

from .brute import multisets, tiers_finished


def _fractions(counter: Counter, total: int) -> dict:
    return {k: Fraction(v, total) for k, v in counter.items() if v}


# --- V20 stages through the resolvers --------------------------------------------------------------


@cache
def v20_roll(request: v20.V20Request) -> dict[tuple[str, int], Fraction]:
    """(outcome, total successes) -> P, every multiset of faces through ``systems.v20.rules.resolve``."""
    found: Counter = Counter()
    for faces, weight in multisets(request.pool):
        receipt = v20.resolve(request, faces)
        found[(receipt.outcome, receipt.successes)] += weight
    return _fractions(found, 10**request.pool)


@cache
def damage_levels(pool: int) -> dict[int, Fraction]:
    """Levels of a damage roll of ``pool`` dice, through ``systems.v20.rules.resolve_damage``."""
    request = v20.DamageRequest(pool=pool, damage_type="lethal")
    found: Counter = Counter()
    for faces, weight in multisets(pool):
        found[v20.resolve_damage(request, faces).levels] += weight
    return _fractions(found, 10**pool)


@cache
def soak_taken(levels: int, pool: int) -> dict[int, Fraction]:
    """Levels left after a soak roll of ``pool`` dice, through ``systems.v20.rules.resolve_soak`` (a pool of n
    dice is a vampire's Stamina n against bashing: the same dice, the same rule)."""
    if levels == 0:
        return {0: Fraction(1)}
    request = v20.SoakRequest(damage=levels, damage_type="bashing", stamina=pool, fortitude=0, vampire=True)
    assert v20.soak_pool(request) == pool
    found: Counter = Counter()
    for faces, weight in multisets(pool):
        found[v20.resolve_soak(request, faces).damage_taken] += weight
    return _fractions(found, 10**pool)


@cache
def wound_of(health: tuple[int, int, int], levels: int, damage_type: str, vampire: bool):
    """The track and the wound level after ``levels`` are marked by the sheet's rule."""
    effects = Effects()
    after = take_damage(
        Health(bashing=health[0], lethal=health[1], aggravated=health[2]), levels, damage_type, effects
    )
    key = (after.bashing, after.lethal, after.aggravated)
    if any(e.get("flag") == "health_overflow" for e in effects.items):
        level = "dead" if not vampire else ("final_death" if damage_type == "aggravated" else "torpor")
    else:
        level = v20.health_level(after.damage) or "unhurt"
    return key, level


class Tally:
    """What the exchange odds report, accumulated as exact probabilities."""

    def __init__(self) -> None:
        self.outcomes: Counter = Counter()
        self.levels: Counter = Counter()
        self.wounds: Counter = Counter()
        self.track: Counter = Counter()

    def add(self, outcome: str, levels: int, key, level: str, p: Fraction) -> None:
        self.outcomes[outcome] += p
        self.levels[levels] += p
        self.wounds[level] += p
        self.track[key] += p

    def plain(self) -> dict:
        return {
            name: {k: v for k, v in getattr(self, name).items() if v}
            for name in ("outcomes", "levels", "wounds", "track")
        }


def v20_exchange(
    attack: v20.V20Request,
    *,
    strength: int,
    weapon_damage: int,
    firearm: bool,
    damage_type: str,
    soak_pool: int,
    marked: str,
    health=(0, 0, 0),
    vampire: bool = True,
    dodge: v20.V20Request | None = None,
) -> dict:
    """The exchange composed from the stages above (``marked``: the type the defender marks)."""
    tally = Tally()
    dodges = v20_roll(dodge) if dodge is not None else {("none", 0): Fraction(1)}
    unhurt = wound_of(health, 0, marked, vampire)
    for (outcome, total), p in v20_roll(attack).items():
        if outcome != "success":
            tally.add("botch" if outcome == "botch" else "miss", 0, *unhurt, p)
            continue
        for (_, saved), q in dodges.items():
            net = total - saved
            if net < 1:
                tally.add("dodged", 0, *unhurt, p * q)
                continue
            base, extra = v20.damage_pool(strength, weapon_damage, firearm, net)
            for rolled, r in damage_levels(base + extra).items():
                for taken, s in soak_taken(rolled, soak_pool).items():
                    tally.add(
                        "wounded" if taken else "soaked",
                        taken,
                        *wound_of(health, taken, marked, vampire),
                        p * q * r * s,
                    )
    return tally.plain()


# --- V20 through the chain: play.perform(..., follows=...) -----------------------------------------


def _given(system, sheet, action, faces, follows=None):
    return perform(
        system, sheet, action, mode="strict", role="storyteller", source=GivenFaces(faces), follows=follows
    )


def v20_chain(attacker: dict, attack: dict, weapon: dict, defender: dict, dodge: dict | None = None) -> dict:
    """Every face of the attack, the defender's ``dodge`` when given (V20-20), the damage roll and the
    soak through ``play.perform`` (the soak's ``sheet`` carries the track): outcomes, levels marked,
    wound level, track."""
    from rollbook.play import preview
    from rollbook.systems.v20.play import attack_successes_of

    attack_pool = preview("v20", attacker, attack, mode="strict", role="storyteller")["pool"]["total"]
    vampire = defender.get("creature", "vampire") == "vampire"
    health0 = tuple((defender.get("health") or {}).get(k, 0) for k in ("bashing", "lethal", "aggravated"))
    tally = Tally()
    damage_memo: dict[int, list] = {}
    soak_memo: dict[tuple, list] = {}
    dodge_memo: dict[int, list] = {}
    total_weight = 10**attack_pool
    for faces, weight in multisets(attack_pool):
        done = _given("v20", attacker, attack, faces)
        p = Fraction(weight, total_weight)
        result = done.receipt["result"]
        if result["outcome"] != "success":
            tally.add(
                "botch" if result["outcome"] == "botch" else "miss",
                0,
                health0,
                v20.health_level(sum(health0)) or "unhurt",
                p,
            )
            continue
        followed = [(done.receipt, p)]
        if dodge is not None:  # V20-20: the dodge follows the attack; the damage follows the dodge
            followed = []
            if result["successes"] not in dodge_memo:
                dodge_memo[result["successes"]] = _v20_dodges(defender, dodge, done.receipt)
            for dodge_receipt, q in dodge_memo[result["successes"]]:
                if dodge_receipt["attack"]["left"] == 0:
                    tally.add("dodged", 0, health0, v20.health_level(sum(health0)) or "unhurt", p * q)
                else:
                    followed.append((dodge_receipt, p * q))
        for receipt, p_followed in followed:
            successes = attack_successes_of(receipt)
            if successes not in damage_memo:
                damage_memo[successes] = _damage_rolls(attacker, weapon, receipt)
            for damage_receipt, q in damage_memo[successes]:
                levels = damage_receipt["result"]["levels"]
                if levels == 0:
                    tally.add(
                        "soaked", 0, health0, v20.health_level(sum(health0)) or "unhurt", p_followed * q
                    )
                    continue
                key = (levels, damage_receipt["result"]["damage_type"])
                if key not in soak_memo:
                    soak_memo[key] = _v20_soaks(defender, damage_receipt, vampire)
                for (taken, track, level), r in soak_memo[key]:
                    tally.add("wounded" if taken else "soaked", taken, track, level, p_followed * q * r)
    return tally.plain()


def _v20_dodges(defender, dodge, attack_receipt) -> list:
    from rollbook.play import preview

    pool = preview("v20", defender, dodge, mode="strict", role="storyteller", follows=attack_receipt)["pool"][
        "total"
    ]
    return [
        (_given("v20", defender, dodge, faces, attack_receipt).receipt, Fraction(w, 10**pool))
        for faces, w in multisets(pool)
    ]


def _damage_rolls(attacker, weapon, attack_receipt) -> list:
    from rollbook.play import preview

    pool = preview("v20", attacker, weapon, mode="strict", role="storyteller", follows=attack_receipt)[
        "pool"
    ]["total"]
    by_levels: dict[int, tuple[dict, Fraction]] = {}  # one receipt per number of levels: the soak's
    for faces, w in multisets(pool):
        receipt = _given("v20", attacker, weapon, faces, attack_receipt).receipt
        levels = receipt["result"]["levels"]
        _, q = by_levels.get(levels, (receipt, Fraction(0)))
        by_levels[levels] = (receipt, q + Fraction(w, 10**pool))
    return list(by_levels.values())


def _v20_soaks(defender, damage_receipt, vampire) -> list:
    from rollbook.play import preview

    shown = preview(
        "v20", defender, {"kind": "soak"}, mode="strict", role="storyteller", follows=damage_receipt
    )
    pool = shown["pool"]["total"]
    found: Counter = Counter()
    for faces, w in multisets(pool):
        done = _given("v20", defender, {"kind": "soak"}, faces, damage_receipt)
        health = done.sheet["health"]
        track = (health["bashing"], health["lethal"], health["aggravated"])
        overflow = any(e.get("flag") == "health_overflow" for e in done.effects)
        marked = done.receipt["request"]["damage_type"]
        if overflow:
            level = "dead" if not vampire else ("final_death" if marked == "aggravated" else "torpor")
        else:
            level = v20.health_level(sum(track)) or "unhurt"
        found[(done.receipt["result"]["damage_taken"], track, level)] += w
    return [(key, Fraction(w, 10**pool)) for key, w in found.items()]


# --- Tiers: chains of faces up to a depth ------------------------------------------------------------


def chains(request: t.TiersRequest, depth: int):
    """(receipt, P) of every finished chain of at most ``depth`` faces through ``systems.tiers.rules.resolve``,
    and the probability of the chains left unexplored."""
    finished, left = tiers_finished(request, depth)
    return [(faces, t.resolve(request, faces), mass) for faces, mass in finished], left


def tiers_exchange(
    shot: t.TiersRequest,
    *,
    endurance: int,
    armor: int,
    level: int,
    length: int,
    dodge: int | None,
    depth: int,
    through_play: tuple[dict, dict, dict] | None = None,
) -> tuple[dict, Fraction]:
    """(outcomes, track after) of a Tiers exchange, every chain of ≤ ``depth`` faces of each roll, and the
    probability left unexplored (a bound on each difference). With ``through_play`` = (shooter's sheet,
    the shot's action, the defender's sheet), every roll goes through ``play.perform`` with ``follows``
    (the soak at the torso, whose armour is ``armor``), else through ``systems.tiers.rules.resolve``."""
    outcomes: Counter = Counter()
    track: Counter = Counter()
    shots, unexplored = chains(shot, depth)
    dodge_memo: dict[int, tuple] = {}
    soak_memo: dict[tuple, tuple] = {}
    for faces, receipt, p in shots:
        follows = None
        if through_play is not None:
            follows = _given("tiers", through_play[0], through_play[1], faces).receipt
            assert follows["result"]["tier"] == receipt.tier
        if not receipt.success:
            outcomes["miss"] += p
            track[level] += p
            continue
        tier, hit = receipt.tier, p
        if dodge is not None:
            if tier not in dodge_memo:
                dodge_memo[tier] = _dodges(tier, dodge, depth, follows, through_play)
            dodged, follows, left = dodge_memo[tier]
            outcomes["dodged"] += p * dodged
            track[level] += p * dodged
            unexplored += p * left
            hit = p * (1 - dodged - left)
        key = (tier, dodge is not None)
        if key not in soak_memo:
            soak_memo[key] = _soaks(tier, endurance, armor, level, length, depth, follows, through_play)
        damage, left = soak_memo[key]
        for value, r in damage.items():
            outcomes["wounded" if value else "soaked"] += hit * r
            track[min(level + value, length)] += hit * r
        unexplored += hit * left
    return {"outcomes": dict(outcomes), "track": dict(track)}, unexplored


def _dodges(tier, skill, depth, follows, through_play):
    """(P(dodged), a failed dodge's receipt to follow, P(unexplored)) against an attack of ``tier``."""
    request = t.TiersRequest(kind="dodge", skill=skill, attack_tier=tier)
    found, left = chains(request, depth)
    dodged = Fraction(0)
    failed = None
    for faces, receipt, p in found:
        if through_play is not None:
            done = _given("tiers", through_play[2], {"kind": "dodge"}, faces, follows)
            assert done.receipt["result"]["dodged"] == receipt.dodged
            if not receipt.dodged:
                failed = done.receipt
        if receipt.dodged:
            dodged += p
    return dodged, failed, left


def _soaks(tier, endurance, armor, level, length, depth, follows, through_play):
    """({damage: P}, P(unexplored)) of the soak against an attack of ``tier``."""
    request = t.TiersRequest(kind="soak", endurance=endurance, armor=armor, attack_tier=tier)
    found, left = chains(request, depth)
    damage: Counter = Counter()
    for faces, receipt, p in found:
        if through_play is not None and follows is not None:
            done = _given("tiers", through_play[2], {"kind": "soak", "location": "torso"}, faces, follows)
            assert done.receipt["result"]["damage"] == receipt.damage
            assert done.sheet["wounds"]["level"] == min(
                level + receipt.damage, length
            )  # T-5, the sheet's track
        damage[receipt.damage] += p
    return dict(damage), left
