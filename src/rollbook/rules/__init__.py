"""The pure rules core: the interface of a game system's rules (``SystemRules``) and a registry that
names each system's rules module: a shipped system's, ``rollbook.systems.<id>.rules``, found by its
dotted name (``importlib``: the core names no system's code, so the systems' packages, which import
this one, make no cycle); one defined outside the package, by ``register``.

Each system module provides, for each of its request types:
- ``needed(request, faces) -> tuple[int, ...]``: the sizes of the dice still to draw
  given the faces drawn so far (empty when the roll is complete). Dice sources call this
  in a loop; it is how a chained critical asks for another die.
- ``resolve(request, faces) -> receipt``: the pure resolution; same input, same receipt.
Requests and receipts are small frozen dataclasses; receipts carry codes and numbers only.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

from rollbook.rules.base import ContestRules, Faces, RuleError
from rollbook.systems import SHIPPED

Receipt_co = TypeVar("Receipt_co", covariant=True)


class RulesSystem(Protocol[Receipt_co]):
    """What a system module (or any needed/resolve pair, such as a V20 soak) provides; each takes its
    own request type, hence ``Any``."""

    def needed(self, request: Any, faces: Faces, /) -> tuple[int, ...]: ...

    def resolve(self, request: Any, faces: Faces, /) -> Receipt_co: ...


class SystemRules(RulesSystem[object], Protocol):
    """A game system's rules module as the registry holds it: ``needed``/``resolve``, and its part of
    contested and extended rolls (``CONTESTS``, TR-3/TR-4, read by ``rules.contests``; None: it has
    none), declared by every system registered."""

    @property
    def CONTESTS(self) -> ContestRules | None: ...


@dataclass(frozen=True)
class GameSystem:
    id: str
    module: SystemRules

    def needed(self, request: object, faces: Faces) -> tuple[int, ...]:
        return self.module.needed(request, faces)

    def resolve(self, request: object, faces: Faces) -> object:
        return self.module.resolve(request, faces)


_REGISTRY: dict[str, GameSystem] = {}


def register(system_id: str, module: SystemRules) -> GameSystem:
    system = GameSystem(system_id, module)
    _REGISTRY[system_id] = system
    return system


def unregister(system_id: str) -> None:
    """Remove a system ``register`` added from outside the package (a shipped system stays)."""
    if system_id not in _BUILTIN:
        _REGISTRY.pop(system_id, None)


def get_system(system_id: str) -> GameSystem:
    _load_builtin()
    try:
        return _REGISTRY[system_id]
    except KeyError:
        raise RuleError("unknown_system", system=system_id, known=sorted(_REGISTRY)) from None


def system_ids() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


_BUILTIN = SHIPPED  # the shipped systems, declared once (``rollbook.systems``)


def _load_builtin() -> None:
    """Each shipped system's rules module, by its dotted name: an import error there fails loudly."""
    if all(system_id in _REGISTRY for system_id in _BUILTIN):
        return
    for system_id in _BUILTIN:
        register(system_id, cast(SystemRules, importlib.import_module(f"rollbook.systems.{system_id}.rules")))


__all__ = ["GameSystem", "RuleError", "SystemRules", "get_system", "register", "system_ids", "unregister"]
