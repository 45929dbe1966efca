"""V5's picture of its odds (``rollbook.odds.chart`` draws it; matplotlib imported only when it is
drawn): the six outcomes stacked, one bar per Hunger level (V5-2 … V5-8)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rollbook.odds.chart import COLOURS, LABELS, check_path, save, set_up_pyplot
from rollbook.systems.v5.odds import odds
from rollbook.systems.v5.rules import OUTCOMES


def v5_chart(
    path: str | Path,
    pool: int,
    difficulty: int = 1,
    hungers: Iterable[int] = range(0, 6),
    reroll: str = "none",
    goal: str | None = None,
    **options: Any,
) -> Path:
    """V5: the six outcomes stacked, one bar per Hunger level."""
    path = check_path(path)
    hungers = tuple(hungers)
    results = [odds(pool, h, difficulty, reroll=reroll, goal=goal, **options) for h in hungers]
    set_up_pyplot()
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    bottoms = [0.0] * len(hungers)
    order = ("critical", "messy_critical", "success", "failure", "total_failure", "bestial_failure")
    assert set(order) == set(OUTCOMES)
    for outcome in order:
        values = [100 * float(r.probability(outcome)) for r in results]
        ax.bar(hungers, values, bottom=bottoms, color=COLOURS[outcome], label=LABELS[outcome], width=0.7)
        for x, (b, v) in enumerate(zip(bottoms, values, strict=False)):
            if v >= 6:
                ax.text(hungers[x], b + v / 2, f"{v:.0f}%", ha="center", va="center", fontsize=8)
        bottoms = [b + v for b, v in zip(bottoms, values, strict=False)]
    ax.set_xticks(hungers)
    ax.set_xlabel("Hunger")
    ax.set_ylabel("%")
    ax.set_ylim(0, 100)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    title = f"V5: {pool} dice against difficulty {difficulty}"
    if reroll != "none":
        title += f", Willpower reroll: {reroll}" + (f" ({goal})" if reroll == "optimal" and goal else "")
    ax.set_title(title)
    return save(fig, path)


__all__ = ["v5_chart"]
