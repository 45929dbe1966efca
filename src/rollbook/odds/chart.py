"""Pictures of the odds (matplotlib, Agg backend, imported only when a picture is drawn).

Each function computes exact odds with the other ``rollbook.odds`` modules and writes one
file; the format follows the file name (``.svg`` or ``.png``). Nothing else here does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rollbook.rules.base import RuleError, present

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from rollbook.systems.rollunder.rules import RollUnderRequest
    from rollbook.systems.tiers.odds_exchange import TiersExchange
    from rollbook.systems.tiers.rules import TiersRequest
    from rollbook.systems.v20.odds_exchange import V20Exchange

FORMATS = (".svg", ".png")

# One colour per outcome, the same in every picture (colour-blind-safe palette, Okabe–Ito).
COLOURS = {
    "critical": "#009E73",
    "messy_critical": "#CC79A7",
    "success": "#56B4E9",
    "failure": "#E69F00",
    "total_failure": "#999999",
    "bestial_failure": "#D55E00",
    "botch": "#D55E00",
    "critical_success": "#009E73",
    "critical_failure": "#D55E00",
}
LABELS = {
    "critical": "critical",
    "messy_critical": "messy critical",
    "success": "success",
    "failure": "failure",
    "total_failure": "total failure",
    "bestial_failure": "bestial failure",
    "critical_success": "critical success",
    "critical_failure": "critical failure",
}


def _set_up_pyplot() -> None:
    """The Agg backend and the pictures' settings, before ``matplotlib.pyplot`` is used."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "rollbook", "svg.fonttype": "none", "font.size": 10})


def _check_path(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise RuleError("bad_choice", field="chart", value=path.suffix or str(path), choices=list(FORMATS))
    return path


def _save(fig: Figure, path: Path) -> Path:
    metadata = {"Date": None} if path.suffix.lower() == ".svg" else {"Software": "rollbook"}
    fig.savefig(path, bbox_inches="tight", dpi=144, metadata=metadata)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


def v20_chart(
    path: str | Path,
    pools: Iterable[int] = (1, 2, 3, 4, 5, 6, 8, 10),
    difficulties: Iterable[int] = range(2, 11),
    **options: Any,
) -> Path:
    """V20: success and botch by difficulty, one line per pool (other request fields shared)."""
    from rollbook.systems.v20.odds import odds

    path = _check_path(path)
    pools, difficulties = tuple(pools), tuple(difficulties)
    _set_up_pyplot()
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
    return _save(fig, path)


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
    from rollbook.systems.v5.odds import odds
    from rollbook.systems.v5.rules import OUTCOMES

    path = _check_path(path)
    hungers = tuple(hungers)
    results = [odds(pool, h, difficulty, reroll=reroll, goal=goal, **options) for h in hungers]
    _set_up_pyplot()
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
    return _save(fig, path)


def tiers_chart(path: str | Path, request: TiersRequest) -> Path:
    """Tiers: the distribution of the tier (or damage, for a soak), successes in colour."""
    from rollbook.systems.tiers.odds import tiers_odds

    path = _check_path(path)
    result = tiers_odds(request)
    _set_up_pyplot()
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
    return _save(fig, path)


def rollunder_chart(path: str | Path, request: RollUnderRequest) -> Path:
    """Roll-under: success by level with and without advantage, or an opposed roll's totals."""
    from rollbook.systems.rollunder.odds import rollunder_odds

    path = _check_path(path)
    _set_up_pyplot()
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
    return _save(fig, path)


def exchange_chart(path: str | Path, result: V20Exchange | TiersExchange, title: str) -> Path:
    """A whole exchange (``systems.v20.odds_exchange`` or ``systems.tiers.odds_exchange``): the outcome of the attack
    on the left, the defender's wound level after it on the right."""
    path = _check_path(path)
    _set_up_pyplot()
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(9.5, 4.2), gridspec_kw={"width_ratios": [2, 3]})
    outcomes = result.outcomes.floats()
    tones = {
        "botch": "botch",
        "miss": "failure",
        "dodged": "total_failure",
        "soaked": "success",
        "wounded": "bestial_failure",
    }
    left.bar(
        [k.replace("_", " ") for k in outcomes],
        [100 * v for v in outcomes.values()],
        color=[COLOURS[tones[k]] for k in outcomes],
    )
    left.set_ylabel("%")
    left.set_title("the attack")
    wounds = (
        result.wounds.nonzero().floats() if hasattr(result, "wounds") else result.track.nonzero().floats()
    )
    right.bar(
        [str(k).replace("_", " ") for k in wounds],
        [100 * v for v in wounds.values()],
        color=COLOURS["failure"],
    )
    right.set_title("the defender after it" if hasattr(result, "wounds") else "wound level after it")
    right.tick_params(axis="x", labelrotation=45)
    for ax in (left, right):
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title)
    return _save(fig, path)


def outcomes_chart(path: str | Path, odds: dict[str, Any], title: str) -> Path:
    """The outcomes of any system's odds contract (``odds_for``'s ``outcomes``, ``p/q`` each): one
    bar per outcome, in its colour (a system registered from outside: its own codes in grey)."""
    from fractions import Fraction

    path = _check_path(path)
    _set_up_pyplot()
    import matplotlib.pyplot as plt

    outcomes = {str(code): float(Fraction(p)) for code, p in odds["outcomes"].items()}
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.bar(
        [LABELS.get(code, code.replace("_", " ")) for code in outcomes],
        [100 * p for p in outcomes.values()],
        color=[COLOURS.get(code, "#999999") for code in outcomes],
    )
    ax.set_ylabel("%")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, path)


__all__ = ["exchange_chart", "outcomes_chart", "rollunder_chart", "tiers_chart", "v20_chart", "v5_chart"]
