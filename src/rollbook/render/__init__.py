"""Presentation of receipts: a receipt (plain JSON dict) + a language -> a ``ReceiptView``.

The view is shared by the Rich panel of the CLI and the web page: every die with its marks,
the outcome in the games' own terms, and one translated line per number of the receipt.
Each system has a module here with ``view(receipt: dict, lang: str) -> ReceiptView``.
"""

from __future__ import annotations

from collections.abc import Callable

from rollbook.entries import RulesResult
from rollbook.render import rollunder, tiers, v5, v20
from rollbook.render.base import DieView, Line, ReceiptView, t, tn

# system id -> that system's ``view(receipt, lang)``
VIEWS: dict[str, Callable[[dict, str], ReceiptView]] = {
    "v20": v20.view,
    "v5": v5.view,
    "tiers": tiers.view,
    "rollunder": rollunder.view,
}


SHIPPED = tuple(VIEWS)


def register(system: str, made: Callable[[dict, str], ReceiptView]) -> None:
    """The receipt view of a system defined outside the package (``rollbook.play.systems.register``)."""
    if system in SHIPPED:
        raise ValueError(f"{system} is a shipped system")
    VIEWS[system] = made


def unregister(system: str) -> None:
    """Remove what ``register`` added."""
    if system not in SHIPPED:
        VIEWS.pop(system, None)


def view(receipt: dict, lang: str) -> ReceiptView:
    return VIEWS[RulesResult.of(receipt).system](receipt, lang)


__all__ = ["DieView", "Line", "ReceiptView", "VIEWS", "register", "t", "tn", "unregister", "view"]
