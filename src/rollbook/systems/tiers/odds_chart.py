"""Tiers' pictures of its odds (``rollbook.odds.chart`` draws them; matplotlib imported only when one
is drawn): the distribution of a roll's tier (or a soak's damage), successes in colour (T-1 … T-5), and
a whole exchange's (the shot, then the wound level)."""

from __future__ import annotations

from pathlib import Path

from rollbook.odds.chart import COLOURS, check_path, draw_exchange, save, set_up_pyplot
from rollbook.rules.base import present
from rollbook.systems.tiers.odds import tiers_odds
from rollbook.systems.tiers.odds_exchange import TiersExchange
from rollbook.systems.tiers.rules import TiersRequest


def tiers_chart(path: str | Path, request: TiersRequest) -> Path:
    """Tiers: the distribution of the tier (or damage, for a soak), successes in colour."""
    path = check_path(path)
    result = tiers_odds(request)
    set_up_pyplot()
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    if result.damage is not None:
        items = result.damage.nonzero().floats()
        colours = [COLOURS["success"] if d == 0 else COLOURS["failure"] for d in items]
        ax.set_xlabel("damage (wound levels)")
        ax.set_title(
            f"Tiers soak: {request.endurance}+{request.armor} against an attack of tier {request.attack_tier}"
        )
    else:
        items = result.tiers.nonzero().floats()
        if request.kind == "dodge":
            attack = present(request.attack_tier, "attack_tier")
            colours = [COLOURS["success"] if t > attack else COLOURS["failure"] for t in items]
            ax.set_title(
                f"Tiers dodge: skill {request.skill}+{request.bonus} against tier {request.attack_tier}"
            )
        else:
            colours = [COLOURS["success"] if t >= 0 else COLOURS["failure"] for t in items]
            bullets = f", {request.bullets} bullets" if request.bullets else ""
            ax.set_title(f"Tiers: skill {request.skill}+{request.bonus}{bullets}")
        ax.set_xlabel("tier")
    ax.bar(list(items), [100 * v for v in items.values()], color=colours)
    ax.set_ylabel("%")
    ax.grid(axis="y", alpha=0.3)
    return save(fig, path)


def exchange_chart(path: str | Path, result: TiersExchange, title: str) -> Path:
    """A whole Tiers exchange (``systems.tiers.odds_exchange``): the shot, then the wound level."""
    return draw_exchange(path, result, result.track, "wound level after it", title)


__all__ = ["exchange_chart", "tiers_chart"]
