"""The OpenAPI document's log entries name the receipts of every registered system, drawn when the
document is (``app.openapi.DrawnSchema``): a roll entry's receipt is one of the toy's while it is
registered (its pool's and its push's), an adjustment's one of its changes'; drawn again once it is
not, the document is the same, byte for byte, as before it was."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from rollbook.app.app import close_app, create_app
from tests.toy_system import registered

REF = "#/components/schemas/{}"


def drawn(database_url: str) -> str:
    """``/openapi.json`` of an app of its own (an app draws its document once)."""
    made = create_app(database_url)
    try:
        with TestClient(made) as fresh:
            return fresh.get("/openapi.json").text
    finally:
        close_app(made)


def _receipts(document: dict, entry: str) -> list[str]:
    options = document["components"]["schemas"][entry]["properties"]["receipt"]["anyOf"]
    return [option["$ref"] for option in options if "$ref" in option]


def test_the_log_entries_name_a_registered_systems_receipts_while_it_is_registered(database_url):
    before = drawn(database_url)
    assert REF.format("ToyRollReceipt") not in _receipts(json.loads(before), "RollEntry")
    with registered():
        document = json.loads(drawn(database_url))
    schemas = document["components"]["schemas"]
    rolls = _receipts(document, "RollEntry")
    assert rolls[:4] == [REF.format(f"{t}RollReceipt") for t in ("V20", "V5", "Tiers", "RollUnder")]
    assert rolls[4:] == [REF.format("ToyRollReceipt")], rolls
    assert _receipts(document, "AdjustEntry")[4:] == [REF.format("ToyChangeReceipt")]
    # the union it names holds the push's receipt (Toy-2: its request, its ``success_at``)
    members = [member["$ref"].rsplit("/", 1)[1] for member in schemas["ToyRollReceipt"]["oneOf"]]
    kinds = {kind for name in members for kind in schemas[name]["properties"]["kind"].get("enum", [])} | {
        schemas[name]["properties"]["kind"].get("const") for name in members
    }
    assert {"pool", "push"} <= kinds, kinds
    assert drawn(database_url) == before  # nothing registered: the document as it was
