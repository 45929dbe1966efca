"""The Monte-Carlo peer of the exchange odds (issue 33): whole exchanges simulated with numpy, the dice
rolled and counted as SPEC says (restated here, vectorised, independently of the odds engine):

- V20 (V20-6 … V20-12, V20-16, V20-17): the attack's successes (a specialty 10 counts twice; each 1
  cancels one; Willpower adds one that nothing cancels; a botch is no success, a 1 and no automatic
  success), the dodge's successes subtracted (Book), the damage pool (the weapon + net successes − 1)
  and the soak pool rolled at difficulty 6 (faces 6–10; no botch, 1s cancel nothing), the levels
  left; the health track by the sheet's own rule (``systems.v20.sheet.take_damage``, once per value).
- Tiers (T-1 … T-5): each roll a chain of d10s (a 1 rolls again; each reroll ≤ the effective value
  adds a tier; a critical is a success at tier 0 at least), the shot's tier × bullets, the dodge
  strictly above it, the soak's tier, the damage, the wound track stopping at its end.

``agreement`` compares each exact probability with its simulated frequency: within ``sigmas``
standard errors, ``sqrt(p (1 − p) / n)``. The test suite runs 10**5 exchanges; ``bench/run.py
--exchange`` runs 10**6 beside the exact odds and times both.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import sqrt

import numpy as np

from rollbook.play.common import Effects
from rollbook.systems.tiers.rules import TiersRequest
from rollbook.systems.v20 import rules as v20
from rollbook.systems.v20.sheet import Health, take_damage

BATCH = 100_000


def _successes(rng, request: v20.V20Request, n: int):
    """(total successes, botch) of n V20 rolls of ``request`` (no table rules)."""
    _, evaluated, required = v20.evaluated_difficulty(request)
    difficulty = v20.applied_difficulty(evaluated, request.mode)
    faces = rng.integers(1, 11, size=(n, request.pool), dtype=np.int8)
    hits = faces >= difficulty
    rolled = hits.sum(axis=1) + ((faces == 10) & hits).sum(axis=1) * int(request.specialty)
    ones = (faces == 1).sum(axis=1)
    auto = int(request.willpower) + request.auto_successes
    total = rolled - np.minimum(ones, rolled) + auto
    botch = (rolled == 0) & (ones >= 1) & (auto == 0)
    return total, botch, required


def _levels(rng, pools):
    """Faces 6–10 among each pool's dice (a damage or soak roll)."""
    width = int(pools.max()) if len(pools) else 0
    if width == 0:
        return np.zeros(len(pools), dtype=np.int64)
    faces = rng.integers(1, 11, size=(len(pools), width), dtype=np.int8)
    counted = (faces >= 6) & (np.arange(width)[None, :] < pools[:, None])
    return counted.sum(axis=1)


def simulate_v20(attack: v20.V20Request, weapon, defender, n: int, seed: int = 33) -> dict[str, Counter]:
    """Counts of outcomes, levels taken and wound levels over n simulated exchanges (``weapon`` and
    ``defender`` as ``systems.v20.odds_exchange`` takes them)."""
    rng = np.random.default_rng(seed)
    marked = v20.damage_type_against(
        weapon.damage_type,
        firearm=weapon.firearm,
        vampire=defender.vampire,
        aimed_at_head=weapon.aimed_at_head,
    )
    soak_dice = defender.soak_pool(marked)
    base, _ = v20.damage_pool(weapon.strength, weapon.damage, weapon.firearm, 1)
    counts = {"outcomes": Counter(), "levels": Counter(), "wounds": Counter()}
    taken_counts: Counter = Counter()
    left = n
    while left:
        size = min(BATCH, left)
        left -= size
        total, botch, required = _successes(rng, attack, size)
        success = ~botch & (total >= required)
        net = total.copy()
        if defender.dodge is not None:
            saved, _, _ = _successes(rng, defender.dodge, size)
            net = total - saved
        hit = success & (net >= 1)
        dodged = success & ~hit
        pools = np.where(hit, base + net - 1, 0)
        rolled = _levels(rng, pools)
        soaked = _levels(rng, np.full(size, soak_dice))
        taken = np.where(hit, np.maximum(rolled - soaked, 0), 0)
        counts["outcomes"].update(
            {
                "botch": int(botch.sum()),
                "miss": int((~botch & ~success).sum()),
                "dodged": int(dodged.sum()),
                "soaked": int((hit & (taken == 0)).sum()),
                "wounded": int((hit & (taken > 0)).sum()),
            }
        )
        values, times = np.unique(taken, return_counts=True)
        taken_counts.update(dict(zip(values.tolist(), times.tolist())))
    bashing, lethal, aggravated = defender.health
    for value, times in taken_counts.items():
        counts["levels"][value] += times
        effects = Effects()
        after = take_damage(
            Health(bashing=bashing, lethal=lethal, aggravated=aggravated), value, marked, effects
        )
        if any(e.get("flag") == "health_overflow" for e in effects.items):
            level = (
                "dead" if not defender.vampire else ("final_death" if marked == "aggravated" else "torpor")
            )
        else:
            level = v20.health_level(after.damage) or "unhurt"
        counts["wounds"][level] += times
    return counts


def _chain(rng, effective: int, n: int):
    """n chained tiers at an effective value (T-1, T-2)."""
    first = rng.integers(1, 11, size=n)
    tier = effective - first
    critical = first == 1
    extra = np.zeros(n, dtype=np.int64)
    rolling = critical.copy()
    while rolling.any():
        face = rng.integers(1, 11, size=n)
        extra += rolling & (face <= effective)
        rolling &= face == 1
    tier = tier + extra
    return np.where(critical, np.maximum(tier, 0), tier)  # T-2 Reading: a critical is tier 0 at least


def simulate_tiers(shot: TiersRequest, defender, n: int, seed: int = 33) -> dict[str, Counter]:
    """Counts of outcomes and of the wound level after n simulated exchanges."""
    rng = np.random.default_rng(seed)
    counts = {"outcomes": Counter(), "track": Counter()}
    left = n
    while left:
        size = min(BATCH, left)
        left -= size
        attack = _chain(rng, shot.skill + shot.bonus, size) * (shot.bullets or 1)  # T-3
        hit = attack >= 0
        dodged = np.zeros(size, dtype=bool)
        if defender.dodge is not None:
            dodged = hit & (_chain(rng, defender.dodge, size) > attack)  # T-4
        soak = _chain(rng, defender.endurance + defender.armor, size)
        damage = np.where(hit & ~dodged & (soak <= attack), attack - soak, 0)  # T-5
        after = np.minimum(defender.level + damage, defender.length)
        counts["outcomes"].update(
            {
                "miss": int((~hit).sum()),
                "dodged": int(dodged.sum()),
                "soaked": int((hit & ~dodged & (damage == 0)).sum()),
                "wounded": int((damage > 0).sum()),
            }
        )
        values, times = np.unique(after, return_counts=True)
        counts["track"].update(dict(zip(values.tolist(), times.tolist())))
    return counts


def agreement(exact: dict, counts: Counter, n: int, sigmas: float = 4) -> list[tuple]:
    """The keys whose simulated count is further than ``sigmas`` standard errors from the exact
    expectation ``n·p``, give or take one exchange (a count is a whole number: one exchange seen of
    an event of probability 3·10⁻⁷ in 10⁵ is no evidence); a probability of 0 must never be seen."""
    bad = []
    for key in set(exact) | set(counts):
        p = Fraction(exact.get(key, 0))
        seen = counts.get(key, 0) / n
        if p == 0:
            if counts.get(key, 0):
                bad.append((key, float(p), seen))
            continue
        error = sqrt(float(p) * (1 - float(p)) / n)
        if abs(seen - float(p)) > sigmas * error + 1 / n:
            bad.append((key, float(p), seen))
    return bad
