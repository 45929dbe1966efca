"""Exact odds of a whole Tiers exchange (SPEC T-1 … T-5): shot → (dodge) → soak at the location hit
→ the wound track, before anyone rolls.

Each roll is one chain of d10s (T-1, T-2); its tier's exact distribution comes from
``systems.tiers.odds.tiers_odds`` (the rules' own ``needed``/``resolve`` walked until every verdict has
settled): exact up to a cutoff, and past it a geometric tail — each further critical 1 adds the same
step (the bullets fired for a shot, T-3; one tier for a dodge or a soak) with a tenth of the
probability. The code checks that shape on the listed tiers before it uses it.

- the shot's tier A (after criticals, × bullets): a hit when A ≥ 0 (T-1);
- the dodge's tier Y (optional): the attack is avoided when Y > A, strictly (T-4);
- the soak's tier Z at Endurance + the location's armour: damage = A − Z when Z ≤ A, else 0 (T-5);
- the wound track advances by the damage and stops at its last level (``systems.tiers.rules.apply_damage``).

The probabilities needed are finite in number — the track has ``length`` levels, so only damage
0 … length − level − 1 needs its own probability and "at least the rest" fills the track — but each
is a sum over every tier of the shot. The sum is exact: explicit up to a point N past every
cutoff, and beyond N every factor is geometric in the shot's critical steps, so the rest is a sum of
geometric series in closed form (``Σ_{j ≥ 1} r**j = r / (1 − r)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rollbook.odds._exact import Distribution, fraction_text
from rollbook.rules.base import RuleError, to_plain
from rollbook.systems.tiers import rules
from rollbook.systems.tiers.odds import distribution_of, tiers_odds

OUTCOMES = ("miss", "dodged", "soaked", "wounded")
RATIO = Fraction(1, rules.SIDES)  # T-2: each further critical 1 weighs a tenth


class ChainTiers:
    """P(tier = t) of one chain of dice, exact everywhere: the listed tiers up to ``cutoff``, then
    ``P(cutoff + k·step) = P(cutoff) · RATIO**k`` for k ≥ 1 (checked against the listed tiers)."""

    __slots__ = ("at_cutoff", "cutoff", "listed", "step", "success")

    def __init__(self, request: rules.TiersRequest, step: int) -> None:
        odds = tiers_odds(request)
        self.success = odds.success  # the rules' own verdict (a shot: T-1, tier ≥ 0)
        self.listed = {t: p for t, p in odds.tiers.fractions().items() if p}
        self.cutoff = odds.cutoff
        self.step = step
        self.at_cutoff = odds.tail * (1 - RATIO) / RATIO  # Σ_{k≥1} q·r**k = tail
        if odds.tail and (
            self.listed.get(self.cutoff) != self.at_cutoff
            or self.listed.get(self.cutoff - step) != self.at_cutoff / RATIO
        ):
            raise AssertionError(f"the tail of {request} is not geometric past its cutoff")

    def p(self, tier: int) -> Fraction:
        if tier <= self.cutoff:
            return self.listed.get(tier, Fraction(0))
        k, off = divmod(tier - self.cutoff, self.step)
        return Fraction(0) if off else self.at_cutoff * RATIO**k

    def above(self, tier: int) -> Fraction:
        """P(tier > t)."""
        if tier >= self.cutoff:
            k = (tier - self.cutoff) // self.step + 1
            return self.at_cutoff * RATIO**k / (1 - RATIO)
        listed = sum((p for t, p in self.listed.items() if t > tier), Fraction(0))
        return listed + self.at_cutoff * RATIO / (1 - RATIO)


@dataclass(frozen=True)
class TiersDefender:
    """The defender's numbers: Endurance and the armour of the location hit (T-5), the wound track
    (levels taken of ``length``), and the dodge skill when they dodge (T-4; None: no dodge)."""

    endurance: int
    armor: int = 0
    level: int = 0
    length: int = 6
    dodge: int | None = None

    def __post_init__(self) -> None:
        rules.TiersRequest(kind="soak", endurance=self.endurance, armor=self.armor, attack_tier=0)
        rules.WoundTrack(length=self.length, level=self.level)
        if self.dodge is not None:
            rules.TiersRequest(kind="dodge", skill=self.dodge, attack_tier=0)


@dataclass(frozen=True, eq=False)
class TiersExchange:
    """Exact odds of one Tiers exchange."""

    shot: rules.TiersRequest
    defender: TiersDefender
    outcomes: Distribution[str]  # miss, dodged, soaked (hit, no damage), wounded: sum 1
    damage: Distribution[int]  # damage 0 … length − level − 1 (miss and dodge count as 0)
    fills: Fraction  # P(damage ≥ max(length − level, 1)): the track is full after the exchange
    track: Distribution[int]  # the wound level after the exchange, 0 … length

    @property
    def hit(self) -> Fraction:
        return self.outcomes.probability("soaked") + self.outcomes.probability("wounded")

    def to_json(self, *, defender_numbers: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "system": "tiers",
            "kind": "exchange",
            "shot": to_plain(self.shot),
            "outcomes": self.outcomes.texts(),
            "floats": self.outcomes.float_texts(),
            "track": self.track.nonzero().texts(),
            "track_floats": self.track.nonzero().float_texts(),
            "full": fraction_text(self.track.probability(self.defender.length)),
            "full_float": float(self.track.probability(self.defender.length)),
        }
        if defender_numbers:
            data["defender"] = to_plain(self.defender)
            data["damage"] = self.damage.nonzero().texts()
            data["damage_at_least"] = {
                "damage": max(self.defender.length - self.defender.level, 1),
                "p": fraction_text(self.fills),
            }
        return data


def _geometric(ratio: Fraction, first: int) -> Fraction:
    """Σ_{j ≥ first} ratio**j."""
    return ratio**first / (1 - ratio)


def exchange_odds(shot: rules.TiersRequest, defender: TiersDefender) -> TiersExchange:
    """The exact odds of one Tiers exchange (see the module docstring)."""
    if shot.kind != "skill":
        raise RuleError("bad_choice", field="kind", value=shot.kind, choices=["skill"])
    bullets = shot.bullets or 1
    attack = ChainTiers(shot, bullets)
    dodge = (
        None
        if defender.dodge is None
        else ChainTiers(rules.TiersRequest(kind="dodge", skill=defender.dodge, attack_tier=0), 1)
    )
    soak = ChainTiers(
        rules.TiersRequest(kind="soak", endurance=defender.endurance, armor=defender.armor, attack_tier=0), 1
    )
    # Damage 0 … room − 1 each on its own; "room or more" fills the track (a full track: room 1, the
    # split between soaked and wounded still asked for).
    room = max(defender.length - defender.level, 1)
    hit = attack.success

    # Explicitly up to N: past every cutoff, on the shot's progression of tiers (multiples of the
    # bullets: T-3), so that beyond it each factor below is geometric in the shot's steps.
    n = max(attack.cutoff, soak.cutoff + room + 1, (dodge.cutoff + 1) if dodge else 0, 0)
    n += (-n) % bullets
    dodged = Fraction(0)
    by_damage = [Fraction(0)] * room  # damage 0 … room − 1 of the attacks not dodged
    for a in range(0, n + 1, bullets):
        weight = attack.p(a)
        if not weight:
            continue
        if dodge is not None:
            away = dodge.above(a)  # T-4: strictly greater
            dodged += weight * away
            weight *= 1 - away
        by_damage[0] += weight * soak.above(a - 1)  # T-5: soak tier ≥ attack tier: no damage
        for damage in range(1, room):  # T-5: damage = attack tier − soak tier (a soak tier may be negative)
            by_damage[damage] += weight * soak.p(a - damage)

    # Beyond N: a = N + j·bullets (j ≥ 1). P(A = a) = P(A = N)·r**j; the dodge's and the soak's
    # factors shrink by r**bullets per step (their tiers are one apart: step 1, past their cutoffs).
    step = RATIO**bullets
    p_n = attack.at_cutoff * RATIO ** ((n - attack.cutoff) // bullets)  # the geometric coefficient at N
    if p_n:
        terms = [(p_n, RATIO)]  # (coefficient, ratio per step) of P(A = a)·(1 − P(dodge > a))
        if dodge is not None:
            away = dodge.above(n)
            dodged += p_n * away * _geometric(RATIO * step, 1)
            terms.append((-p_n * away, RATIO * step))
        for coefficient, ratio in terms:
            by_damage[0] += coefficient * soak.above(n - 1) * _geometric(ratio * step, 1)
            for damage in range(1, room):
                by_damage[damage] += coefficient * soak.p(n - damage) * _geometric(ratio * step, 1)

    not_dodged = hit - dodged
    fills = not_dodged - sum(by_damage, Fraction(0))
    outcomes = {
        "miss": 1 - hit,
        "dodged": dodged,
        "soaked": by_damage[0],
        "wounded": not_dodged - by_damage[0],
    }
    damage_p = {0: 1 - not_dodged + by_damage[0], **{d: by_damage[d] for d in range(1, room)}}
    track: dict[int, Fraction] = {}
    for value, p in [*damage_p.items(), (room, fills)]:
        after, _ = rules.apply_damage(rules.WoundTrack(length=defender.length, level=defender.level), value)
        track[after.level] = track.get(after.level, Fraction(0)) + p  # T-5, the track stops at its end
    if fills < 0 or any(p < 0 for p in damage_p.values()):
        raise AssertionError("negative probability")
    return TiersExchange(
        shot=shot,
        defender=defender,
        outcomes=distribution_of(outcomes),
        damage=distribution_of(damage_p),
        fills=fills,
        track=distribution_of(dict(sorted(track.items()))),
    )


__all__ = ["OUTCOMES", "ChainTiers", "TiersDefender", "TiersExchange", "exchange_odds"]
