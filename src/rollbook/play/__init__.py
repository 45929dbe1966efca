"""The pure "play" layer between character sheets and the rules.

The chronicle server loads a sheet, calls one of these functions and, in the same transaction,
stores the new sheet and appends the receipt. Everything here is pure game logic over plain JSON
dicts: no web, storage or CLI library. Input dicts are never mutated; every refusal is a
``RuleError(code, **params)`` raised before any die is drawn.

One module per system (``play.v20``, ``play.v5``, ``play.tiers``, ``play.rollunder``), each with:
``Sheet`` (Pydantic v2, extra="forbid", strict), ``ACTIONS`` / ``FOLLOWUPS`` / ``CHANGES`` (kind ->
model), ``PLAYER_FIELDS`` (what a player may edit), ``prepare`` (build the rules request and the pool,
refusing before any die: ``common.Prepared``), ``perform`` (``prepare``, then draw, resolve, apply),
``followup``, ``adjust``, ``verify``.
"""

from __future__ import annotations

import copy
from importlib import import_module
from types import ModuleType
from typing import Any

from rollbook.dice import DiceSource
from rollbook.play.common import (
    STORYTELLER, Performed, changed_paths, check_mode, check_role, dump, merge, parse, parse_kind,
    storyteller_only,
)
from rollbook.rules.base import RuleError, to_plain

SYSTEM_IDS = ("v20", "v5", "tiers", "rollunder")
_MODULES = {system: f"rollbook.play.{system}" for system in SYSTEM_IDS}


def system_module(system: Any) -> ModuleType:
    if not isinstance(system, str) or system not in _MODULES:
        raise RuleError("unknown_system", system=system if isinstance(system, str) else repr(system),
                        known=list(SYSTEM_IDS))
    return import_module(_MODULES[system])


def _load_sheet(module: ModuleType, sheet: Any) -> Any:
    return parse(module.Sheet, copy.deepcopy(sheet), "sheet")


def new_sheet(system: str, data: dict) -> dict:
    """Validate a new sheet, fill its defaults, return it as plain JSON."""
    module = system_module(system)
    if not isinstance(data, dict):
        raise RuleError("not_an_object", field="sheet")
    return dump(_load_sheet(module, data))


def edit_sheet(system: str, sheet: dict, patch: dict, *, role: str) -> dict:
    """Merge a patch (objects merge, ``null`` removes a key) and revalidate. A player may change only
    the descriptive fields (``PLAYER_FIELDS``); the Storyteller may change anything."""
    check_role(role)
    module = system_module(system)
    current = dump(_load_sheet(module, sheet))
    if not isinstance(patch, dict):
        raise RuleError("not_an_object", field="patch")
    edited = dump(parse(module.Sheet, merge(current, patch), "sheet"))
    if role != STORYTELLER:
        for path in changed_paths(current, edited):
            if path.split(".")[0] not in module.PLAYER_FIELDS:
                raise RuleError("forbidden_edit", field=path)
    return edited


def _action(system: str, sheet: dict, action: dict, *, mode: str, role: str) -> tuple[ModuleType, Any, Any]:
    """What ``perform`` and ``preview`` check first: role, mode, system, sheet, action, Storyteller-only kinds."""
    check_role(role)
    check_mode(mode)
    module = system_module(system)
    loaded = _load_sheet(module, sheet)
    validated = parse_kind(module.ACTIONS, copy.deepcopy(action), "action")
    if validated.kind in module.STORYTELLER_ACTIONS:
        storyteller_only(role, validated.kind)
    return module, loaded, validated


def perform(system: str, sheet: dict, action: dict, *, mode: str, role: str, source: DiceSource) -> Performed:
    """A roll named by traits: validate, build the pool from the sheet, refuse before drawing, draw,
    resolve, and apply every consequence to a copy of the sheet."""
    module, loaded, validated = _action(system, sheet, action, mode=mode, role=role)
    return module.perform(loaded, validated, mode=mode, role=role, source=source)


def preview(system: str, sheet: dict, action: dict, *, mode: str, role: str) -> dict:
    """The roll ``perform`` would make, without drawing a die: ``{"system", "kind", "request",
    "pool"}``, the same values ``perform`` puts in its receipt under those keys (both use the system
    module's ``prepare``). Every refusal ``perform`` makes before drawing is raised here too."""
    module, loaded, validated = _action(system, sheet, action, mode=mode, role=role)
    prepared = module.prepare(loaded, validated, mode=mode, role=role)
    return {"system": system, "kind": validated.kind, "request": to_plain(prepared.request),
            "pool": copy.deepcopy(prepared.pool)}


def perform_followup(system: str, sheet: dict, receipt: dict, action: dict, *, mode: str, role: str,
                     source: DiceSource) -> Performed:
    """A follow-up on a stored receipt: V5 ``{"kind": "reroll", "dice": [...]}`` (V5-8);
    roll-under ``{"kind": "card", "card": name}`` is always refused (R-6)."""
    check_role(role)
    check_mode(mode)
    module = system_module(system)
    loaded = _load_sheet(module, sheet)
    if not isinstance(receipt, dict):
        raise RuleError("not_an_object", field="receipt")
    if receipt.get("system") != system:
        raise RuleError("receipt_system_mismatch", system=system, receipt_system=str(receipt.get("system")))
    return module.followup(loaded, copy.deepcopy(receipt), copy.deepcopy(action), mode=mode, role=role,
                           source=source)


def adjust(system: str, sheet: dict, change: dict, *, role: str) -> Performed:
    """A change without dice: spend, restore, grant, award, reload, damage, experience."""
    check_role(role)
    module = system_module(system)
    loaded = _load_sheet(module, sheet)
    validated = parse_kind(module.CHANGES, copy.deepcopy(change), "change")
    if validated.kind in module.STORYTELLER_CHANGES:
        storyteller_only(role, validated.kind)
    return module.adjust(loaded, validated, role=role)


def verify_receipt(receipt: dict) -> list[str]:
    """Recompute the rules receipt from the stored request and faces (and rerolls); the problems
    found, as short codes (an empty list means the receipt is consistent)."""
    if not isinstance(receipt, dict):
        return ["not_an_object"]
    system = receipt.get("system")
    if system not in _MODULES:
        return ["unknown_system"]
    if "request" not in receipt:
        if "change" in receipt:  # a change without dice: nothing to recompute
            return []
        return ["missing:request"]
    module = system_module(system)
    try:
        return module.verify(copy.deepcopy(receipt))
    except RuleError as refused:
        return [f"refused:{refused.code}"]
    except (TypeError, KeyError, ValueError, AttributeError, IndexError):
        return ["malformed"]


def describe_actions(system: str) -> dict:
    """JSON schemas for forms: the sheet, every action, follow-up and change of a system, which
    kinds only the Storyteller may use, and which sheet fields a player may edit."""
    module = system_module(system)
    return {
        "system": system,
        "sheet": module.Sheet.model_json_schema(),
        "actions": {kind: model.model_json_schema() for kind, model in module.ACTIONS.items()},
        "followups": {kind: model.model_json_schema() for kind, model in module.FOLLOWUPS.items()},
        "changes": {kind: model.model_json_schema() for kind, model in module.CHANGES.items()},
        "storyteller_only": sorted(module.STORYTELLER_ACTIONS | module.STORYTELLER_CHANGES),
        "storyteller_only_values": getattr(module, "STORYTELLER_VALUES", {}),
        "player_fields": sorted(module.PLAYER_FIELDS),
        "tables": module.TABLES,
    }


__all__ = [
    "SYSTEM_IDS", "Performed", "RuleError", "new_sheet", "edit_sheet", "perform", "preview", "perform_followup",
    "adjust", "verify_receipt", "describe_actions", "system_module",
]
