"""Roll-under's picture of its odds (``rollbook.odds.chart`` draws it; matplotlib imported only when it
is drawn): success by level with and without advantage (R-1 … R-3), or an opposed roll's totals (R-7)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rollbook.odds.chart import COLOURS, check_path, save, set_up_pyplot
from rollbook.systems.rollunder.odds import rollunder_odds
from rollbook.systems.rollunder.rules import RollUnderRequest


def rollunder_chart(path: str | Path, request: RollUnderRequest) -> Path:
    """Roll-under: success by level with and without advantage, or an opposed roll's totals."""
    path = check_path(path)
    set_up_pyplot()
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    if request.kind == "opposed":
        result = rollunder_odds(request)
        items = result.values.nonzero().floats()
        colours = [COLOURS["success"] if t <= request.target else COLOURS["failure"] for t in items]
        ax.bar(list(items), [100 * v for v in items.values()], color=colours)
        ax.axvline(request.target + 0.5, color="black", lw=1)  # the threshold
        ax.set_xlabel("total")
        ax.set_ylabel("%")
        ax.set_title(f"Opposed roll {request.dice}: total at or under {request.threshold}")
    else:
        levels = range(0, 21)
        for label, adv, dis in (
            ("advantage", True, False),
            ("single d20", False, False),
            ("disadvantage", False, True),
        ):
            base = replace(request, advantage=adv, disadvantage=dis)
            ys = [100 * float(rollunder_odds(replace(base, level=level)).success) for level in levels]
            ax.plot(list(levels), ys, marker="o", ms=3, label=label)
        ax.set_xlabel("level (before bonus and malus)")
        ax.set_ylabel("success, criticals included (%)")
        ax.set_ylim(0, 100)
        ax.legend()
        ax.set_title(f"Roll-under d20 (bonus {request.bonus}, malus {request.malus})")
    ax.grid(alpha=0.3)
    return save(fig, path)


__all__ = ["rollunder_chart"]
