"""rollbook's WoD5e actors against WoD5e's own data models: tests/interop/fixtures/
wod5e53_datamodel.schema.json is what the system's own ``defineSchema()`` (the actor's and the power,
clan, predator type and feature items') accepts, written by foundry_schemas.mjs (the upstream commit
named there) as Foundry 13's fields validate. Each V5 fixture, read by rollbook then exported, gives an
actor whose ``system`` and items' ``system`` have the types those models ask, and no key the models do
not name (Foundry's cleaning would drop it: a value lost on import). docs/import.md."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from rollbook.interop import export_sheet, import_sheet

FIXTURES = Path(__file__).parent / "fixtures"


def strict(schema: object) -> object:
    """The models' schema, a key a SchemaField does not name refused (Foundry would drop it)."""
    schema = copy.deepcopy(schema)
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "properties" in node:
                node["additionalProperties"] = False
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return schema


MODELS = strict(json.loads((FIXTURES / "wod5e53_datamodel.schema.json").read_text(encoding="utf-8")))["$defs"]


def faults(actor: dict) -> list[tuple[str, ...]]:
    """Where the actor departs from WoD5e's data models: (place, message) pairs."""
    found = []
    actor_model = MODELS["actor"].get(actor["type"])
    if actor_model is None:
        return [("type", f"no WoD5e actor model for {actor['type']!r}")]
    for error in jsonschema.Draft202012Validator(actor_model).iter_errors(actor["system"]):
        found.append(("system", *map(str, error.path), error.message))
    for index, item in enumerate(actor.get("items", [])):
        item_model = MODELS["item"].get(item["type"])
        if item_model is None:
            found.append((f"items[{index}].type", f"no item model for {item['type']!r}"))
            continue
        for error in jsonschema.Draft202012Validator(item_model).iter_errors(item["system"]):
            found.append((f"items[{index}].system", *map(str, error.path), error.message))
    return found


def real(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


# every V5 fixture (file, pick): what the players' tools wrote
V5_FILES = [
    ("progeny_test_vampire.json", None),
    ("progeny_test_thinblood.json", None),
    ("progeny_test_vampire.wod5e.json", None),
    ("progeny_test_thinblood.wod5e.json", None),
    ("progeny_test_vampire.inconnu.json", None),
    ("progeny_test_thinblood.inconnu.json", None),
    ("inconnu_guild_export.json", 0),
    ("inconnu_guild_export.json", 1),
    ("inconnu_guild_export.json", 2),
    ("wod5e53_vampire.json", None),
    ("wod5e53_ghoul.json", None),
    ("wod5e53_mortal.json", None),
    ("wod5e53_thinblood.json", None),
]


@pytest.mark.parametrize(("name", "pick"), V5_FILES)
def test_the_wod5e_export_of_each_real_file_fits_wod5es_own_data_models(name, pick):
    exported = export_sheet("v5", import_sheet(real(name), pick=pick).sheet, "wod5e")
    assert faults(exported) == []


@pytest.mark.parametrize(
    "name", [n for n, _ in V5_FILES if n.startswith("wod5e53_") or n.endswith(".wod5e.json")]
)
def test_the_wod5e_fixtures_fit_the_same_models(name):
    assert faults(real(name)) == []


def test_the_models_catch_a_wrong_type_and_a_key_foundry_would_drop():
    exported = export_sheet("v5", import_sheet(real("wod5e53_vampire.json")).sheet, "wod5e")
    exported["system"]["hunger"]["value"] = "2"
    exported["system"]["headers"]["clan"] = "Toreador"  # no such header: Foundry drops it
    power = next(i for i, item in enumerate(exported["items"]) if item["type"] == "power")
    exported["items"][power]["system"]["level"] = True
    places = {found[:-1] for found in faults(exported)}
    assert places == {
        ("system", "hunger", "value"),
        ("system", "headers"),
        (f"items[{power}].system", "level"),
    }
