"""An independent reference for the `rollbook resolve` contract, written from SPEC.md alone.

Nothing here imports rollbook. Each system module exposes ``resolve(request: dict) -> dict | str``:
a dict holding only the SPEC's minimum receipt fields (plus ``system``), or the string
``"error"`` when the request must be refused. ``resolve_text`` takes one raw JSON Lines line.

The style is deliberately plain (dict in, dict out, early returns) so that it shares no
structure with the real implementation under src/rollbook.
"""

from __future__ import annotations

import json

from . import ref_rollunder, ref_tiers, ref_v5, ref_v20
from ._check import refuse

ERROR = "error"

SYSTEMS = {
    "v20": ref_v20.resolve,
    "v5": ref_v5.resolve,
    "tiers": ref_tiers.resolve,
    "rollunder": ref_rollunder.resolve,
}


def is_scalar(value: object) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def resolve_request(request: object) -> dict | str:
    """Resolve one parsed request (any JSON value)."""
    if not isinstance(request, dict):
        return refuse("not_an_object")
    system = request.get("system")
    if not isinstance(system, str) or system not in SYSTEMS:
        return refuse("missing_system", "unknown_system")
    if "id" in request and not is_scalar(request["id"]):
        return refuse("wrong_type")
    body = {k: v for k, v in request.items() if k not in ("system", "id")}
    answer = SYSTEMS[system](body)
    if answer == ERROR:
        return answer
    receipt = {"system": system}
    receipt.update(answer)
    return receipt


def resolve_text(line: str) -> dict | str:
    """Resolve one raw input line."""
    try:
        request = json.loads(line)
    except ValueError:
        return refuse("invalid_json")
    return resolve_request(request)
