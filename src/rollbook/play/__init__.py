"""The pure "play" layer between character sheets and the rules.

The chronicle server loads a sheet, calls one of these functions and, in the same transaction,
stores the new sheet and appends the receipt. Everything here is pure game logic over plain JSON
dicts: no web, storage or CLI library. Input dicts are never mutated; every refusal is a
``RuleError(code, **params)`` raised before any die is drawn.

One module per system (``systems.v20.play``, ``systems.v5.play``, ``systems.tiers.play``, ``systems.rollunder.play``), each with:
``Sheet`` (Pydantic v2, extra="forbid", strict), ``ACTIONS`` / ``FOLLOWUPS`` / ``CHANGES`` (kind ->
model), ``CHAINS`` (action kind -> the receipt kinds it may follow), ``PLAYER_FIELDS`` (what a player
may edit), ``prepare`` (build the rules request and the pool, refusing before any die:
``common.Prepared``), ``apply`` (the consequences of the drawn dice on a copy of the sheet),
``followup``, ``adjust``, ``verify``. ``perform`` here is the one path through them: prepare, draw,
resolve, apply.

The combat chain (SPEC V20-17, T-4, T-5): one exchange is several rolls, each following the one
before it. The roll that follows names the receipt it follows; nothing of that receipt is typed in:

    attack = perform("v20", attacker, {"kind": "test", "attribute": "dexterity", "ability": "melee"}, ...)
    damage = perform("v20", attacker, {"kind": "damage", "weapon": "knife"}, ..., follows=attack.receipt)
    soak = perform("v20", defender, {"kind": "soak"}, ..., follows=damage.receipt)
    soak.sheet  # the defender's sheet with the levels left after soak marked on its health track

    shot = perform("tiers", shooter, {"kind": "skill", "skill": "firearms", "weapon": "pistol", "bullets": 2}, ...)
    dodge = perform("tiers", target, {"kind": "dodge"}, ..., follows=shot.receipt)          # T-4
    soak = perform("tiers", target, {"kind": "soak", "location": "torso"}, ..., follows=dodge.receipt)  # T-5
    soak.sheet  # the wound track advanced by the damage

- ``follows`` is the stored receipt dict of the earlier roll (``Performed.receipt``, as logged). It is
  checked here before any die: same system, a kind the action may follow (``CHAINS``), and consistent
  with its own dice (``verify_receipt``). V20: ``damage`` follows a successful ``test`` (the attack:
  one die per success beyond the first), ``soak`` follows a ``damage`` (its levels and damage type).
  Tiers: ``dodge`` follows a hit ``skill`` roll (its tier), ``soak`` follows that skill roll or a
  failed ``dodge`` (the attack's tier). A value the followed receipt gives may not also be typed in
  (``follows_conflict``); without ``follows`` the action takes it typed in, as before.
- The new sheet (``Performed.sheet``) is a pure change: the caller stores it in the same transaction as
  the receipt (the soak's transaction marks the defender's health or wound track). The defender's
  sheet is the one passed in; who may act for the defender (the player, or the Storyteller for an
  NPC) is the caller's rule, as is linking the log entries (``refers_to``: the followed entry).
- The receipt of a chained roll holds ``"follows": {"kind": ..., "system": ...}`` and, in its pool,
  what it took from the followed receipt, so it explains itself without the earlier entry.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Set
from typing import Any

from rollbook.dice import DiceSource
from rollbook.dice import roll as roll_dice
from rollbook.play import authority
from rollbook.play.common import (
    STORYTELLER,
    JsonObject,
    Model,
    Performed,
    changed_paths,
    check_mode,
    check_role,
    dump,
    merge,
    parse,
    parse_kind,
    storyteller_only,
)
from rollbook.play.systems import SYSTEM_IDS, SystemModule, system_ids, system_module
from rollbook.rules.base import RuleError, to_plain
from rollbook.rules.table import check_table_rules


def _load_sheet(module: SystemModule, sheet: Any) -> Any:
    # No copy first: strict validation builds the model's own containers (sheets hold no ``Any``),
    # and never changes the dict it reads.
    return parse(module.Sheet, sheet, "sheet")


def _check_mode(module: SystemModule, loaded: Any, mode: str | None) -> None:
    """The checks a chronicle's mode makes of a sheet it takes in (V20-19: Strict refuses a trait above
    its Generation's maximum; Casual takes it, and the sheet says so: ``turns.sheet_limits``)."""
    if mode is not None:
        module.check_mode(loaded, check_mode(mode))


def new_sheet(
    system: str, data: JsonObject, *, role: str | None = None, mode: str | None = None
) -> JsonObject:
    """Validate a new sheet, fill its defaults, return it as plain JSON. ``role``: who makes it; a
    player's sheet may not hold what only the Storyteller gives (``STORYTELLER_SHEET_FIELDS``: the
    roll-under cards, R-6). ``mode``: the chronicle's, when it takes the sheet in
    (V20-19)."""
    module = system_module(system)
    if not isinstance(data, dict):
        raise RuleError("not_an_object", field="sheet")
    loaded = _load_sheet(module, data)
    _check_mode(module, loaded, mode)
    made = dump(loaded)
    if role is not None and check_role(role) != STORYTELLER:
        for name in sorted(module.STORYTELLER_SHEET_FIELDS):
            if made.get(name):
                raise RuleError("storyteller_only", action=f"sheet.{name}", role=role)
    return made


def edit_sheet(
    system: str, sheet: JsonObject, patch: JsonObject, *, role: str, mode: str | None = None
) -> JsonObject:
    """Merge a patch (objects merge, ``null`` removes a key) and revalidate. A player may change only
    the descriptive fields (``PLAYER_FIELDS``); the Storyteller may change anything."""
    module, loaded = _loaded(system, sheet, role=role)
    current = dump(loaded)
    if not isinstance(patch, dict):
        raise RuleError("not_an_object", field="patch")
    parsed = parse(module.Sheet, merge(current, patch), "sheet")
    _check_mode(module, parsed, mode)
    edited = dump(parsed)
    if role != STORYTELLER:
        adds = module.PLAYER_ADDS
        for path in changed_paths(current, edited):
            top = path.split(".")[0]
            if top in adds and _only_added(current.get(top), edited.get(top)):
                continue
            if top not in module.PLAYER_FIELDS:
                raise RuleError("forbidden_edit", field=path)
        if "powers" in adds:
            _powers_within_dots(current, edited)
    return edited


def _only_added(before: Any, after: Any) -> bool:
    """``after`` keeps every item of the list ``before`` as it was (items added, none changed or gone)."""
    if not isinstance(after, list):
        return False
    left = list(after)
    for item in before if isinstance(before, list) else ():
        if item not in left:
            return False
        left.remove(item)
    return True


def _powers_within_dots(before: JsonObject, after: JsonObject) -> None:
    """A power a player adds takes one dot of its Discipline (Book: one power per dot): a Discipline
    holds no more powers than its rating; its level is checked with the sheet (``power_above_rating``)."""
    ratings = after.get("disciplines") or {}
    counted: dict[str, int] = {}
    for power in after.get("powers") or []:
        counted[power["discipline"]] = counted.get(power["discipline"], 0) + 1
    old: dict[str, int] = {}
    for power in before.get("powers") or []:
        old[power["discipline"]] = old.get(power["discipline"], 0) + 1
    for discipline, count in sorted(counted.items()):
        if count > old.get(discipline, 0) and count > int(ratings.get(discipline) or 0):
            raise RuleError(
                "powers_beyond_dots", field="powers", trait=discipline, rating=ratings.get(discipline, 0)
            )


def _loaded(system: str, sheet: Any, *, role: str, mode: str | None = None) -> tuple[SystemModule, Any]:
    """The checks every call makes first: the role (and the mode), the system's module, the sheet validated."""
    check_role(role)
    if mode is not None:
        check_mode(mode)
    module = system_module(system)
    return module, _load_sheet(module, sheet)


def _kind(
    models: Mapping[str, type[Model]], storyteller_kinds: Set[str], data: Any, what: str, role: str
) -> Any:
    """An action or change validated by its kind's model; Storyteller-only kinds refused to a player."""
    validated = parse_kind(models, data, what)  # no copy first: the model builds its own containers
    if validated.kind in storyteller_kinds:
        storyteller_only(role, validated.kind)
    return validated


def _stored(system: str, receipt: Any, field: str) -> JsonObject:
    """A stored receipt of this system (the one a follow-up is made on, or a chained roll follows)."""
    if not isinstance(receipt, dict):
        raise RuleError("not_an_object", field=field)
    if receipt.get("system") != system:
        raise RuleError("receipt_system_mismatch", system=system, receipt_system=str(receipt.get("system")))
    return copy.deepcopy(receipt)


def _followed(module: SystemModule, system: str, kind: str, follows: Any) -> JsonObject | None:
    """The receipt an action follows (the combat chain, see the module docstring), checked before any die."""
    if follows is None:
        return None
    allowed = module.CHAINS.get(kind, ())
    if not allowed:
        raise RuleError("follows_not_for_kind", kind=kind)
    followed = _stored(system, follows, "follows")
    if followed.get("kind") not in allowed:
        raise RuleError(
            "follows_wrong_kind", kind=kind, follows=str(followed.get("kind")), allowed=list(allowed)
        )
    problems = verify_receipt(followed)
    if problems:
        raise RuleError("receipt_inconsistent", problems=problems)
    return followed


def _prepare(
    system: str,
    sheet: JsonObject,
    action: JsonObject,
    *,
    mode: str,
    role: str,
    follows: JsonObject | None,
    table_rules: Any = (),
    compulsion: JsonObject | None = None,
) -> tuple[SystemModule, Any, Any, Any]:
    """What ``perform`` and ``preview`` do before any die: role, mode, system, sheet, action,
    Storyteller-only kinds, the followed receipt, then the module's ``prepare`` (its refusals).
    ``table_rules`` (TR-1): the chronicle's set in force, for the modules whose rules read it;
    ``compulsion``: the V5 compulsion in force for the character (``systems.v5.compulsions``)."""
    module, loaded = _loaded(system, sheet, role=role, mode=mode)
    validated = _kind(module.ACTIONS, module.STORYTELLER_ACTIONS, action, "action", role)
    prior = _followed(module, system, validated.kind, follows)
    rules_in_force = check_table_rules(system, table_rules) if table_rules else ()
    extra: JsonObject = {}
    if module.READS_TABLE_RULES:
        extra["table_rules"] = rules_in_force
    if compulsion is not None:
        if not module.READS_COMPULSION:
            raise RuleError("compulsion_not_for_system", system=system)
        extra["compulsion"] = compulsion
    # check_mode: the mode ``_loaded`` checked, as its literal type
    prepared = module.prepare(loaded, validated, mode=check_mode(mode), role=role, follows=prior, **extra)
    return module, loaded, validated, prepared


def perform(
    system: str,
    sheet: JsonObject,
    action: JsonObject,
    *,
    mode: str,
    role: str,
    source: DiceSource,
    follows: JsonObject | None = None,
    table_rules: Any = (),
    compulsion: JsonObject | None = None,
) -> Performed:
    """A roll named by traits: validate, build the pool from the sheet (and from the receipt it
    ``follows``, in a combat chain), refuse before drawing, draw, resolve, and apply every
    consequence to a copy of the sheet. ``table_rules``: the chronicle's table rules in force
    (TR-1), recorded in the receipt (``"table_rules"``, the canonical set) whatever the system.
    ``compulsion``: the V5 compulsion in force for the character (its penalty in the pool)."""
    module, loaded, validated, prepared = _prepare(
        system,
        sheet,
        action,
        mode=mode,
        role=role,
        follows=follows,
        table_rules=table_rules,
        compulsion=compulsion,
    )
    faces, result = roll_dice(prepared.system, prepared.request, source)
    performed = module.apply(loaded, validated, prepared, faces, result, source=source)
    if performed.receipt is not None:
        performed.receipt["table_rules"] = list(check_table_rules(system, table_rules)) if table_rules else []
    return performed


def preview(
    system: str,
    sheet: JsonObject,
    action: JsonObject,
    *,
    mode: str,
    role: str,
    follows: JsonObject | None = None,
    table_rules: Any = (),
    compulsion: JsonObject | None = None,
) -> JsonObject:
    """The roll ``perform`` would make, without drawing a die: ``{"system", "kind", "request",
    "pool"}``, the same values ``perform`` puts in its receipt under those keys (both use the system
    module's ``prepare``). Every refusal ``perform`` makes before drawing is raised here too."""
    _, _, validated, prepared = _prepare(
        system,
        sheet,
        action,
        mode=mode,
        role=role,
        follows=follows,
        table_rules=table_rules,
        compulsion=compulsion,
    )
    return {
        "system": system,
        "kind": validated.kind,
        "request": to_plain(prepared.request),
        "pool": copy.deepcopy(prepared.pool),
    }


def perform_followup(
    system: str,
    sheet: JsonObject,
    receipt: JsonObject,
    action: JsonObject,
    *,
    mode: str,
    role: str,
    source: DiceSource,
) -> Performed:
    """A follow-up on a stored receipt: V5 ``{"kind": "reroll", "dice": [...]}`` (V5-8);
    roll-under ``{"kind": "card", "card": name}`` is always refused (R-6)."""
    module, loaded = _loaded(system, sheet, role=role, mode=mode)
    stored = _stored(system, receipt, "receipt")
    return module.followup(
        loaded, stored, copy.deepcopy(action), mode=check_mode(mode), role=role, source=source
    )


def adjust(system: str, sheet: JsonObject, change: JsonObject, *, role: str) -> Performed:
    """A change without dice: spend, restore, grant, award, reload, damage, experience."""
    module, loaded = _loaded(system, sheet, role=role)
    validated = _kind(module.CHANGES, module.STORYTELLER_CHANGES, change, "change", role)
    return module.adjust(loaded, validated, role=role)


def verify_receipt(receipt: JsonObject) -> list[str]:
    """Recompute the rules receipt from the stored request and faces (and rerolls); the problems
    found, as short codes (an empty list means the receipt is consistent)."""
    if not isinstance(receipt, dict):
        return ["not_an_object"]
    system = receipt.get("system")
    if system not in system_ids():
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


def describe_actions(system: str) -> JsonObject:
    """JSON schemas for forms: the sheet, every action, follow-up and change of a system, which
    kinds only the Storyteller may use, which sheet fields a player may edit, and which fields of
    each action are the Storyteller's to grant (``edges``, SPEC A-1)."""
    module = system_module(system)
    return {
        "system": system,
        "sheet": module.Sheet.model_json_schema(),
        "actions": {kind: model.model_json_schema() for kind, model in module.ACTIONS.items()},
        "followups": {kind: model.model_json_schema() for kind, model in module.FOLLOWUPS.items()},
        "changes": {kind: model.model_json_schema() for kind, model in module.CHANGES.items()},
        "chains": {kind: list(kinds) for kind, kinds in module.CHAINS.items()},
        "storyteller_only": sorted(module.STORYTELLER_ACTIONS | module.STORYTELLER_CHANGES),
        "storyteller_only_values": module.STORYTELLER_VALUES,
        "player_fields": sorted(module.PLAYER_FIELDS),
        "tables": module.TABLES,
        # the fields of each action that are the Storyteller's (a player asks for them)
        "edges": {kind: authority.edge_fields(system, kind) for kind in module.ACTIONS},
    }


__all__ = [
    "SYSTEM_IDS",
    "system_ids",
    "Performed",
    "RuleError",
    "new_sheet",
    "edit_sheet",
    "perform",
    "preview",
    "perform_followup",
    "adjust",
    "verify_receipt",
    "describe_actions",
    "system_module",
]
