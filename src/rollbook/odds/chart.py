"""Pictures of the odds (matplotlib, Agg backend, imported only when a picture is drawn): what every
picture shares (its formats, colours, labels, set-up and saving), the outcomes of any system's odds
contract, and a whole exchange's two panels.

A system's own pictures are its package's (``systems/<id>/odds_chart.py``: V20's success and botch by
difficulty, V5's outcomes by Hunger, a Tiers roll's tiers, a roll-under check by level, an exchange's
odds), drawn with these. Each writes one file; the format follows the file name (``.svg`` or
``.png``). Nothing else here does I/O.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rollbook.odds._exact import Distribution
from rollbook.rules.base import RuleError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

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


def set_up_pyplot() -> None:
    """The Agg backend and the pictures' settings, before ``matplotlib.pyplot`` is used."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "rollbook", "svg.fonttype": "none", "font.size": 10})


def check_path(path: str | Path) -> Path:
    """The picture's file, of a format drawn (``FORMATS``), else refused."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise RuleError("bad_choice", field="chart", value=path.suffix or str(path), choices=list(FORMATS))
    return path


def save(fig: Figure, path: Path) -> Path:
    """The picture written to its file (no date in an SVG, so that one drawing is one file), closed."""
    metadata = {"Date": None} if path.suffix.lower() == ".svg" else {"Software": "rollbook"}
    fig.savefig(path, bbox_inches="tight", dpi=144, metadata=metadata)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


class ExchangeOdds(Protocol):
    """What a whole exchange's picture reads of its odds (a system's ``odds_exchange`` result)."""

    @property
    def outcomes(
        self,
    ) -> Distribution[str]: ...  # the attack's outcomes: botch, miss, dodged, soaked, wounded


def draw_exchange(
    path: str | Path, result: ExchangeOdds, after: Distribution[Any], after_title: str, title: str
) -> Path:
    """A whole exchange (a system's ``odds_chart.exchange_chart``): the outcome of the attack on the
    left, the defender after it on the right (``after``: its wound levels, under ``after_title``)."""
    path = check_path(path)
    set_up_pyplot()
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
    wounds = after.nonzero().floats()
    right.bar(
        [str(k).replace("_", " ") for k in wounds],
        [100 * v for v in wounds.values()],
        color=COLOURS["failure"],
    )
    right.set_title(after_title)
    right.tick_params(axis="x", labelrotation=45)
    for ax in (left, right):
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title)
    return save(fig, path)


def outcomes_chart(path: str | Path, odds: dict[str, Any], title: str) -> Path:
    """The outcomes of any system's odds contract (``odds_for``'s ``outcomes``, ``p/q`` each): one
    bar per outcome, in its colour (a system registered from outside: its own codes in grey)."""
    from fractions import Fraction

    path = check_path(path)
    set_up_pyplot()
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
    return save(fig, path)


__all__ = [
    "COLOURS",
    "FORMATS",
    "LABELS",
    "ExchangeOdds",
    "check_path",
    "draw_exchange",
    "outcomes_chart",
    "save",
    "set_up_pyplot",
]
