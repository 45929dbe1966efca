"""V20's pictures of its odds (``rollbook.odds.chart`` draws them; matplotlib imported only when one
is drawn): success and botch by difficulty, one line per pool (V20-15), and a whole exchange's (V20-16,
V20-17: the attack, then the defender's wound level)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rollbook.odds.chart import check_path, draw_exchange, save, set_up_pyplot
from rollbook.systems.v20.odds import odds
from rollbook.systems.v20.odds_exchange import V20Exchange


def v20_chart(
    path: str | Path,
    pools: Iterable[int] = (1, 2, 3, 4, 5, 6, 8, 10),
    difficulties: Iterable[int] = range(2, 11),
    **options: Any,
) -> Path:
    """V20: success and botch by difficulty, one line per pool (other request fields shared)."""
    path = check_path(path)
    pools, difficulties = tuple(pools), tuple(difficulties)
    set_up_pyplot()
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 7), sharex=True, height_ratios=(3, 2))
    cmap = plt.get_cmap("viridis")
    for index, pool in enumerate(pools):
        rows = [odds(pool, d, **options) for d in difficulties]
        colour = cmap(index / max(1, len(pools) - 1) * 0.9)
        top.plot(
            difficulties,
            [100 * float(r.success) for r in rows],
            marker="o",
            color=colour,
            label=f"{pool} {'die' if pool == 1 else 'dice'}",
        )
        bottom.plot(difficulties, [100 * float(r.botch) for r in rows], marker="o", color=colour)
    top.set_ylabel("success (%)")
    top.set_ylim(0, 100)
    top.grid(alpha=0.3)
    top.legend(title="pool", fontsize=8, ncols=2)
    bottom.set_ylabel("botch (%)")
    bottom.set_xlabel("difficulty")
    bottom.set_xticks(difficulties)
    bottom.grid(alpha=0.3)
    extra = ", ".join(f"{k}={v}" for k, v in options.items() if v not in (None, False, 0, "strict"))
    top.set_title("V20: chance of success and of a botch" + (f" ({extra})" if extra else ""))
    return save(fig, path)


def exchange_chart(path: str | Path, result: V20Exchange, title: str) -> Path:
    """A whole V20 exchange (``systems.v20.odds_exchange``): the attack, then the defender's wound level."""
    return draw_exchange(path, result, result.wounds, "the defender after it", title)


__all__ = ["exchange_chart", "v20_chart"]
