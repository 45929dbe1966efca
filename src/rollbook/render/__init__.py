"""Presentation of receipts: a receipt (plain JSON dict) + a language -> a ``ReceiptView``.

The view is shared by the Rich panel of the CLI and the web page: every die with its marks,
the outcome in the games' own terms, and one translated line per number of the receipt.
Each system has a module here with ``view(receipt: dict, lang: str) -> ReceiptView``.
"""

from __future__ import annotations

from collections.abc import Callable

from rollbook.entries import RulesResult
from rollbook.play import systems
from rollbook.render.base import DieView, Line, ReceiptView, t, tn

# system id -> the ``view(receipt, lang)`` of a system defined outside the package (``register``); a
# shipped system's is its package's ``render`` module's, found by name (``play.systems.own_module``)
VIEWS: dict[str, Callable[[dict, str], ReceiptView]] = {}


def register(system: str, made: Callable[[dict, str], ReceiptView]) -> None:
    """The receipt view of a system defined outside the package (``rollbook.play.systems.register``)."""
    if system in systems.SYSTEM_IDS:
        raise ValueError(f"{system} is a shipped system")
    VIEWS[system] = made


def unregister(system: str) -> None:
    """Remove what ``register`` added."""
    VIEWS.pop(system, None)


def view(receipt: dict, lang: str) -> ReceiptView:
    """The receipt's view by its system's: a shipped system's module here (``systems.v20.render``…), or the one
    ``register`` added."""
    system = RulesResult.of(receipt).system
    own = systems.own_module(system, "render")
    made: Callable[[dict, str], ReceiptView] = own.view if own is not None else VIEWS[system]
    return made(receipt, lang)


__all__ = ["DieView", "Line", "ReceiptView", "VIEWS", "register", "t", "tn", "unregister", "view"]
