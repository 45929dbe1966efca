"""Quick rolls: dice without a sheet ("6 dice, Hunger 2"), in each game's own terms.

Pure: the rules request a quick roll's values make (``quick_request``), and the check of a logged
``quick_roll`` receipt (``verify_quick``): its request rebuilt from the values it names, its result
re-derived by the rules core from that request and its faces. A receipt::

    {"quick": {"system": "v5", "pool": 6, "hunger": 2}, "sheet": null, "request": {...},
     "faces": [...], "result": {...}, "fair": {...}}

(``request`` since the log verifier checks quick rolls; an earlier receipt without it is rebuilt from
``quick`` and the mode its result names.)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rollbook.play import authority
from rollbook.play.common import JsonObject, changed_paths, request_from_plain
from rollbook.play.systems import SYSTEM_IDS, system_module
from rollbook.rules import get_system
from rollbook.rules.base import RuleError, to_plain

# What a quick roll takes in each game (each system's ``QUICK`` module): V20 "N dice, difficulty D",
# V5 "N dice, Hunger H" (difficulty optional), Tiers a skill and a bonus, roll-under a declared
# action against a level.
QUICK_FIELDS = {system: system_module(system).QUICK.FIELDS for system in SYSTEM_IDS}
REQUESTS = {system: system_module(system).QUICK.REQUEST for system in SYSTEM_IDS}


def quick_request(system: str, mode: str, values: Mapping[str, Any]) -> Any:
    """The rules request of a quick roll in ``system`` from its values (``QUICK_FIELDS``)."""
    return system_module(system).QUICK.request(mode, values)


# the action kind whose edges a quick roll's values are (the Storyteller's difficulty, bonus and
# malus, advantage and disadvantage are as much theirs without a sheet as with one).
QUICK_KINDS = {system: system_module(system).QUICK.KIND for system in SYSTEM_IDS}


def is_quick_edge(system: str, name: str) -> bool:
    """A-1: is this quick roll value the Storyteller's (as the same field of ``QUICK_KINDS``' action)?"""
    return name in authority.listed_edges(system, system_module(system).QUICK.KIND)


def asked_edges(
    system: str, mode: str, values: Mapping[str, Any], base: Mapping[str, Any]
) -> tuple[JsonObject, list[str]]:
    """A-1 for a player's quick roll: ``values`` with each edge the player left out taken from
    ``base`` (the baseline: the standing difficulty, …), and the edges the player moved off it (what
    only the Storyteller may set). An edge is moved when it changes the rules request, so "7" and 7,
    or a default sent explicitly, are not."""
    edges = [name for name in system_module(system).QUICK.FIELDS if is_quick_edge(system, name)]
    player = {k: v for k, v in values.items() if k not in edges}
    plain = quick_request(system, mode, player)
    filled = {
        **player,
        **{
            name: base[name]
            for name in edges
            if name in base and quick_request(system, mode, {**player, name: base[name]}) != plain
        },
    }
    as_based = quick_request(system, mode, filled)
    moved = [
        name
        for name in edges
        if name in values and quick_request(system, mode, {**filled, name: values[name]}) != as_based
    ]
    return filled, moved


def is_quick_receipt(receipt: Any) -> bool:
    return isinstance(receipt, Mapping) and isinstance(receipt.get("quick"), Mapping)


def rules_receipt(receipt: Mapping[str, Any]) -> JsonObject:
    """A quick roll's receipt as a rules receipt (``system``, ``request``, ``faces``, ``result`` and its
    ``fair`` record): what the fair dice checker replays. Raises ``RuleError`` when it cannot be read."""
    if not is_quick_receipt(receipt):
        raise RuleError("not_an_object", field="quick")
    quick = receipt["quick"]
    system = quick.get("system")
    if system not in QUICK_FIELDS:
        raise RuleError("unknown_system", system=str(system))
    request = receipt.get("request")
    if request is None:  # written before quick receipts kept their request: rebuilt from what was asked
        stored = receipt.get("result")
        result: Mapping[str, Any] = stored if isinstance(stored, Mapping) else {}
        mode = result.get("mode", "strict")  # a game without modes ignores it
        request = to_plain(quick_request(system, mode, quick))
    view = {
        "system": system,
        "request": copy.deepcopy(request),
        "faces": copy.deepcopy(receipt.get("faces")),
        "result": copy.deepcopy(receipt.get("result")),
    }
    if "fair" in receipt:
        view["fair"] = copy.deepcopy(receipt["fair"])
    return view


def verify_quick(receipt: Any) -> list[str]:
    """Problems of a logged quick roll, as short codes (empty: it checks out): the request matches
    the values it names, and the rules core resolves that request on the stored faces to the stored
    result."""
    if not is_quick_receipt(receipt):
        return ["missing:quick"]
    try:
        view = rules_receipt(receipt)
        system = view["system"]
        request = request_from_plain(REQUESTS[system], view["request"])
        problems: list[str] = []
        asked = {k: receipt["quick"][k] for k in QUICK_FIELDS[system] if k in receipt["quick"]}
        expected = quick_request(system, getattr(request, "mode", "strict"), asked)
        if getattr(request, "table_rules", ()):  # TR-1: the set in force (rollbook log verify checks it, A-5)
            from dataclasses import replace

            expected = replace(expected, table_rules=request.table_rules)
        if expected != request:
            problems.extend(
                f"request_mismatch:{path}" for path in changed_paths(view["request"], to_plain(expected))
            )
            problems = problems or ["request_mismatch"]
        faces = view["faces"]
        if not isinstance(faces, list) or any(isinstance(f, bool) or not isinstance(f, int) for f in faces):
            return [*problems, "malformed:faces"]
        result = get_system(system).resolve(request, tuple(faces))
        if not isinstance(view["result"], dict):
            return [*problems, "result:not_an_object"]
        problems.extend(f"result_mismatch:{path}" for path in changed_paths(view["result"], to_plain(result)))
        return problems
    except RuleError as refused:
        return [f"refused:{refused.code}"]
    except (TypeError, KeyError, ValueError, AttributeError, IndexError):
        return ["malformed"]


__all__ = ["QUICK_FIELDS", "quick_request", "is_quick_receipt", "rules_receipt", "verify_quick"]
