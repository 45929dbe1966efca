"""The play layer's JSON schemas (play.schema): generated from the play modules' own registries and
models, and honest: every example plays, and what it produces validates against the schema."""

from __future__ import annotations

from typing import Generic, TypeVar

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel, TypeAdapter, create_model
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from rollbook import play
from rollbook.dice import GivenFaces, SeededDice
from rollbook.play import examples, schema
from rollbook.play.common import Recorded

SYSTEMS = play.SYSTEM_IDS
T = TypeVar("T")
COMPONENTS = schema.components()
REGISTRY = Registry().with_resource(
    "urn:rollbook",
    Resource.from_contents({"components": {"schemas": COMPONENTS}}, default_specification=DRAFT202012),
)


def validator(name: str) -> Draft202012Validator:
    """A validator for one component, its references resolved among all the components."""
    return Draft202012Validator({"$ref": f"urn:rollbook#/components/schemas/{name}"}, registry=REGISTRY)


def errors(name: str, value) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(value)]


def union_kinds(name: str) -> set[str]:
    return set(COMPONENTS[name]["discriminator"]["mapping"])


def with_schema_refs(name: str) -> set[str]:
    return {ref["$ref"].rsplit("/", 1)[1] for ref in COMPONENTS[name]["anyOf"]}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_kind_the_play_layer_accepts_is_in_the_schema(system):
    """Read from the system modules' registries: a kind added there appears here by itself."""
    module = play.system_module(system)
    t = schema.title(system)
    assert union_kinds(f"{t}Action") == set(module.ACTIONS)
    assert union_kinds(f"{t}Change") == set(module.CHANGES)
    assert union_kinds(f"{t}RollReceipt") == set(module.ACTIONS)
    assert union_kinds(f"{t}ChangeReceipt") == set(module.CHANGES)
    if module.FOLLOWUPS:
        assert union_kinds(f"{t}Followup") == set(module.FOLLOWUPS)
        assert f"{t}Followup" in with_schema_refs("Followup")
    else:
        assert f"{t}Followup" not in COMPONENTS
    assert f"{t}Action" in with_schema_refs("Action")
    assert f"{t}Change" in with_schema_refs("Change")
    assert f"{t}Sheet" in with_schema_refs("Sheet")
    assert f"{t}NewSheet" in with_schema_refs("NewSheet")
    assert f"{t}SheetPatch" in with_schema_refs("SheetPatch")
    assert {f"{t}RollReceipt", f"{t}ChangeReceipt"} <= with_schema_refs("Receipt")


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_action_kind_says_what_its_receipt_records(system):
    module = play.system_module(system)
    missing = set(module.ACTIONS) - set(module.ROLL_RECORDS)
    assert not missing, f"play/{system}.py: add ROLL_RECORDS entries (common.Recorded) for {sorted(missing)}"
    assert set(module.ROLL_RECORDS) <= set(module.ACTIONS)
    assert set(module.CHANGE_RECORDS) <= set(module.CHANGES)
    for record in module.ROLL_RECORDS.values():
        assert isinstance(record, Recorded) and record.request is not None and record.result is not None


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_schemas_are_the_models_own(system):
    """One definition: each component is the JSON schema Pydantic makes of the play model itself
    (same fields, ranges, enums, defaults and description), not a copy kept by hand."""
    for group in (schema.actions(system), schema.followups(system), schema.changes(system)):
        for model in group.values():
            own = model.model_json_schema(ref_template="#/components/schemas/{model}")
            component = COMPONENTS[schema.component_name(f"{model.__module__}.{model.__qualname__}")]
            assert component.get("description") == own.get("description")
            assert set(component["properties"]) == set(own["properties"])
            for field, spec in own["properties"].items():
                if "$ref" not in str(spec):
                    assert component["properties"][field] == spec, (model, field)
            assert sorted(component.get("required", [])) == sorted(own.get("required", []))
            assert component["additionalProperties"] is False  # extra="forbid"


def test_a_kind_shared_by_two_systems_has_one_schema_per_system():
    assert COMPONENTS["V20TestAction"]["properties"]["ability"]
    assert "skill" in COMPONENTS["V5TestAction"]["properties"]
    assert "ability" not in COMPONENTS["V5TestAction"]["properties"]
    assert COMPONENTS["V20SoakAction"] != COMPONENTS["TiersSoakAction"]
    v20_test = {"kind": "test", "attribute": "dexterity", "ability": "firearms"}
    assert not errors("V20Action", v20_test)
    assert errors("V5Action", v20_test)  # "ability" is not a V5 field
    assert not errors("Action", v20_test)  # anyOf: it is some system's action


def test_ranges_and_enums_come_from_the_models():
    difficulty = COMPONENTS["V20TestAction"]["properties"]["difficulty"]
    assert (difficulty["minimum"], difficulty["maximum"], difficulty["default"]) == (2, 10, 6)  # V20-2
    assert errors("V20Action", {"kind": "test", "attribute": "dexterity", "difficulty": 11})
    assert errors("V20Action", {"kind": "test", "attribute": "luck"})
    assert errors("V20Action", {"kind": "test", "attribute": "dexterity", "faces": [10]})  # unknown field
    assert errors("V5Followup", {"kind": "reroll", "dice": [0, 1, 2, 3]})  # V5-8: at most 3 dice
    assert errors("V20Sheet", {"name": "X", "skills": {"Not A Trait": 1}})  # trait ids only


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_examples_play_and_their_receipts_fit_the_schema(system):
    """Every example of every system: the sheet is accepted, each action rolls, each change applies,
    each follow-up follows; the bodies fit the schema and the receipts they make do too."""
    t = schema.title(system)
    given = examples.EXAMPLES[system]
    assert not errors(f"{t}NewSheet", given.sheet.value)
    assert not errors("NewSheet", {k: v for k, v in given.sheet.value.items() if k != "name"})
    sheet = play.new_sheet(system, given.sheet.value)
    assert not errors(f"{t}Sheet", sheet), errors(f"{t}Sheet", sheet)
    assert not errors("Sheet", sheet)
    first = None
    for key, example in given.actions.items():
        assert not errors(f"{t}Action", example.value), key
        performed = play.perform(
            system, sheet, example.value, mode="strict", role="storyteller", source=SeededDice(key.encode())
        )
        assert not errors(f"{t}RollReceipt", performed.receipt), (
            key,
            errors(f"{t}RollReceipt", performed.receipt),
        )
        assert not errors("Receipt", performed.receipt), key
        assert not errors(f"{t}Sheet", performed.sheet), key
        assert play.verify_receipt(performed.receipt) == []
        first = first or performed
    for key, example in given.followups.items():
        assert not errors(f"{t}Followup", example.value), key
        followed = play.perform_followup(
            system,
            first.sheet,
            first.receipt,
            example.value,
            mode="casual",
            role="storyteller",
            source=GivenFaces([7, 8, 9]),
        )
        assert not errors(f"{t}RollReceipt", followed.receipt), (
            key,
            errors(f"{t}RollReceipt", followed.receipt),
        )
        assert followed.receipt["rerolls"]
    for key, example in given.changes.items():
        assert not errors(f"{t}Change", example.value), key
        base = first.sheet if system == "tiers" else sheet  # Tiers: reload after a shot
        changed = play.adjust(system, base, example.value, role="storyteller")
        assert not errors(f"{t}ChangeReceipt", changed.receipt), (
            key,
            errors(f"{t}ChangeReceipt", changed.receipt),
        )
        assert not errors("Receipt", changed.receipt), key


def test_every_system_has_examples_of_its_common_rolls():
    assert set(examples.EXAMPLES) == set(SYSTEMS)
    for system, given in examples.EXAMPLES.items():
        assert given.actions, system
        kinds = {example.value["kind"] for example in given.actions.values()}
        assert kinds <= set(play.system_module(system).ACTIONS), system
    ids = [key for given in examples.EXAMPLES.values() for key in given.actions]
    assert len(ids) == len(set(ids))


def test_a_sheet_patch_is_partial_and_may_remove_keys():
    assert not errors("V20SheetPatch", {"attributes": {"wits": 3}})
    assert not errors("V20SheetPatch", {"skills": {"firearms": None}, "concept": None})
    assert errors("V20SheetPatch", {"attributes": {"luck": 3}})
    assert errors("V20SheetPatch", {"unknown": 1})
    patched = play.edit_sheet(
        "v20",
        play.new_sheet("v20", examples.EXAMPLES["v20"].sheet.value),
        {"attributes": {"wits": 4}, "concept": None},
        role="storyteller",
    )
    assert not errors("V20Sheet", patched)


def _definitions(*models):
    return schema.definitions(
        [(index, "validation", TypeAdapter(model).core_schema) for index, model in enumerate(models)],
        "#/$defs/{model}",
    )


def test_definitions_are_named_by_component_name_wherever_they_are_referenced():
    """The same class name in two systems: each under its system's name, the shared one under its
    own, and every reference (top level and nested) to those names."""
    shared = create_model("Note", __module__="rollbook.play.common", text=(str, ...))
    v20 = create_model("Probe", __module__="rollbook.systems.v20.play", note=(shared, ...), dice=(int, ...))
    v5 = create_model("Probe", __module__="rollbook.systems.v5.play", note=(shared, ...), hunger=(int, ...))
    refs, defs = _definitions(v20, v5)
    assert sorted(defs) == ["Note", "V20Probe", "V5Probe"]
    assert [refs[(index, "validation")] for index in (0, 1)] == [
        {"$ref": "#/$defs/V20Probe"},
        {"$ref": "#/$defs/V5Probe"},
    ]
    assert defs["V20Probe"]["properties"]["note"] == {"$ref": "#/$defs/Note"}
    assert defs["V5Probe"]["properties"]["note"] == {"$ref": "#/$defs/Note"}
    assert "hunger" in defs["V5Probe"]["properties"] and "dice" in defs["V20Probe"]["properties"]


def test_two_types_with_one_component_name_are_refused():
    """``systems.v20.play.Probe`` and ``systems.v20.sheet.V20Probe`` would both be ``V20Probe``: an error, never one
    schema silently standing for both or renamed."""
    first = create_model("Probe", __module__="rollbook.systems.v20.play", dice=(int, ...))
    second = create_model("V20Probe", __module__="rollbook.systems.v20.sheet", name=(str, ...))
    with pytest.raises(ValueError, match="two types would be named 'V20Probe'"):
        _definitions(first, second)


def test_a_name_pydantic_would_not_give_is_refused():
    """Pydantic gives a generic ``Box[int]`` the name ``Box_int_``; a model of that very name would be
    renamed by it: refused rather than published under another name."""

    class Box(BaseModel, Generic[T]):
        item: T

    Box.__module__ = "rollbook.play.common"
    named = create_model("Box_int_", __module__="rollbook.play.common", other=(str, ...))
    with pytest.raises(ValueError, match="not named as their types.*Box_int_"):
        _definitions(Box[int], named)


def test_component_names_are_unique_and_readable():
    assert schema.component_name("rollbook.systems.v20.play.TestAction:123") == "V20TestAction"
    assert schema.component_name("rollbook.systems.v5.rules.V5Request:9") == "V5Request"
    assert schema.component_name("rollbook.systems.tiers.rules.SoakReceipt:9") == "TiersSoakReceipt"
    assert schema.component_name("rollbook.play.common.Experience:9") == "Experience"
    for name, component in COMPONENTS.items():
        assert component.get("title", name) == name
