"""The four systems' play modules by id (``system_module``): what the package, ``authority`` and
``schema`` look a system up in (its own module, so that none of them imports the package back)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from rollbook.play import rollunder, tiers, v5, v20
from rollbook.rules.base import RuleError

SYSTEM_IDS = ("v20", "v5", "tiers", "rollunder")
_MODULES: dict[str, ModuleType] = {"v20": v20, "v5": v5, "tiers": tiers, "rollunder": rollunder}


def system_module(system: Any) -> ModuleType:
    """The play module of a system id; ``unknown_system`` for anything else."""
    if not isinstance(system, str) or system not in _MODULES:
        raise RuleError(
            "unknown_system",
            system=system if isinstance(system, str) else repr(system),
            known=list(SYSTEM_IDS),
        )
    return _MODULES[system]
